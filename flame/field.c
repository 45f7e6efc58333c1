/* The -fields table (see field.h). Frames, bottom up, per field:
 *   comm        the command name ("?" when empty)
 *   path        one frame per path component; an absolute path starts with
 *               a "/" frame (/etc/hosts -> "/", "etc", "hosts"), a relative
 *               one does not; no file -> "(no path)"; only the first path
 *               of rename/link counts
 *   tracepoint  the syscall name (openat)
 *   pid, tid    "pid 123", "tid 124"
 *   flags       open flags "O_RDONLY|O_CLOEXEC", "(flags unknown)"
 *   family      the syscall's family (FS, Network, Polling, ...)
 *   host        the recording's host, "(unknown host)" live: recordings
 *               of several hosts (ior collapsed A B) side by side
 *   timeout     a wait's timeout: "timeout 50ms", "timeout never" (it may
 *               wait for ever), "(no timeout)" for other syscalls */
#include "field.h"
#include "flame.h"
#include "pair/devname.h"
#include "syscalls/open_flags.h"
#include "text/escape.h"
#include "rec/rec.h"
#include "syscalls/syscalls.h"

#include <stdio.h>
#include <string.h>

static int frame_str(struct ior_flame_frames *out, const char *s)
{
	return ior_flame_frame(out, s, strlen(s));
}

static const char *comm_text(const struct ior_event_pair *p)
{
	return p->comm;
}

static uint32_t comm_id(const struct ior_rec_ids *ids)
{
	return ids->comm;
}

static uint64_t comm_live_id(const struct ior_event_pair *p)
{
	return p->comm_id;
}

static int comm_frames(struct ior_flame_frames *out, const char *s, uint64_t v)
{
	(void)v;
	return frame_str(out, *s ? s : "?");
}

static const char *path_text(const struct ior_event_pair *p)
{
	return p->path;
}

static uint32_t path_id(const struct ior_rec_ids *ids)
{
	return ids->path;
}

static uint64_t path_live_id(const struct ior_event_pair *p)
{
	return p->path_id;
}

static int path_frames(struct ior_flame_frames *out, const char *path, uint64_t v)
{
	(void)v;
	if (!*path)
		return frame_str(out, "(no path)");
	int rc = 0;
	if (*path == '/')
		rc = frame_str(out, "/");
	for (const char *p = path; !rc && *p;) {
		p += strspn(p, "/");
		size_t n = strcspn(p, "/");
		if (n)
			rc = ior_flame_frame(out, p, n);
		p += n;
	}
	return rc;
}

static uint64_t sys_number(const struct ior_event_pair *p)
{
	return p->sys;
}

static int tracepoint_frames(struct ior_flame_frames *out, const char *s, uint64_t sys)
{
	(void)s;
	return frame_str(out, ior_sys((unsigned)sys)->name);
}

static uint64_t pid_number(const struct ior_event_pair *p)
{
	return p->pid;
}

/* "pid 42", "tid 43" */
static int numbered_frame(struct ior_flame_frames *out, const char *what, uint64_t n)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%s %u", what, (unsigned)n);
	return frame_str(out, buf);
}

static int pid_frames(struct ior_flame_frames *out, const char *s, uint64_t pid)
{
	(void)s;
	return numbered_frame(out, "pid", pid);
}

static uint64_t tid_number(const struct ior_event_pair *p)
{
	return p->tid;
}

static int tid_frames(struct ior_flame_frames *out, const char *s, uint64_t tid)
{
	(void)s;
	return numbered_frame(out, "tid", tid);
}

static uint64_t flags_number(const struct ior_event_pair *p)
{
	return (uint64_t)p->flags;
}

static int flags_frames(struct ior_flame_frames *out, const char *s, uint64_t flags)
{
	char buf[256];
	(void)s;
	if ((int64_t)flags == IOR_FLAGS_UNKNOWN)
		return frame_str(out, "(flags unknown)");
	ior_open_flags_str(buf, sizeof buf, (long long)flags);
	return frame_str(out, buf);
}

/* Derived from the syscall, so recordings carry it without a field. */
static uint64_t family_number(const struct ior_event_pair *p)
{
	return ior_sys(p->sys)->family;
}

static int family_frames(struct ior_flame_frames *out, const char *s, uint64_t family)
{
	const char *name = ior_family_name((unsigned)family);
	(void)s;
	return frame_str(out, family < IOR_NFAMILIES && name ? name : "?");
}

