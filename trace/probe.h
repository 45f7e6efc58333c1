/* The kernel side of a trace: bpf.c loaded with a run's filters, its
 * sys_conf filled, its programs attached where the attach table says.
 * The tracer and ior -check bring it up the same way, so -check proves
 * what tracing will do. Nothing here prints: warnings go to log/log.h. */
#ifndef IOR_TRACE_PROBE_H
#define IOR_TRACE_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ior_bpf_obj;

#define IOR_PROBE_MAX_ATTACH 26

struct ior_probe_cfg {
	const void *object;   /* bpf.c's ELF object (the binary embeds it) */
	size_t object_size;
	int64_t pid, tid;     /* filters; < 0: none */
	const char *comm;     /* filter; "": none (at most IOR_COMM_LEN - 1 bytes) */
	bool follow;          /* only the processes in the followed set and their
			       * new descendants (run/follow.h); needs the
			       * kernel's BTF */
	/* sel[ior_syscall_index(s)]: the syscalls selected (syscalls/select.h).
	 * Unselected ones the fd table needs are traced too
	 * (ior_syscall_keeps_fds). Those this kernel has no tracepoint for
	 * are cleared, with a warning for the ones named (2). */
	unsigned char *sel;
	bool verbose;         /* a verifier rejection brings the whole log */
	bool empty;           /* the empty program only (bench baseline) */
	bool detached;        /* bench: sys_enter/sys_exit programs loaded, not
			       * attached (iorprogstat floor attaches them) */
	bool no_block;        /* -noblock: block requests are not traced */
};

struct ior_probe {
	struct ior_bpf_obj *obj;
	bool use_btf;         /* the tp_btf programs run (else the raw ones) */
	bool task_offsets;    /* task_struct's layout known: forks tracked */
	bool file_idents;     /* opens carry the file's identity */
	unsigned nattached;   /* selected syscalls with tracepoints */
	unsigned nasync;      /* selected async ops (io_uring, libaio) traced */
	bool empty;           /* cfg->empty */
	bool detached;        /* cfg->detached */
	int flush_fd;         /* bpf.c's ior_flush, or < 0 */
	int tp_fds[IOR_PROBE_MAX_ATTACH]; /* attachments, in attach order */
	unsigned ntp;
	int enter_fd;         /* the sys_enter attachment among them, or -1 */
	int submit_fd;        /* io_uring's submit attachment, or -1 */
	const char *uring_tp; /* io_uring's submit tracepoint when io_uring is
			       * traced, else NULL */
	bool uring_files;     /* io_uring's registered files are named */
	bool uring_failed;    /* requests refused before submission are traced */
	int failed_fd;        /* their attachment (an enter), or -1 */
	bool uring_where;     /* where requests ran (io-wq, poll) is traced */
	bool aio;             /* libaio is traced */
	int aio_submit_fd;    /* io_submit's enter attachment, or -1 */
	bool block;           /* block requests are traced */
	bool blk_start;       /* with block_io_start (6.5+) */
	bool blk_merge;       /* with block_rq_merge */
	int blk_enter_fds[3]; /* the block points that start a request */
	unsigned nblk_enter;
	bool cache;           /* page-cache fills are traced */
};

/* Opens the embedded object, sets the filters and kernel offsets, loads
 * the programs the attach table will use (and no other), fills sys_conf.
 * 0, or -errno with err filled. */
int ior_probe_load(struct ior_probe *p, const struct ior_probe_cfg *cfg, char *err, size_t errlen);
/* Attaches them: exits before enters, so no enter of ours misses its exit. */
int ior_probe_attach(struct ior_probe *p, char *err, size_t errlen);
/* Detaches, enters first so syscalls in progress still deliver their
 * exits; returns the monotonic time right after the enters stopped. */
uint64_t ior_probe_detach(struct ior_probe *p);
/* Detaches and closes everything (also after a failed load: call it
 * whenever load was called); p is zeroed. */
void ior_probe_close(struct ior_probe *p);

/* A counter bpf.c keeps in .bss (0 and err filled when unreadable). */
int ior_probe_counter(const struct ior_probe *p, const char *name, uint64_t *v, char *err,
		      size_t errlen);
/* The names of the programs loaded and to be attached, for -check. */
unsigned ior_probe_programs(const struct ior_probe *p, const char **names, unsigned max);

#endif
