/* iorbench: a syscall workload generator for scripts/bench.sh.
 *
 *   iorbench MODE [-n ITERS | -t SECONDS] [-threads N] [-rate R] [-wait] [-mark] [-dir DIR]
 *            [-blocks PATH]
 *
 * Modes (syscalls issued through syscall(2) so the
 * count is exact whatever the libc does):
 *   read   pread64 of 4 KiB from a 1 MiB file            1 syscall/iter
 *   open   openat + fstat + close of one file             3 syscalls/iter
 *   write  write of 64 bytes; lseek to 0 every 16384      ~1 syscall/iter
 *   mixed  openat, fstat, 4 x pread64 4 KiB, 2 x write 64 B, close
 *                                                         ~9 syscalls/iter
 *   getpid getpid: a syscall ior does not trace by default  1 syscall/iter
 *   send   sendto 64 B + recvfrom 64 B on a unix socketpair (Network:
 *          traced by default, not with -trace-families=FS) 2 syscalls/iter
 *   uring  8 io_uring reads of 4 KiB (IORING_OP_READ) submitted and
 *          waited for by one io_uring_enter: queue depth 8  8 ops/iter
 *   aio    8 libaio reads of 4 KiB: one io_submit of 8 iocbs, one
 *          io_getevents for 8 events (raw syscalls)    8 ops/iter
 * (uring and aio count ops, not syscalls, in syscalls=: 2 or 1 syscalls
 * carry each 8 ops)
 * -n counts iterations per thread; -t runs each thread for that long.
 * -rate paces each thread to R iterations per second (clock_nanosleep,
 * which ior does not trace), to find the rate a tracer sustains.
 * -wait prints "iorbench: ready pid=N" and starts the loop on SIGUSR1, so
 * a tracer can attach first; threads and files are set up before that.
 * -mark calls getppid(2), a syscall ior does not trace, after the result is
 * printed: bench's bpftrace scripts print and clear their maps on it, which
 * splits their counts per run.
 * -blocks writes each thread's clock every BLOCK_ITERS iterations to PATH
 * (thread 0; PATH.K for thread K) after the loop, one "END_NS SYSCALLS"
 * line per block, cumulative, the first line the start: iorprogstat floor
 * sorts the blocks into the stretches with and without a program attached.
 * The loop's wall time is measured here, so tracer start-up and tear-down
 * never count. The result is one line on stdout:
 *   iorbench: mode=read threads=1 syscalls=N elapsed_ns=N ns_per_syscall=X
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define READ_SIZE 4096
#define WRITE_SIZE 64
#define FILE_SIZE (1 << 20)
#define WRAP_WRITES (FILE_SIZE / WRITE_SIZE)
#define TIME_CHECK_EVERY 256
#define PACE_EVERY 64
#define MAX_THREADS 256
#define BLOCK_ITERS 64
#define MAX_BLOCKS (1 << 20)

/* coldread: a buffered pread64 of 4 KiB whose page was just dropped
 * (POSIX_FADV_DONTNEED), so it misses and goes to the device; direct: an
 * O_DIRECT pread64 of 4 KiB. Both need -dir on a disk (not tmpfs). */
enum mode { MODE_READ, MODE_OPEN, MODE_WRITE, MODE_MIXED, MODE_GETPID, MODE_SEND, MODE_URING, MODE_AIO,
	    MODE_COLDREAD, MODE_DIRECT };
static const char *const mode_names[] = { "read", "open", "write", "mixed", "getpid", "send", "uring", "aio",
					   "coldread", "direct" };
#define DEPTH 8 /* async ops per iteration, in flight together */

struct config {
	enum mode mode;
	uint64_t iters;    /* per thread; 0 with seconds set */
	double seconds;    /* per thread; 0 with iters set */
	int threads;
	double rate;       /* iterations/s per thread; 0: as fast as possible */
	int wait;
	int mark;
	const char *dir;
	const char *blocks; /* -blocks PATH, or NULL */
};

struct block {
	uint64_t end_ns, syscalls;
};

struct worker {
	const struct config *cfg;
	pthread_t thread;
	int index;
	char path[256];    /* data file: read by read, open and mixed */
	char log_path[256];/* written by write and mixed */
	int data_fd, log_fd;
	int sv[2];         /* send: a unix socketpair, -1 otherwise */
	struct ring *ring; /* uring */
	unsigned long aio_ctx; /* aio */
	uint64_t log_writes;
	uint64_t syscalls;
	int failed_errno;
	struct block *blocks; /* -blocks: allocated and touched before the loop */
	size_t nblocks;
};

