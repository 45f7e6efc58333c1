/* The object's data, all of it read or written by user space: the license
 * the loader passes to the kernel, the settings it writes into .rodata
 * before load, the counters it reads from .bss, and the maps (their value
 * layouts are in bpf/event.h). */
#ifndef IOR_BPF_MAPS_H
#define IOR_BPF_MAPS_H

#include "bpf/event.h"
#include "bpf/helpers.h"

char LICENSE[] SEC("license") = "GPL";

/* Set by user space before load; .rodata is frozen, so the verifier prunes
 * the filters that are off. */
const volatile __u32 ior_pid = 0;         /* ior itself: never traced */
const volatile __s64 filter_pid = -1;
const volatile __s64 filter_tid = -1;
const volatile __u32 filter_comm_len = 0; /* 0: no comm filter */
const volatile char filter_comm[IOR_COMM_LEN] = {};
/* -follow and ior -- CMD: only the processes in "followed" are traced. */
const volatile __u32 follow_on = 0;
/* The numbers of the syscalls that make a new name for a file (rename,
 * link, symlink, ...: ior_syscall_changes_names), unused slots ~0. */
const volatile __u32 name_changers[IOR_NAME_CHANGERS_MAX] = { [0 ... IOR_NAME_CHANGERS_MAX - 1] = ~0u };
/* Where task_struct keeps pid (the tid), tgid (the pid) and comm on this
 * kernel, from its BTF: the tp_btf programs read them directly. */
const volatile __u32 task_pid_off = 0;
const volatile __u32 task_tgid_off = 0;
const volatile __u32 task_comm_off = 0;
const volatile __u32 task_signal_off = 0;
const volatile __u32 signal_live_off = 0;
/* The way from the task to the file an fd names (trace/kfields.c), for the
 * identity of what an open returned; ident_on when all were found. */
const volatile __u32 ident_on = 0;
const volatile __u32 task_files_off = 0;
const volatile __u32 files_fdt_off = 0;
const volatile __u32 fdt_max_fds_off = 0;
const volatile __u32 fdt_fd_off = 0;
const volatile __u32 file_inode_off = 0;
const volatile __u32 inode_ino_off = 0;
const volatile __u32 inode_sb_off = 0;
const volatile __u32 sb_dev_off = 0;
const volatile __u32 file_path_off = 0;
const volatile __u32 path_dentry_off = 0;
const volatile __u32 dentry_name_off = 0;
const volatile __u32 qstr_name_off = 0;
/* The dentry's inline name (d_shortname, d_iname before 6.14) and its
 * size; 0: unknown, every leaf name takes a read of its own. */
const volatile __u32 dentry_iname_off = 0;
const volatile __u32 dentry_iname_len = 0;
/* struct file's id in the kernel's BTF when bpf_rdonly_cast exists (6.2):
 * the tp_btf programs then read an open's identity with plain loads. */
const volatile __u32 file_btf_id = 0;
/* io_uring (trace/uring.c sets them from the kernel's BTF): where the
 * tracepoints' records keep their fields, where a request keeps its fd
 * (io_kiocb.cqe.fd); uring_on when the tracepoints are understood. */
const volatile __u32 uring_on = 0;
const volatile __u32 uring_s_req_off = 0, uring_s_op_off = 0, uring_s_flags_off = 0;
const volatile __u32 uring_c_req_off = 0, uring_c_res_off = 0, uring_c_cflags_off = 0;
const volatile __u32 uring_fd_off = 0;
const volatile __u32 uring_s_ctx_off = 0;
/* io_uring_queue_async_work and io_uring_poll_arm: where a request went */
const volatile __u32 uring_w_req_off = 0, uring_p_req_off = 0;
/* io_uring_req_failed: a request refused before it was submitted */
const volatile __u32 uring_f_req_off = 0, uring_f_op_off = 0;
/* fixed files: a ring fd's file leads to its ring (file->private_data,
 * with the ident offsets to the file) */
const volatile __u32 uring_files_on = 0;
const volatile __u32 uring_file_ctx_off = 0;
/* Where an op's own arguments sit in its request (bpf/event.h). */
const volatile struct ior_uring_args_off uring_args[IOR_ASYNC_ARGS_N] = {};
const volatile __u32 filename_name_off = 0;
/* SQPOLL: a ring's struct io_sq_data (io_ring_ctx.sq_data) names its
 * poll thread; the leader's comm names the owner (task_struct.group_leader). */
const volatile __u32 uring_sq_on = 0;
const volatile __u32 uring_ctx_sqd_off = 0, uring_sqd_thread_off = 0, task_leader_off = 0;

/* The block tracepoints' records (trace/kfields.c, from the kernel's
 * BTF or tracefs): block_rq_insert/issue and block_io_start share one
 * layout, block_rq_complete has its own. block_on when understood. */
const volatile __u32 block_on = 0;
const volatile __u32 blk_dev_off = 0, blk_sector_off = 0, blk_rwbs_off = 0;
const volatile __u32 blk_c_dev_off = 0, blk_c_sector_off = 0, blk_c_nr_sector_off = 0;
const volatile __u32 blk_c_error_off = 0, blk_c_rwbs_off = 0;
/* No block_io_start (before 6.5): a flush sequence's data-less write is
 * seen only at its completion (bpf/block.h). */
const volatile __u32 blk_no_start = 0;

/* filemap:mm_filemap_add_to_page_cache's record (trace/kfields.c);
 * cache_order_off ~0: no order field (one page per event). */
