/* workload: deterministic syscall scenarios for ior's integration tests.
 *
 * usage: workload SCENARIO [ARGS...]
 *
 * Every scenario does its setup, writes one line "ready[ TID...]\n" to
 * stdout and then waits for SIGUSR1 in sigsuspend(), so a test can start
 * `ior -pid PID`, wait for ior's "tracing" line and release it with
 * `kill -USR1 PID`. Waiting costs no traced syscall (rt_sigsuspend, futex
 * and clock_nanosleep are in no family ior traces by default). After the release a scenario
 * makes exactly the traced syscalls listed below and ends with _exit()
 * (exit_group is not traced by default). Opens go through syscall(2) directly so the
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
 * flight FILE MISSING BEFORE AFTER BLOCK (milliseconds; the flight
 *   recorder's incident): FILE (>= 1 byte) opened O_RDONLY (fd 3), a pipe
 *   (4, 5) and a writer thread made before the release.
 *   pread64 3, 1, 0 -> 1, then 2 ms of sleep, for BEFORE ms   ~BEFORE/2
 *   read 4, 1 byte -> 1: blocks until the writer's
 *     write 5, 1 byte -> 1, BEFORE + BLOCK ms after the release   1 + 1
 *   openat FILE O_RDONLY -> 6; close 6                         1 + 1
 *   openat MISSING O_RDONLY -> -ENOENT                         1
 *   pread64 as above for AFTER ms; close 3                     ~AFTER/2 + 1
 *
 * slowstorm N MS: poll(NULL, 0, MS) -> 0, N times (N slow calls).
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
 * longpath DIR: paths as long as the kernel takes them (DIR/f is 4095
 *   bytes, PATH_MAX with its NUL: the caller makes DIR so) and one longer.
 *   openat DIR/f O_WRONLY|O_CREAT|O_TRUNC 0644 -> 3      1
 *   write 3, "hello" -> 5; close 3                       1 each
 *   rename DIR/f, DIR/g -> 0                             1
 *   openat DIR/xxx...x (4196 bytes) O_RDONLY -> -ENAMETOOLONG  1
 *   unlink DIR/g -> 0                                    1
 *   totals: openat 2, write 1, close 1, rename 1, unlink 1 = 6 pairs.
 *
 * Attribution scenarios (trace_attrib.sh): fds across fork, exec, rename,
 * reuse of a number, a blocked open and threads. fork() is musl's fork
 * syscall, waitpid() is wait4: neither is traced, nor are execve and
 * exit_group. Children end with _exit(); "P" is the parent (the process
 * that prints "ready"), "A", "B", "C" its children.
 *
 * forkwrite DIR: DIR/log ends up holding "aaapbb" (one shared offset).
 *   P: openat DIR/log O_WRONLY|O_CREAT|O_TRUNC 0644 -> 3      1
 *   P: fork child A, waitpid A
 *   A:   write 3, "a" -> 1                                    3
 *   A:   close 3                                              1
 *   P: write 3, "p" -> 1                                      1
 *   P: dup2 3, 1 -> 1 (stdout is now DIR/log: `cmd > log`)     1
 *   P: fork child B, waitpid B
 *   B:   write 1, "b" -> 1                                    2
 *   B:   close 1                                              1
 *   P: close 1, close 3                                       2
 *   totals: P 5 (openat 1, write 1, dup2 1, close 2), A 4, B 3 = 12,
 *   every row on DIR/log.
 *
 * execfd DIR: before the release the parent resolves /proc/self/exe with
 *   readlink; the child execs that path, so its comm stays this binary's
 *   name (exec of "/proc/self/exe" would make it "exe": -comm misses it).
 *   P: openat DIR/keep O_WRONLY|O_CREAT|O_TRUNC 0644 -> 3     1
 *   P: openat DIR/gone O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC 0644 -> 4  1
 *   P: fork child C, waitpid C
 *   C:   dup2 3, 9 -> 9                                       1
 *   C:   execve(the binary, {"workload", "execchild"}): fd 4 is gone
 *   C:   write 9, "k" -> 1 (DIR/keep)                         1
 *   C:   write 4, "g" -> -EBADF (no path: DIR/gone closed at exec)  1
 *   C:   close 9                                              1
 *   P: write 4, "G" -> 1 (DIR/gone: the parent still has it)   1
 *   P: close 4, close 3                                       2
 *   totals: P 5 (openat 2, write 1, close 2), C 4 (dup2 1, write 2,
 *   close 1) = 9. DIR/keep holds "k", DIR/gone "G".
 *
 * renameopen DIR: DIR/a and DIR/ab are made before the release.
 *   openat DIR/a/f O_RDWR|O_CREAT 0644 -> 3                   1
 *   openat DIR/ab/h O_WRONLY|O_CREAT 0644 -> 4                1
 *   write 3, 1 -> 1 (DIR/a/f)                                 1
 *   rename DIR/a/f -> DIR/a/g                                 1
 *   write 3, 1 -> 1; pwrite64 3, 1, 0 -> 1 (DIR/a/g)          2
 *   rename DIR/a -> DIR/b (the directory above fd 3)          1
 *   write 3, 1 -> 1; fsync 3 (DIR/b/g)                        2
 *   write 4, 1 -> 1 (DIR/ab/h: not under DIR/a)               1
 *   dup3 3, 10, 0 -> 10; close 10; close 3 (DIR/b/g)          3
 *   close 4 (DIR/ab/h)                                        1
 *   totals: openat 2, write 4, pwrite64 1, fsync 1, rename 2, dup3 1,
 *   close 3 = 14 pairs.
 *
 * linkgone DIR: DIR/target ("t") and the symlink DIR/link -> target are
 *   made before the release. The link is gone before ior names the fd:
 *   only the file's own name, which the kernel side reads at the open's
 *   exit, leads back to it (strace -y: DIR/target).
 *   openat DIR/link O_RDONLY -> 3 (DIR/target)                1
 *   unlinkat AT_FDCWD DIR/link, 0 -> 0                        1
 *   read 3, 1 -> 1; close 3 (DIR/target)                      2
 *   totals: 4 pairs.
 *
 * fiforeuse FIFO DATA: FIFO a named pipe, DATA >= 1 byte. No SIGUSR1: it
 *   prints "ready", then its open blocks until someone opens FIFO for
 *   writing (the test does, once ior traces, and writes one byte).
 *   openat FIFO O_RDONLY -> 3 (entered before ior attaches)   1
 *   read 3, 1 -> 1 (FIFO)                                     1
 *   close 3                                                   1
 *   openat DATA O_RDONLY -> 3 (the number reused)             1
 *   read 3, 1 -> 1 (DATA)                                     1
 *   close 3                                                   1
 *   traced: 5 pairs and one exit without an enter (the FIFO open).
 *
 * reuse A B N (1 <= N <= 1000): A and B >= 1 byte each; N times:
 *   openat A O_RDONLY -> 3; read 3, 1 -> 1; close 3            3
 *   openat B O_RDONLY -> 3; read 3, 1 -> 1; close 3            3
 *   totals: openat 2N, read 2N, close 2N = 6N pairs.
 *
 * relpath2 DIR: DIR/d1 and DIR/d2 are made before the release (empty).
 *   openat DIR/d1 O_PATH|O_DIRECTORY -> 3                     1
 *   openat DIR/d2 O_PATH|O_DIRECTORY -> 4                     1
 *   openat 3, "x", O_WRONLY|O_CREAT 0644 -> 5 (DIR/d1/x)       1
 *   close 5                                                   1
 *   renameat 3, "x", 4, "y" (DIR/d1/x => DIR/d2/y)            1
 *   linkat 4, "y", 3, "z", 0 (DIR/d2/y => DIR/d1/z)           1
 *   symlinkat "target", 4, "s" (target => DIR/d2/s)           1
 *   unlinkat 3, "z", 0; unlinkat 4, "y", 0; unlinkat 4, "s", 0  3
 *   close 4, close 3                                          2
 *   totals: openat 3, close 3, renameat 1, linkat 1, symlinkat 1,
 *   unlinkat 3 = 12 pairs; DIR/d1 and DIR/d2 are empty again.
 *
 * sharedfd FILE: FILE >= 1 byte; a helper thread B is started before the
 *   release; the ready line holds its tid. One fd table, two threads:
 *   main:   openat FILE O_RDONLY -> 3, then a barrier with B   1
 *   B:      read 3, 1 -> 1; close 3                            2
 *   totals: 3 pairs (main 1, B 2).
 *
 * clonefiles FILE: a child made by clone(CLONE_FILES) shares the parent's
 *   fd table without being a thread (clone and wait4: Process, not traced by default):
 *   child:  openat FILE O_WRONLY|O_CREAT|O_TRUNC 0644 -> 3; write 3, 1   2
 *   parent (after the child exited): write 3, 1 -> 1; close 3         2
 *   totals: 4 pairs; FILE holds "cp".
 *
 * churn FILE N: N children, one at a time (vfork and wait4: Process, not traced by default):
 *   each child: openat FILE O_WRONLY|O_APPEND -> 3; write 3, 1 -> 1;
 *   close 3; _exit                                      3 per child
 *   totals: openat N, write N, close N = 3N pairs in N processes.
 *
 * net: pipes, sockets and waits, all on the main thread (file = the fd
 *   table's name: pipe2's fds are named only when IPC is traced, the TCP
 *   sockets by their endpoints once bind, connect and accept4 are):
 *   pipe2 O_CLOEXEC -> 3, 4 (IPC: not traced by default)      1
 *   write 4, 5 bytes -> 5; read 3, 64 -> 5; close 4; close 3   4
 *   socketpair AF_UNIX SOCK_STREAM -> 3, 4                     1
 *   sendto 3, 5 bytes -> 5; recvfrom 4, 64 -> 5                2
 *   sendmsg 4, 7 bytes -> 7; recvmsg 3, 64 -> 7                2
 *   socket AF_INET SOCK_STREAM|SOCK_CLOEXEC -> 5 (socket:tcp)  1
 *   setsockopt 5 SO_REUSEADDR; bind 5 127.0.0.1:0; listen 5;
 *   getsockname 5                                             4
 *   socket AF_INET SOCK_STREAM -> 6 (socket:tcp)               1
 *   connect 6 -> 0; accept4 5 SOCK_CLOEXEC -> 7 (socket:tcp)   2
 *   sendto 6, 1000 bytes -> 1000; recvfrom 7, 1000 -> 1000     2
 *   poll {7 POLLIN}, 1, 50 ms -> 0 (times out)                 1
 *   epoll_create1 EPOLL_CLOEXEC -> 8 (anon_inode:[eventpoll])  1
 *   epoll_ctl 8 ADD 7 -> 0                                    1
 *   epoll_wait 8, 1, 30 ms -> 0 (times out)                    1
 *   sendto 6, 1 byte -> 1; epoll_wait 8, 1, 5000 ms -> 1;
 *   recvfrom 7, 64 -> 1                                       3
 *   close 8, 7, 6, 5, 4, 3                                    6
 *   totals: 33 pairs; by default (FS, Network, Polling, AIO) 32, with
 *   -trace-families=FS only write, read and close: 10.
 *
 * endpoints DIR: sockets named by their endpoints, a pipe between two
 *   processes, message vectors (all on the main thread but the child's
 *   write; fds from 3; PORTS printed at the end):
 *   socket AF_INET6 SOCK_STREAM -> 3; bind 3 [::1]:0; listen 3;
 *   getsockname 3 (port L6)                                     4
 *   socket AF_INET6 SOCK_STREAM -> 4; connect 4 -> 0;
 *   accept 3 (peer written) -> 5; getsockname 4 (port C6)        4
 *   sendto 4, 100 -> 100; recvfrom 5, 100 MSG_WAITALL -> 100     2
 *   socket AF_INET SOCK_DGRAM -> 6; bind 6 127.0.0.1:0;
 *   getsockname 6 (port U)                                      3
 *   socket AF_INET SOCK_DGRAM -> 7; sendto 7, 10 to U twice;
 *   recvfrom 6, 64 with address twice (10 each);
 *   getsockname 7 (port T, bound to 0.0.0.0 by the sendto)      6
 *   sendmmsg 7, 3 messages of 4, 5, 6 bytes to U -> 3;
 *   recvmmsg 6, 3 -> 3 (15 bytes)                               2
 *   socket AF_UNIX SOCK_STREAM -> 8; bind 8 DIR/u.sock; listen 8;
 *   socket AF_UNIX -> 9; connect 9 DIR/u.sock; accept4 8 -> 10;
 *   sendto 9, 3 -> 3; recvfrom 10, 64 -> 3                      8
 *   the same with the abstract name "\0ior-endpoints-PID\0x": 11, 12, 13   8
 *   pipe -> 14, 15; fork: the child writes 15, 5 bytes -> 5 and exits;
 *   read 14, 64 -> 5; fstat 14 (inode PINO); wait4 (not traced) 4
 *   socketpair AF_UNIX SOCK_DGRAM -> 16, 17; sendto 16, 2 -> 2;
 *   recvfrom 17, 64 -> 2                                        3
 *   close 17 .. 3                                              15
 *   write 1, "ports L6 C6 U T PINO\n"                           1
 *   totals: 60 pairs with -trace-families=FS,Network,IPC (pipe is IPC).
 *
 * waits: each wait with a known timeout, by number, on the main thread
 *   (nothing becomes ready unless said):
 *   poll {}, 0, 30 ms -> 0; ppoll {}, 0, {0, 20 ms} -> 0;
 *   select 0, 25000 us -> 0; pselect6 0, {0, 15 ms} -> 0            4
 *   epoll_create1 -> 3; epoll_wait 3, 10 ms -> 0;
 *   epoll_pwait 3, 12 ms -> 0; epoll_pwait2 3, {0, 14 ms} -> 0      4
 *   socketpair -> 4, 5; sendto 4, 1 -> 1;
 *   poll {5 POLLIN}, 1, -1 (for ever) -> 1; ppoll {5}, NULL -> 1     4
 *   close 5, 4, 3                                                  3
 *   totals: 15 pairs: Polling 10 (with epoll_create1), Network 2, FS 3.
 *
 * forktree DIR: four processes, each the child of the one before (fork and
 *   wait4 are not traced). Level k (0: the process that prints "ready"):
 *   openat DIR/Lk O_WRONLY|O_CREAT|O_TRUNC 0644 -> 3      1
 *   write 3, "PID\n" (its own pid, so a test knows it)    1
 *   close 3                                               1
 *   then levels 0-2 fork level k+1 and wait for it.
 *   totals: 12 pairs in 4 processes, 3 each.
 *
 * ids FILE: FILE (in a directory anyone may write) gets who runs it:
 *   openat FILE O_WRONLY|O_CREAT|O_TRUNC 0644 -> 3        1
 *   write 3, "UID GID NGROUPS GROUP...\n"                1
 *   close 3                                               1
 *
 * leaderexit FILE: a thread is started before the release; after it the
 *   main thread (the group leader) ends with pthread_exit and the thread,
 *   60 ms later, writes FILE, then the process exits:
 *   thread: openat FILE O_WRONLY|O_CREAT|O_TRUNC 0644 -> 3; write 3, 1;
 *           close 3                                       3
 *
 * uring DIR: DIR/data (16384 bytes of 'u') is written and opened O_RDWR
 *   (fd 4) and an io_uring of 8 entries set up (fd 3) before the release.
 *   After it, each op is submitted alone and waited for with one
 *   io_uring_enter(3, 1, 1, GETEVENTS), except the batch:
 *   uring:read  4, 4096 at 0 -> 4096                      1
 *   uring:write 4, 4096 at 4096 -> 4096                   1
 *   uring:openat AT_FDCWD DIR/other O_RDWR|O_CREAT 0644 -> 5  1
 *   uring:write 5, 100 at 0 -> 100                        1
 *   uring:read  5, 100 at 0 -> 100                        1
 *   uring:read  999, 10 -> -EBADF                         1
 *   uring:read  4, 4096 at 8192, IOSQE_ASYNC -> 4096      1
 *   uring:read  4, 1024 at 1024*i, i < 4, in one enter -> 1024 each  4
 *   uring:close 5 -> 0                                    1
 *   io_uring_register 3, IORING_REGISTER_FILES, [4], 1 -> 0  1
 *   uring:read slot 0 (IOSQE_FIXED_FILE: DIR/data), 1024 at 0 -> 1024  1
 *   uring:read 4 with an sqe flag no kernel has (0x80): refused before
 *     submission -> -EINVAL                                1
 *   pread64 4, 64 at 0 -> 64 (a syscall after the ops)    1
 *   totals: uring:read 10 (13412 bytes), uring:write 2 (4196 bytes),
 *   uring:openat 1, uring:close 1; io_uring_enter 11,
 *   io_uring_register 1, pread64 1.
 *
 * uringpath DIR: DIR/data (16384 bytes of 'p') is opened O_RDWR (fd 4),
 *   DIR opened O_DIRECTORY (fd 5), an io_uring of 8 entries set up (fd 3)
 *   with 4 empty registered slots, before the release. After it, each op
 *   alone, waited for with one io_uring_enter(3, 1, 1, GETEVENTS):
 *   uring:mkdirat AT_FDCWD DIR/d 0755 -> 0                1
 *   uring:statx 5 "data" -> 0                             1
 *   uring:renameat 5 "data" -> AT_FDCWD DIR/d/moved -> 0  1 (fd 4 follows)
 *   uring:linkat AT_FDCWD DIR/d/moved -> 5 "hard" -> 0    1
 *   uring:symlinkat "d/moved" -> 5 "sym" -> 0             1
 *   uring:unlinkat 5 "sym" -> 0                           1
 *   uring:openat 5 "hard" O_RDONLY into slot 2 -> 0       1
 *   uring:read slot 2 (DIR/hard), 100 -> 100              1
 *   uring:openat AT_FDCWD DIR/d/moved into a slot the kernel picks
 *     (IORING_FILE_INDEX_ALLOC) -> that slot (0, 1 or 3)  1
 *   uring:read that slot (DIR/d/moved), 50 -> 50           1
 *   uring:close slot 2 -> 0                               1
 *   uring:socket AF_UNIX SOCK_DGRAM into slot 2 -> 0      1
 *   uring:send slot 2, 1 byte -> -ENOTCONN                1
 *   uring:fixed_fd_install slot 2, NO_CLOEXEC -> 6        1
 *   close 6 (socket:unix) -> 0                            1
 *   uring:fixed_fd_install the picked slot -> 6 (O_CLOEXEC)  1
 *   pread64 6 (DIR/d/moved), 10 -> 10                     1
 *   uring:unlinkat 5 "d" AT_REMOVEDIR -> -ENOTEMPTY       1
 *   pread64 4 (now DIR/d/moved), 64 -> 64                 1
 *   The ready line names the ops this kernel lacks ("ready lacks
 *   uring:OP..."). Without uring:fixed_fd_install (before Linux 6.8)
 *   the first install fails (-EINVAL) and ends the three lines after the
 *   send. Before Linux 5.19 (no socket op, no slot the kernel picks) only
 *   the pread64 runs.
 *
 * uringsq DIR: as uring, on an SQPOLL ring (its poll thread submits;
 *   idle 10 s): DIR/data (16384 bytes of 'q') fd 4, ring fd 3. After the
 *   release, each batch is woken and waited for with one
 *   io_uring_enter(3, n, n, GETEVENTS | SQ_WAKEUP):
 *   uring:read 4, 4096 at 0 -> 4096; uring:write 4, 4096 at 4096 -> 4096;
 *   uring:read 4, 1024 at 1024*i, i < 4 -> 1024 each; pread64 4, 64.
 *   totals: uring:read 5 (8192 bytes), uring:write 1 (4096), all of the
 *   main thread; io_uring_enter 3, pread64 1.
 *
 * uringwait FIFO: FIFO opened O_RDWR (fd 4) and an io_uring set up (fd 3)
 *   before the release; after it, uring:read 4, 100 (the FIFO is empty:
 *   poll armed) waited for with io_uring_enter(3, 1, 1, GETEVENTS) until
 *   the test writes 6 bytes -> 6.
 *
 * aio DIR: DIR/data (16384 bytes of 'a') is written and opened O_RDWR
 *   (fd 3) and an aio context of 8 made (io_setup) before the release.
 *   After it, on raw syscalls (no libaio), each io_submit is followed by
 *   one io_getevents(ctx, N, N) for all its events:
 *   aio:pread  3, 4096 at 0 -> 4096                        1
 *   aio:pwrite 3, 4096 at 4096 -> 4096                     1
 *   aio:fsync  3 -> 0                                      1
 *   aio:pread  3, 1024 at 1024*i, i < 3, in one io_submit  3
 *   io_submit of [aio:pread 3, 100 at 0; aio:pread 999] -> 1: the second
 *     is refused (EBADF) and no op; the first -> 100      1
 *   aio:preadv 3, 2 x 512 at 0 -> 1024                     1
 *   pread64 3, 64 at 0 -> 64 (a syscall after the ops)     1
 *   totals: aio:pread 5 (7268 bytes), aio:pwrite 1 (4096), aio:fsync 1,
 *   aio:preadv 1 (1024); io_submit 6 (one -> 1 of 2), io_getevents 6.
 *
 * With WORKLOAD_NOWAIT set in its environment a scenario neither says
 * "ready" nor waits: ior -- workload ... traces it from its first syscall.
 *
 * fds 0-2 must be open and no other: the first open must return 3.
 *
 * Exit status 0 on success; on any unexpected result it prints one line
 * on stderr (a traced write) and exits 111.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/syscall.h>
#include <sys/wait.h>
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

/* The old path syscalls by number; arm64 has only their *at forms (and
 * dup3, ppoll, epoll_pwait), which the tests expect there instead. */
