/* workload: deterministic syscall scenarios for ior's integration tests.
 *
 * usage: workload SCENARIO [ARGS...]
 *
 * Every scenario does its setup, writes one line "ready[ TID...]\n" to
 * stdout and then waits for SIGUSR1 in sigsuspend(), so a test can start
 * `ior -pid PID`, wait for ior's "tracing" line and release it with
 * `kill -USR1 PID`. Waiting costs no traced syscall (rt_sigsuspend, futex
 * and clock_nanosleep are not in ior's set). After the release a scenario
 * makes exactly the traced syscalls listed below and ends with _exit()
 * (exit_group is not traced). Opens go through syscall(2) directly so the
 * flags the kernel sees are exactly the ones written here (musl's openat()
 * would add O_LARGEFILE). Threads are created before the release (their
 * stacks cost an mmap, which ior traces) and wait on a pthread barrier.
 *
 * Traced syscalls after the release, per scenario (validated with strace -f):
 *
 * basic DIR N (1 <= N <= 1000), all on the main thread:
 *   openat   DIR/data O_RDWR|O_CREAT 0644 -> 3        1
 *   write    3, 65536 bytes -> 65536; 3, 1000 -> 1000  2  (66536 bytes)
 *   pread64  3, 100 bytes at offset 10*i -> 100        N  (100*N bytes)
 *   lseek    3, 0, SEEK_SET -> 0                       1
 *   read     3, 64 bytes -> 64                         N  (64*N bytes)
 *   lseek    3, 0, SEEK_END -> 66536                   1
 *   read     3, 64 bytes at EOF -> 0                   1
 *   fsync    3 -> 0                                    1
 *   newfstat 3 -> 0                                    1
 *   close    3 -> 0                                    1
 *   rename   DIR/data -> DIR/data2                     1
 *   newfstatat AT_FDCWD DIR/data2 -> 0                 1
 *   unlink   DIR/data2 -> 0                            1
 *   openat   DIR/other O_WRONLY|O_CREAT|O_CLOEXEC 0600 -> 3  1
 *   close    3 -> 0                                    1
 *   renameat2 AT_FDCWD DIR/other -> AT_FDCWD DIR/other2, 0  1
 *   unlinkat AT_FDCWD DIR/other2, 0 -> 0               1
 *   totals: openat 2, write 2, pread64 N, lseek 2, read N+1, fsync 1,
 *   newfstat 1, close 2, rename 1, newfstatat 1, unlink 1, renameat2 1,
 *   unlinkat 1 = 2N + 16 pairs.
 *
 * preopen FILE M: FILE opened O_RDONLY (fd 3) before the release.
 *   read 3, 1 byte -> 1 (FILE needs >= M bytes)         M
 *   close 3                                             1
 *
 * dup FILE: FILE needs >= 5 bytes (the copies share one offset).
 *   openat FILE O_RDONLY -> 3                           1
 *   dup 3 -> 4                                          1
 *   dup2 3, 100 -> 100                                  1
 *   dup3 3, 150, O_CLOEXEC -> 150                       1
 *   fcntl 3, F_DUPFD, 200 -> 200                        1
 *   read 1 byte on 4, 100, 150, 200 -> 1 each          4
 *   close 3 -> 0                                        1
 *   read 1 byte on 100 -> 1 (the original fd is gone)   1
 *   close 4, 100, 150, 200                              4
 *   totals: openat 1, dup 1, dup2 1, dup3 1, fcntl 1, read 5, close 5 = 15.
 *
 * sleepgap FILE: FILE needs >= 2 bytes.
 *   openat FILE O_RDONLY -> 3; read 3, 1 -> 1; (sleep 100 ms);
 *   read 3, 1 -> 1 (durationToPrevNs >= 100 ms); close 3.  = 4 pairs.
 *
 * pipeblock: pipe (read end 3, write end 4) made and a helper thread
 *   started before the release.
 *   main:   read pipe, 1 byte -> 1, blocks ~60 ms      1
 *           close read end, close write end            2
 *   helper: (sleep 60 ms) write pipe, 1 byte -> 1      1
 *
 * threads FILE: 4 threads started before the release; FILE (>= 1 byte) is
 *   opened O_RDONLY (fd 3) before the release. The ready line lists the
 *   thread ids in order (sleeps 20, 40, 60, 80 ms).
 *   thread i (sleep s = 20*(i+1) ms): pread64 3, 1, 0 -> 1; sleep s;
 *           pread64; sleep s; pread64                  3 per thread
 *   main:   close 3, after joining the threads        1
 *   totals: pread64 12 (3 per tid), close 1 = 13 pairs.
 *
 * loop FILE N: FILE (>= 1 byte, best on tmpfs) opened O_RDONLY (fd 3)
 *   before the release.
 *   pread64 3, 1, 0 -> 1                               N
 *   close 3                                            1
 *
 * fiforead FIFO: FIFO (a named pipe) opened O_RDWR (fd 3, never blocks)
 *   before the release; nobody else writes unless the test does.
 *   read 3, 1 byte -> 1: blocks until the test writes a byte  1
 *   close 3                                                     1
 *
 * hostile DIR: a path made of names CSV, HTML and SVG must escape. A name
 *   cannot hold '/', so the slashes of the markup are directory separators:
 *   D1 = DIR/evil,"quoted"<NL>line<e-acute><0xff><   (é as UTF-8 c3 a9, then
 *        a byte that is not UTF-8)
 *   D2 = D1/text><script>alert(1)<
 *   F  = D2/script>  = DIR/evil,"quoted"<NL>line..</text><script>alert(1)</script>
 *   mkdir D1 0755, mkdir D2 0755 -> 0                   2
 *   openat F O_WRONLY|O_CREAT|O_TRUNC 0644 -> 3         1
 *   write 3, "hello\n" -> 6                             1
 *   close 3                                             1
 *   openat F O_RDONLY -> 3                              1
 *   read 3, 64 -> 6                                     1
 *   close 3                                             1
 *   unlink F -> 0                                       1
 *   rmdir D2, rmdir D1 -> 0                             2
 *   totals: mkdir 2, openat 2, write 1, read 1, close 2, unlink 1,
 *   rmdir 2 = 11 pairs.
 *
 * opath FILE DIR N (1 <= N <= 1000): O_PATH descriptors (musl's O_ACCMODE
 *   holds the O_PATH bit: a table indexed by it crashed ior).
 *   openat FILE O_PATH -> 3; close 3                     N each
 *   openat DIR O_PATH|O_DIRECTORY|O_CLOEXEC -> 3         1
 *   newfstatat 3, "", AT_EMPTY_PATH -> 0                 1
 *   close 3                                              1
 *   totals: openat N+1, close N+1, newfstatat 1 = 2N + 3 pairs.
 *
 * fds 0-2 must be open and no other: the first open must return 3.
 *
 * Exit status 0 on success; on any unexpected result it prints one line
 * on stderr (a traced write) and exits 111.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define FAILED 111
#define NTHREADS 4

static volatile sig_atomic_t released;

static void on_release(int sig)
{
	(void)sig;
	released = 1;
}

static _Noreturn void die(const char *what, const char *detail)
{
	char msg[512];
	int n = snprintf(msg, sizeof msg, "workload: %s%s%s\n", what,
			 detail ? ": " : "", detail ? detail : "");
	if (n > 0 && write(2, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1) < 0)
		_exit(FAILED);
	_exit(FAILED);
}

/* Fails the run unless a syscall returned exactly what the scenario needs. */
static long expect(long got, long want, const char *what)
{
	if (got != want) {
		char detail[96];
		snprintf(detail, sizeof detail, "returned %ld, wanted %ld (%s)", got, want,
			 got < 0 ? strerror(errno) : "short");
		die(what, detail);
	}
	return got;
}

