/* ior: flags and wiring only; the rooms do the work. */
#include "csv/csv.h"
#include "flags.h"
#include "log/log.h"
#include "opts.h"

#include <stdio.h>
#include <string.h>

#define IOR_VERSION "0.1.0"

static struct ior_opts opts = {
	.pid = -1,
	.tid = -1,
	.comm = "",
	.path = "",
	.tps = "",
	.tps_exclude = "",
	.trace_families = "",
	.trace_syscalls = "",
	.no_trace_families = "",
	.no_trace_syscalls = "",
	.duration_ns = IOR_DURATION_UNSET,
	.map_size = 0, /* per-CPU default chosen by the trace room */
	.escape = "auto",
	.name = "default",
	.fields = "comm,path,tracepoint",
	.count = "count",
	.normalize = "rate",
	.http_addr = "127.0.0.1:0",
	.ior_version = IOR_VERSION,
	.user = "",
	.recorder_size = 64u << 20,
	.after_ns = IOR_DURATION_UNSET,
};
static struct ior_flag_list trigger_list;

static const struct ior_flag flag_table[] = {
	{ "pid", IOR_FLAG_INT, &opts.pid, "trace only this process id, until it exits (-follow: and its descendants)" },
	{ "tid", IOR_FLAG_INT, &opts.tid, "trace only this thread id, until it exits" },
	{ "follow", IOR_FLAG_BOOL, &opts.follow, "with -pid: also trace the processes it has and makes, until all of them exited" },
	{ "noblock", IOR_FLAG_BOOL, &opts.no_block, "do not trace block requests (the device table, device time and requests of each pair)" },
	{ "u", IOR_FLAG_STRING, &opts.user, "with -- CMD: run CMD as this user (a name or a uid; default: the user who ran sudo, else ior's)" },
	{ "comm", IOR_FLAG_STRING, &opts.comm, "trace only commands whose name contains this" },
	{ "path", IOR_FLAG_STRING, &opts.path, "show only events whose path contains this" },
	{ "trace-families", IOR_FLAG_STRING, &opts.trace_families, "comma-separated syscall families to trace: FS,Network,Polling,Memory,Process,Signals,Sched,IPC,Time,Security,AIO,Misc or all (default FS,Network,Polling,AIO)" },
	{ "trace-syscalls", IOR_FLAG_STRING, &opts.trace_syscalls, "comma-separated syscalls to trace (with -trace-families: as well), e.g. read,sendto (ior -list names them)" },
	{ "no-trace-families", IOR_FLAG_STRING, &opts.no_trace_families, "comma-separated syscall families not to trace (wins over the others)" },
	{ "no-trace-syscalls", IOR_FLAG_STRING, &opts.no_trace_syscalls, "comma-separated syscalls not to trace (wins over the others)" },
	{ "tps", IOR_FLAG_STRING, &opts.tps, "comma-separated regexes: of the selected syscalls, trace those whose tracepoint matches" },
	{ "tpsExclude", IOR_FLAG_STRING, &opts.tps_exclude, "comma-separated regexes: tracepoints not to trace (wins over the others)" },
	{ "list", IOR_FLAG_BOOL, &opts.list, "list the syscalls this kernel can trace: number, family, whether these flags trace them; then exit" },
	{ "duration", IOR_FLAG_DURATION, &opts.duration_ns, "stop tracing after this long: 10 (seconds), 1.5s, 2m (default 900; the dashboard: at q; -recorder: never)" },
	{ "mapSize", IOR_FLAG_SIZE, &opts.map_size, "bytes per per-CPU perf buffer, power of two, 64K to 1G: 1M, 8M (default 8M, less on machines with more than 4 CPUs)" },
	{ "plain", IOR_FLAG_BOOL, &opts.plain, "print one CSV line per syscall pair" },
	{ "plainColumns", IOR_FLAG_STRING, &opts.plain_columns, "-plain with more columns after file, comma-separated: where (where an io_uring op ran: inline, io-wq, poll), device (deviceNs, requests, deviceBytes: the pair's block requests), cache (cachePages: pages it added to the page cache)" },
	{ "plainDevice", IOR_FLAG_BOOL, &opts.plain_device, "-plainColumns=device,cache: -plain with deviceNs, requests, deviceBytes, cachePages" },
	{ "escape", IOR_FLAG_STRING, &opts.escape, "escape control characters and invalid UTF-8: auto, always, never" },
	{ "flamegraph", IOR_FLAG_BOOL, &opts.flamegraph, "record every pair to HOST-NAME-TIME.ior.zst" },
	{ "parquet", IOR_FLAG_STRING, &opts.parquet, "also write every pair to this Parquet file (written as FILE.tmp, renamed when complete)" },
	{ "name", IOR_FLAG_STRING, &opts.name, "recording name (default \"default\")" },
	{ "live", IOR_FLAG_BOOL, &opts.live, "serve a flamegraph of the trace over HTTP while tracing, updated every 2 s (-fields, -count, -http)" },
	{ "recorder", IOR_FLAG_DURATION, &opts.recorder_ns, "flight recorder: keep the last DURATION of pairs in memory (e.g. 60s) and write HOST-NAME-TIME-trigger.ior.zst around each -trigger, or on SIGUSR1" },
	{ "recorder-size", IOR_FLAG_SIZE, &opts.recorder_size, "-recorder: at most this much memory: compressed pairs (the oldest dropped first) and their encoder (default 64M, at least 4M)" },
	{ "trigger", IOR_FLAG_LIST, &trigger_list, "-recorder: dump when this happens (repeatable): fsync>200ms, duration>1s,path=/var/*, duration>50ms,comm=nginx, errno=EIO, errno=any, openat:errno=ENOENT, pairs/s>500000, errors/s>100, inflight>5s, read:inflight>5s; ,cooldown=30s (default: the -recorder window)" },
	{ "after", IOR_FLAG_DURATION, &opts.after_ns, "-recorder: keep recording this long after a trigger before writing the dump (default a quarter of the window)" },
	{ "max-dumps", IOR_FLAG_INT, &opts.max_dumps, "-recorder: write at most N dumps (default 0: no limit)" },
	{ "rotate", IOR_FLAG_STRING, &opts.rotate, "with -flamegraph: cut the recording into a series in the directory HOST-NAME-TIME, a new file every SIZE (256M) or DURATION (1h); -ior=DIR, ior collapsed|summary|parquet DIR read it in time order" },
	{ "keep", IOR_FLAG_INT, &opts.keep, "with -rotate: keep at most N files of the series, the oldest deleted (default 0: all)" },
	{ "summary", IOR_FLAG_BOOL, &opts.summary, "at the end, print per syscall, file and process: calls, errors, bytes, time, latency percentiles (stdout; stderr with -plain; with -ior: of the recording)" },
	{ "tui", IOR_FLAG_BOOL, &opts.tui, "the terminal dashboard (what bare ior opens on a terminal); with -ior: of the recording" },
	{ "ior", IOR_FLAG_STRING, &opts.ior_file, "read this recording (.ior.zst) instead of tracing; A,B,... or a directory: several, merged into one flamegraph" },
	{ "fields", IOR_FLAG_STRING, &opts.fields, "flamegraph stack, bottom up: comm,path,tracepoint,pid,tid,flags,family,host (the recording's),timeout (of waits),where (io_uring ops: inline, io-wq, poll),device (of its block requests),cache (a read's hit, partial or miss)" },
	{ "count", IOR_FLAG_STRING, &opts.count, "flamegraph weight: count, duration, durationToPrev, bytes, devicetime" },
	{ "flamegraphJson", IOR_FLAG_BOOL, &opts.flamegraph_json, "also write the flamegraph tree as JSON" },
	{ "iorWatchInterval", IOR_FLAG_DURATION, &opts.watch_interval_ns, "regenerate when the recording changes, checking this often" },
	{ "http", IOR_FLAG_STRING, &opts.http_addr, "serve on ADDR:PORT (default 127.0.0.1, a free port); every URL carries a secret token" },
	{ "http-any", IOR_FLAG_BOOL, &opts.http_any, "allow -http 0.0.0.0:PORT or [::]:PORT (every interface; the URL's token is then the only lock)" },
	{ "normalize", IOR_FLAG_STRING, &opts.normalize, "ior diff: compare BASE with NEW per second of each span (rate), as recorded (total) or as shares of each total (share)" },
	{ "folded", IOR_FLAG_BOOL, &opts.folded, "ior diff: print \"stack base new\" lines (difffolded.pl's format) instead of the graph" },
	{ "baseline", IOR_FLAG_STRING, &opts.baseline, "compare with this recording (-normalize): -live serves the diff graph, the dashboard adds change columns, -summary prints what changed" },
	{ "json", IOR_FLAG_BOOL, &opts.json, "ior diff -summary: the tables as JSON, for scripts" },
	{ "nohttp", IOR_FLAG_BOOL, &opts.nohttp, "write the flamegraph and exit without serving it" },
	{ "check", IOR_FLAG_BOOL, &opts.check, "check whether this host can trace, then exit" },
	{ "v", IOR_FLAG_BOOL, &opts.verbose, "verbose: full verifier logs, more statistics" },
	{ "version", IOR_FLAG_BOOL, &opts.version, "print the version and exit" },
	{ "help", IOR_FLAG_BOOL, &opts.help, "print this help" },
	{ "h", IOR_FLAG_BOOL, &opts.help, NULL },
	{ "benchEmpty", IOR_FLAG_BOOL, &opts.bench_empty, NULL },
	{ "benchDetached", IOR_FLAG_BOOL, &opts.bench_detached, NULL },
};