static long sys_rename(const char *from, const char *to)
{
#ifdef SYS_rename
	return syscall(SYS_rename, from, to);
#else
	return syscall(SYS_renameat, AT_FDCWD, from, AT_FDCWD, to);
#endif
}

static long sys_unlink(const char *path)
{
#ifdef SYS_unlink
	return syscall(SYS_unlink, path);
#else
	return syscall(SYS_unlinkat, AT_FDCWD, path, 0);
#endif
}

static long sys_mkdir(const char *path, long mode)
{
#ifdef SYS_mkdir
	return syscall(SYS_mkdir, path, mode);
#else
	return syscall(SYS_mkdirat, AT_FDCWD, path, mode);
#endif
}

static long sys_rmdir(const char *path)
{
#ifdef SYS_rmdir
	return syscall(SYS_rmdir, path);
#else
	return syscall(SYS_unlinkat, AT_FDCWD, path, AT_REMOVEDIR);
#endif
}

static long sys_dup2(long from, long to)
{
#ifdef SYS_dup2
	return syscall(SYS_dup2, from, to);
#else
	return syscall(SYS_dup3, from, to, 0);
#endif
}

static long sys_poll(void *fds, long n, long ms)
{
#ifdef SYS_poll
	return syscall(SYS_poll, fds, n, ms);
#else
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };
	return syscall(SYS_ppoll, fds, n, ms < 0 ? NULL : &ts, NULL, 8);