static long sys_openat(const char *path, long flags, long mode)
{
	return syscall(SYS_openat, AT_FDCWD, path, flags, mode);
}

static void sleep_ms(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&t, &t) != 0)
		;
}

/* Blocks SIGUSR1 first thing, so threads inherit the mask and a release
 * sent early stays pending until wait_for_release(). */
static void block_release_signal(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_release;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, 0) != 0)
		die("sigaction SIGUSR1", strerror(errno));
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	if (sigprocmask(SIG_BLOCK, &set, 0) != 0)
		die("sigprocmask", strerror(errno));
}

/* Says "ready" (and extra, e.g. thread ids) and sleeps until SIGUSR1.
 * The write happens before ior attaches, so it is not traced. */
static void wait_for_release(const char *extra)
{
	char line[256];
	int n = snprintf(line, sizeof line, "ready%s\n", extra ? extra : "");
	if (n < 0 || (size_t)n >= sizeof line || write(1, line, (size_t)n) != n)
		die("write ready line", strerror(errno));
	sigset_t none;
	sigemptyset(&none);
	while (!released)
		sigsuspend(&none);
}

static long parse_count(const char *s, long max, const char *what)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (*s == 0 || *end != 0 || v < 1 || v > max)
		die("bad count", what);
	return v;
}

