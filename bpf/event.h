/* Records the kernel side (bpf.c) writes to the per-CPU perf rings.
 * Shared verbatim by bpf.c (clang -target bpf) and user space, so only
 * fixed-width types from <linux/types.h>, in the byte order of the host
 * that made them (x86_64 and arm64 are both little-endian).
 *
 * Every record starts with struct ior_rec_head. Enters carry the thread's
 * identity and the syscall's interesting arguments; exits carry the return
 * value and, for syscalls that take paths, the path strings read at exit
 * time (the user page is resident by then; at enter it may not be).
 *
 * One perf sample carries one record (per-syscall tracepoint programs) or a
 * batch of them (the raw tracepoint programs the trace command uses): each
 * record starts 8-byte aligned right after the previous one's h.len bytes.
 * A CPU's batch is sent when it might not hold the next record, and when
 * user space runs the flush program on that CPU (BPF_PROG_TEST_RUN). */
#ifndef IOR_BPF_EVENT_H
#define IOR_BPF_EVENT_H

#include <linux/types.h>

#define IOR_PATH_MAX 4096      /* bytes read per path, NUL included: the kernel's PATH_MAX */
#define IOR_COMM_LEN 16
#define IOR_NR_MAX 512         /* syscall numbers below this are tracked */
#define IOR_NAME_CHANGERS_MAX 8 /* bpf.c name_changers[]: rename, link, symlink, ... */
#define IOR_ARG_NONE 0xff      /* struct ior_sys_conf: argument not used */
#define IOR_BATCH_BYTES 20480  /* records sent in one perf sample, at most */
/* A batch is sent once it holds this much. The rest (beyond one record of
 * the largest size) is the reserve a CPU whose ring is full keeps
 * appending to while its batch waits (held): exits of enters already
 * batched, and syscalls never summarized. */
#define IOR_BATCH_FILL 8192
#define IOR_FOLLOW_MAX 16384   /* processes -follow and ior -- CMD trace at once */
/* Async operations take numbers past every syscall's (h.nr, the summary
 * key): an io_uring request is IOR_NR_URING + its opcode, a libaio iocb
 * IOR_NR_AIO + its aio_lio_opcode. Opcodes past the table share its last. */
#define IOR_NR_URING 1024
#define IOR_URING_OPS 128
#define IOR_NR_AIO (IOR_NR_URING + IOR_URING_OPS)
#define IOR_AIO_OPS 16
#define IOR_NR_ASYNC_END (IOR_NR_AIO + IOR_AIO_OPS)
#define IOR_ASYNC_OPS (IOR_NR_ASYNC_END - IOR_NR_URING)

enum ior_rec_kind {
	IOR_REC_ENTER = 1,
	IOR_REC_EXIT = 2,
	IOR_REC_PROC_EXIT = 3, /* a thread group leader exited: pid is gone */
	IOR_REC_THREAD_EXIT = 4, /* a thread exited: tid may be reused */
	IOR_REC_FORK = 5, /* struct ior_rec_fork: the head's thread made a task */
	IOR_REC_EXEC = 6, /* the head's process runs a new image (cloexec fds closed) */
	IOR_REC_STREAK = 7, /* struct ior_rec_streak: the thread's pairs were summarized */
	IOR_REC_ASYNC_SUBMIT = 8, /* struct ior_rec_async_submit: an async op was taken */
	IOR_REC_ASYNC_DONE = 9,   /* struct ior_rec_async_done: it completed */
	IOR_REC_URING_FILES = 10, /* struct ior_rec_uring_files: a ring's registered files changed */
	IOR_REC_BLOCK = 11,       /* struct ior_rec_block: a block request completed */
	IOR_REC_CACHE = 12,       /* struct ior_rec_cache: the head's thread added pages to the page cache */
};

struct ior_rec_head {
	__u64 ts;   /* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
	__u32 pid;  /* thread group id */
	__u32 tid;
	__u16 kind; /* enum ior_rec_kind */
	__u16 nr;   /* syscall number (enter/exit) */
	__u32 len;  /* bytes in this record, head included */
};