#define NFLAGS (sizeof flag_table / sizeof flag_table[0])

static void usage(FILE *out)
{
	fprintf(out,
		"usage: ior [flags]                 trace I/O syscalls (root): a dashboard on a terminal,\n"
		"                                   text reports every 5 s when stdout is not one\n"
		"       ior [flags] -- CMD [ARGS...] run CMD, trace it and its descendants until it exits;\n"
		"                                   ior exits with its status (the -summary by default)\n"
		"       ior -ior=FILE.ior.zst [flags] flamegraph of a recording\n"
		"       ior collapsed [flags] FILE... folded stacks of recordings, merged\n"
		"       ior summary [flags] FILE    tables per syscall, file and process of a recording\n"
		"       ior parquet [flags] FILE [-o OUT] a recording as Parquet (FILE.parquet)\n"
		"       ior diff [flags] BASE NEW   what changed from BASE to NEW: a differential flamegraph\n\n");
	for (size_t i = 0; i < NFLAGS; i++) {
		const struct ior_flag *f = &flag_table[i];
		if (!f->usage)
			continue;
		const char *arg = f->type == IOR_FLAG_BOOL ? "" :
				  f->type == IOR_FLAG_INT ? " N" :
				  f->type == IOR_FLAG_DURATION ? " DURATION" :
				  f->type == IOR_FLAG_SIZE ? " BYTES" :
				  f->type == IOR_FLAG_LIST ? " EXPR" : " STRING";
		fprintf(out, "  -%s%s\n    \t%s\n", f->name, arg, f->usage);
	}
}