static void join_path(char *out, size_t len, const char *dir, const char *name)
{
	int n = snprintf(out, len, "%s/%s", dir, name);
	if (n < 0 || (size_t)n >= len)
		die("path too long", dir);
}

static int basic(const char *dir, long n)
{
	static char buf[65536];
	char data[512], data2[512], other[512], other2[512];
	struct stat st;
	join_path(data, sizeof data, dir, "data");
	join_path(data2, sizeof data2, dir, "data2");
	join_path(other, sizeof other, dir, "other");
	join_path(other2, sizeof other2, dir, "other2");
	memset(buf, 'x', sizeof buf);
	wait_for_release(0);

	int fd = (int)expect(sys_openat(data, O_RDWR | O_CREAT, 0644), 3, "openat data");
	expect(write(fd, buf, 65536), 65536, "write 65536");
	expect(write(fd, buf, 1000), 1000, "write 1000");
	for (long i = 0; i < n; i++)
		expect(pread(fd, buf, 100, 10 * i), 100, "pread64 100");
	expect(lseek(fd, 0, SEEK_SET), 0, "lseek SEEK_SET");
	for (long i = 0; i < n; i++)
		expect(read(fd, buf, 64), 64, "read 64");
	expect(lseek(fd, 0, SEEK_END), 66536, "lseek SEEK_END");
	expect(read(fd, buf, 64), 0, "read at EOF");
	expect(fsync(fd), 0, "fsync");
	expect(syscall(SYS_fstat, fd, &st), 0, "fstat");
	expect(close(fd), 0, "close data");
	expect(syscall(SYS_rename, data, data2), 0, "rename");
	expect(syscall(SYS_newfstatat, AT_FDCWD, data2, &st, 0), 0, "newfstatat data2");
	expect(syscall(SYS_unlink, data2), 0, "unlink data2");

	fd = (int)expect(sys_openat(other, O_WRONLY | O_CREAT | O_CLOEXEC, 0600), 3, "openat other");
	expect(close(fd), 0, "close other");
	expect(syscall(SYS_renameat2, AT_FDCWD, other, AT_FDCWD, other2, 0), 0, "renameat2");
	expect(syscall(SYS_unlinkat, AT_FDCWD, other2, 0), 0, "unlinkat other2");
	return 0;
}

static int preopen(const char *file, long m)
{
	char c;
	int fd = (int)expect(sys_openat(file, O_RDONLY, 0), 3, "openat before release");
	wait_for_release(0);
	for (long i = 0; i < m; i++)
		expect(read(fd, &c, 1), 1, "read 1");
	expect(close(fd), 0, "close");
	return 0;
}

static int dup_scenario(const char *file)
{
	static const int copies[] = { 4, 100, 150, 200 };
	char c;
	wait_for_release(0);
	int fd = (int)expect(sys_openat(file, O_RDONLY, 0), 3, "openat");
	expect(syscall(SYS_dup, fd), 4, "dup");
	expect(syscall(SYS_dup2, fd, 100), 100, "dup2");
	expect(syscall(SYS_dup3, fd, 150, O_CLOEXEC), 150, "dup3");
	expect(syscall(SYS_fcntl, fd, F_DUPFD, 200), 200, "fcntl F_DUPFD");
	for (int i = 0; i < 4; i++)
		expect(read(copies[i], &c, 1), 1, "read on a copy");
	expect(close(fd), 0, "close original");
	expect(read(100, &c, 1), 1, "read on 100 after closing 3");
	for (int i = 0; i < 4; i++)
		expect(close(copies[i]), 0, "close a copy");
	return 0;
}

