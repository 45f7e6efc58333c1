/* The network extra of an exit (bpf/event.h, struct ior_exit_net): the
 * caller's sockaddr, the socket's own addresses, the fds of a pipe or
 * socketpair, the bytes of sendmmsg/recvmmsg. Read at exit from the
 * arguments pt_regs still holds, only for the syscalls sys_conf marks
 * (net), so every other syscall pays one byte compare. */
#ifndef IOR_BPF_NET_H
#define IOR_BPF_NET_H

#include "bpf/event.h"
#include "bpf/helpers.h"
#include "bpf/maps.h"
#include "bpf/paths.h"
#include "bpf/regs.h"

/* From file to its socket's addresses (trace/kfields.c); sk_on when all
 * were found (and ident_on: the way to the file). */
const volatile __u32 sk_on = 0;
const volatile __u32 file_private_off = 0;
const volatile __u32 socket_sk_off = 0;
const volatile __u32 skc_family_off = 0;
const volatile __u32 skc_num_off = 0;
const volatile __u32 skc_dport_off = 0;
const volatile __u32 skc_rcv_saddr_off = 0;
const volatile __u32 skc_daddr_off = 0;
const volatile __u32 skc_v6_rcv_saddr_off = 0;
const volatile __u32 skc_v6_daddr_off = 0;

#define AF_INET_ 2
#define AF_INET6_ 10
#define EINPROGRESS_ 115

/* current->files->fdt->fd[fd], or 0. */
INLINE __u64 fd_file(__s64 fd)
{
	__u64 fdt = kptr(kptr(bpf_get_current_task(), task_files_off), files_fdt_off);
	__u32 max = 0;

	if (!fdt || bpf_probe_read_kernel(&max, sizeof max, (const void *)(fdt + fdt_max_fds_off)) ||
	    fd < 0 || fd >= max)
		return 0;
	return kptr(kptr(fdt, fdt_fd_off), (__u32)fd * 8);
}

INLINE __u64 fd_ino(__s64 fd)
{
	__u64 ino = 0, inode = kptr(fd_file(fd), file_inode_off);

	if (inode)
		bpf_probe_read_kernel(&ino, sizeof ino, (const void *)(inode + inode_ino_off));
	return ino;
}

/* The local and remote address of the inet socket fd names. The caller
 * knows fd is a socket: the syscall on it succeeded. */
INLINE void sk_read(struct ior_exit_net *n, __s64 fd)
{
	__u64 sk = kptr(kptr(fd_file(fd), file_private_off), socket_sk_off);
	__u16 fam = 0, dport = 0;

	if (!sk || bpf_probe_read_kernel(&fam, sizeof fam, (const void *)(sk + skc_family_off)))
		return;
	if (fam == AF_INET_) {
		bpf_probe_read_kernel(n->sk_laddr, 4, (const void *)(sk + skc_rcv_saddr_off));
		bpf_probe_read_kernel(n->sk_raddr, 4, (const void *)(sk + skc_daddr_off));
	} else if (fam == AF_INET6_) {
		bpf_probe_read_kernel(n->sk_laddr, 16, (const void *)(sk + skc_v6_rcv_saddr_off));
		bpf_probe_read_kernel(n->sk_raddr, 16, (const void *)(sk + skc_v6_daddr_off));
	} else {
		return;
	}
	bpf_probe_read_kernel(&n->sk_lport, sizeof n->sk_lport, (const void *)(sk + skc_num_off));
	bpf_probe_read_kernel(&dport, sizeof dport, (const void *)(sk + skc_dport_off));
	n->sk_rport = __builtin_bswap16(dport);
	n->sk_family = (__u8)fam;
}

/* The caller's sockaddr: up to IOR_SOCKADDR_MAX bytes of it. */
INLINE __u32 addr_read(struct ior_exit_net *n, const struct args *a, const struct ior_sys_conf *c)
{
	__u64 ptr = arg(a, c->net_arg), lp = arg(a, c->net_len_arg);
	__u32 len = 0;

	if (!ptr)
		return 0;
	if (c->net == IOR_NET_ADDR_IN)
		len = (__u32)lp;
	else if (!lp || bpf_probe_read_user(&len, sizeof len, (const void *)lp))
		return 0;
	if (len > IOR_SOCKADDR_MAX)
		len = IOR_SOCKADDR_MAX;
	if (!len || bpf_probe_read_user(n->addr, len, (const void *)ptr))
		return 0;
	n->addr_len = (__u16)len;
	return len;
}

INLINE int fdpair_read(struct ior_exit_net *n, const struct args *a, const struct ior_sys_conf *c)
{
	if (bpf_probe_read_user(n->fds, sizeof n->fds, (const void *)arg(a, c->net_arg)))
		return -1;
	if (ident_on) {
		n->ino[0] = fd_ino(n->fds[0]);
		n->ino[1] = fd_ino(n->fds[1]);
	}
	return 0;
}

/* msg_len of each struct mmsghdr (64 bytes, msg_len at 56) the call
 * filled: ret of them. */
INLINE void mmsg_read(struct ior_exit_net *n, const struct args *a, const struct ior_sys_conf *c,
		      __s64 ret)
{
	__u64 vec = arg(a, c->net_arg);
	__u32 i;

	for (i = 0; i < IOR_MMSG_MAX && i < ret; i++) {
		__u32 len = 0;
		if (bpf_probe_read_user(&len, sizeof len, (const void *)(vec + i * 64 + 56)))
			break;
		n->bytes += len;
	}
	n->unread = (__u32)(ret - i);
}

/* Appends the extra to an exit record of len bytes (one without paths);
 * returns the record's new length. */
INLINE __u32 fill_net(struct ior_rec_exit *r, __u32 len, const struct args *a,
		      const struct ior_sys_conf *c, __s64 ret)
{
	struct ior_exit_net *n = (struct ior_exit_net *)r->paths;
	__u32 alen = 0;

	if ((ret < 0 && ret != -EINPROGRESS_) || r->npaths)
		return len;
	if ((c->net == IOR_NET_ADDR_IN || c->net == IOR_NET_ADDR_OUT) && !arg(a, c->net_arg) &&
	    !c->net_sk_ret)
		return len; /* send, recv: no address, nothing to name */
	__builtin_memset(n, 0, IOR_EXIT_NET_BASE);
	n->kind = c->net;
	if (c->net == IOR_NET_ADDR_IN || c->net == IOR_NET_ADDR_OUT) {
		alen = addr_read(n, a, c);
		if (sk_on)
			sk_read(n, c->net_sk_ret ? ret : (__s64)(__s32)arg(a, c->fd_arg));
	} else if (c->net == IOR_NET_FDPAIR) {
		if (ret != 0 || fdpair_read(n, a, c))
			return len;
	} else if (c->net == IOR_NET_MMSG) {
		mmsg_read(n, a, c, ret);
	} else {
		return len;
	}
	r->ident = IOR_EXIT_NET;
	r->h.len = IOR_REC_EXIT_BASE + IOR_EXIT_NET_BASE + (alen & 0xff);
	return r->h.len;
}

#endif