#endif
}

static long sys_epoll_wait(long e, void *ev, long n, long ms)
{
#ifdef SYS_epoll_wait
	return syscall(SYS_epoll_wait, e, ev, n, ms);
#else
	return syscall(SYS_epoll_pwait, e, ev, n, ms, NULL, 8);
#endif
}

/* select where the arch has it (arm64 has only pselect6). */
static long sys_select(long n, void *r, void *w, void *x, struct timeval *tv)
{
#ifdef SYS_select
	return syscall(SYS_select, n, r, w, x, tv);
#else
	struct timespec ts = { tv->tv_sec, tv->tv_usec * 1000 };
	return syscall(SYS_pselect6, n, r, w, x, &ts, NULL);
#endif
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

/* Says "ready" (and extra, e.g. thread ids); before ior attaches, so the
 * write is not traced. */
static void say_ready(const char *extra)
{
	char line[256];
	int n = snprintf(line, sizeof line, "ready%s\n", extra ? extra : "");
	if (n < 0 || (size_t)n >= sizeof line || write(1, line, (size_t)n) != n)
		die("write ready line", strerror(errno));
}

/* Says "ready" and sleeps until SIGUSR1. */
static void wait_for_release(const char *extra)
{
	if (getenv("WORKLOAD_NOWAIT"))
		return;
	say_ready(extra);
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
	expect(sys_rename(data, data2), 0, "rename");
	expect(syscall(SYS_newfstatat, AT_FDCWD, data2, &st, 0), 0, "newfstatat data2");
	expect(sys_unlink(data2), 0, "unlink data2");

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
	expect(sys_dup2(fd, 100), 100, "dup2");
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

static long flight_wait_ms; /* the writer's sleep after the release */

static void *flight_writer(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&start_line);
	sleep_ms(flight_wait_ms);
	expect(write(pipe_fds[1], "x", 1), 1, "write pipe");
	return 0;
}

static uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void pread_for(int fd, long ms)
{
	char c;
	for (uint64_t end = now_ms() + (uint64_t)ms; now_ms() < end;) {
		expect(pread(fd, &c, 1, 0), 1, "pread64 in flight");
		sleep_ms(2);
	}
}

static int flight(const char *file, const char *missing, long before, long after, long block)
{
	pthread_t t;
	char c;
	int fd = (int)expect(sys_openat(file, O_RDONLY, 0), 3, "openat before release");
	if (pipe(pipe_fds) != 0)
		die("pipe", strerror(errno));
	flight_wait_ms = before + block;
	if (pthread_barrier_init(&start_line, 0, 2) != 0 || pthread_create(&t, 0, flight_writer, 0) != 0)
		die("pthread_create", 0);
	wait_for_release(0);
	pthread_barrier_wait(&start_line);
	pread_for(fd, before);
	if (block)
		expect(read(pipe_fds[0], &c, 1), 1, "read pipe");
	expect(close((int)expect(sys_openat(file, O_RDONLY, 0), 6, "openat again")), 0, "close 6");
	if (sys_openat(missing, O_RDONLY, 0) != -1 || errno != ENOENT)
		die("openat missing", "did not fail with ENOENT");
	pread_for(fd, after);
	if (pthread_join(t, 0) != 0)
		die("pthread_join", 0);
	expect(close(fd), 0, "close");
	return 0;
}

static int slowstorm(long n, long ms)
{
	wait_for_release(0);
	for (long i = 0; i < n; i++)
		expect(sys_poll(NULL, 0, ms), 0, "poll");
	return 0;
}

static int hostile(const char *dir)
{
	char d1[512], d2[600], f[700], buf[64];
	join_path(d1, sizeof d1, dir, "evil,\"quoted\"\nline\xc3\xa9\xff<");
	join_path(d2, sizeof d2, d1, "text><script>alert(1)<");
	join_path(f, sizeof f, d2, "script>");
	wait_for_release(0);
	expect(sys_mkdir(d1, 0755), 0, "mkdir hostile dir 1");
	expect(sys_mkdir(d2, 0755), 0, "mkdir hostile dir 2");
	int fd = (int)expect(sys_openat(f, O_WRONLY | O_CREAT | O_TRUNC, 0644), 3, "openat hostile for writing");
	expect(write(fd, "hello\n", 6), 6, "write hostile");
	expect(close(fd), 0, "close hostile");
	fd = (int)expect(sys_openat(f, O_RDONLY, 0), 3, "openat hostile for reading");
	expect(read(fd, buf, sizeof buf), 6, "read hostile");
	expect(close(fd), 0, "close hostile");
	expect(sys_unlink(f), 0, "unlink hostile");
	expect(sys_rmdir(d2), 0, "rmdir hostile dir 2");
	expect(sys_rmdir(d1), 0, "rmdir hostile dir 1");
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

static int longpath(const char *dir)
{
	static char f[8192], g[8192], big[8192];
	size_t n = (size_t)snprintf(big, sizeof big, "%s/", dir);

	snprintf(f, sizeof f, "%s/f", dir);
	snprintf(g, sizeof g, "%s/g", dir);
	memset(big + n, 'x', 4196 - n); /* static: NUL-terminated */
	wait_for_release(0);
	expect(sys_openat(f, O_WRONLY | O_CREAT | O_TRUNC, 0644), 3, "openat long path");
	expect(write(3, "hello", 5), 5, "write long path");
	expect(close(3), 0, "close long path");
	expect(sys_rename(f, g), 0, "rename long paths");
	expect(sys_openat(big, O_RDONLY, 0), -1, "openat too long a path");
	if (errno != ENAMETOOLONG)
		die("openat too long a path", strerror(errno));
	expect(sys_unlink(g), 0, "unlink long path");
	return 0;
}

/* Forks a child that runs fn(arg) and _exits 0; the parent waits for it
 * (wait4: not traced) and fails unless it exited 0. */
static void in_child(void (*fn)(const void *), const void *arg, const char *what)
{
	int status;
	pid_t pid = fork();
	if (pid < 0)
		die("fork", strerror(errno));
	if (pid == 0) {
		fn(arg);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid", strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		die("child failed", what);
}

static void forkwrite_a(const void *arg)
{
	(void)arg;
	for (int i = 0; i < 3; i++)
		expect(write(3, "a", 1), 1, "child A write 3");
	expect(close(3), 0, "child A close 3");
}

static void forkwrite_b(const void *arg)
{
	(void)arg;
	for (int i = 0; i < 2; i++)
		expect(write(1, "b", 1), 1, "child B write 1");
	expect(close(1), 0, "child B close 1");
}

static int forkwrite(const char *dir)
{
	char log[512];
	join_path(log, sizeof log, dir, "log");
	wait_for_release(0);
	expect(sys_openat(log, O_WRONLY | O_CREAT | O_TRUNC, 0644), 3, "openat log");
	in_child(forkwrite_a, 0, "forkwrite A");
	expect(write(3, "p", 1), 1, "parent write 3");
	expect(sys_dup2(3, 1), 1, "dup2 3, 1");
	in_child(forkwrite_b, 0, "forkwrite B");
	expect(close(1), 0, "parent close 1");
	expect(close(3), 0, "parent close 3");
	return 0;
}

static void execfd_child(const void *exe)
{
	char *argv[] = { "workload", "execchild", 0 };
	char *envp[] = { 0 };
	expect(sys_dup2(3, 9), 9, "child dup2 3, 9");
	execve(exe, argv, envp);
	die("execve", strerror(errno));
}

/* The image execfd's child runs: fd 9 (DIR/keep) inherited, fd 4 gone. */
static int execchild(void)
{
	expect(write(9, "k", 1), 1, "execchild write 9");
	if (write(4, "g", 1) != -1 || errno != EBADF)
		die("execchild write 4", "the close-on-exec fd survived execve");
	expect(close(9), 0, "execchild close 9");
	return 0;
}

static int execfd(const char *dir)
{
	char keep[512], gone[512], exe[512];
	join_path(keep, sizeof keep, dir, "keep");
	join_path(gone, sizeof gone, dir, "gone");
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0 || (size_t)n >= sizeof exe - 1)
		die("readlink /proc/self/exe", strerror(errno));
	exe[n] = 0;
	wait_for_release(0);
	expect(sys_openat(keep, O_WRONLY | O_CREAT | O_TRUNC, 0644), 3, "openat keep");
	expect(sys_openat(gone, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), 4, "openat gone");
	in_child(execfd_child, exe, "execfd child");
	expect(write(4, "G", 1), 1, "parent write 4");
	expect(close(4), 0, "parent close 4");
	expect(close(3), 0, "parent close 3");
	return 0;
}

static int renameopen(const char *dir)
{
	char a[512], ab[512], af[600], ag[600], b[512], abh[600];
	join_path(a, sizeof a, dir, "a");
	join_path(ab, sizeof ab, dir, "ab");
	join_path(b, sizeof b, dir, "b");
	join_path(af, sizeof af, a, "f");
	join_path(ag, sizeof ag, a, "g");
	join_path(abh, sizeof abh, ab, "h");
	if (mkdir(a, 0755) != 0 || mkdir(ab, 0755) != 0)
		die("mkdir DIR/a, DIR/ab", strerror(errno));
	wait_for_release(0);
	expect(sys_openat(af, O_RDWR | O_CREAT, 0644), 3, "openat a/f");
	expect(sys_openat(abh, O_WRONLY | O_CREAT, 0644), 4, "openat ab/h");
	expect(write(3, "1", 1), 1, "write a/f");
	expect(sys_rename(af, ag), 0, "rename a/f a/g");
	expect(write(3, "2", 1), 1, "write a/g");
	expect(pwrite(3, "0", 1, 0), 1, "pwrite64 a/g");
	expect(sys_rename(a, b), 0, "rename a b");
	expect(write(3, "3", 1), 1, "write b/g");
	expect(fsync(3), 0, "fsync b/g");
	expect(write(4, "h", 1), 1, "write ab/h");
	expect(syscall(SYS_dup3, 3, 10, 0), 10, "dup3 3, 10");
	expect(close(10), 0, "close 10");
	expect(close(3), 0, "close 3");
	expect(close(4), 0, "close 4");
	return 0;
}

static int linkgone(const char *dir)
{
	char target[600], link[600], c;
	int fd;

	join_path(target, sizeof target, dir, "target");
	join_path(link, sizeof link, dir, "link");
	fd = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, "t", 1) != 1 || close(fd) != 0 || symlink("target", link) != 0)
		die("make DIR/target, DIR/link", strerror(errno));
	wait_for_release(0);
	expect(sys_openat(link, O_RDONLY, 0), 3, "openat link");
	expect(syscall(SYS_unlinkat, AT_FDCWD, link, 0), 0, "unlinkat link");
	expect(read(3, &c, 1), 1, "read target");
	expect(close(3), 0, "close 3");
	return 0;
}

