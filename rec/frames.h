/* A recording's input (rec_read.c): its zstd stream decoded one complete,
 * checksum-verified frame at a time, from a file or from memory. Internal
 * to trace/. Functions returning int: 0 (or 1, "a frame") on success,
 * negative errno on failure. */
#ifndef IOR_REC_FRAMES_H
#define IOR_REC_FRAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <zstd.h>

struct ior_rec_frames {
	int fd;                  /* -1 when reading memory */
	const uint8_t *mem;
	size_t mem_len;
	uint8_t *in;
	size_t in_len, in_pos;
	uint64_t in_base;        /* file offset of in[0] */
	bool eof;
	ZSTD_DCtx *dctx;
	uint8_t *frame;          /* decoded bytes of the current complete frame */
	size_t frame_len, frame_cap;
	uint64_t end;            /* file offset just after the last complete frame */
};

/* f zeroed. Opens path; on failure f can still be closed. */
int ior_rec_frames_open(struct ior_rec_frames *f, const char *path);
/* f zeroed. Reads data[0..len), not copied. */
void ior_rec_frames_open_mem(struct ior_rec_frames *f, const void *data, size_t len);
/* Sets up the decoder: -ENOMEM, or -EINVAL when zstd refuses a setting. */
int ior_rec_frames_start(struct ior_rec_frames *f);
/* Decodes the next complete frame into f->frame. 1: got one; 0: no more
 * complete frames (the input ends, or ends in zero bytes as a power loss
 * leaves them); <0: a read error or corruption, said in err. */
int ior_rec_frames_next(struct ior_rec_frames *f, char *err, size_t errlen);
/* Bytes the input holds after its last complete frame (0 if unknown). */
uint64_t ior_rec_frames_trailing(const struct ior_rec_frames *f);
void ior_rec_frames_close(struct ior_rec_frames *f);

#endif
