/* The current task: its ids and comm, read the way the program's family
 * can (enum src), and whether the run's filters want it. */
#ifndef IOR_BPF_TASK_H
#define IOR_BPF_TASK_H

#include "bpf/event.h"
#include "bpf/helpers.h"
#include "bpf/maps.h"
#include "bpf/regs.h"

/* pid_tgid of the current thread. tp_btf programs read it (and later the
 * comm) from the task, which they keep in *task. */
INLINE __u64 current_pid_tgid(int src, const char **task)
{
	const char *t;

	if (src != SRC_BTF)
		return bpf_get_current_pid_tgid();
	t = (const char *)bpf_get_current_task_btf();
	*task = t;
	return (__u64)*(const __u32 *)(t + task_tgid_off) << 32 | *(const __u32 *)(t + task_pid_off);
}

INLINE void current_comm(int src, const char *task, __u64 *comm)
{
	if (src != SRC_BTF) {
		bpf_get_current_comm(comm, IOR_COMM_LEN);
		return;
	}
	comm[0] = *(const __u64 *)(task + task_comm_off);
	comm[1] = *(const __u64 *)(task + task_comm_off + 8);
}

/* Never ior itself; then the followed set (follow_on) and the pid and tid
 * filters (negative: off). */
INLINE int pid_wanted(__u64 pid_tgid)
{
	__u32 pid = pid_tgid >> 32, tid = (__u32)pid_tgid;

	if (pid == ior_pid)
		return 0;
	if (follow_on && !bpf_map_lookup_elem(&followed, &pid))
		return 0;
	if (filter_pid >= 0 && pid != (__u32)filter_pid)
		return 0;
	if (filter_tid >= 0 && tid != (__u32)filter_tid)
		return 0;
	return 1;
}

/* Substring match of filter_comm in comm (both at most 16 bytes). */
INLINE int comm_wanted(const char *comm)
{
	__u32 n = filter_comm_len;

	if (!n)
		return 1;
	for (__u32 start = 0; start + n <= IOR_COMM_LEN; start++) {
		__u32 i = 0;
		for (; i < n && i < IOR_COMM_LEN; i++) {
			if (start + i >= IOR_COMM_LEN || comm[start + i] != filter_comm[i])
				break;
		}
		if (i == n)
			return 1;
	}
	return 0;
}

/* comm_wanted, remembered for the last comm seen on this CPU (a batch
 * field: written only while the batch is claimed). */
INLINE int comm_wanted_memo(struct ior_batch *b, const __u64 *comm)
{
	int w;

	if (!filter_comm_len)
		return 1;
	if (comm[0] == b->memo_comm[0] && comm[1] == b->memo_comm[1])
		return b->memo_wanted;
	w = comm_wanted((const char *)comm);
	b->memo_comm[0] = comm[0];
	b->memo_comm[1] = comm[1];
	b->memo_wanted = w;
	return w;
}

#endif
