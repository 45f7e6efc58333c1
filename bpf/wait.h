/* The timeout a wait syscall was given (bpf/event.h, enum
 * ior_wait_kind), read at enter for the syscalls that take it by pointer:
 * select and ppoll write the time left back before they return. */
#ifndef IOR_BPF_WAIT_H
#define IOR_BPF_WAIT_H

#include "bpf/event.h"
#include "bpf/helpers.h"

/* r->aux holds the pointer fill_enter copied: it becomes the timeout in ns. */
INLINE void fill_wait(struct ior_rec_enter *r, const struct ior_sys_conf *c)
{
	__s64 t[2] = { 0, 0 }; /* struct timespec or struct timeval: two longs */
	const void *ptr = (const void *)r->aux;

	if (!ptr) {
		r->aux = (__u64)IOR_WAIT_INFINITE;
		return;
	}
	if (bpf_probe_read_user(t, sizeof t, ptr) || t[0] < 0 || t[1] < 0 || t[0] > 1000000000000LL) {
		r->aux = (__u64)IOR_WAIT_UNREAD;
		return;
	}
	r->aux = (__u64)(t[0] * 1000000000LL + (c->wait == IOR_WAIT_TIMEVAL ? t[1] * 1000 : t[1]));
}

#endif