/* flags and aux are sent only by syscalls that have them (h.len says):
 * fewer bytes per pair, more pairs per MiB of ring. */
struct ior_rec_enter {
	struct ior_rec_head h;
	__s64 fd;    /* value of the fd argument, -1 when the syscall has none */
	char comm[IOR_COMM_LEN];
	__u64 flags; /* flags argument (openat2: open_how.flags), 0 when none */
	__u64 aux;   /* second interesting argument (dirfd, fcntl cmd, ...) */
};

#define IOR_REC_ENTER_BASE __builtin_offsetof(struct ior_rec_enter, flags)

/* Ends a streak: pairs of the head's thread the kernel folded into the
 * summary map (struct ior_sum_key) because its CPU's ring was full. Sent
 * before the thread's next record, it tells user space what only it can
 * complete: the first pair's gap (first_enter minus the thread's last
 * delivered exit) and where the next gap starts. h.nr is the first pair's
 * syscall. */
struct ior_rec_streak {
	struct ior_rec_head h;
	__u64 first_enter;
	__u64 last_exit; /* exit of the streak's last pair */
	__s32 first_fd;  /* the first pair's summary key: (pid, tid, h.nr, first_fd) */
	__u32 pairs;     /* pairs summarized in the streak */
};

/* An async operation the kernel took (io_uring_submit_req; a libaio
 * iocb at io_submit): h is the submitting thread, h.nr the op's number
 * (IOR_NR_URING + opcode, ...). key matches its completion (the request
 * pointer). fd is the file argument (with IOR_ASYNC_FIXED, an index into
 * the ring's registered files; for an op with two dirfds, the second),
 * -1 when the op has none. An op that takes paths carries its dirfd,
 * flags and paths: path 0 (path_len[0] bytes, no NUL) at path, path 1 at
 * IOR_PATH1_OFF(path_len[0]) after it, as in an exit record; the record
 * is cut after the last. */
struct ior_rec_async_submit {
	struct ior_rec_head h;
	__u64 key;
	__u64 ring;      /* io_uring: the ring (its struct io_ring_ctx), for fixed files */
	__s32 fd;
	__u32 sqe_flags; /* IOR_ASYNC_FIXED, IOR_ASYNC_FORCE, IOR_ASYNC_SQPOLL */
	char comm[IOR_COMM_LEN];
	__u64 flags;     /* open flags of an open op; AT_ or RENAME_ flags of a path op */
	__s32 dirfd;
	/* an io_uring direct descriptor (open, accept, socket, close):
	 * 0 none, else the fixed-file slot + 1, or IOR_URING_SLOT_ALLOC */
	__u32 file_slot;
	__u16 path_len[2];
	__u8 cut;        /* bit i: path i was longer than it arrived */
	__u8 npaths;
	__u16 pad;
	char path[2 * IOR_PATH_MAX];
};

#define IOR_ASYNC_FIXED 1u /* IOSQE_FIXED_FILE: fd is a registered-file index */
#define IOR_ASYNC_FORCE 16u /* IOSQE_ASYNC: punted to io-wq */
/* the SQPOLL thread took it: charged to the thread that set up the ring */
#define IOR_ASYNC_SQPOLL 0x100u
#define IOR_URING_SLOT_ALLOC 0xffffffffu /* IORING_FILE_INDEX_ALLOC: the result is the slot */
#define IOR_REC_ASYNC_SUBMIT_BASE __builtin_offsetof(struct ior_rec_async_submit, path)

/* Its completion, wherever it ran (an io-wq worker, an interrupt, the
 * submitter's task work; for libaio the io_getevents exit that returned
 * its event): h is the submitting thread, h.ts the completion. */
struct ior_rec_async_done {
	struct ior_rec_head h;
	__u64 key;
	__s64 res;
	__u32 more; /* enum ior_async_done */
	__u32 where; /* enum ior_async_where */
};

/* Where an io_uring op ran (ior_rec_async_done.where, the pair's where):
 * io-wq when it was punted to a worker (even after a poll), poll when it
 * waited armed for poll, else inline (in the submitting task, or its
 * completion path). 0 for what is no io_uring op. */