static int parse_cmd(int argc, char **argv, int *dashdash)
{
	char err[256];
	int first = ior_flags_parse_cmd(flag_table, NFLAGS, argc, argv, dashdash, err, sizeof err);
	if (first < 0) {
		fprintf(stderr, "ior: %s (see ior -help)\n", err);
		return -1;
	}
	opts.triggers = trigger_list.v;
	opts.ntriggers = trigger_list.n;
	return first;
}

static int parse(int argc, char **argv)
{
	int dashdash;

	return parse_cmd(argc, argv, &dashdash);
}

/* ior collapsed|summary [flags] FILE; collapsed takes more files */
static int run_file_command(int argc, char **argv, const char *flags,
			    int (*cmd)(const struct ior_opts *, const char *))
{
	int first = parse(argc, argv);
	if (first < 0)
		return 2;
	if (cmd == ior_cmd_collapsed && first < argc - 1) {
		opts.more_files = argv + first + 1;
		opts.nmore_files = argc - first - 1;
	} else if (first != argc - 1) {
		fprintf(stderr, "ior: usage: ior %s %sFILE.ior.zst\n", argv[0], flags);
		return 2;
	}
	return cmd(&opts, argv[first]);
}

/* ior parquet [flags] FILE [-o OUT]: -o is this command's alone */
static int run_parquet(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[argc - 2], "-o")) {
		opts.parquet = argv[argc - 1];
		argc -= 2;
	}
	return run_file_command(argc, argv, "[-pid N] [-comm S] [-path S] ", ior_cmd_parquet);
}

/* What the rooms say (log/log.h): a line each on the FILE given as ctx
 * (stderr, or the buffer cmd/trace.c holds while the dashboard has the
 * terminal); details only with -verbose. */
static void print_log(void *ctx, enum ior_log_level level, const char *msg)
{
	if (level == IOR_LOG_DEBUG && !opts.verbose)
		return;
	fprintf(ctx, level == IOR_LOG_WARN ? "ior: warning: %s\n" : "ior: %s\n", msg);
}

