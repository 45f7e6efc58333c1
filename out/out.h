/* Private output files. What ior writes names every traced user's files,
 * commands and endpoints, so each file is:
 *   - created under PATH.tmp with O_CREAT|O_EXCL|O_NOFOLLOW (a link or file
 *     planted there is removed, never followed or written through);
 *   - mode 0600 whatever the umask (fchmod after the create);
 *   - owned by the sudo user when ior runs as root with SUDO_UID/SUDO_GID
 *     set (so `ior -ior=FILE` works for that user without root);
 *   - renamed over PATH: an existing file (or link) is replaced, not
 *     written through, and a reader never sees half a file unless the
 *     writer publishes early on purpose (recordings, readable up to their
 *     last frame after a crash).
 * Stands alone: knows nothing of what is written. Functions return 0 or a
 * negative errno and fill err with one line naming the file. Not
 * thread-safe per struct ior_out; distinct ones are independent. */
#ifndef IOR_OUT_H
#define IOR_OUT_H

#include <stdio.h>
#include <sys/types.h>

#define IOR_OUT_TMP_SUFFIX ".tmp"
#define IOR_OUT_MODE 0600

enum ior_out_flags {
	IOR_OUT_REPLACE = 0,   /* publishing replaces an existing PATH */
	IOR_OUT_NO_REPLACE = 1 /* publishing fails with EEXIST instead */
};

struct ior_out {
	int fd;      /* open for writing; -1 once closed or handed to a FILE */
	int flags;   /* enum ior_out_flags */
	char *path;  /* the final name */
	char *tmp;   /* PATH.tmp while not published, then NULL */
};

/* Creates PATH.tmp as described above and fills o (o->fd open O_WRONLY).
 * -EEXIST when PATH is there and neither a regular file nor a link (a
 * device or FIFO is never replaced). On failure o holds nothing to
 * release. */
int ior_out_create(struct ior_out *o, const char *path, int flags, char *err, size_t errlen);

/* Renames PATH.tmp to PATH; the fd (if still open) keeps writing to it.
 * A second call does nothing. */
int ior_out_publish(struct ior_out *o, char *err, size_t errlen);

/* A stdio stream on o->fd (o->fd becomes -1: fclose closes it), or NULL
 * with errno set. */
FILE *ior_out_stream(struct ior_out *o);

/* Flushes (fdatasync), closes the fd if still open and publishes; on any
 * failure the temporary file is removed. Always releases o. */
int ior_out_close(struct ior_out *o, char *err, size_t errlen);

/* Closes the fd if still open, removes PATH.tmp if not published, frees
 * o's strings. Safe on a zeroed o with fd -1, and twice. */
void ior_out_abort(struct ior_out *o);

/* Removes the PATH.tmp files in dir that writers killed before they
 * finished left, of the names mine accepts (name without the suffix, len
 * bytes): regular files owned by the user ior gives its files to, that no
 * live writer holds (ior_out_create locks them), unchanged for 2 s. The
 * number removed, or a negative errno with err filled. */
int ior_out_sweep(const char *dir, int (*mine)(const char *name, size_t len), char *err, size_t errlen);

/* Whole file at once: create, write len bytes, close and publish. */
int ior_out_write_file(const char *path, int flags, const void *data, size_t len, char *err,
		       size_t errlen);

/* Whom files go to: SUDO_UID/SUDO_GID when running as root and they are
 * set, else (uid_t)-1 / (gid_t)-1 (left as created). -EINVAL with err
 * filled when one is set but not a number. */
int ior_out_owner(uid_t *uid, gid_t *gid, char *err, size_t errlen);

#endif