static int fiforeuse(const char *fifo, const char *data)
{
	char c;
	say_ready(0);
	expect(sys_openat(fifo, O_RDONLY, 0), 3, "openat fifo (blocks until a writer)");
	expect(read(3, &c, 1), 1, "read fifo");
	expect(close(3), 0, "close fifo");
	expect(sys_openat(data, O_RDONLY, 0), 3, "openat data");
	expect(read(3, &c, 1), 1, "read data");
	expect(close(3), 0, "close data");
	return 0;
}

static int reuse(const char *a, const char *b, long n)
{
	const char *files[2] = { a, b };
	char c;
	wait_for_release(0);
	for (long i = 0; i < n; i++)
		for (int j = 0; j < 2; j++) {
			expect(sys_openat(files[j], O_RDONLY, 0), 3, "openat");
			expect(read(3, &c, 1), 1, "read");
			expect(close(3), 0, "close");
		}
	return 0;
}

static int relpath2(const char *dir)
{
	char d1[512], d2[512];
	join_path(d1, sizeof d1, dir, "d1");
	join_path(d2, sizeof d2, dir, "d2");
	if (mkdir(d1, 0755) != 0 || mkdir(d2, 0755) != 0)
		die("mkdir DIR/d1, DIR/d2", strerror(errno));
	wait_for_release(0);
	expect(sys_openat(d1, O_PATH | O_DIRECTORY, 0), 3, "openat d1");
	expect(sys_openat(d2, O_PATH | O_DIRECTORY, 0), 4, "openat d2");
	expect(syscall(SYS_openat, 3, "x", O_WRONLY | O_CREAT, 0644), 5, "openat 3, x");
	expect(close(5), 0, "close 5");
	expect(syscall(SYS_renameat, 3, "x", 4, "y"), 0, "renameat 3 x 4 y");
	expect(syscall(SYS_linkat, 4, "y", 3, "z", 0), 0, "linkat 4 y 3 z");
	expect(syscall(SYS_symlinkat, "target", 4, "s"), 0, "symlinkat target 4 s");
	expect(syscall(SYS_unlinkat, 3, "z", 0), 0, "unlinkat 3 z");
	expect(syscall(SYS_unlinkat, 4, "y", 0), 0, "unlinkat 4 y");
	expect(syscall(SYS_unlinkat, 4, "s", 0), 0, "unlinkat 4 s");
	expect(close(4), 0, "close 4");
	expect(close(3), 0, "close 3");
	return 0;
}

static void *sharedfd_reader(void *arg)
{
	char c;
	*(pid_t *)arg = (pid_t)syscall(SYS_gettid);
	pthread_barrier_wait(&counted);
	pthread_barrier_wait(&start_line);
	expect(read(3, &c, 1), 1, "thread B read 3");
	expect(close(3), 0, "thread B close 3");
	return 0;
}

static const char *clone_file;

/* The clonefiles child: its open lands in the table it shares. */
static int clone_child(void *arg)
{
	(void)arg;
	int fd = (int)expect(sys_openat(clone_file, O_WRONLY | O_CREAT | O_TRUNC, 0644), 3,
			     "openat in the CLONE_FILES child");
	expect(write(fd, "c", 1), 1, "write in the CLONE_FILES child");
	return 0;
}

static int clonefiles(const char *file)
{
	static char stack[64 * 1024] __attribute__((aligned(16)));
	int st;

	clone_file = file;
	wait_for_release(0);
	pid_t pid = clone(clone_child, stack + sizeof stack, CLONE_FILES | SIGCHLD, NULL);
	if (pid < 0)
		die("clone", strerror(errno));
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		die("clonefiles child", "failed");
	expect(write(3, "p", 1), 1, "write on the child's fd");
	expect(close(3), 0, "close the child's fd");
	return 0;
}

static int sharedfd(const char *file)
{
	pthread_t t;
	pid_t tid = 0;
	char extra[32];
	if (pthread_barrier_init(&counted, 0, 2) != 0 || pthread_barrier_init(&start_line, 0, 2) != 0)
		die("pthread_barrier_init", 0);
	if (pthread_create(&t, 0, sharedfd_reader, &tid) != 0)
		die("pthread_create", 0);
	pthread_barrier_wait(&counted);
	snprintf(extra, sizeof extra, " %d", (int)tid);
	wait_for_release(extra);
	expect(sys_openat(file, O_RDONLY, 0), 3, "main openat");
	pthread_barrier_wait(&start_line);
	if (pthread_join(t, 0) != 0)
		die("pthread_join", 0);
	return 0;
}

/* N short-lived processes, one after the other: the fd tables of the
 * exited ones must be freed (ior's memory stays flat). */
static int churn(const char *file, long n)
{
	wait_for_release(0);
	for (long i = 0; i < n; i++) {
		pid_t pid = vfork(); /* the child only makes syscalls and _exits */
		if (pid < 0)
			die("vfork", strerror(errno));
		if (pid == 0) {
			int fd = (int)sys_openat(file, O_WRONLY | O_APPEND, 0);
			if (fd < 0 || write(fd, "x", 1) != 1 || close(fd))
				_exit(FAILED);
			_exit(0);
		}
		int st;
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
			die("churn child", "failed");
	}
	return 0;
}

/* sendmsg/recvmsg of one buffer. */
static long msg_io(int fd, char *buf, size_t len, int send)
{
	struct iovec iov = { buf, len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	return send ? sendmsg(fd, &m, 0) : recvmsg(fd, &m, 0);
}

/* A TCP connection over 127.0.0.1: listener 5, client 6, accepted 7. */
static void tcp_pair(int *l, int *c, int *a)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof sa;
	int one = 1;
	*l = (int)expect(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), 5, "socket listener");
	expect(setsockopt(*l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one), 0, "setsockopt");
	expect(bind(*l, (struct sockaddr *)&sa, sizeof sa), 0, "bind");
	expect(listen(*l, 1), 0, "listen");
	expect(getsockname(*l, (struct sockaddr *)&sa, &len), 0, "getsockname");
	*c = (int)expect(socket(AF_INET, SOCK_STREAM, 0), 6, "socket client");
	expect(connect(*c, (struct sockaddr *)&sa, sizeof sa), 0, "connect");
	*a = (int)expect(accept4(*l, 0, 0, SOCK_CLOEXEC), 7, "accept4");
}

