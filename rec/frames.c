#include "rec/codec.h"
#include "rec/frames.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FRAME (16u << 20) /* decoded bytes per frame */
#define IN_CHUNK (128u << 10)  /* file bytes read at a time */

int ior_rec_frames_open(struct ior_rec_frames *f, const char *path)
{
	f->in = malloc(IN_CHUNK);
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0 || !f->in)
		return f->in ? -errno : -ENOMEM;
	return 0;
}

void ior_rec_frames_open_mem(struct ior_rec_frames *f, const void *data, size_t len)
{
	f->fd = -1;
	f->mem = data;
	f->mem_len = len;
	f->in = (uint8_t *)data;
	f->in_len = len;
}

int ior_rec_frames_start(struct ior_rec_frames *f)
{
	f->dctx = ZSTD_createDCtx();
	if (!f->dctx)
		return -ENOMEM;
	/* Frames are bounded by MAX_FRAME; a hostile window size must not
	 * make zstd allocate more. */
	if (ZSTD_isError(ZSTD_DCtx_setParameter(f->dctx, ZSTD_d_windowLogMax, 24)))
		return -EINVAL;
	return 0;
}

void ior_rec_frames_close(struct ior_rec_frames *f)
{
	if (f->fd >= 0)
		close(f->fd);
	ZSTD_freeDCtx(f->dctx);
	if (!f->mem)
		free(f->in);
	free(f->frame);
}

static int refill(struct ior_rec_frames *f, char *err, size_t errlen)
{
	if (f->mem) {
		f->eof = true;
		return 0;
	}
	f->in_base += f->in_len;
	f->in_len = f->in_pos = 0;
	for (;;) {
		ssize_t n = read(f->fd, f->in, IN_CHUNK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			set_err(err, errlen, "read failed: %s", strerror(e));
			return -e;
		}
		if (n == 0)
			f->eof = true;
		f->in_len = (size_t)n;
		return 0;
	}
}

/* After a zstd error: a power loss can leave zero-filled blocks at the end
 * of a file; that is a truncation, anything else is corruption. */
static bool rest_is_zero(const struct ior_rec_frames *f, uint64_t from)
{
	if (f->mem) {
		for (size_t i = (size_t)from; i < f->mem_len; i++)
			if (f->mem[i])
				return false;
		return true;
	}
	uint8_t buf[4096];
	for (uint64_t off = from;;) {
		ssize_t n = pread(f->fd, buf, sizeof buf, (off_t)off);
		if (n < 0)
			return false;
		if (n == 0)
			return true;
		for (ssize_t i = 0; i < n; i++)
			if (buf[i])
				return false;
		off += (uint64_t)n;
	}
}

static int grow_frame(struct ior_rec_frames *f, char *err, size_t errlen)
{
	if (f->frame_cap >= MAX_FRAME) {
		set_err(err, errlen, "corrupt: a frame decodes to more than %u MiB (at byte %llu)",
			MAX_FRAME >> 20, (unsigned long long)f->end);
		return -EFBIG;
	}
	size_t cap = f->frame_cap ? f->frame_cap * 2 : 1 << 16;
	uint8_t *p = realloc(f->frame, cap);
	if (!p) {
		set_err(err, errlen, "out of memory");
		return -ENOMEM;
	}
	f->frame = p;
	f->frame_cap = cap;
	return 0;
}

/* Before the first complete frame, undecodable input is no recording. */
static int zstd_failed(const struct ior_rec_frames *f, size_t rc, char *err, size_t errlen)
{
	if (!f->end)
		set_err(err, errlen, "not an ior recording (%s at byte %llu)",
			ZSTD_getErrorName(rc), (unsigned long long)f->end);
	else
		set_err(err, errlen, "corrupt: %s in the frame at byte %llu",
			ZSTD_getErrorName(rc), (unsigned long long)f->end);
	return -EBADMSG;
}

/* 1: call zstd again; 0: the input has ended. Memory input gets one more
 * call after its end (refill marks it ended without emptying in). */
static int more_input(struct ior_rec_frames *f, char *err, size_t errlen)
{
	if (f->in_pos < f->in_len)
		return 1;
	if (f->eof)
		return 0;
	int rc = refill(f, err, errlen);
	return rc ? rc : f->in_len > 0;
}

int ior_rec_frames_next(struct ior_rec_frames *f, char *err, size_t errlen)
{
	f->frame_len = 0;
	for (;;) {
		int rc = more_input(f, err, errlen);
		if (rc < 0)
			return rc;
		if (rc == 0)
			break;
		if (f->frame_len == f->frame_cap && (rc = grow_frame(f, err, errlen)))
			return rc;
		ZSTD_inBuffer in = { f->in, f->in_len, f->in_pos };
		ZSTD_outBuffer out = { f->frame, f->frame_cap, f->frame_len };
		size_t left = ZSTD_decompressStream(f->dctx, &out, &in);
		if (ZSTD_isError(left)) {
			if (rest_is_zero(f, f->end))
				break;
			return zstd_failed(f, left, err, errlen);
		}
		f->in_pos = in.pos;
		f->frame_len = out.pos;
		if (left == 0) {
			f->end = f->in_base + f->in_pos;
			return 1;
		}
	}
	f->frame_len = 0;
	return 0;
}

uint64_t ior_rec_frames_trailing(const struct ior_rec_frames *f)
{
	struct stat st;
	uint64_t size;

	if (f->mem)
		size = f->mem_len;
	else if (fstat(f->fd, &st) || st.st_size < 0)
		return 0;
	else
		size = (uint64_t)st.st_size;
	return size > f->end ? size - f->end : 0;
}