/* io_uring without liburing: the rings and the few fields used. */
struct ring {
	int fd;
	char *sq, *cq;
	uint8_t (*sqes)[64];
	uint32_t off_sq[10], off_cq[10];
};

struct iocb_ {
	uint64_t data;
	uint32_t key, rw_flags;
	uint16_t opcode;
	int16_t prio;
	uint32_t fd;
	uint64_t buf, nbytes;
	int64_t offset;
	uint64_t pad;
	uint32_t flags, resfd;
};

struct io_event_ {
	uint64_t data, obj;
	int64_t res, res2;
};

static pthread_barrier_t start_line;
static uint64_t deadline_ns;
static char read_buf[MAX_THREADS][READ_SIZE] __attribute__((aligned(4096))); /* O_DIRECT: page-aligned */
static const char write_buf[WRITE_SIZE] = "iorbench small write, 64 bytes long ..........................\n";

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void die(const char *what, const char *on, int err)
{
	fprintf(stderr, "iorbench: %s %s: %s\n", what, on, strerror(err));
	exit(1);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: iorbench read|open|write|mixed|getpid|send|uring|aio|coldread|direct [-n ITERS | -t SECONDS] [-threads N] [-rate R] [-wait] [-mark] [-dir DIR] [-blocks PATH]\n");
	exit(2);
}

static long sys_openat(const char *path, int flags)
{
	return syscall(SYS_openat, AT_FDCWD, path, flags, 0644);
}

/* One write of 64 bytes to the log; every 16384 writes the log is wound
 * back, so it stays 1 MiB. Returns the syscalls issued. */
static int log_write(struct worker *w)
{
	int n = 1;

	if (syscall(SYS_write, w->log_fd, write_buf, WRITE_SIZE) != WRITE_SIZE)
		w->failed_errno = errno ? errno : EIO;
	if (++w->log_writes % WRAP_WRITES == 0) {
		syscall(SYS_lseek, w->log_fd, 0, SEEK_SET);
		n++;
	}
	return n;
}

static int pread_page(struct worker *w, int fd, uint64_t i)
{
	off_t off = (off_t)(i % (FILE_SIZE / READ_SIZE)) * READ_SIZE;

	if (syscall(SYS_pread64, fd, read_buf[w->index], READ_SIZE, off) != READ_SIZE)
		w->failed_errno = errno ? errno : EIO;
	return 1;
}

/* The file is dropped from the cache first (whole: a large folio holds
 * more than the page read), so each read misses. */
static int cold_read(struct worker *w, uint64_t i)
{
	if (posix_fadvise(w->data_fd, 0, 0, POSIX_FADV_DONTNEED))
		w->failed_errno = EIO;
	return 1 + pread_page(w, w->data_fd, i);
}

static int open_stat_close(struct worker *w, uint64_t i, int reads, int writes)
{
	struct stat st;
	int n = 3;
	long fd = sys_openat(w->path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		w->failed_errno = errno;
		return 1;
	}
	if (syscall(SYS_fstat, fd, &st))
		w->failed_errno = errno;
	for (int r = 0; r < reads; r++)
		n += pread_page(w, (int)fd, i * 4 + r);
	for (int k = 0; k < writes; k++)
		n += log_write(w);
	syscall(SYS_close, fd);
	return n;
}

static int send_recv(struct worker *w)
{
	if (syscall(SYS_sendto, w->sv[0], write_buf, WRITE_SIZE, 0, NULL, 0) != WRITE_SIZE ||
	    syscall(SYS_recvfrom, w->sv[1], read_buf[w->index], WRITE_SIZE, 0, NULL, NULL) != WRITE_SIZE)
		w->failed_errno = errno ? errno : EIO;
	return 2;
}

#define U32(base, off) ((volatile uint32_t *)((base) + (off)))

static struct ring *ring_new(void)
{
	uint32_t params[30] = { 0 }; /* struct io_uring_params: 120 bytes */
	struct ring *r = calloc(1, sizeof *r);

	if (!r || (r->fd = (int)syscall(425, 2 * DEPTH, params)) < 0)
		die("cannot set up", "an io_uring", r ? errno : ENOMEM);
	memcpy(r->off_sq, params + 10, sizeof r->off_sq);
	memcpy(r->off_cq, params + 20, sizeof r->off_cq);
	r->sq = mmap(NULL, r->off_sq[6] + params[0] * 4, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd, 0);
	r->cq = mmap(NULL, r->off_cq[5] + params[1] * 16, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
		     0x8000000);
	r->sqes = mmap(NULL, params[0] * 64, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd, 0x10000000);
	if (r->sq == MAP_FAILED || r->cq == MAP_FAILED || r->sqes == MAP_FAILED)
		die("cannot map", "the io_uring", errno);
	return r;
}

