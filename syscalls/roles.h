/* The roles a syscall's table row gives it beyond its arguments: the
 * network extra its exit carries (bpf/event.h, struct ior_exit_net) and a
 * wait's timeout argument (syscalls/rows.h: NET, WAIT). Pure: no kernel. */
#ifndef IOR_SYSCALLS_ROLES_H
#define IOR_SYSCALLS_ROLES_H

#include <stddef.h>
#include <stdint.h>

#include "bpf/event.h"
#include "syscalls/syscalls.h"

/* Sets c's net, net_arg, net_len_arg and net_sk_ret for s, and wait and
 * aux_arg for a wait; clears
 * fold for those that must not be summarized; leaves c alone for other
 * syscalls. */
void ior_roles_conf(const struct ior_syscall *s, struct ior_sys_conf *c);

/* 1 when s's network extra names fds, so the fd table needs it traced:
 * the pair of pipe, pipe2 and socketpair, the endpoint of connect and
 * bind (sendto's peer names one pair only). */
int ior_roles_names_fds(const struct ior_syscall *s);

/* The enum ior_wait_kind of s, its timeout's argument in *arg (arg may be
 * NULL); IOR_WAIT_NONE for a syscall without a timeout. */
unsigned ior_roles_wait(const struct ior_syscall *s, unsigned *arg);
#endif