enum ior_async_where {
	IOR_WHERE_NONE = 0,
	IOR_WHERE_INLINE = 1,
	IOR_WHERE_WQ = 2,
	IOR_WHERE_POLL = 3,
};

enum ior_async_done {
	IOR_ASYNC_DONE_LAST = 0,
	/* a multishot request posted this result and stays armed: the next
	 * result is a pair of its own, timed from this one */
	IOR_ASYNC_DONE_MORE = 1,
	/* io_submit refused this iocb (it returned fewer): no pair, no op */
	IOR_ASYNC_DONE_WITHDRAWN = 2,
};

/* A successful io_uring_register that changed a ring's registered
 * files (IORING_REGISTER_FILES, _FILES2, _FILES_UPDATE, _FILES_UPDATE2,
 * UNREGISTER_FILES), read at its exit: fds[i] (nfds of them; -1 empty,
 * -2 left as it was) goes to slot offset + i. Slots past
 * IOR_URING_FILES_MAX per call are counted in unread. */
#define IOR_URING_FILES_MAX 64
struct ior_rec_uring_files {
	struct ior_rec_head h;
	__u64 ring;
	__u32 op;     /* enum ior_uring_files_op */
	__u32 offset;
	__u32 nfds;
	__u32 unread;
	__s32 fds[IOR_URING_FILES_MAX];
};

#define IOR_REC_URING_FILES_BASE __builtin_offsetof(struct ior_rec_uring_files, fds)

enum ior_uring_files_op {
	IOR_URING_FILES_SET = 1,    /* the table is now fds, from slot 0 */
	IOR_URING_FILES_UPDATE = 2, /* fds replace slots from offset */
	IOR_URING_FILES_CLEAR = 3,  /* no registered files */
};

/* An async op in flight (bpf.c async_reqs): request (or iocb) pointer ->
 * who submitted it and when, so the completion, wherever it runs, is
 * charged to the submitter. User space reads what is left at stop. */
struct ior_async_start {
	__u64 pid_tgid;
	__u64 enter_ns;
	__s32 fd;
	__u16 nr;
	__u8 folded; /* no submit record went out: the pair is summarized */
	__u8 went;   /* io_uring: IOR_WENT_* bits, where it went since submission */
	char comm[IOR_COMM_LEN];
};

#define IOR_WENT_WQ 1u   /* io_uring_queue_async_work: punted to an io-wq worker */
#define IOR_WENT_POLL 2u /* io_uring_poll_arm: armed for poll, completed on wake-up */

/* io_uring: the request (a kernel address, pid 0); libaio: the iocb's
 * user address in its process. */
struct ior_async_key {
	__u64 ptr;
	__u32 pid;
	__u32 pad;
};

/* iocbs read per io_submit, events per io_getevents; the rest are
 * counted (bpf.c aio_unread) and not traced. */
#define IOR_AIO_BATCH_MAX 32

/* Per async op (index nr - IOR_NR_URING), filled by user space. */
struct ior_async_conf {
	__u8 traced;
	__u8 fold;         /* may be summarized while the CPU's ring is full */
	__u8 ret_is_bytes;
	__u8 args;         /* enum ior_async_args: where the op's own arguments are */
};

enum ior_async_args {
	IOR_ASYNC_ARGS_FILE,  /* the fd the request's file came from (or none) */
	IOR_ASYNC_ARGS_OPEN,  /* an open: dirfd, flags, path and direct slot */
	IOR_ASYNC_ARGS_CLOSE, /* a close: the fd (or direct slot) it closes */
	IOR_ASYNC_ARGS_STATX, /* dirfd, AT_ flags, path */
	IOR_ASYNC_ARGS_UNLINK, /* dirfd, AT_REMOVEDIR, path */
	IOR_ASYNC_ARGS_MKDIR, /* dirfd, path */
	IOR_ASYNC_ARGS_RENAME, /* olddirfd, old, newdirfd (fd), new, RENAME_ flags */
	IOR_ASYNC_ARGS_LINK,  /* linkat: as a rename, AT_ flags */
	IOR_ASYNC_ARGS_SYMLINK, /* newdirfd, the target (path 0), the link (path 1) */
	IOR_ASYNC_ARGS_ACCEPT, /* the listening fd and a direct slot */
	IOR_ASYNC_ARGS_SOCKET, /* domain (as the dirfd), type (as the flags), a direct slot */
	IOR_ASYNC_ARGS_INSTALL, /* a fixed file installed as an fd: its O_CLOEXEC or 0 */
	IOR_ASYNC_ARGS_N,
};