/* poll and epoll_wait by number: libcs may route them to ppoll/epoll_pwait. */
static void waits(int c, int a)
{
	struct pollfd pfd = { a, POLLIN, 0 };
	struct epoll_event ev = { .events = EPOLLIN }, got;
	char b;
	expect(sys_poll(&pfd, 1, 50), 0, "poll");
	int e = (int)expect(epoll_create1(EPOLL_CLOEXEC), 8, "epoll_create1");
	expect(epoll_ctl(e, EPOLL_CTL_ADD, a, &ev), 0, "epoll_ctl");
	expect(sys_epoll_wait(e, &got, 1, 30), 0, "epoll_wait timeout");
	expect(sendto(c, "!", 1, 0, 0, 0), 1, "sendto 1");
	expect(sys_epoll_wait(e, &got, 1, 5000), 1, "epoll_wait ready");
	expect(recvfrom(a, &b, 1, 0, 0, 0), 1, "recvfrom 1");
	expect(close(e), 0, "close epoll");
}

static int net(void)
{
	static char big[1000], in[1000];
	char buf[64];
	int p[2], sv[2], l, c, a;
	wait_for_release(0);
	expect(pipe2(p, O_CLOEXEC), 0, "pipe2");
	expect(write(p[1], "hello", 5), 5, "write pipe");
	expect(read(p[0], buf, sizeof buf), 5, "read pipe");
	expect(close(p[1]), 0, "close pipe");
	expect(close(p[0]), 0, "close pipe");
	expect(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0, "socketpair");
	expect(sendto(sv[0], "hello", 5, 0, 0, 0), 5, "sendto unix");
	expect(recvfrom(sv[1], buf, sizeof buf, 0, 0, 0), 5, "recvfrom unix");
	expect(msg_io(sv[1], "message", 7, 1), 7, "sendmsg");
	expect(msg_io(sv[0], buf, sizeof buf, 0), 7, "recvmsg");
	tcp_pair(&l, &c, &a);
	expect(sendto(c, big, sizeof big, 0, 0, 0), 1000, "sendto tcp");
	expect(recvfrom(a, in, sizeof in, MSG_WAITALL, 0, 0), 1000, "recvfrom tcp");
	waits(c, a);
	int fds[] = { a, c, l, sv[1], sv[0] };
	for (size_t i = 0; i < sizeof fds / sizeof *fds; i++)
		expect(close(fds[i]), 0, "close");
	return 0;
}

/* socket, bind, listen, getsockname: the listener's address in sa. */
static int listener(int family, int type, struct sockaddr *sa, socklen_t len, int want)
{
	int l = (int)expect(socket(family, type, 0), want, "socket listener");
	expect(bind(l, sa, len), 0, "bind");
	if (type == SOCK_STREAM)
		expect(listen(l, 4), 0, "listen");
	if (family != AF_UNIX)
		expect(getsockname(l, sa, &len), 0, "getsockname");
	return l;
}

static unsigned port_of(int fd)
{
	struct sockaddr_in6 sa;
	socklen_t len = sizeof sa;
	expect(getsockname(fd, (struct sockaddr *)&sa, &len), 0, "getsockname port");
	return ntohs(sa.sin6_port); /* sin_port is at the same place */
}

/* A unix stream connection to the listener at un (fds want, +1, +2). */
static void unix_conn(struct sockaddr_un *un, socklen_t len, int want)
{
	char buf[64];
	int l = listener(AF_UNIX, SOCK_STREAM, (struct sockaddr *)un, len, want);
	int c = (int)expect(socket(AF_UNIX, SOCK_STREAM, 0), want + 1, "socket unix");
	expect(connect(c, (struct sockaddr *)un, len), 0, "connect unix");
	expect(accept4(l, 0, 0, 0), want + 2, "accept4 unix");
	expect(sendto(c, "abc", 3, 0, 0, 0), 3, "sendto unix");
	expect(recvfrom(want + 2, buf, sizeof buf, 0, 0, 0), 3, "recvfrom unix");
}

static void mmsg(int t, int u, struct sockaddr_in *to)
{
	static char data[3][8] = { "aaaa", "bbbbb", "cccccc" }, in[3][64];
	struct iovec iov[3], iin[3];
	struct mmsghdr m[3], r[3];
	memset(m, 0, sizeof m);
	memset(r, 0, sizeof r);
	for (int i = 0; i < 3; i++) {
		iov[i] = (struct iovec){ data[i], (size_t)(4 + i) };
		iin[i] = (struct iovec){ in[i], sizeof in[i] };
		m[i].msg_hdr = (struct msghdr){ .msg_name = to, .msg_namelen = sizeof *to, .msg_iov = &iov[i], .msg_iovlen = 1 };
		r[i].msg_hdr = (struct msghdr){ .msg_iov = &iin[i], .msg_iovlen = 1 };
	}
	/* by number: musl's sendmmsg is a loop of sendmsg */
	expect(syscall(SYS_sendmmsg, t, m, 3, 0), 3, "sendmmsg");
	expect(syscall(SYS_recvmmsg, u, r, 3, 0, 0), 3, "recvmmsg");
	expect(r[0].msg_len + r[1].msg_len + r[2].msg_len, 15, "recvmmsg bytes");
}

static int endpoints(const char *dir)
{
	struct sockaddr_in6 s6 = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT }, peer;
	struct sockaddr_in s4 = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) }, from;
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	socklen_t len = sizeof peer;
	static char big[100], in[100];
	char buf[64], line[96];
	int p[2], sv[2], st;
	struct stat sb;
	if (snprintf(un.sun_path, sizeof un.sun_path, "%s/u.sock", dir) >= (int)sizeof un.sun_path)
		die("endpoints", "DIR too long");
	unlink(un.sun_path);
	syscall(SYS_close_range, 3, ~0u, 0); /* fds from 3 whatever the caller left open */
	wait_for_release(0);
	int l6 = listener(AF_INET6, SOCK_STREAM, (struct sockaddr *)&s6, sizeof s6, 3);
	expect(socket(AF_INET6, SOCK_STREAM, 0), 4, "socket tcp6");
	expect(connect(4, (struct sockaddr *)&s6, sizeof s6), 0, "connect tcp6");
	expect(accept(l6, (struct sockaddr *)&peer, &len), 5, "accept tcp6");
	unsigned c6 = port_of(4);
	expect(sendto(4, big, sizeof big, 0, 0, 0), 100, "sendto tcp6");
	expect(recvfrom(5, in, sizeof in, MSG_WAITALL, 0, 0), 100, "recvfrom tcp6");
	int u = listener(AF_INET, SOCK_DGRAM, (struct sockaddr *)&s4, sizeof s4, 6);
	int t = (int)expect(socket(AF_INET, SOCK_DGRAM, 0), 7, "socket udp");
	for (int i = 0; i < 2; i++) {
		len = sizeof from;
		expect(sendto(t, "0123456789", 10, 0, (struct sockaddr *)&s4, sizeof s4), 10, "sendto udp");
		expect(recvfrom(u, buf, sizeof buf, 0, (struct sockaddr *)&from, &len), 10, "recvfrom udp");
	}
	unsigned tp = port_of(t);
	mmsg(t, u, &s4);
	unix_conn(&un, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(un.sun_path) + 1), 8);
	int n = snprintf(un.sun_path + 1, sizeof un.sun_path - 1, "ior-endpoints-%d", (int)getpid());
	un.sun_path[0] = 0;
	un.sun_path[n + 1] = 0; /* a NUL inside the name, shown as '@' */
	un.sun_path[n + 2] = 'x';
	unix_conn(&un, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + 3), 11);
	expect(pipe(p), 0, "pipe");
	pid_t pid = fork();
	if (pid < 0)
		die("fork", strerror(errno));
	if (pid == 0)
		_exit(write(p[1], "hello", 5) == 5 ? 0 : FAILED);
	expect(read(p[0], buf, sizeof buf), 5, "read pipe");
	expect(fstat(p[0], &sb), 0, "fstat pipe");
	unsigned long long pipe_ino = (unsigned long long)sb.st_ino;
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		die("endpoints child", "failed");
	expect(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv), 0, "socketpair");
	expect(sendto(sv[0], "hi", 2, 0, 0, 0), 2, "sendto socketpair");
	expect(recvfrom(sv[1], buf, sizeof buf, 0, 0, 0), 2, "recvfrom socketpair");
	for (int fd = 17; fd >= 3; fd--)
		expect(close(fd), 0, "close");
	n = snprintf(line, sizeof line, "ports %u %u %u %u %llu\n", ntohs(s6.sin6_port), c6, ntohs(s4.sin_port), tp,
		     (unsigned long long)pipe_ino);
	expect(write(1, line, (size_t)n), n, "write ports");
	return 0;
}

/* Waits by number with known timeouts: libcs route poll and select to
 * ppoll and pselect6. */
static int waits_scenario(void)
{
	struct timespec ts20 = { 0, 20000000 }, ts15 = { 0, 15000000 }, ts14 = { 0, 14000000 };
	struct timeval tv25 = { 0, 25000 };
	struct epoll_event ev;
	int sv[2];
	wait_for_release(0);
	expect(sys_poll(0, 0, 30), 0, "poll 30 ms");
	expect(syscall(SYS_ppoll, 0, 0, &ts20, 0, 8), 0, "ppoll 20 ms");
	expect(sys_select(0, 0, 0, 0, &tv25), 0, "select 25 ms");
	expect(syscall(SYS_pselect6, 0, 0, 0, 0, &ts15, 0), 0, "pselect6 15 ms");
	int e = (int)expect(epoll_create1(0), 3, "epoll_create1");
	expect(sys_epoll_wait(e, &ev, 1, 10), 0, "epoll_wait 10 ms");
	expect(syscall(SYS_epoll_pwait, e, &ev, 1, 12, 0, 8), 0, "epoll_pwait 12 ms");
	expect(syscall(441 /* epoll_pwait2 */, e, &ev, 1, &ts14, 0, 8), 0, "epoll_pwait2 14 ms");
	expect(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0, "socketpair");
	expect(sendto(sv[0], "!", 1, 0, 0, 0), 1, "sendto");
	struct pollfd pfd = { sv[1], POLLIN, 0 };
	expect(sys_poll(&pfd, 1, -1), 1, "poll for ever");
	expect(syscall(SYS_ppoll, &pfd, 1, 0, 0, 8), 1, "ppoll for ever");
	int fds[] = { sv[1], sv[0], e };
	for (size_t i = 0; i < sizeof fds / sizeof *fds; i++)
		expect(close(fds[i]), 0, "close");
	return 0;
}

