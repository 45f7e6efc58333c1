/* The kernel struct fields bpf.c's tp_btf programs read directly, at the
 * offsets the running kernel's BTF gives (set as .rodata before load). */
#ifndef IOR_TRACE_KFIELDS_H
#define IOR_TRACE_KFIELDS_H

#include <stddef.h>

struct ior_bpf_obj;

/* Sets every offset in obj (before load). 1 when all were found; else 0
 * and why says what is missing: the tp_btf programs must not be used. */
int ior_kfields_set(struct ior_bpf_obj *obj, char *why, size_t whylen);
/* The offsets to an fd's inode (bpf/event.h, struct ior_file_ident);
 * 1 when all were found and set, else 0 (opens then carry no identity). */
int ior_kfields_set_ident(struct ior_bpf_obj *obj, char *why, size_t whylen);
/* The offsets from a file to its socket's addresses (struct
 * ior_exit_net's sk_*); 1 when all were found and set, else 0. */
int ior_kfields_set_sk(struct ior_bpf_obj *obj, char *why, size_t whylen);
/* io_uring's tracepoint records and request layout (bpf/uring.h);
 * *submit_tp: the submit tracepoint's name on this kernel. 1 when every
 * offset was found and set, else 0 with why (io_uring is not traced). */
int ior_kfields_set_uring(struct ior_bpf_obj *obj, const char **submit_tp, char *why, size_t whylen);
/* A ring fd's file to its ring, for registered files (needs the ident
 * offsets set: ior_kfields_set_ident). 1 when set, else 0 with why. */
int ior_kfields_set_uring_files(struct ior_bpf_obj *obj, char *why, size_t whylen);
/* io_uring_queue_async_work's and io_uring_poll_arm's records (where a
 * request ran); 1 when set, else 0. */
int ior_kfields_set_uring_where(struct ior_bpf_obj *obj, char *why, size_t whylen);
/* io_uring_req_failed's record (Linux 5.17+); 1 when set, else 0. */
int ior_kfields_set_uring_failed(struct ior_bpf_obj *obj, char *why, size_t whylen);
/* The block tracepoints' records (bpf/block.h): from the kernel's BTF,
 * else from tracefs' format files. 1 when every offset was found and
 * set, else 0 with why (block requests are not traced). */
int ior_kfields_set_block(struct ior_bpf_obj *obj, char *why, size_t whylen);
/* filemap:mm_filemap_add_to_page_cache's record (bpf/block.h's
 * cache_add), from BTF or tracefs; 1 when set, else 0 with why. */
int ior_kfields_set_cache(struct ior_bpf_obj *obj, char *why, size_t whylen);

#endif
