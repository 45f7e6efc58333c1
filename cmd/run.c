/* The target of a trace: CMD, -pid/-tid, -follow. See run.h. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/run.h"
#include "text/escape.h"

#define COUNT_NS 200000000ull /* the followed set is counted this often */
#define MAX_DESCENDANTS 4096

static int usage(const char *msg)
{
	fprintf(stderr, "ior: %s (see ior -help)\n", msg);
	return 2;
}

static int exists(int64_t id, const char *flag, const char *what)
{
	char p[64];

	snprintf(p, sizeof p, "/proc/%lld", (long long)id);
	if (id > 0 && id <= INT_MAX && !access(p, F_OK))
		return 0;
	fprintf(stderr, "ior: %s %lld: no such %s\n", flag, (long long)id, what);
	return 1;
}

int run_check(const struct ior_opts *o)
{
	if (o->command && (o->pid >= 0 || o->tid >= 0))
		return usage("-- CMD traces the command it starts: drop -pid and -tid");
	if (o->command && o->tui)
		return usage("-- CMD shares the terminal with the command: drop -tui (the summary is printed at the end)");
	if (o->user[0] && !o->command)
		return usage("-u says who runs the command after --: give one");
	if (o->follow && o->tid >= 0)
		return usage("-follow follows a process: use -pid, not -tid");
	if (o->follow && o->pid < 0 && !o->command)
		return usage("-follow follows the process -pid names: give -pid");
	if (o->pid >= 0 && exists(o->pid, "-pid", "process"))
		return 1;
	if (o->tid >= 0 && exists(o->tid, "-tid", "thread"))
		return 1;
	return 0;
}

int run_start(struct run_target *r, const struct ior_opts *o, bool keep)
{
	struct ior_cred c;

	memset(r, 0, sizeof *r);
	r->o = o;
	r->keep = keep;
	r->watch.pidfd = -1;
	r->follow = o->command || o->follow;
	if (!o->command) {
		r->root = o->pid >= 0 ? (uint32_t)o->pid : (uint32_t)o->tid;
		if ((r->watching = !o->follow && (o->pid >= 0 || o->tid >= 0)))
			ior_watch_open(&r->watch, r->root, o->pid < 0);
		return 0;
	}
	if (ior_launch_cred(&c, o->user, "/etc", r->err, sizeof r->err) < 0 ||
	    ior_launch_start(&r->launch, o->command, &c, r->err, sizeof r->err) < 0) {
		fprintf(stderr, "ior: %s\n", r->err);
		return 1;
	}
	r->launched = true;
	r->root = (uint32_t)r->launch.pid;
	return 0;
}

int run_seed(struct run_target *r, struct ior_session *s)
{
	r->session = s;
	if (!r->follow)
		return 0;
	if (ior_follow_add(ior_session_probe(s), r->root, r->err, sizeof r->err) < 0) {
		fprintf(stderr, "ior: %s\n", r->err);
		return 1;
	}
	return 0;
}

/* The fork program runs by now: a child made from here on is added by
 * it, one made before is found in /proc. */
int64_t run_attached(struct run_target *r, struct ior_session *s)
{
	static uint32_t kids[MAX_DESCENDANTS];

	if (!r->follow)
		return r->o->pid;
	if (r->launched)
		return r->root;
	r->descendants = ior_follow_descendants(r->root, kids, MAX_DESCENDANTS);
	for (size_t i = 0; i < r->descendants; i++)
		if (ior_follow_add(ior_session_probe(s), kids[i], r->err, sizeof r->err) < 0)
			fprintf(stderr, "ior: warning: %s; it is not traced\n", r->err);
	if (r->descendants == MAX_DESCENDANTS)
		fprintf(stderr, "ior: warning: pid %u has more than %d descendants; those past them are not traced\n",
			r->root, MAX_DESCENDANTS);
	/* their descriptors: every process's, rather than one snapshot each */
	return r->descendants ? -1 : (int64_t)r->root;
}