/* Level k of forktree: its file, then level k + 1 in a child. */
static void forktree_level(const char *dir, int k)
{
	char path[512], name[16], line[32];
	snprintf(name, sizeof name, "L%d", k);
	join_path(path, sizeof path, dir, name);
	int n = snprintf(line, sizeof line, "%d\n", (int)getpid());
	expect(sys_openat(path, O_WRONLY | O_CREAT | O_TRUNC, 0644), 3, "openat Lk");
	expect(write(3, line, (size_t)n), n, "write Lk");
	expect(close(3), 0, "close Lk");
	if (k == 3)
		return;
	int status;
	pid_t pid = fork();
	if (pid < 0)
		die("fork", strerror(errno));
	if (pid == 0) {
		forktree_level(dir, k + 1);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		die("forktree", "a child failed");
}

static int forktree(const char *dir)
{
	wait_for_release(0);
	forktree_level(dir, 0);
	return 0;
}

static int ids(const char *file)
{
	gid_t g[64];
	char line[1024];
	int ng = getgroups(64, g);
	if (ng < 0)
		die("getgroups", strerror(errno));
	int n = snprintf(line, sizeof line, "%u %u %d", (unsigned)getuid(), (unsigned)getgid(), ng);
	for (int i = 0; i < ng && n < 900; i++)
		n += snprintf(line + n, sizeof line - (size_t)n, " %u", (unsigned)g[i]);
	line[n++] = '\n';
	wait_for_release(0);
	expect(sys_openat(file, O_WRONLY | O_CREAT | O_TRUNC, 0644), 3, "openat ids");
	expect(write(3, line, (size_t)n), n, "write ids");
	expect(close(3), 0, "close ids");
	return 0;
}

static pthread_barrier_t leaderexit_go;

static void *leaderexit_thread(void *arg)
{
	pthread_barrier_wait(&leaderexit_go);
	sleep_ms(60);
	expect(sys_openat(arg, O_WRONLY | O_CREAT | O_TRUNC, 0644), 3, "openat leaderexit");
	expect(write(3, "t", 1), 1, "write leaderexit");
	expect(close(3), 0, "close leaderexit");
	_exit(0);
}

static int leaderexit(const char *file)
{
	pthread_t t;
	pthread_barrier_init(&leaderexit_go, 0, 2);
	if (pthread_create(&t, 0, leaderexit_thread, (void *)file))
		die("pthread_create", "leaderexit");
	wait_for_release(0);
	pthread_barrier_wait(&leaderexit_go);
	pthread_exit(0);
}

static _Noreturn void usage(void)
{
	static const char text[] =
		"usage: workload basic DIR N | preopen FILE M | dup FILE | sleepgap FILE |\n"
		"       pipeblock | threads FILE | loop FILE N | fiforead FIFO | hostile DIR |\n"
		"       opath FILE DIR N | forkwrite DIR | execfd DIR | renameopen DIR | linkgone DIR |\n"
		"       fiforeuse FIFO DATA | reuse A B N | relpath2 DIR | sharedfd FILE |\n"
		"       churn FILE N | clonefiles FILE | longpath DIR | forktree DIR |\n"
		"       ids FILE | leaderexit FILE | net | endpoints DIR | waits | blockdev DEV N |\n"
		"       flight FILE MISSING BEFORE AFTER BLOCK | slowstorm N MS\n"
		"Each scenario prints \"ready\" and waits for SIGUSR1 (see tests/workload.c).\n";
	if (write(2, text, sizeof text - 1) < 0)
		_exit(2);
	_exit(2);
}

/* ---- io_uring on raw syscalls (no liburing): just what uring needs ---- */

struct ur_sqe {
	uint8_t opcode, flags;
	uint16_t ioprio;
	int32_t fd;
	uint64_t off, addr; /* off: addr2 of the path ops (their second path, statx's buffer) */
	uint32_t len, op_flags;
	uint64_t user_data;
	uint16_t buf_index, personality;
	uint32_t file_index; /* a direct descriptor's slot + 1, or UR_SLOT_ALLOC */
	uint64_t pad[2];
};

struct ur_cqe {
	uint64_t user_data;
	int32_t res;
	uint32_t flags;
};

struct ur_params {
	uint32_t sq_entries, cq_entries, flags, sq_thread_cpu, sq_thread_idle, features, wq_fd, resv[3];
	uint32_t sq_off[10]; /* head, tail, ring_mask, ring_entries, flags, dropped, array, resv1, user_addr(2) */
	uint32_t cq_off[10]; /* head, tail, ring_mask, ring_entries, overflow, cqes, flags, resv1, user_addr(2) */
};

struct uring {
	int fd;
	char *sq, *cq;
	struct ur_sqe *sqes;
	struct ur_params p;
};

enum { UR_READ = 22, UR_WRITE = 23, UR_OPENAT = 18, UR_CLOSE = 19, UR_ASYNC = 16, UR_FIXED = 1 };
enum { UR_STATX = 21, UR_RENAMEAT = 35, UR_UNLINKAT = 36, UR_MKDIRAT = 37, UR_SYMLINKAT = 38, UR_LINKAT = 39 };
enum { UR_SEND = 26, UR_SOCKET = 45, UR_FIXED_FD_INSTALL = 54 };
#define UR_SLOT_ALLOC 0xffffffffu /* IORING_FILE_INDEX_ALLOC */

#define UR_U32(base, off) ((volatile uint32_t *)((base) + (off)))

static void uring_setup_flags(struct uring *u, unsigned entries, uint32_t flags, uint32_t idle_ms)
{
	memset(u, 0, sizeof *u);
	u->p.flags = flags;
	u->p.sq_thread_idle = idle_ms;
	u->fd = (int)syscall(425, entries, &u->p);
	if (u->fd < 0)
		die("io_uring_setup", strerror(errno));
	size_t sqlen = u->p.sq_off[6] + u->p.sq_entries * 4, cqlen = u->p.cq_off[5] + u->p.cq_entries * sizeof(struct ur_cqe);
	u->sq = mmap(0, sqlen, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, u->fd, 0);
	u->cq = mmap(0, cqlen, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, u->fd, 0x8000000);
	u->sqes = mmap(0, u->p.sq_entries * sizeof *u->sqes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		       u->fd, 0x10000000);
	if (u->sq == MAP_FAILED || u->cq == MAP_FAILED || u->sqes == MAP_FAILED)
		die("io_uring mmap", strerror(errno));
}

static void uring_setup(struct uring *u, unsigned entries)
{
	uring_setup_flags(u, entries, 0, 0);
}

/* Queues one sqe; submitted by the next uring_enter. */
static struct ur_sqe *uring_queue(struct uring *u, uint8_t op, uint8_t flags, int fd, void *addr, uint32_t len,
			uint64_t off, uint32_t op_flags)
{
	uint32_t tail = *UR_U32(u->sq, u->p.sq_off[1]), mask = *UR_U32(u->sq, u->p.sq_off[2]);
	struct ur_sqe *e = &u->sqes[tail & mask];
	memset(e, 0, sizeof *e);
	e->opcode = op;
	e->flags = flags;
	e->fd = fd;
	e->addr = (uint64_t)(uintptr_t)addr;
	e->len = len;
	e->off = off;
	e->op_flags = op_flags;
	e->user_data = tail;
	UR_U32(u->sq, u->p.sq_off[6])[tail & mask] = tail & mask;
	__atomic_store_n(UR_U32(u->sq, u->p.sq_off[1]), tail + 1, __ATOMIC_RELEASE);
	return e;
}

/* The next completion's result (its entry consumed). */
static int32_t uring_reap(struct uring *u)
{
	uint32_t head = *UR_U32(u->cq, u->p.cq_off[0]), mask = *UR_U32(u->cq, u->p.cq_off[2]);
	if (head == __atomic_load_n(UR_U32(u->cq, u->p.cq_off[1]), __ATOMIC_ACQUIRE))
		die("io_uring", "completion missing");
	int32_t res = ((struct ur_cqe *)(u->cq + u->p.cq_off[5]) + (head & mask))->res;
	__atomic_store_n(UR_U32(u->cq, u->p.cq_off[0]), head + 1, __ATOMIC_RELEASE);
	return res;
}

/* Submits n queued sqes, waits for all n, checks each result. With
 * SQPOLL (flags), the poll thread submits them: the call only wakes it
 * and waits (it returns n all the same). */
static void uring_enter_flags(struct uring *u, unsigned n, const int32_t *want, unsigned flags)
{
	expect(syscall(426, u->fd, n, n, 1u /* IORING_ENTER_GETEVENTS */ | flags, 0, 0), n, "io_uring_enter");
	for (unsigned i = 0; i < n; i++)
		expect(uring_reap(u), want[i], "io_uring op");
}

static void uring_enter(struct uring *u, unsigned n, const int32_t *want)
{
	uring_enter_flags(u, n, want, 0);
}

/* Whether this kernel has opcode op (IORING_REGISTER_PROBE, Linux 5.6+;
 * without it, none of the ops the probe names). */
static int uring_has(struct uring *u, uint8_t op)
{
	struct {
		uint8_t last_op, ops_len;
		uint16_t resv;
		uint32_t resv2[3];
		struct { uint8_t op, resv; uint16_t flags; uint32_t resv2; } ops[256];
	} probe;
	memset(&probe, 0, sizeof probe);
	if (syscall(427, u->fd, 8 /* IORING_REGISTER_PROBE */, &probe, 256) < 0)
		return 0;
	return op <= probe.last_op && (probe.ops[op].flags & 1 /* IO_URING_OP_SUPPORTED */);
}

/* Submits one queued sqe, waits for it: its result. */
static int32_t uring_one(struct uring *u)
{
	expect(syscall(426, u->fd, 1, 1, 1u /* IORING_ENTER_GETEVENTS */, 0, 0), 1, "io_uring_enter");
	return uring_reap(u);
}

static int uring(const char *dir)
{
	static char buf[16384], small[100];
	char data[512], other[512];
	struct uring u;
	join_path(data, sizeof data, dir, "data");
	join_path(other, sizeof other, dir, "other");
	memset(buf, 'u', sizeof buf);
	memset(small, 's', sizeof small);
	uring_setup(&u, 8);
	int fd = (int)expect(sys_openat(data, O_RDWR | O_CREAT | O_TRUNC, 0644), 4, "openat data");
	expect(write(fd, buf, sizeof buf), sizeof buf, "write data");
	wait_for_release(0);

	uring_queue(&u, UR_READ, 0, fd, buf, 4096, 0, 0);
	uring_enter(&u, 1, (int32_t[]){ 4096 });
	uring_queue(&u, UR_WRITE, 0, fd, buf, 4096, 4096, 0);
	uring_enter(&u, 1, (int32_t[]){ 4096 });
	uring_queue(&u, UR_OPENAT, 0, AT_FDCWD, other, 0644, 0, O_RDWR | O_CREAT);
	uring_enter(&u, 1, (int32_t[]){ 5 });
	uring_queue(&u, UR_WRITE, 0, 5, small, 100, 0, 0);
	uring_enter(&u, 1, (int32_t[]){ 100 });
	uring_queue(&u, UR_READ, 0, 5, small, 100, 0, 0);
	uring_enter(&u, 1, (int32_t[]){ 100 });
	uring_queue(&u, UR_READ, 0, 999, small, 10, 0, 0);
	uring_enter(&u, 1, (int32_t[]){ -EBADF });
	uring_queue(&u, UR_READ, UR_ASYNC, fd, buf, 4096, 8192, 0);
	uring_enter(&u, 1, (int32_t[]){ 4096 });
	for (int i = 0; i < 4; i++)
		uring_queue(&u, UR_READ, 0, fd, buf + 1024 * i, 1024, 1024 * (uint64_t)i, 0);
	uring_enter(&u, 4, (int32_t[]){ 1024, 1024, 1024, 1024 });
	uring_queue(&u, UR_CLOSE, 0, 5, 0, 0, 0, 0);
	uring_enter(&u, 1, (int32_t[]){ 0 });
	expect(syscall(427, u.fd, 2 /* IORING_REGISTER_FILES */, &fd, 1), 0, "io_uring_register files");
	uring_queue(&u, UR_READ, 1 /* IOSQE_FIXED_FILE */, 0, buf, 1024, 0, 0);
	uring_enter(&u, 1, (int32_t[]){ 1024 });
	uring_queue(&u, UR_READ, 0x80, fd, buf, 10, 0, 0); /* no such sqe flag */
	uring_enter(&u, 1, (int32_t[]){ -EINVAL });
	expect(pread(fd, buf, 64, 0), 64, "pread64 64");
	return 0;
}

static const struct { uint8_t op; const char *name; } uringpath_ops[] = {
	{ UR_MKDIRAT, "mkdirat" }, { UR_STATX, "statx" }, { UR_RENAMEAT, "renameat" },
	{ UR_LINKAT, "linkat" }, { UR_SYMLINKAT, "symlinkat" }, { UR_UNLINKAT, "unlinkat" },
	{ UR_OPENAT, "openat" }, { UR_READ, "read" }, { UR_CLOSE, "close" }, { UR_SOCKET, "socket" },
	{ UR_SEND, "send" }, { UR_FIXED_FD_INSTALL, "fixed_fd_install" }, /* the last: Linux 6.8 */
};

/* " lacks uring:OP..." for the ops this kernel lacks into out ("" when
 * none); whether it has all but the install. */
static int uringpath_probe(struct uring *u, char *out, size_t len)
{
	size_t n = sizeof uringpath_ops / sizeof *uringpath_ops, o = 0;
	int core = 1;
	out[0] = 0;
	for (size_t i = 0; i < n; i++) {
		if (uring_has(u, uringpath_ops[i].op))
			continue;
		core &= i == n - 1;
		if (o >= len - 40)
			break;
		o += (size_t)snprintf(out + o, len - o, "%s uring:%s", o ? "" : " lacks", uringpath_ops[i].name);
	}
	return core;
}

/* A socket into slot 2, a send on it, then each direct descriptor
 * installed as an fd (when the kernel has the op; else the install
 * fails, -EINVAL, and nothing uses its fd): see the comment at the top. */
static void uringpath_install(struct uring *u, int32_t slot, int has_install)
{
	static char buf[16];
	struct ur_sqe *e = uring_queue(u, UR_SOCKET, 0, AF_UNIX, 0, 0, SOCK_DGRAM, 0); /* type in off */
	e->file_index = 3; /* slot 2 */
	expect(uring_one(u), 0, "uring socket slot 2");
	uring_queue(u, UR_SEND, UR_FIXED, 2, buf, 1, 0, 0);
	expect(uring_one(u), -ENOTCONN, "uring send slot 2");
	uring_queue(u, UR_FIXED_FD_INSTALL, UR_FIXED, 2, 0, 0, 0, 1 /* IORING_FIXED_FD_NO_CLOEXEC */);
	if (!has_install) {
		expect(uring_one(u), -EINVAL, "uring fixed_fd_install (not in this kernel)");
		return;
	}
	expect(uring_one(u), 6, "uring fixed_fd_install slot 2");
	expect(close(6), 0, "close 6");
	uring_queue(u, UR_FIXED_FD_INSTALL, UR_FIXED, slot, 0, 0, 0, 0);
	expect(uring_one(u), 6, "uring fixed_fd_install slot picked");
	expect(pread(6, buf, 10, 0), 10, "pread64 6");
}

/* Ops that take paths, and direct descriptors (the ring's fixed-file
 * table filled by opens, emptied by a close): see the comment at the top. */
static int uringpath(const char *dir)
{
	static char buf[16384];
	char data[512];
	struct ur_sqe *e;
	struct uring u;
	int32_t sparse[4] = { -1, -1, -1, -1 };
	uint8_t stx[256];
	join_path(data, sizeof data, dir, "data");
	memset(buf, 'p', sizeof buf);
	uring_setup(&u, 8);
	int fd = (int)expect(sys_openat(data, O_RDWR | O_CREAT | O_TRUNC, 0644), 4, "openat data");
	expect(write(fd, buf, sizeof buf), sizeof buf, "write data");
	int dfd = (int)expect(sys_openat(dir, O_RDONLY | O_DIRECTORY, 0), 5, "openat dir");
	expect(syscall(427, u.fd, 2 /* IORING_REGISTER_FILES */, sparse, 4), 0, "io_uring_register sparse");
	char lacks[240];
	int core = uringpath_probe(&u, lacks, sizeof lacks);
	wait_for_release(lacks);
	if (!core) { /* before Linux 5.19: its direct descriptors are not these */
		expect(pread(fd, buf, 64, 0), 64, "pread64 64");
		return 0;
	}

	char d[512], moved[512];
	join_path(d, sizeof d, dir, "d");
	join_path(moved, sizeof moved, dir, "d/moved");
	uring_queue(&u, UR_MKDIRAT, 0, AT_FDCWD, d, 0755, 0, 0);
	expect(uring_one(&u), 0, "uring mkdirat");
	uring_queue(&u, UR_STATX, 0, dfd, (void *)"data", 0x7ff /* STATX_BASIC_STATS */, (uint64_t)(uintptr_t)stx, 0);
	expect(uring_one(&u), 0, "uring statx");
	uring_queue(&u, UR_RENAMEAT, 0, dfd, (void *)"data", (uint32_t)AT_FDCWD, (uint64_t)(uintptr_t)moved, 0);
	expect(uring_one(&u), 0, "uring renameat");
	uring_queue(&u, UR_LINKAT, 0, AT_FDCWD, moved, (uint32_t)dfd, (uint64_t)(uintptr_t) "hard", 0);
	expect(uring_one(&u), 0, "uring linkat");
	uring_queue(&u, UR_SYMLINKAT, 0, dfd, (void *)"d/moved", 0, (uint64_t)(uintptr_t) "sym", 0);
	expect(uring_one(&u), 0, "uring symlinkat");
	uring_queue(&u, UR_UNLINKAT, 0, dfd, (void *)"sym", 0, 0, 0);
	expect(uring_one(&u), 0, "uring unlinkat");
	e = uring_queue(&u, UR_OPENAT, 0, dfd, (void *)"hard", 0, 0, O_RDONLY);
	e->file_index = 3; /* slot 2 */
	expect(uring_one(&u), 0, "uring openat direct");
	uring_queue(&u, UR_READ, UR_FIXED, 2, buf, 100, 0, 0);
	expect(uring_one(&u), 100, "uring read slot 2");
	e = uring_queue(&u, UR_OPENAT, 0, AT_FDCWD, moved, 0, 0, O_RDONLY);
	e->file_index = UR_SLOT_ALLOC;
	int32_t slot = uring_one(&u);
	if (slot < 0 || slot > 3 || slot == 2)
		die("uring openat alloc", "no free slot picked");
	uring_queue(&u, UR_READ, UR_FIXED, slot, buf, 50, 0, 0);
	expect(uring_one(&u), 50, "uring read slot picked");
	e = uring_queue(&u, UR_CLOSE, 0, 0, 0, 0, 0, 0);
	e->file_index = 3;
	expect(uring_one(&u), 0, "uring close slot 2");
	uringpath_install(&u, slot, !lacks[0]);
	uring_queue(&u, UR_UNLINKAT, 0, dfd, (void *)"d", 0, 0, 0x200 /* AT_REMOVEDIR */);
	expect(uring_one(&u), -ENOTEMPTY, "uring unlinkat d");
	expect(pread(fd, buf, 64, 0), 64, "pread64 64");
	return 0;
}

/* An SQPOLL ring: the kernel's poll thread submits; see the top. */
static int uringsq(const char *dir)
{
	static char buf[16384];
	char data[512];
	struct uring u;
	join_path(data, sizeof data, dir, "data");
	memset(buf, 'q', sizeof buf);
	uring_setup_flags(&u, 8, 2 /* IORING_SETUP_SQPOLL */, 10000);
	int fd = (int)expect(sys_openat(data, O_RDWR | O_CREAT | O_TRUNC, 0644), 4, "openat data");
	expect(write(fd, buf, sizeof buf), sizeof buf, "write data");
	wait_for_release(0);

	const unsigned wake = 2; /* IORING_ENTER_SQ_WAKEUP: the thread may sleep */
	uring_queue(&u, UR_READ, 0, fd, buf, 4096, 0, 0);
	uring_enter_flags(&u, 1, (int32_t[]){ 4096 }, wake);
	uring_queue(&u, UR_WRITE, 0, fd, buf, 4096, 4096, 0);
	uring_enter_flags(&u, 1, (int32_t[]){ 4096 }, wake);
	for (int i = 0; i < 4; i++)
		uring_queue(&u, UR_READ, 0, fd, buf + 1024 * i, 1024, 1024 * (uint64_t)i, 0);
	uring_enter_flags(&u, 4, (int32_t[]){ 1024, 1024, 1024, 1024 }, wake);
	expect(pread(fd, buf, 64, 0), 64, "pread64 64");
	return 0;
}

/* A read op that waits for a FIFO (poll armed) until the test writes. */
static int uringwait(const char *fifo)
{
	static char buf[100];
	struct uring u;
	uring_setup(&u, 8);
	int fd = (int)expect(sys_openat(fifo, O_RDWR, 0), 4, "openat fifo");
	wait_for_release(0);

	uring_queue(&u, UR_READ, 0, fd, buf, sizeof buf, 0, 0);
	expect(uring_one(&u), 6, "uring read fifo");
	return 0;
}

/* ---- libaio on raw syscalls: struct iocb and io_event of aio_abi.h ---- */

struct aio_cb {
	uint64_t data;
	uint32_t key, rw_flags;
	uint16_t opcode;
	int16_t reqprio;
	uint32_t fildes;
	uint64_t buf, nbytes;
	int64_t offset;
	uint64_t reserved2;
	uint32_t flags, resfd;
};

struct aio_ev {
	uint64_t data, obj;
	int64_t res, res2;
};

enum { AIO_PREAD = 0, AIO_PWRITE = 1, AIO_FSYNC = 2, AIO_PREADV = 7 };

static struct aio_cb aio_make(uint16_t op, int fd, void *buf, uint64_t n, int64_t off)
{
	struct aio_cb cb;
	memset(&cb, 0, sizeof cb);
	cb.opcode = op;
	cb.fildes = (uint32_t)fd;
	cb.buf = (uint64_t)(uintptr_t)buf;
	cb.nbytes = n;
	cb.offset = off;
	return cb;
}

/* Submits n iocbs (want_taken of them taken), then reaps that many
 * events, checking each result against its iocb's want. */
static void aio_run(unsigned long ctx, struct aio_cb *cbs, long n, long want_taken, const int64_t *want)
{
	struct aio_cb *ptrs[8];
	struct aio_ev ev[8];
	for (long i = 0; i < n; i++)
		ptrs[i] = &cbs[i];
	expect(syscall(SYS_io_submit, ctx, n, ptrs), want_taken, "io_submit");
	expect(syscall(SYS_io_getevents, ctx, want_taken, want_taken, ev, NULL), want_taken, "io_getevents");
	for (long i = 0; i < want_taken; i++)
		expect(ev[i].res, want[(struct aio_cb *)(uintptr_t)ev[i].obj - cbs], "aio event");
}

static int aio(const char *dir)
{
	static char buf[16384];
	char data[512];
	unsigned long ctx = 0;
	join_path(data, sizeof data, dir, "data");
	memset(buf, 'a', sizeof buf);
	int fd = (int)expect(sys_openat(data, O_RDWR | O_CREAT | O_TRUNC, 0644), 3, "openat data");
	expect(write(fd, buf, sizeof buf), sizeof buf, "write data");
	expect(syscall(SYS_io_setup, 8, &ctx), 0, "io_setup");
	struct iovec iov[2] = { { buf, 512 }, { buf + 512, 512 } };
	wait_for_release(0);

	aio_run(ctx, (struct aio_cb[]){ aio_make(AIO_PREAD, fd, buf, 4096, 0) }, 1, 1, (int64_t[]){ 4096 });
	aio_run(ctx, (struct aio_cb[]){ aio_make(AIO_PWRITE, fd, buf, 4096, 4096) }, 1, 1, (int64_t[]){ 4096 });
	aio_run(ctx, (struct aio_cb[]){ aio_make(AIO_FSYNC, fd, 0, 0, 0) }, 1, 1, (int64_t[]){ 0 });
	aio_run(ctx, (struct aio_cb[]){ aio_make(AIO_PREAD, fd, buf, 1024, 0), aio_make(AIO_PREAD, fd, buf + 1024, 1024, 1024),
					aio_make(AIO_PREAD, fd, buf + 2048, 1024, 2048) },
		3, 3, (int64_t[]){ 1024, 1024, 1024 });
	aio_run(ctx, (struct aio_cb[]){ aio_make(AIO_PREAD, fd, buf, 100, 0), aio_make(AIO_PREAD, 999, buf, 100, 0) },
		2, 1, (int64_t[]){ 100, -EBADF });
	aio_run(ctx, (struct aio_cb[]){ aio_make(AIO_PREADV, fd, iov, 2, 0) }, 1, 1, (int64_t[]){ 1024 });
	expect(pread(fd, buf, 64, 0), 64, "pread64 64");
	return 0;
}

/* Block requests on a device nothing else uses (a loop device): N
 * O_DIRECT pwrite64 of 4 KiB (one write request each), an fsync (its
 * flush), N O_DIRECT pread64 of 4 KiB (one read request each). */
static int blockdev(const char *dev, long n)
{
	static char buf[4096] __attribute__((aligned(4096)));
	int fd = (int)expect(open(dev, O_RDWR | O_DIRECT), 3, "open the device O_DIRECT");

	memset(buf, 'b', sizeof buf);
	wait_for_release(0);
	for (long i = 0; i < n; i++)
		expect(pwrite(fd, buf, sizeof buf, (off_t)i * 4096), sizeof buf, "pwrite64 O_DIRECT");
	expect(fsync(fd), 0, "fsync the device");
	for (long i = 0; i < n; i++)
		expect(pread(fd, buf, sizeof buf, (off_t)i * 4096), sizeof buf, "pread64 O_DIRECT");
	return 0;
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
	else if (!strcmp(sc, "flight") && argc == 7)
		rc = flight(argv[2], argv[3], parse_count(argv[4], 600000, "flight BEFORE"),
			    parse_count(argv[5], 600000, "flight AFTER"), parse_count(argv[6], 60000, "flight BLOCK"));
	else if (!strcmp(sc, "slowstorm") && argc == 4)
		rc = slowstorm(parse_count(argv[2], 100000, "slowstorm N"), parse_count(argv[3], 10000, "slowstorm MS"));
	else if (!strcmp(sc, "fiforead") && argc == 3)
		rc = fiforead(argv[2]);
	else if (!strcmp(sc, "hostile") && argc == 3)
		rc = hostile(argv[2]);
	else if (!strcmp(sc, "opath") && argc == 5)
		rc = opath(argv[2], argv[3], parse_count(argv[4], 1000, "opath N"));
	else if (!strcmp(sc, "forkwrite") && argc == 3)
		rc = forkwrite(argv[2]);
	else if (!strcmp(sc, "execfd") && argc == 3)
		rc = execfd(argv[2]);
	else if (!strcmp(sc, "execchild") && argc == 2) /* execfd's child, after execve */
		rc = execchild();
	else if (!strcmp(sc, "renameopen") && argc == 3)
		rc = renameopen(argv[2]);
	else if (!strcmp(sc, "linkgone") && argc == 3)
		rc = linkgone(argv[2]);
	else if (!strcmp(sc, "fiforeuse") && argc == 4)
		rc = fiforeuse(argv[2], argv[3]);
	else if (!strcmp(sc, "reuse") && argc == 5)
		rc = reuse(argv[2], argv[3], parse_count(argv[4], 1000, "reuse N"));
	else if (!strcmp(sc, "relpath2") && argc == 3)
		rc = relpath2(argv[2]);
	else if (!strcmp(sc, "clonefiles") && argc == 3)
		rc = clonefiles(argv[2]);
	else if (!strcmp(sc, "churn") && argc == 4)
		rc = churn(argv[2], parse_count(argv[3], 1000000, "churn N"));
	else if (!strcmp(sc, "longpath") && argc == 3)
		rc = longpath(argv[2]);
	else if (!strcmp(sc, "forktree") && argc == 3)
		rc = forktree(argv[2]);
	else if (!strcmp(sc, "leaderexit") && argc == 3)
		rc = leaderexit(argv[2]);
	else if (!strcmp(sc, "ids") && argc == 3)
		rc = ids(argv[2]);
	else if (!strcmp(sc, "sharedfd") && argc == 3)
		rc = sharedfd(argv[2]);
	else if (!strcmp(sc, "net") && argc == 2)
		rc = net();
	else if (!strcmp(sc, "endpoints") && argc == 3)
		rc = endpoints(argv[2]);
	else if (!strcmp(sc, "waits") && argc == 2)
		rc = waits_scenario();
	else if (!strcmp(sc, "uring") && argc == 3)
		rc = uring(argv[2]);
	else if (!strcmp(sc, "uringpath") && argc == 3)
		rc = uringpath(argv[2]);
	else if (!strcmp(sc, "uringsq") && argc == 3)
		rc = uringsq(argv[2]);
	else if (!strcmp(sc, "uringwait") && argc == 3)
		rc = uringwait(argv[2]);
	else if (!strcmp(sc, "aio") && argc == 3)
		rc = aio(argv[2]);
	else if (!strcmp(sc, "blockdev") && argc == 4)
		rc = blockdev(argv[2], parse_count(argv[3], 100000, "blockdev N"));
	else
		usage();
	_exit(rc);
}
