/* The one way rooms say something that is not an error their caller
 * decides on: a warning ("loading without BTF"), a note, a detail for
 * -verbose. In the style of libbpf_set_print: main sets the printer once
 * (cmd/ may route it while it holds the terminal); rooms only call
 * ior_log. An error a caller must act on still comes back as a negative
 * errno with its message in the caller's err buffer. Single-threaded:
 * the tracing thread and main are one. */
#ifndef IOR_LOG_LOG_H
#define IOR_LOG_LOG_H

enum ior_log_level {
	IOR_LOG_WARN,  /* something works less well than it could: said once */
	IOR_LOG_INFO,  /* what a person may want to know */
	IOR_LOG_DEBUG, /* -verbose */
};

/* msg is one line without "ior: " or a newline, valid during the call. */
typedef void (*ior_log_fn)(void *ctx, enum ior_log_level level, const char *msg);

/* Where messages go from now on (NULL: nowhere, the default, so unit
 * tests and tools print nothing they did not ask for). Returns the
 * previous printer; *old_ctx gets its ctx when old_ctx is not NULL. */
ior_log_fn ior_log_set(ior_log_fn fn, void *ctx, void **old_ctx);

void ior_log(enum ior_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