static int sleepgap(const char *file)
{
	char c;
	wait_for_release(0);
	int fd = (int)expect(sys_openat(file, O_RDONLY, 0), 3, "openat");
	expect(read(fd, &c, 1), 1, "read before the sleep");
	sleep_ms(100);
	expect(read(fd, &c, 1), 1, "read after the sleep");
	expect(close(fd), 0, "close");
	return 0;
}

static pthread_barrier_t start_line;
static int pipe_fds[2];

static void *pipe_writer(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&start_line);
	sleep_ms(60);
	expect(write(pipe_fds[1], "x", 1), 1, "write pipe");
	return 0;
}

static int pipeblock(void)
{
	pthread_t t;
	char c;
	if (pipe(pipe_fds) != 0)
		die("pipe", strerror(errno));
	if (pthread_barrier_init(&start_line, 0, 2) != 0)
		die("pthread_barrier_init", 0);
	if (pthread_create(&t, 0, pipe_writer, 0) != 0)
		die("pthread_create", 0);
	wait_for_release(0);
	pthread_barrier_wait(&start_line);
	expect(read(pipe_fds[0], &c, 1), 1, "read pipe");
	if (pthread_join(t, 0) != 0)
		die("pthread_join", 0);
	expect(close(pipe_fds[0]), 0, "close read end");
	expect(close(pipe_fds[1]), 0, "close write end");
	return 0;
}

struct sleeper {
	pthread_t thread;
	long sleep_ms;
	pid_t tid;
	int fd;
};

static pthread_barrier_t counted; /* all threads know their tid */

static void *sleeper_main(void *arg)
{
	struct sleeper *s = arg;
	char c;
	s->tid = (pid_t)syscall(SYS_gettid);
	pthread_barrier_wait(&counted);
	pthread_barrier_wait(&start_line);
	expect(pread(s->fd, &c, 1, 0), 1, "pread64 first");
	sleep_ms(s->sleep_ms);
	expect(pread(s->fd, &c, 1, 0), 1, "pread64 second");
	sleep_ms(s->sleep_ms);
	expect(pread(s->fd, &c, 1, 0), 1, "pread64 third");
	return 0;
}

static int threads(const char *file)
{
	struct sleeper s[NTHREADS];
	char tids[128] = "";
	int fd = (int)expect(sys_openat(file, O_RDONLY, 0), 3, "openat before release");
	if (pthread_barrier_init(&counted, 0, NTHREADS + 1) != 0 ||
	    pthread_barrier_init(&start_line, 0, NTHREADS + 1) != 0)
		die("pthread_barrier_init", 0);
	for (int i = 0; i < NTHREADS; i++) {
		s[i].sleep_ms = 20L * (i + 1);
		s[i].fd = fd;
		if (pthread_create(&s[i].thread, 0, sleeper_main, &s[i]) != 0)
			die("pthread_create", 0);
	}
	pthread_barrier_wait(&counted);
	for (int i = 0; i < NTHREADS; i++) {
		size_t used = strlen(tids);
		snprintf(tids + used, sizeof tids - used, " %d", (int)s[i].tid);
	}
	wait_for_release(tids);
	pthread_barrier_wait(&start_line);
	for (int i = 0; i < NTHREADS; i++)
		if (pthread_join(s[i].thread, 0) != 0)
			die("pthread_join", 0);
	expect(close(fd), 0, "close");
	return 0;
}

static int loop(const char *file, long n)
{
	char c;
	int fd = (int)expect(sys_openat(file, O_RDONLY, 0), 3, "openat before release");
	wait_for_release(0);
	for (long i = 0; i < n; i++)
		if (pread(fd, &c, 1, 0) != 1)
			die("pread64 in loop", strerror(errno));
	expect(close(fd), 0, "close");
	return 0;
}