/* Where an io_uring op's own arguments sit in its request (io_kiocb.cmd
 * plus the member's offset in its struct io_open, io_rename, ...), per
 * enum ior_async_args, set by user space from the kernel's BTF (bpf.c
 * uring_args); on 0 when this kernel's are unknown (the op then carries
 * no path). IOR_UOFF_NONE: the op has no such member. */
#define IOR_UOFF_NONE 0xffffffffu
struct ior_uring_args_off {
	__u32 on;
	__u32 dfd, name, dfd2, name2; /* name, name2: struct filename pointers */
	__u32 flags, flags_size;      /* flags_size 4 or 8 */
	__u32 slot;                   /* a direct descriptor's file_slot */
	__u32 fd;                     /* a close's fd (others: the request's cqe.fd) */
};

/* A block request, sent at its completion (block:block_rq_complete):
 * h.pid/h.tid is the thread that was running when the request was first
 * seen (block_io_start on 6.5+, else block_rq_insert, else
 * block_rq_issue): the submitter; 0 when it was first seen at its
 * completion (started before the trace). h.ts is the completion.
 * start_ns: first seen; insert_ns: queued (0: never inserted); issue_ns:
 * sent to the device (0: never issued, a flush sequence's empty write).
 * dev is the whole disk's (the kernel's major << 20 | minor); bytes are
 * those completed. rwbs as the kernel spells it (blk_fill_rwbs): at the
 * first sighting and at completion (the flush machinery clears PREFLUSH
 * between). */
struct ior_rec_block {
	struct ior_rec_head h;
	__u64 start_ns;
	__u64 insert_ns;
	__u64 issue_ns;
	__u64 sector;
	__u32 dev;
	__u32 bytes;
	__s32 error;
	__u32 pad;
	char rwbs_start[8];
	char rwbs[8];
	char comm[IOR_COMM_LEN]; /* the submitter's */
};

/* filemap:mm_filemap_add_to_page_cache, by a traced thread: a folio of
 * pages (1 << order; 1 on kernels whose record has no order) of the file
 * (dev, ino) at index entered the page cache. */
struct ior_rec_cache {
	struct ior_rec_head h;
	__u64 ino;
	__u64 index;
	__u32 dev;
	__u32 pages;
};

/* A block request in flight (bpf.c "blk_reqs"): the tracepoints carry no
 * request pointer, so one is known by its disk, first sector and
 * operation letter (R, W, D, F, N). */
struct ior_blk_key {
	__u32 dev;
	__u32 op;
	__u64 sector;
};

/* A new process (child_pid == child_tid) or thread (child_pid == h.pid). */
struct ior_rec_fork {
	struct ior_rec_head h;
	__u32 child_pid;
	__u32 child_tid;
	__u32 shares_files; /* 1: one fd table with the parent (CLONE_FILES) */
	__u32 pad;
};

/* path_len[i] counts bytes without the NUL; path 0 starts at paths[0],
 * path 1 8-aligned after path 0's NUL (IOR_PATH1_OFF). The record is cut
 * after the last path, so a short path costs its own bytes only. A path
 * longer than IOR_PATH_MAX - 1 bytes (the kernel refuses those with
 * ENAMETOOLONG) arrives cut there, and says so in cut. */
struct ior_rec_exit {
	struct ior_rec_head h;
	__s64 ret;
	__u16 path_len[2];
	__u8 npaths; /* 0, 1 or 2 */
	__u8 cut;    /* bit i: path i was longer than it arrived */
	__u16 ident; /* 1: a struct ior_file_ident follows path 0 (IOR_IDENT_OFF); IOR_EXIT_NET */
	char paths[2 * IOR_PATH_MAX];
};