int run_release(struct run_target *r)
{
	if (!r->launched || ior_launch_release(&r->launch, r->err, sizeof r->err) == 0)
		return 0;
	r->launched = false; /* CMD never ran: its status is not ior's */
	fprintf(stderr, "ior: %s\n", r->err);
	return 1;
}

/* CMD as the user typed it, whole (a long path is what tells it apart),
 * escaped: it is shown on a terminal. */
static const char *cmd_name(const struct run_target *r)
{
	static char buf[4 * PATH_MAX + 1];
	const char *c = r->o->command[0];
	size_t n = strnlen(c, PATH_MAX);

	buf[ior_escape_all(buf, sizeof buf - 1, c, n, IOR_ESCAPE_AUTO)] = 0;
	return buf;
}

static void say_exit(const struct run_target *r, const char *then)
{
	int st = r->launch.status;

	if (WIFSIGNALED(st))
		fprintf(stderr, "ior: %s (pid %u) was killed by signal %d (%s)%s\n", cmd_name(r), r->root,
			WTERMSIG(st), strsignal(WTERMSIG(st)), then);
	else
		fprintf(stderr, "ior: %s (pid %u) exited with status %d%s\n", cmd_name(r), r->root,
			ior_launch_exit_code(st), then);
}

/* Whether the target is gone, said in one line ending with then. */
static bool gone(struct run_target *r, uint64_t now, const char *then)
{
	if (r->launched) {
		if (!ior_launch_wait(&r->launch, 0))
			return false;
		say_exit(r, then);
		return true;
	}
	if (r->watching && ior_watch_ended(&r->watch)) {
		fprintf(stderr, "ior: %s %u exited%s\n", r->o->pid >= 0 ? "pid" : "tid", r->root, then);
		return true;
	}
	if (!r->follow || now < r->next_count_ns)
		return false;
	r->next_count_ns = now + COUNT_NS;
	if (ior_follow_count(ior_session_probe(r->session)))
		return false;
	fprintf(stderr, "ior: pid %u and its descendants exited%s\n", r->root, then);
	return true;
}

/* What a person watches (-live, the text reports) goes on: they stop it. */
bool run_ended(struct run_target *r, uint64_t now)
{
	if (r->said || !gone(r, now, r->keep ? "; going on until Ctrl-C or -duration" : "; stopping"))
		return false;
	r->said = true;
	return !r->keep;
}

bool run_forward(struct run_target *r, volatile sig_atomic_t *sig, bool from_tty)
{
	if (!r->launched || r->launch.pid <= 0 || r->forwarded)
		return false;
	if (!from_tty)
		kill(r->launch.pid, *sig);
	r->forwarded = true;
	*sig = 0;
	return true;
}

int run_finish(struct run_target *r, int rc, volatile sig_atomic_t *sig, volatile sig_atomic_t *from_tty)
{
	int code;

	if (!r->launched)
		return rc;
	if (r->launch.pid > 0)
		fprintf(stderr, "ior: tracing stopped; waiting for %s (pid %u) to exit\n", cmd_name(r), r->root);
	while (!ior_launch_wait(&r->launch, 1)) {
		if (*sig && !*from_tty)
			kill(r->launch.pid, *sig);
		*sig = 0;
	}
	code = ior_launch_exit_code(r->launch.status);
	return code ? code : rc;
}

void run_abort(struct run_target *r)
{
	if (r->launched)
		ior_launch_abort(&r->launch);
	ior_watch_close(&r->watch);
}

const char *run_title(const struct ior_opts *o)
{
	static char title[256];
	int n = snprintf(title, sizeof title, "live");

	if (o->pid >= 0)
		n += snprintf(title + n, sizeof title - (size_t)n, " -pid %lld%s", (long long)o->pid,
			      o->follow ? " -follow" : "");
	if (o->tid >= 0)
		n += snprintf(title + n, sizeof title - (size_t)n, " -tid %lld", (long long)o->tid);
	if (o->comm[0] && n < (int)sizeof title)
		n += snprintf(title + n, sizeof title - (size_t)n, " -comm %s", o->comm);
	if (o->path[0] && n < (int)sizeof title)
		snprintf(title + n, sizeof title - (size_t)n, " -path %s", o->path);
	return title;
}
