/* What the running kernel offers ior, decided once per run in one table:
 * the probe fills it as it loads (trace/probe.c), the host's facts are
 * probed on first use, and ior -check prints it (feature, present or
 * not, what ior does without it). Single-threaded. */
#ifndef IOR_TRACE_FEATURES_H
#define IOR_TRACE_FEATURES_H

#include <stdbool.h>

enum ior_feature_id {
	IOR_FEAT_KERNEL_BTF,  /* /sys/kernel/btf/vmlinux (or $IOR_KERNEL_BTF) */
	IOR_FEAT_TP_BTF,      /* the kernel accepted the tp_btf programs */
	IOR_FEAT_TASK_LAYOUT, /* task_struct's fields found in the kernel's BTF */
	IOR_FEAT_FILE_IDENT,  /* the path from a task to an fd's inode */
	IOR_FEAT_DENTRY_NAME, /* a dentry's inline name (d_shortname, d_iname) */
	IOR_FEAT_FILE_TYPED,  /* bpf_rdonly_cast: a file's fields as plain loads (6.2) */
	IOR_FEAT_SOCK_ADDR,   /* a socket's addresses in struct sock_common */
	IOR_FEAT_TEST_RUN,    /* BPF_PROG_TEST_RUN on a chosen CPU (5.14) */
	IOR_FEAT_PIDFD,       /* pidfd_open (5.3) */
	IOR_FEAT_BLOCK,       /* the block tracepoints, their records understood */
	IOR_FEAT_PAGE_CACHE,  /* filemap:mm_filemap_add_to_page_cache, its record understood */
	IOR_NFEATURES
};

enum ior_feature_state { IOR_FEAT_UNKNOWN, IOR_FEAT_ABSENT, IOR_FEAT_PRESENT };

struct ior_feature {
	const char *name;     /* "kernel BTF" */
	const char *without;  /* what ior does without it */
	enum ior_feature_state state;
	char detail[160];     /* which one, or why not */
};

/* Records what was found; detail may be NULL. */
void ior_feature_set(enum ior_feature_id id, bool present, const char *detail);
/* The row of id; the host's own facts (pidfd) are probed on first ask. */
const struct ior_feature *ior_feature(enum ior_feature_id id);
/* True only when known to be present. */
bool ior_feature_has(enum ior_feature_id id);

#endif
