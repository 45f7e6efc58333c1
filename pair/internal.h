/* The pairer's state, shared by pair.c (pairing, summaries, counts) and
 * file.c (naming a pair's files and keeping the fd table). */
#ifndef IOR_PAIR_INTERNAL_H
#define IOR_PAIR_INTERNAL_H

#include "bpf/event.h"
#include "pair/pair.h"
#include "syscalls/syscalls.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>

/* The kernel's values (its ABI) that only the linux/ headers name, which the
 * musl build does not see. */
#define CLOSE_RANGE_CLOEXEC_ (1u << 2)
#define RENAME_EXCHANGE_ 2u

struct tid_st {
	uint32_t tid, pid;
	uint8_t used, open, has_prev;
	uint16_t nr;
	uint64_t enter_ts, last_exit;
	int64_t fd;
	uint64_t flags, aux;
	uint64_t cache_pages; /* page-cache pages the open syscall added */
	uint64_t comm_id;     /* the pair's comm_id: new whenever comm changes */
	char comm[IOR_COMM_LEN];
};

/* An async op between its submission and completion (pair/async.c). */
struct async_op {
	uint64_t key;
	uint64_t ring;
	uint64_t enter_ts;
	uint32_t pid, tid;
	uint16_t nr;
	uint8_t used;
	int32_t fd;
	uint32_t sqe_flags;
	uint64_t flags;
	int32_t dirfd;
	uint32_t file_slot; /* a direct descriptor's (bpf/event.h), 0 none */
	char comm[IOR_COMM_LEN];
	char *path[2]; /* the op's paths, owned; NULL when none */
};

/* A ring's registered files: slot -> path (owned; NULL empty) and its
 * file's open flags (IOR_FLAGS_UNKNOWN when not known), which an fd the
 * slot is installed as (uring:fixed_fd_install) takes. */
struct uring_files {
	uint32_t pid;
	uint64_t ring;
	uint32_t n;
	char **slot;
	int64_t *flags;
};

/* A pair's block requests while it is open (pair/block.c): its device
 * time as disjoint [s, e) intervals, sorted. */
struct blk_iv {
	uint64_t s, e;
};


struct blk_acc {
	uint32_t tid;
	uint32_t reqs;
	uint64_t enter_ts; /* of the pair */
	uint64_t bytes;
	uint32_t dev;      /* of its last request */
	struct blk_iv *iv;
	uint32_t n, cap;
};

struct ior_pairer {
	struct ior_pair_cfg cfg;
	struct tid_st *tids;
	uint32_t mask, count;
	uint64_t enters_stopped; /* 0: still recording */
	uint64_t comm_ids;       /* the last comm_id given */
	const struct ior_fdtab_last *fd_last; /* NULL without an fd table */
	struct ior_pair_stats st;
	/* per-pair scratch: the single consumer owns them */
	struct ior_file_ident ident; /* of the exit being paired, when has_ident */
	int has_ident;
	char leaf[IOR_LEAF_MAX + 1];
	struct ior_exit_net net; /* of the exit being paired, when has_net */
	int has_net;
	const struct ior_syscall *mmsg[2]; /* sendmmsg, recvmmsg (ior_pair_net_init) */
	const struct ior_syscall *wait_sys[8]; /* the waits (pair/net.h) */
	unsigned char wait_kind[8];
	unsigned nwaits;
	struct async_op *ops; /* NULL until the first submission */
	uint32_t ops_mask, nops;
	struct uring_files *rings; /* few: a process has a ring or two */
	uint32_t nrings;
	struct blk_acc *acc; /* open pairs with block requests: few */
	uint32_t nacc, acc_cap;
	char raw[2][IOR_PATH_MAX];
	char path[2][IOR_FD_PATH_MAX];
};

/* struct ior_rec_exit without the path bytes (copied separately). */
struct exit_base {
	struct ior_rec_head h;
	int64_t ret;
	uint16_t path_len[2];
	uint8_t npaths, cut;
	uint16_t ident;
};

const char *ior_pair_exit_path(struct ior_pairer *p, const struct exit_base *x, const char *rec,
			       size_t len, int i);
void ior_pair_read_ident(struct ior_pairer *p, const struct exit_base *x, const char *rec, size_t len);
/* Fills e's fd, flags, path and path2 from the fd table and the exit's paths. */
void ior_pair_name_files(struct ior_pairer *p, const struct ior_syscall *s, const struct tid_st *t,
			 struct ior_event_pair *e, const char *raw0, const char *raw1);
/* What the pair did to the fd table (close, close_range, rename), once delivered. */
void ior_pair_update_fds(struct ior_pairer *p, const struct ior_syscall *s, const struct tid_st *t,
			 const struct ior_event_pair *e);
/* Finds the syscalls ior_pair_name_net() handles without an extra
 * (mmsg, waits), once per pairer. */
void ior_pair_net_init(struct ior_pairer *p);
/* Names what connect, bind, accept, pipe, socketpair ... made, from the
 * exit's network extra (has_net); sendmmsg and recvmmsg get their bytes,
 * waits their timeout. After ior_pair_name_files(). */
void ior_pair_name_net(struct ior_pairer *p, const struct ior_syscall *s, const struct tid_st *t,
		       struct ior_event_pair *e);
/* Delivers a named pair (visible, filters, counts, sink) and applies
 * what it did to the fd table; chain: it is a syscall in its thread's
 * gap chain (t->last_exit moves to ts), not an async op. */
void ior_pair_deliver(struct ior_pairer *p, const struct ior_syscall *s, struct tid_st *t,
		      struct ior_event_pair *e, uint64_t ts, int chain);

/* pair/async.c: the records of async ops, the ops in flight. */
void ior_pair_async_submit(struct ior_pairer *p, const char *rec, size_t len);
void ior_pair_async_done(struct ior_pairer *p, const char *rec, size_t len);
void ior_pair_async_free(struct ior_pairer *p);
/* pair/async.c: a ring's registered files changed; a process ended. */
void ior_pair_uring_files(struct ior_pairer *p, const char *rec, size_t len);
void ior_pair_async_proc_exit(struct ior_pairer *p, uint32_t pid);
uint64_t ior_pair_async_in_flight(const struct ior_pairer *p);
void ior_pair_async_close_gone(struct ior_pairer *p, int (*alive)(void *ctx, uint32_t pid, uint32_t tid),
			       void *ctx);
/* Up to max ops in flight into out (unordered); returns how many. */
size_t ior_pair_async_list(const struct ior_pairer *p, struct ior_in_flight *out, size_t max);
/* pair/block.c: a completed block request; what the pair of t (being
 * delivered) was charged; the state, freed. */
void ior_pair_block(struct ior_pairer *p, const char *rec, size_t len);
void ior_pair_block_exit(struct ior_pairer *p, const struct tid_st *t, struct ior_event_pair *e);
void ior_pair_block_free(struct ior_pairer *p);
void ior_pair_block_forget(struct ior_pairer *p, uint32_t tid);
void ior_pair_cache(struct ior_pairer *p, const char *rec, size_t len);
/* pair/pair.c: the state of tid, or NULL. */
struct tid_st *tid_lookup(struct ior_pairer *p, uint32_t tid);
void ior_pair_learn_unpaired_open(struct ior_pairer *p, const struct exit_base *x, const char *rec,
				  size_t len);

#endif