/* The file an open returned (ret, a new fd), as the kernel has it:
 * user space names the fd by the path it resolves only when that path
 * still leads to this very file. dev is the kernel's dev_t (major << 20 |
 * minor), not stat's encoding. The leaf name lets a symlink removed right
 * after the open still be resolved (its target's name, found by inode). */
struct ior_file_ident {
	__u64 ino;
	__u32 dev;
	__u16 leaf_len; /* the file's own name (its dentry's) follows, this long */
	__u16 pad;
};

/* A dentry's name: NAME_MAX bytes and the NUL. */
#define IOR_LEAF_MAX 256
/* The largest inline dentry name the kernel side takes in place. */
#define IOR_INAME_MAX 40

/* Offset of the identity in an exit record whose path 0 is len0 bytes:
 * 8-aligned after the path's NUL. */
#define IOR_IDENT_OFF(len0) (__builtin_offsetof(struct ior_rec_exit, paths) + (((len0) + 8) & ~7u))

/* Offset of path 1 in paths[] when path 0 is len0 bytes (at most
 * IOR_PATH_MAX - 1): the identity's place, as only opens carry one and
 * they have one path. */
#define IOR_PATH1_OFF(len0) ((((len0) + 8) & ~7u))

/* ior_rec_exit.ident: npaths is 0 and paths[] holds a struct ior_exit_net. */
#define IOR_EXIT_NET 2
#define IOR_SOCKADDR_MAX 128 /* sizeof(struct sockaddr_storage) */
#define IOR_MMSG_MAX 64      /* mmsghdr entries summed per sendmmsg/recvmmsg */

enum ior_net_kind {
	IOR_NET_NONE,
	IOR_NET_ADDR_IN,  /* connect, bind, sendto: a sockaddr and its length */
	IOR_NET_ADDR_OUT, /* accept, getsockname, recvfrom: a sockaddr and a pointer to its length */
	IOR_NET_FDPAIR,   /* pipe, pipe2, socketpair: int[2] */
	IOR_NET_MMSG,     /* sendmmsg, recvmmsg: struct mmsghdr[ret] */
};

/* What the exit of a network syscall read from its arguments and its
 * socket, sent only when the call succeeded (or connect is in progress)
 * and carried an address, an fd pair or messages. The record is cut after
 * addr_len bytes of addr. sk_*: the socket's own addresses, from the
 * kernel's struct sock_common, when sk_family is AF_INET or AF_INET6
 * (exact: the ephemeral port connect picked is there). */
struct ior_exit_net {
	__u8 kind;      /* enum ior_net_kind */
	__u8 sk_family;
	__u16 addr_len; /* bytes of the caller's sockaddr in addr */
	__u16 sk_lport, sk_rport; /* host order */
	__s32 fds[2];   /* IOR_NET_FDPAIR */
	__u8 sk_laddr[16], sk_raddr[16]; /* IPv4 in the first 4 bytes */
	__u64 ino[2];   /* inodes of fds[], 0 when unknown */
	__u64 bytes;    /* IOR_NET_MMSG: msg_len summed over the first IOR_MMSG_MAX entries */
	__u32 unread;   /* IOR_NET_MMSG: entries past IOR_MMSG_MAX, not summed */
	__u32 pad;
	__u8 addr[IOR_SOCKADDR_MAX];
};

#define IOR_EXIT_NET_BASE __builtin_offsetof(struct ior_exit_net, addr)

#define IOR_REC_EXIT_BASE __builtin_offsetof(struct ior_rec_exit, paths)
/* An exit of a syscall without paths ends after ret. */
#define IOR_REC_EXIT_SHORT __builtin_offsetof(struct ior_rec_exit, path_len)
/* the largest record: an async submission with two paths */
#define IOR_REC_MAX (sizeof(struct ior_rec_async_submit) > sizeof(struct ior_rec_exit) ? \
		     sizeof(struct ior_rec_async_submit) : sizeof(struct ior_rec_exit))

/* A CPU's batch, the value of bpf.c's per-CPU array "batches": records are
 * appended in data (the layout above) and sent as one perf sample. User
 * space reads the map once at stop, after detaching: records a kernel
 * without raw-tracepoint BPF_F_TEST_RUN_ON_CPU (< 5.10) could not flush. */