static int fiforead(const char *fifo)
{
	char c;
	int fd = (int)expect(sys_openat(fifo, O_RDWR, 0), 3, "openat fifo before release");
	wait_for_release(0);
	expect(read(fd, &c, 1), 1, "read fifo");
	expect(close(fd), 0, "close fifo");
	return 0;
}

static int hostile(const char *dir)
{
	char d1[512], d2[600], f[700], buf[64];
	join_path(d1, sizeof d1, dir, "evil,\"quoted\"\nline\xc3\xa9\xff<");
	join_path(d2, sizeof d2, d1, "text><script>alert(1)<");
	join_path(f, sizeof f, d2, "script>");
	wait_for_release(0);
	expect(syscall(SYS_mkdir, d1, 0755), 0, "mkdir hostile dir 1");
	expect(syscall(SYS_mkdir, d2, 0755), 0, "mkdir hostile dir 2");
	int fd = (int)expect(sys_openat(f, O_WRONLY | O_CREAT | O_TRUNC, 0644), 3, "openat hostile for writing");
	expect(write(fd, "hello\n", 6), 6, "write hostile");
	expect(close(fd), 0, "close hostile");
	fd = (int)expect(sys_openat(f, O_RDONLY, 0), 3, "openat hostile for reading");
	expect(read(fd, buf, sizeof buf), 6, "read hostile");
	expect(close(fd), 0, "close hostile");
	expect(syscall(SYS_unlink, f), 0, "unlink hostile");
	expect(syscall(SYS_rmdir, d2), 0, "rmdir hostile dir 2");
	expect(syscall(SYS_rmdir, d1), 0, "rmdir hostile dir 1");
	return 0;
}

static int opath(const char *file, const char *dir, long n)
{
	struct stat st;
	wait_for_release(0);
	for (long i = 0; i < n; i++) {
		expect(sys_openat(file, O_PATH, 0), 3, "openat O_PATH");
		expect(close(3), 0, "close O_PATH");
	}
	expect(sys_openat(dir, O_PATH | O_DIRECTORY | O_CLOEXEC, 0), 3, "openat O_PATH dir");
	expect(syscall(SYS_newfstatat, 3, "", &st, AT_EMPTY_PATH), 0, "newfstatat O_PATH dir");
	expect(close(3), 0, "close O_PATH dir");
	return 0;
}

static _Noreturn void usage(void)
{
	static const char text[] =
		"usage: workload basic DIR N | preopen FILE M | dup FILE | sleepgap FILE |\n"
		"       pipeblock | threads FILE | loop FILE N | fiforead FIFO | hostile DIR |\n"
		"       opath FILE DIR N\n"
		"Each scenario prints \"ready\" and waits for SIGUSR1 (see tests/workload.c).\n";
	if (write(2, text, sizeof text - 1) < 0)
		_exit(2);
	_exit(2);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		usage();
	const char *sc = argv[1];
	int rc;
	block_release_signal();
	if (!strcmp(sc, "basic") && argc == 4)
		rc = basic(argv[2], parse_count(argv[3], 1000, "basic N"));
	else if (!strcmp(sc, "preopen") && argc == 4)
		rc = preopen(argv[2], parse_count(argv[3], 1000000, "preopen M"));
	else if (!strcmp(sc, "dup") && argc == 3)
		rc = dup_scenario(argv[2]);
	else if (!strcmp(sc, "sleepgap") && argc == 3)
		rc = sleepgap(argv[2]);
	else if (!strcmp(sc, "pipeblock") && argc == 2)
		rc = pipeblock();
	else if (!strcmp(sc, "threads") && argc == 3)
		rc = threads(argv[2]);
	else if (!strcmp(sc, "loop") && argc == 4)
		rc = loop(argv[2], parse_count(argv[3], 100000000, "loop N"));
	else if (!strcmp(sc, "fiforead") && argc == 3)
		rc = fiforead(argv[2]);
	else if (!strcmp(sc, "hostile") && argc == 3)
		rc = hostile(argv[2]);
	else if (!strcmp(sc, "opath") && argc == 5)
		rc = opath(argv[2], argv[3], parse_count(argv[4], 1000, "opath N"));
	else
		usage();
	_exit(rc);
}