/* ior diff [flags] BASE NEW */
static int run_diff(int argc, char **argv)
{
	int first = parse(argc, argv);

	if (first < 0)
		return 2;
	if (first != argc - 2) {
		fprintf(stderr, "ior: usage: ior diff [-fields F] [-count M] [-normalize rate|total|share] [-folded] "
				"[-summary [-json]] [-nohttp] BASE NEW (each a recording, A,B,... or a directory)\n");
		return 2;
	}
	return ior_cmd_diff(&opts, argv[first], argv[first + 1]);
}

/* -plainColumns (-plainDevice is device,cache): known columns, and none
 * of the block layer's with -noblock; either makes the run -plain. */
static int plain_columns(struct ior_opts *o)
{
	struct ior_csv_columns c;
	char err[160];

	if (o->plain_device && o->plain_columns) {
		fprintf(stderr, "ior: -plainDevice is -plainColumns=device,cache: use one of them\n");
		return 2;
	}
	if (o->plain_device)
		o->plain_columns = "device,cache";
	if (!o->plain_columns)
		return 0;
	if (ior_csv_columns_parse(o->plain_columns, &c, err, sizeof err)) {
		fprintf(stderr, "ior: -plainColumns=%s: %s\n", o->plain_columns, err);
		return 2;
	}
	if (o->no_block && (ior_csv_columns_has(&c, IOR_CSV_DEVICE) || ior_csv_columns_has(&c, IOR_CSV_CACHE))) {
		fprintf(stderr, "ior: -plainColumns=%s: device and cache come from the block layer and the page "
				"cache, which -noblock does not trace: drop one of them\n", o->plain_columns);
		return 2;
	}
	o->plain = true;
	return 0;
}

int main(int argc, char **argv)
{
	ior_log_set(print_log, stderr, NULL);
	if (argc > 1 && !strcmp(argv[1], "diff"))
		return run_diff(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "collapsed"))
		return run_file_command(argc - 1, argv + 1, "[-fields F] [-count M] ", ior_cmd_collapsed);
	if (argc > 1 && !strcmp(argv[1], "parquet"))
		return run_parquet(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "summary"))
		return run_file_command(argc - 1, argv + 1, "[-pid N] [-comm S] [-path S] ", ior_cmd_summary);

	int dashdash, first = parse_cmd(argc, argv, &dashdash);
	if (first < 0)
		return 2;
	if (dashdash && first == argc) {
		fprintf(stderr, "ior: -- wants a command to run after it (see ior -help)\n");
		return 2;
	}
	if (dashdash)
		opts.command = argv + first;
	else if (first < argc) {
		fprintf(stderr, "ior: unexpected argument \"%s\" (to run a command, put -- before it; see ior -help)\n",
			argv[first]);
		return 2;
	}
	if (opts.help) {
		usage(stdout);
		return 0;
	}
	if (opts.version) {
		printf("ior %s\n", IOR_VERSION);
		return 0;
	}
	if (opts.command && (opts.check || opts.ior_file)) {
		fprintf(stderr, "ior: -- CMD runs a command to trace; -%s does not trace: use one of them\n",
			opts.check ? "check" : "ior");
		return 2;
	}
	if (opts.check)
		return ior_cmd_check(&opts);
	if (opts.list)
		return ior_cmd_list(&opts);
	if (opts.ior_file && ior_cmd_trace_only_output(&opts)) {
		fprintf(stderr, "ior: -%s traces the live system; -ior reads a recording: use one of them "
				"(ior parquet FILE converts one)\n", ior_cmd_trace_only_output(&opts));
		return 2;
	}
	if (plain_columns(&opts))
		return 2;
	if (opts.ior_file && opts.summary && opts.plain) {
		fprintf(stderr, "ior: -ior with -plain replays the recording as CSV, with -summary it prints its "
				"tables: use one of them\n");
		return 2;
	}
	if (opts.ior_file && opts.tui && (opts.summary || opts.plain)) {
		fprintf(stderr, "ior: -ior with -tui browses the recording, with -%s it prints it: use one of them\n",
			opts.summary ? "summary" : "plain");
		return 2;
	}
	if (opts.ior_file && opts.baseline && !opts.tui) {
		fprintf(stderr, "ior: -baseline with -ior: two recordings compare with ior diff BASE NEW "
				"(or add -tui for the dashboard's change columns)\n");
		return 2;
	}
	if (opts.ior_file && opts.tui)
		return ior_cmd_dash(&opts);
	if (opts.ior_file && opts.summary)
		return ior_cmd_summary(&opts, opts.ior_file);
	if (opts.ior_file)
		return opts.plain ? ior_cmd_replay(&opts) : ior_cmd_flame(&opts);
	return ior_cmd_trace(&opts);
}