struct ior_batch {
	__u32 busy; /* a program (or ior_flush) is appending */
	__u32 len;  /* bytes used in data */
	__u32 nrec; /* records in data */
	__u32 held; /* the ring refused it: kept, resent at retry_ns or by ior_flush */
	__u64 retry_ns;
	/* The -comm filter, made cheap (every helper call costs here): the
	 * last enter this CPU recorded (its exit is recorded without looking
	 * at the comm), and the last comm judged with its verdict (all zero
	 * is a valid start: the empty comm never matches). */
	__u32 enter_tid;
	__u32 enter_nr;
	__u32 memo_wanted;
	__u64 memo_comm[IOR_COMM_LEN / 8];
	char data[IOR_BATCH_BYTES];
};

/* Per-syscall argument table, an array map indexed by syscall number and
 * filled by user space before the programs run. Argument indexes 0..5,
 * IOR_ARG_NONE when unused. */
struct ior_sys_conf {
	__u8 traced;     /* 1 when this syscall is wanted */
	__u8 fd_arg;
	__u8 flags_arg;
	__u8 aux_arg;
	__u8 path_arg[2];
	__u8 flags_is_open_how; /* flags_arg points to struct open_how */
	__u8 ret_is_fd;  /* a successful call returns a new fd: its identity is recorded */
	__u8 fold;       /* may be summarized while the CPU's ring is full (no fd table change) */
	__u8 ret_is_bytes; /* a positive return value counts bytes */
	/* A network extra (struct ior_exit_net) its exit carries: enum
	 * ior_net_kind, the argument of the address (or array, or vector) and
	 * of its length (a value for IOR_NET_ADDR_IN, a pointer for _OUT),
	 * and whether the socket to read is the returned fd (accept). */
	__u8 net;
	__u8 net_arg, net_len_arg, net_sk_ret;
	/* enum ior_wait_kind: aux is the timeout argument of a wait */
	__u8 wait;
	__u8 pad[1];
};

/* The timeout argument of poll, select, epoll_wait and the like (aux of
 * the enter). IOR_WAIT_MS: aux is the int argument (ms, < 0 infinite).
 * _TIMESPEC, _TIMEVAL: the enter read the struct aux points to (at enter:
 * select and ppoll write the time left back) and replaced aux by its ns,
 * IOR_WAIT_INFINITE for a NULL pointer, IOR_WAIT_UNREAD when unreadable. */
enum ior_wait_kind {
	IOR_WAIT_NONE,
	IOR_WAIT_MS,
	IOR_WAIT_TIMESPEC,
	IOR_WAIT_TIMEVAL,
};

#define IOR_WAIT_INFINITE (-1LL)
#define IOR_WAIT_UNREAD (-2LL)

/* The summary map (bpf.c "summary"): pairs whose events could not be
 * delivered, folded per thread, syscall and fd. Only the thread itself
 * updates its keys (its syscalls are sequential): no atomics. */
struct ior_sum_key {
	__u32 pid, tid;
	__u32 nr;
	__s32 fd; /* -1: the syscall takes no fd */
};

struct ior_sum_val {
	__u64 pairs;
	__u64 bytes;
	__u64 duration_ns; /* sum of exit - enter */
	__u64 gap_ns;      /* sum of durationToPrevNs, except each streak's first (struct ior_rec_streak) */
	__u64 errors;      /* pairs that returned < 0 */
	__u64 first_enter; /* of the key's first pair */
	__u64 last_exit;   /* of its latest */
	char comm[IOR_COMM_LEN];
};

/* A thread's streak in progress (bpf.c "pending", by tid). */
struct ior_pending {
	__u64 enter_ns;    /* of the open summarized enter */
	__u64 gap_ns;      /* its gap, added when it exits */
	__u64 first_enter;
	__u64 last_exit;   /* 0 until a summarized pair exited */
	__s32 fd, first_fd;
	__u32 pairs;
	__u16 nr, first_nr;
	__u32 open;        /* a summarized enter waits for its exit */
	__u32 pid;
	char comm[IOR_COMM_LEN];
};

#endif