static void ring_read(struct ring *r, int fd, void *buf, uint64_t off)
{
	uint32_t tail = *U32(r->sq, r->off_sq[1]), i = tail & *U32(r->sq, r->off_sq[2]);
	uint8_t *e = r->sqes[i];

	memset(e, 0, 64);
	e[0] = 22; /* IORING_OP_READ */
	memcpy(e + 4, &fd, 4);
	memcpy(e + 8, &off, 8);
	uint64_t addr = (uint64_t)(uintptr_t)buf;
	uint32_t len = READ_SIZE;
	memcpy(e + 16, &addr, 8);
	memcpy(e + 24, &len, 4);
	U32(r->sq, r->off_sq[6])[i] = i;
	__atomic_store_n(U32(r->sq, r->off_sq[1]), tail + 1, __ATOMIC_RELEASE);
}

static int uring_reads(struct worker *w, uint64_t i)
{
	struct ring *r = w->ring;

	for (int k = 0; k < DEPTH; k++)
		ring_read(r, w->data_fd, read_buf[w->index], ((i * DEPTH + k) % (FILE_SIZE / READ_SIZE)) * READ_SIZE);
	if (syscall(426, r->fd, DEPTH, DEPTH, 1u, NULL, 0) != DEPTH)
		w->failed_errno = errno ? errno : EIO;
	for (int k = 0; k < DEPTH && !w->failed_errno; k++) {
		uint32_t head = *U32(r->cq, r->off_cq[0]);
		int32_t res;
		memcpy(&res, r->cq + r->off_cq[5] + 16 * (head & *U32(r->cq, r->off_cq[2])) + 8, 4);
		if (res != READ_SIZE)
			w->failed_errno = res < 0 ? -res : EIO;
		__atomic_store_n(U32(r->cq, r->off_cq[0]), head + 1, __ATOMIC_RELEASE);
	}
	return DEPTH;
}

static int aio_reads(struct worker *w, uint64_t i)
{
	struct iocb_ cb[DEPTH], *ptr[DEPTH];
	struct io_event_ ev[DEPTH];

	for (int k = 0; k < DEPTH; k++) {
		cb[k] = (struct iocb_){ .opcode = 0, .fd = (uint32_t)w->data_fd,
					.buf = (uint64_t)(uintptr_t)read_buf[w->index], .nbytes = READ_SIZE,
					.offset = (int64_t)(((i * DEPTH + k) % (FILE_SIZE / READ_SIZE)) * READ_SIZE) };
		ptr[k] = &cb[k];
	}
	if (syscall(SYS_io_submit, w->aio_ctx, DEPTH, ptr) != DEPTH ||
	    syscall(SYS_io_getevents, w->aio_ctx, DEPTH, DEPTH, ev, NULL) != DEPTH)
		w->failed_errno = errno ? errno : EIO;
	for (int k = 0; k < DEPTH && !w->failed_errno; k++)
		if (ev[k].res != READ_SIZE)
			w->failed_errno = ev[k].res < 0 ? (int)-ev[k].res : EIO;
	return DEPTH;
}

static int one_iteration(struct worker *w, uint64_t i)
{
	switch (w->cfg->mode) {
	case MODE_READ:
		return pread_page(w, w->data_fd, i);
	case MODE_OPEN:
		return open_stat_close(w, i, 0, 0);
	case MODE_WRITE:
		return log_write(w);
	case MODE_MIXED:
		return open_stat_close(w, i, 4, 2);
	case MODE_GETPID:
		syscall(SYS_getpid);
		return 1;
	case MODE_SEND:
		return send_recv(w);
	case MODE_URING:
		return uring_reads(w, i);
	case MODE_COLDREAD:
		return cold_read(w, i);
	case MODE_DIRECT:
		return pread_page(w, w->data_fd, i);
	case MODE_AIO:
		return aio_reads(w, i);
	}
	return 0;
}