const volatile __u32 cache_on = 0;
const volatile __u32 cache_ino_off = 0, cache_index_off = 0, cache_dev_off = 0, cache_order_off = ~0u;

/* Counted here because nothing else would tell: path pointers that could
 * not be remembered between enter and exit (path_args full), and records
 * dropped because the CPU's batch was in use by a program this one
 * interrupted. A batch the ring refuses is kept (held_batches below). */
__u64 path_args_full = 0;
/* Successful renames, links and symlinks by any process (filters do not
 * apply): user space trusts a cached canonical name while it is unchanged. */
__u64 names_changed = 0;
__u64 batch_busy_records = 0;
/* When a CPU's ring is full its batch is held, not dropped, and pairs are
 * summarized instead (struct ior_sum_key): held_batches counts holds,
 * resend_refused the resends the ring refused again (each is a "lost
 * sample" in the ring's own count, though nothing was lost),
 * reserve_full the records a held batch had no room for (lost), and
 * summary_full the pairs neither map had room for (lost). pending_n
 * counts "pending" entries: while 0, no program looks there. */
__u64 held_batches = 0;
/* CPUs whose batch is held now: while any is, async submissions fold
 * everywhere (an op submitted in detail on one CPU may complete on a held
 * one, whose reserve is small: a workload hopping CPUs exhausted it) */
__s64 held_now = 0;
__u64 resend_refused = 0;
__u64 reserve_full = 0;
__u64 summary_full = 0;
__u64 pending_n = 0;
/* New processes of followed ones that "followed" had no room for: they
 * and their descendants are not traced. */
__u64 follow_full = 0;
/* Async ops the in-flight map (async_reqs) had no room for: not traced. */
__u64 async_full = 0;
/* libaio iocbs and events past IOR_AIO_BATCH_MAX in one call, or whose
 * call could not be remembered (aio_calls full): not traced. */
__u64 aio_unread = 0;
/* Registered-file slots past IOR_URING_FILES_MAX in one call, and calls
 * that could not be remembered from enter to exit: fixed files unnamed. */
__u64 uring_files_unread = 0;
/* Block requests blk_reqs had no room for (their completions are not
 * attributed: counted in blk_unstarted), and completions of requests
 * never seen starting (begun before the trace, or not remembered). */
__u64 blk_full = 0;
__u64 blk_unstarted = 0;

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
	__uint(max_entries, 1024); /* CPUs; user space stores one ring fd per CPU */
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, IOR_NR_MAX);
	__type(key, __u32);
	__type(value, struct ior_sys_conf);
} sys_conf SEC(".maps");

struct path_ptrs {
	__u64 ptr[2];
};

/* tid -> path arguments saved at enter, read at exit: only the per-syscall
 * tracepoint programs, whose exit context has no arguments. The batching
 * programs read them again at exit from pt_regs, which keeps a syscall's
 * argument registers until it returns: so an exit whose enter came before
 * ior attached still carries its paths (an open blocked across attach). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct path_ptrs);
} path_args SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ior_rec_exit);
} exit_scratch SEC(".maps");

/* A perf sample costs ~290 ns here whatever its size, two per syscall
 * unbatched: most of what tracing cost. So the batching programs build
 * records in place in their CPU's batch and send it when the next record
 * might not fit; user space sends the rest by running ior_flush on each
 * CPU before it reads the rings. busy guards against that ior_flush: it
 * runs in an IPI that can interrupt a program mid-append (batch_claim).
 * The layout, struct ior_batch, is in bpf/event.h: user space reads the
 * map once at stop. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ior_batch);
} batches SEC(".maps");

/* Summaries of pairs the full rings could not take, and the threads with
 * a streak of them in progress (bpf/event.h). Bounded: what does not fit
 * is counted in summary_full. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, struct ior_sum_key);
	__type(value, struct ior_sum_val);
} summary SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, __u32);
	__type(value, struct ior_pending);
} pending SEC(".maps");

/* The followed processes (tgids): user space seeds the root, the fork
 * program adds the children of followed processes before they run, the
 * exit of a process's last thread removes it. Bounded: what does not fit is
 * counted in follow_full. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, IOR_FOLLOW_MAX);
	__type(key, __u32);
	__type(value, __u32);
} followed SEC(".maps");

/* Async ops in flight (bpf/event.h struct ior_async_start), by request.
 * Bounded: what does not fit is counted in async_full. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, struct ior_async_key);
	__type(value, struct ior_async_start);
} async_reqs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, IOR_ASYNC_OPS);
	__type(key, __u32);
	__type(value, struct ior_async_conf);
} async_conf SEC(".maps");

/* The user array an io_submit or io_getevents enter named (iocb
 * pointers, io_events), by tid, for its exit. */
struct aio_call {
	__u64 ptr;
	__u64 n;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct aio_call);
} aio_calls SEC(".maps");

/* io_uring_register's arguments, by tid, from its enter to its exit. */
struct uring_reg {
	__s64 fd;
	__u64 opcode, arg, nr;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, struct uring_reg);
} uring_regs SEC(".maps");

/* Block requests in flight, from their first sighting to their
 * completion (bpf/block.h). Bounded: counted in blk_full. */
struct ior_blk_start {
	__u64 pid_tgid;
	__u64 start_ns, insert_ns, issue_ns;
	char rwbs[8];
	char comm[IOR_COMM_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, struct ior_blk_key);
	__type(value, struct ior_blk_start);
} blk_reqs SEC(".maps");

/* Per device, the latest request waiting for a flush (bpf/block.h). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, struct ior_blk_start);
} blk_flush_owners SEC(".maps");

#endif