/* 0: no timeout, 1: for ever, else ns + 2 */
static uint64_t timeout_number(const struct ior_event_pair *p)
{
	if (!p->has_timeout)
		return 0;
	return p->timeout_ns < 0 ? 1 : (uint64_t)p->timeout_ns + 2;
}

/* "timeout 50ms", "timeout 1500us", "timeout 0", "timeout never" */
static int timeout_frames(struct ior_flame_frames *out, const char *s, uint64_t v)
{
	char buf[48];
	unsigned long long ns = v - 2;
	(void)s;
	if (v < 2)
		return frame_str(out, v ? "timeout never" : "(no timeout)");
	if (ns && ns % 1000000 == 0)
		snprintf(buf, sizeof buf, "timeout %llums", ns / 1000000);
	else if (ns && ns % 1000 == 0)
		snprintf(buf, sizeof buf, "timeout %lluus", ns / 1000);
	else
		snprintf(buf, sizeof buf, "timeout %lluns", ns);
	return frame_str(out, ns ? buf : "timeout 0");
}

static uint64_t where_number(const struct ior_event_pair *p)
{
	return p->where;
}

/* "where io-wq", ...; "(not io_uring)" for syscalls, libaio and summaries */
static int where_frames(struct ior_flame_frames *out, const char *s, uint64_t v)
{
	char buf[32];
	const char *name = v <= UINT8_MAX ? ior_pair_where_name((uint8_t)v) : NULL;
	(void)s;
	if (!name)
		return frame_str(out, "(not io_uring)");
	snprintf(buf, sizeof buf, "where %s", name);
	return frame_str(out, buf);
}

/* per_source: the aggregation keys host itself; these only mark it text */
static const char *host_text(const struct ior_event_pair *p)
{
	(void)p;
	return "";
}

static uint32_t host_id(const struct ior_rec_ids *ids)
{
	(void)ids;
	return 0;
}

static int host_frames(struct ior_flame_frames *out, const char *s, uint64_t v)
{
	(void)v;
	return frame_str(out, *s ? s : "(unknown host)");
}

/* device: the disk its requests went to, named as this host names it
 * (pair/devname.h); 0: none. */
static uint64_t device_number(const struct ior_event_pair *p)
{
	return p->blk_dev;
}

static int device_frames(struct ior_flame_frames *out, const char *s, uint64_t dev)
{
	char name[64];
	(void)s;
	return frame_str(out, dev ? ior_devname((uint32_t)dev, name, sizeof name) : "(no device)");
}

/* cache: a read's page-cache outcome (event_pair.h); other pairs have none */
static uint64_t cache_number(const struct ior_event_pair *p)
{
	const struct ior_syscall *s = ior_sys(p->sys);
	return ior_pair_cache_kind(p, s && s->cls == IOR_SC_READ);
}

static int cache_frames(struct ior_flame_frames *out, const char *s, uint64_t kind)
{
	static const char *const names[] = { "(not a read)", "cache hit", "cache partial", "cache miss" };
	(void)s;
	return frame_str(out, kind < 4 ? names[kind] : "?");
}

const struct ior_flame_field ior_flame_fields[] = {
	{ "comm", .text = comm_text, .text_id = comm_id, .live_id = comm_live_id, .frames = comm_frames },
	{ "path", .text = path_text, .text_id = path_id, .live_id = path_live_id, .frames = path_frames },
	{ "tracepoint", .number = sys_number, .frames = tracepoint_frames },
	{ "pid", .number = pid_number, .frames = pid_frames },
	{ "tid", .number = tid_number, .frames = tid_frames },
	{ "flags", .number = flags_number, .frames = flags_frames },
	{ "family", .number = family_number, .frames = family_frames },
	{ "host", .text = host_text, .text_id = host_id, .frames = host_frames, .per_source = true },
	{ "timeout", .number = timeout_number, .frames = timeout_frames },
	{ "device", .number = device_number, .frames = device_frames },
	{ "cache", .number = cache_number, .frames = cache_frames },
	{ "where", .number = where_number, .frames = where_frames },
};
const unsigned ior_flame_nfields = sizeof ior_flame_fields / sizeof *ior_flame_fields;

_Static_assert(sizeof ior_flame_fields / sizeof *ior_flame_fields <= IOR_FLAME_MAX_FIELDS,
	       "a spec can name every field: raise IOR_FLAME_MAX_FIELDS (flame/flame.h)");