/* Sleeps until iteration i is due at the configured rate. */
static void pace(uint64_t start_ns, double rate, uint64_t i)
{
	uint64_t due = start_ns + (uint64_t)((double)i * 1e9 / rate);
	struct timespec ts = { .tv_sec = (time_t)(due / 1000000000u),
			       .tv_nsec = (long)(due % 1000000000u) };

	if (now_ns() < due)
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

static void *run_worker(void *arg)
{
	struct worker *w = arg;
	const struct config *cfg = w->cfg;
	uint64_t i = 0, n = 0, start;

	pthread_barrier_wait(&start_line);
	start = now_ns();
	if (w->blocks)
		w->blocks[w->nblocks++] = (struct block){ start, 0 };
	for (; !w->failed_errno; i++) {
		if (cfg->iters && i >= cfg->iters)
			break;
		if (cfg->rate > 0 && i % PACE_EVERY == 0)
			pace(start, cfg->rate, i);
		n += one_iteration(w, i);
		if (w->blocks && (i + 1) % BLOCK_ITERS == 0 && w->nblocks < MAX_BLOCKS)
			w->blocks[w->nblocks++] = (struct block){ now_ns(), n };
		if (!cfg->iters && i % TIME_CHECK_EVERY == 0 && now_ns() >= deadline_ns)
			break;
	}
	w->syscalls = n;
	return NULL;
}

/* One big write: a tracer that starts first sees few set-up syscalls. */
static void make_file(const char *path)
{
	static char data[FILE_SIZE];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		die("cannot create", path, errno);
	memset(data, 'x', sizeof data);
	for (size_t done = 0; done < sizeof data;) {
		ssize_t n = write(fd, data + done, sizeof data - done);
		if (n <= 0)
			die("cannot write", path, n < 0 ? errno : ENOSPC);
		done += (size_t)n;
	}
	close(fd);
}

static void setup_worker(struct worker *w, const struct config *cfg, int index)
{
	w->cfg = cfg;
	w->index = index;
	w->data_fd = w->log_fd = w->sv[0] = w->sv[1] = -1;
	snprintf(w->path, sizeof w->path, "%s/iorbench-%d-%d.data", cfg->dir, (int)getpid(), index);
	snprintf(w->log_path, sizeof w->log_path, "%s/iorbench-%d-%d.log", cfg->dir, (int)getpid(), index);
	if (cfg->mode == MODE_SEND && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, w->sv))
		die("cannot make", "a socketpair", errno);
	if (cfg->mode == MODE_URING)
		w->ring = ring_new();
	if (cfg->mode == MODE_AIO && syscall(SYS_io_setup, DEPTH, &w->aio_ctx))
		die("cannot set up", "an aio context", errno);
	if (cfg->mode == MODE_READ || cfg->mode == MODE_OPEN || cfg->mode == MODE_MIXED || cfg->mode == MODE_URING ||
	    cfg->mode == MODE_AIO || cfg->mode == MODE_COLDREAD || cfg->mode == MODE_DIRECT) {
		make_file(w->path);
		if (cfg->mode != MODE_READ) /* on disk before the loop: the loop's requests are reads */
			sync();
		w->data_fd = open(w->path, O_RDONLY | O_CLOEXEC | (cfg->mode == MODE_DIRECT ? O_DIRECT : 0));
		if (w->data_fd < 0)
			die("cannot open", w->path, errno);
	}
	if (cfg->mode == MODE_WRITE || cfg->mode == MODE_MIXED) {
		w->log_fd = open(w->log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (w->log_fd < 0)
			die("cannot create", w->log_path, errno);
	}
}

/* The block log, touched now so its page faults stay out of the loop. */
static void setup_blocks(struct worker *w)
{
	w->blocks = calloc(MAX_BLOCKS, sizeof *w->blocks);
	if (!w->blocks)
		die("cannot allocate", "the block log", ENOMEM);
	memset(w->blocks, 0xff, MAX_BLOCKS * sizeof *w->blocks);
}

static void write_blocks(const struct worker *w, const char *path)
{
	char name[4096];
	FILE *f;

	if (w->index)
		snprintf(name, sizeof name, "%s.%d", path, w->index);
	else
		snprintf(name, sizeof name, "%s", path);
	if (!(f = fopen(name, "w")))
		die("cannot create", name, errno);
	for (size_t k = 0; k < w->nblocks; k++)
		fprintf(f, "%llu %llu\n", (unsigned long long)w->blocks[k].end_ns,
			(unsigned long long)w->blocks[k].syscalls);
	if (fclose(f))
		die("cannot write", name, errno);
}

static void teardown_worker(struct worker *w)
{
	for (int k = 0; k < 2; k++)
		if (w->sv[k] >= 0)
			close(w->sv[k]);
	if (w->data_fd >= 0) {
		close(w->data_fd);
		unlink(w->path);
	}
	if (w->log_fd >= 0) {
		close(w->log_fd);
		unlink(w->log_path);
	}
}

static int parse_mode(const char *s)
{
	for (size_t m = 0; m < sizeof mode_names / sizeof *mode_names; m++)
		if (!strcmp(s, mode_names[m]))
			return (int)m;
	return -1;
}

static const char *next_arg(int argc, char **argv, int *i)
{
	if (*i + 1 >= argc)
		usage();
	return argv[++*i];
}

static void parse_args(int argc, char **argv, struct config *cfg)
{
	char *end;
	int mode;

	if (argc < 2 || (mode = parse_mode(argv[1])) < 0)
		usage();
	*cfg = (struct config){ .mode = (enum mode)mode, .threads = 1, .dir = "/dev/shm" };
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-n")) {
			cfg->iters = strtoull(next_arg(argc, argv, &i), &end, 10);
			if (*end || !cfg->iters)
				usage();
		} else if (!strcmp(a, "-t")) {
			cfg->seconds = strtod(next_arg(argc, argv, &i), &end);
			if (*end || !(cfg->seconds > 0))
				usage();
		} else if (!strcmp(a, "-threads")) {
			cfg->threads = (int)strtol(next_arg(argc, argv, &i), &end, 10);
			if (*end || cfg->threads < 1 || cfg->threads > MAX_THREADS)
				usage();
		} else if (!strcmp(a, "-rate")) {
			cfg->rate = strtod(next_arg(argc, argv, &i), &end);
			if (*end || !(cfg->rate > 0))
				usage();
		} else if (!strcmp(a, "-dir")) {
			cfg->dir = next_arg(argc, argv, &i);
		} else if (!strcmp(a, "-blocks")) {
			cfg->blocks = next_arg(argc, argv, &i);
		} else if (!strcmp(a, "-wait")) {
			cfg->wait = 1;
		} else if (!strcmp(a, "-mark")) {
			cfg->mark = 1;
		} else {
			usage();
		}
	}
	if (!cfg->iters == !(cfg->seconds > 0))
		cfg->iters = cfg->seconds > 0 ? 0 : 100000;
}

/* Blocks until SIGUSR1; the mask is set before any thread exists, so
 * every thread inherits it and only sigwait receives the signal. */
static void wait_for_start(void)
{
	sigset_t set;
	int sig;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	printf("iorbench: ready pid=%d\n", (int)getpid());
	fflush(stdout);
	if (sigwait(&set, &sig))
		die("cannot wait for", "SIGUSR1", errno);
}

int main(int argc, char **argv)
{
	static struct worker workers[MAX_THREADS];
	struct config cfg;
	sigset_t set;
	uint64_t t0, t1, syscalls = 0;
	int failed = 0;

	parse_args(argc, argv, &cfg);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	pthread_barrier_init(&start_line, NULL, (unsigned)cfg.threads + 1);
	for (int t = 0; t < cfg.threads; t++) {
		setup_worker(&workers[t], &cfg, t);
		if (cfg.blocks)
			setup_blocks(&workers[t]);
		int err = pthread_create(&workers[t].thread, NULL, run_worker, &workers[t]);
		if (err)
			die("cannot create", "thread", err);
	}
	if (cfg.wait)
		wait_for_start();

	t0 = now_ns();
	deadline_ns = t0 + (uint64_t)(cfg.seconds * 1e9);
	pthread_barrier_wait(&start_line);
	for (int t = 0; t < cfg.threads; t++)
		pthread_join(workers[t].thread, NULL);
	t1 = now_ns();

	for (int t = 0; t < cfg.threads; t++) {
		syscalls += workers[t].syscalls;
		if (workers[t].failed_errno && !failed++)
			fprintf(stderr, "iorbench: thread %d: a syscall failed: %s\n", t,
				strerror(workers[t].failed_errno));
		teardown_worker(&workers[t]);
		if (cfg.blocks)
			write_blocks(&workers[t], cfg.blocks);
	}
	printf("iorbench: mode=%s threads=%d syscalls=%llu elapsed_ns=%llu ns_per_syscall=%.1f\n",
	       mode_names[cfg.mode], cfg.threads, (unsigned long long)syscalls,
	       (unsigned long long)(t1 - t0), syscalls ? (double)(t1 - t0) / (double)syscalls : 0.0);
	fflush(stdout);
	if (cfg.mark)
		syscall(SYS_getppid);
	return failed ? 1 : 0;
}
