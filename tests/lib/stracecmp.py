#!/usr/bin/env python3
r"""stracecmp: compare ior's file attribution with strace -f -y.

usage: stracecmp.py names SYSCALLS_C
       stracecmp.py compare SYSCALLS_C STRACE_OUT IOR_CSV DIR MIN_ROWS MIN_KEYS
                    [EVIDENCE_FILE]

names: the strace names (for -e trace=) of the syscalls ior traces by
default (its families FS, Network, Polling and AIO) in its table
syscalls/table_x86_64.c, as one comma-separated line; ior's tracepoint names
newstat, newfstat, newlstat and sendfile64 are strace's stat, fstat, lstat
and sendfile. Names this strace rejects are left out and listed on stderr
("stracecmp: strace does not know: ...").

compare: STRACE_OUT is the -o file of strace -f -y -qq -e trace=(names);
IOR_CSV ior's -plain output of the same run. Each syscall line of strace
(unfinished/resumed halves joined per pid) gets the file ior's table says
the syscall acts on, as strace -y shows it: the fd argument's <path> for an
fd syscall (the dirfd for fstatat(fd, "", AT_EMPTY_PATH)), the path argument
made absolute against its dirfd's (or AT_FDCWD's) <path> for a path syscall,
both paths for rename/link/symlink. A file that is not an absolute path
(pipe:[...], socket:[...], anon_inode:..., an fd strace shows bare) is no
file. ior's rows are taken from the tids strace traced (strace -f prints the
tid). On both sides only rows with a file equal to DIR or under DIR/ count,
keyed (syscall, basename), two-path syscalls (basename=>basename). The two
count tables must be equal, and strace's must hold >= MIN_ROWS rows and
>= MIN_KEYS keys.

Exit 0 with one summary line; 1 with the reason on the first line and at
most 20 lines "(name, file): strace N, ior N" after it. EVIDENCE_FILE, when
given, receives every key and, per differing key, the strace lines and ior
rows behind it.
"""
import collections
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import csvcheck  # noqa: E402

# ior tracepoint name -> the name strace prints (x86_64)
IOR_TO_STRACE = {"newstat": "stat", "newfstat": "fstat", "newlstat": "lstat",
                 "sendfile64": "sendfile"}
STRACE_TO_IOR = {v: k for k, v in IOR_TO_STRACE.items()}
TWO_PATHS = {"rename", "renameat", "renameat2", "link", "linkat", "symlink", "symlinkat"}


class Sc:
    def __init__(self, name, cls, fd, aux, p0, p1, aux_is_dirfd, fd_is_dirfd2):
        self.name, self.cls, self.fd, self.aux = name, cls, fd, aux
        self.paths = (p0, p1)
        self.aux_is_dirfd, self.fd_is_dirfd2 = aux_is_dirfd, fd_is_dirfd2


def arg(text):
    text = text.strip()
    return None if text == "N" else int(text)


def load_table(path):
    """ior's syscall table: name -> Sc, parsed from syscalls/table_x86_64.c
    (its row macros: family first, then name and number)."""
    src = open(path).read()
    body = src[re.search(r"ior_syscalls\w*\[\] = \{", src).start():]
    body = body[:body.index("\n};")]
    table = {}
    rows = [  # regex, and the Sc (without name and family) of its groups
        (r"^SCX?\((\w+), *(\w+), *\d+, *(\w+), *(\w+), *\w+, *(\w+), *(\w+), *(\w+)(?:, *[^)]*)?\),$",
         lambda cls, fd, aux, p0, p1: (cls, arg(fd), arg(aux), arg(p0), arg(p1), False, False)),
        (r"^NR\((\w+), *(\w+), *\d+\),$",
         lambda: ("OTHER", None, None, None, None, False, False)),
        (r"^AT\((\w+), *(\w+), *\d+, *(\w+), *\w+, *(\w+), *(\w+)\),$",
         lambda cls, p0, p1: (cls, None, 0, arg(p0), arg(p1), True, False)),
        (r"^AT2\((\w+), *(\w+), *\d+, *\w+, *\w+\),$",
         lambda: ("OTHER", 2, 0, 1, 3, True, True)),
        (r"^NEWFD\((\w+), *(\w+), *\d+, *(\w+), *\w+, *(\w+), *\w+\),$",
         lambda fd, aux: ("OPEN", arg(fd), arg(aux), None, None, False, False)),
        (r"^RENAME\((\w+), *(\w+), *\d+\),$",
         lambda: ("OTHER", None, None, 0, 1, False, False)),
        (r"^OPENAT2\((\w+), *(\w+), *\d+\),$",
         lambda: ("OPEN", None, 0, 1, None, True, False)),
    ]
    for line in body.splitlines()[1:]:
        line = line.strip()
        if not line or line.startswith(("/*", "*", "//")):
            continue
        if line == "IOR_ASYNC_ROWS,":  # io_uring ops (syscalls/async_rows.h): no syscalls strace sees
            continue
        # roles after the arguments (syscalls/rows.h NET, WAIT): not strace's business
        line = re.sub(r", *(?:NET|WAIT)\([^()]*\)(?=\),$)", "", line)
        for rx, make in rows:
            m = re.match(rx, line)
            if m:
                fam, n = m.group(1), m.group(2)
                table[n] = Sc(n, *make(*m.groups()[2:]))
                table[n].family = fam
                break
        else:
            raise SystemExit("stracecmp: cannot parse %s line: %s" % (path, line))
    if len(table) < 50:
        raise SystemExit("stracecmp: only %d syscalls parsed from %s" % (len(table), path))
    return table


# what ior traces when no selection flag is given (syscalls/select.h)
DEFAULT_FAMILIES = ("FS", "Network", "Polling", "AIO")


def cmd_names(table):
    names = [IOR_TO_STRACE.get(n, n) for n, sc in table.items() if sc.family in DEFAULT_FAMILIES]
    rejected = []
    for _ in range(len(names)):
        r = subprocess.run(["strace", "-qq", "-e", "trace=" + ",".join(names), "true"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=20)
        if r.returncode == 0:
            break
        m = re.search(r"invalid system call '([^']*)'", r.stderr)
        if not m or m.group(1) not in names:
            raise SystemExit("stracecmp: strace -e trace=...: %s" % r.stderr.strip()[:300])
        names.remove(m.group(1))
        rejected.append(m.group(1))
    if rejected:
        print("stracecmp: strace does not know: " + ",".join(rejected), file=sys.stderr)
    print(",".join(names))


# ---- strace output ---------------------------------------------------------

LINE_RE = re.compile(r"^(\d+) +(.*)$")
UNFINISHED = " <unfinished ...>"
RESUMED_RE = re.compile(r"^<\.\.\. (\w+) resumed>(.*)$")
CALL_RE = re.compile(r"^(\w+)\((.*)$", re.S)


def split_args(text):
    """(args, rest): strace's argument list up to the closing parenthesis
    split at top-level commas; rest is what follows it (" = RET ...")."""
    args, cur, depth, i, n = [], [], 0, 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':  # a string, with backslash escapes
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            cur.append(text[i:j + 1])
            i = j + 1
            if text.startswith("...", i):
                cur.append("...")
                i += 3
            continue
        if c == "<" and "".join(cur).strip().lstrip("-").isdigit() or \
                c == "<" and "".join(cur).strip() == "AT_FDCWD":
            # an fd decorated by -y: <path> up to the '>' that ends the arg
            m = re.compile(r">(?=,|\)|$| )").search(text, i)
            j = m.start() if m else n - 1
            cur.append(text[i:j + 1])
            i = j + 1
            continue
        if c in "{[(":
            depth += 1
        elif c in "}]":
            depth -= 1
        elif c == ")":
            if depth == 0:
                args.append("".join(cur).strip())
                return [a for a in args if a != "" or len(args) > 1], text[i + 1:]
            depth -= 1
        elif c == "," and depth == 0:
            args.append("".join(cur).strip())
            cur = []
            i += 1
            continue
        cur.append(c)
        i += 1
    return None, ""


def unquote(s):
    r"""The bytes of a strace "..." string (\\ \" \n \t \xHH \ooo) as str."""
    m = re.match(r'^"(.*)"(\.\.\.)?$', s, re.S)
    if not m:
        return None
    body, out, i = m.group(1), bytearray(), 0
    simple = {"n": 10, "t": 9, "r": 13, "v": 11, "f": 12, "\\": 92, '"': 34}
    while i < len(body):
        c = body[i]
        if c != "\\":
            out += c.encode()
            i += 1
            continue
        e = body[i + 1] if i + 1 < len(body) else ""
        if e in simple:
            out.append(simple[e])
            i += 2
        elif e == "x":
            out.append(int(body[i + 2:i + 4], 16))
            i += 4
        elif e.isdigit():
            j = i + 1
            while j < len(body) and j < i + 4 and body[j] in "01234567":
                j += 1
            out.append(int(body[i + 1:j], 8) & 0xff)
            i = j
        else:
            out += e.encode()
            i += 2
    return out.decode("utf-8", "surrogateescape")


def fd_path(a):
    """(fd number or 'AT_FDCWD', path shown by -y or None) of an argument."""
    if a is None:
        return None, None
    m = re.match(r"^(-?\d+|AT_FDCWD)(?:<(.*)>)?$", a, re.S)
    if not m:
        return None, None
    fd = m.group(1) if m.group(1) == "AT_FDCWD" else int(m.group(1))
    p = m.group(2)
    if p is not None:
        p = re.sub(r" \(deleted\)$", "", p)
        if not p.startswith("/"):  # pipe:[..], socket:[..], anon_inode:..
            p = None
    return fd, p


def joinpath(base, rel):
    """rel made absolute against base, "." and ".." folded as ior does."""
    if rel is None or rel == "":
        return rel
    if not rel.startswith("/"):
        if base is None:
            return rel  # unknown base: stays relative, so no file
        rel = base.rstrip("/") + "/" + rel
    return "/" + "/".join(p for p in os.path.normpath(rel).split("/") if p)


def strace_files(sc, args, ret):
    """(path, path2) of a strace call per ior's table ('' when none)."""
    def a(i):
        return args[i] if i is not None and i < len(args) else None

    path, path2 = "", ""
    p0, p1 = sc.paths
    if p0 is not None:
        raw0, raw1 = unquote(a(p0) or ""), unquote(a(p1) or "") if p1 is not None else None
        if sc.name == "memfd_create":
            path = "/memfd:" + (raw0 or "")
        elif sc.name in ("symlink", "symlinkat"):
            path = raw0 or ""
            base = fd_path(a(sc.aux))[1] if sc.aux is not None and not sc.aux_is_dirfd else None
            if base is None:
                base = cwd_of(args)
            path2 = joinpath(base, raw1) or ""
        elif sc.aux_is_dirfd and raw0 == "" and sc.cls == "OTHER" and \
                "AT_EMPTY_PATH" in ",".join(args[p0 + 1:]) and \
                isinstance(fd_path(a(sc.aux))[0], int) and fd_path(a(sc.aux))[0] >= 0:
            return fd_path(a(sc.aux))[1] or "", ""
        else:
            base0 = fd_path(a(sc.aux))[1] if sc.aux_is_dirfd else cwd_of(args)
            path = joinpath(base0, raw0) or ""
            if p1 is not None:
                base1 = fd_path(a(sc.fd))[1] if sc.fd_is_dirfd2 else cwd_of(args)
                path2 = joinpath(base1, raw1) or ""
    if sc.cls == "OPEN":
        # a successful open names the new fd as the kernel does (= N<path>):
        # symlinks resolved, like every later use of that fd
        returned = fd_path(ret.split()[0] if ret.split() else None)
        if sc.name == "open_by_handle_at" or returned[1] is not None:
            path = returned[1] or ""
        return path, path2
    if sc.cls == "CLOSE_RANGE":
        return path, path2
    if sc.fd is not None and not sc.fd_is_dirfd2:
        fd, p = fd_path(a(sc.fd))
        if isinstance(fd, int) and fd >= 0:
            path = p or ""
    return path, path2


CWD = {}  # pid -> the cwd seen in AT_FDCWD</cwd> (strace -y shows it)
CUR_PID = [0]


def cwd_of(args):
    for x in args:
        if x.startswith("AT_FDCWD<"):
            return fd_path(x)[1]
    return CWD.get(CUR_PID[0])


def parse_strace(path, table):
    """[(pid, ior name, path, path2, line)] and the set of pids seen."""
    calls, pids, pending = [], set(), {}
    bad = []
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for raw in f:
            line = raw.rstrip("\n")
            m = LINE_RE.match(line)
            if not m:
                bad.append(line)
                continue
            pid, body = int(m.group(1)), m.group(2)
            pids.add(pid)
            if body.startswith(("---", "+++")):
                continue
            r = RESUMED_RE.match(body)
            if r:
                if pid not in pending:
                    bad.append(line)
                    continue
                body = pending.pop(pid) + r.group(2)
            elif body.endswith(UNFINISHED):
                pending[pid] = body[:-len(UNFINISHED)]
                continue
            c = CALL_RE.match(body)
            if not c:
                bad.append(line)
                continue
            name = STRACE_TO_IOR.get(c.group(1), c.group(1))
            args, rest = split_args(c.group(2))
            if args is None or name not in table:
                bad.append(line)
                continue
            ret = re.sub(r"^\s*=\s*", "", rest)
            CUR_PID[0] = pid
            for x in args:
                if x.startswith("AT_FDCWD<"):
                    CWD[pid] = fd_path(x)[1]
            p, p2 = strace_files(table[name], args, ret)
            calls.append((pid, name, p, p2, "%d %s" % (pid, body)))
    for pid, body in pending.items():  # killed inside the syscall
        bad.append("%d %s <unfinished, never resumed>" % (pid, body))
    return calls, pids, bad


# ---- comparison ------------------------------------------------------------

def under(p, d):
    return p == d or p.startswith(d + "/")


def key_of(name, path, path2, d):
    """The comparison key of a row, or None when its file is not under d."""
    if not (under(path, d) or (path2 and under(path2, d))):
        return None
    b = os.path.basename(path.rstrip("/")) or path
    if name in TWO_PATHS:
        b += "=>" + (os.path.basename(path2.rstrip("/")) or path2)
    return (name, b)


def cmd_compare(table, strace_out, ior_csv, d, min_rows, min_keys, evidence):
    d = d.rstrip("/")
    calls, pids, bad = parse_strace(strace_out, table)
    rows, errors = csvcheck.load(ior_csv)
    if errors:
        print("ior's CSV is malformed: " + errors[0])
        return 1
    s_cnt, s_ev = collections.Counter(), collections.defaultdict(list)
    for pid, name, p, p2, line in calls:
        k = key_of(name, p, p2, d)
        if k:
            s_cnt[k] += 1
            s_ev[k].append(line)
    i_cnt, i_ev = collections.Counter(), collections.defaultdict(list)
    i_rows = 0
    for r in rows:
        if r["tid"] not in pids:
            continue
        i_rows += 1
        k = key_of(r["name"], r["path"], r["path2"], d)
        if k:
            i_cnt[k] += 1
            i_ev[k].append("%s %d.%d %s ret=%d %s" % (r["comm"], r["pid"], r["tid"], r["name"],
                                                       r["ret"], r["file"]))
    # every ior row of the workload with an fd and no path, for the evidence
    unnamed = [r for r in rows if r["tid"] in pids and r["fd"] != "" and r["path"] == ""]
    keys = sorted(set(s_cnt) | set(i_cnt))
    diff = [k for k in keys if s_cnt[k] != i_cnt[k]]

    def fmt(k):
        return "(%s, %s): strace %d, ior %d" % (k[0], k[1], s_cnt[k], i_cnt[k])

    if evidence:
        with open(evidence, "w") as ev:
            ev.write("strace: %d calls of %d pids, %d unparsed lines; ior: %d rows of those tids\n"
                     % (len(calls), len(pids), len(bad), i_rows))
            for line in bad[:50]:
                ev.write("unparsed: %s\n" % line)
            for k in keys:
                ev.write("%s %s\n" % ("DIFF" if k in diff else "same", fmt(k)))
            for k in diff:
                ev.write("\n== %s\n" % fmt(k))
                for line in s_ev[k]:
                    ev.write("  strace: %s\n" % line)
                for line in i_ev[k]:
                    ev.write("  ior:    %s\n" % line)
            ev.write("\nior rows of the workload on an fd without a path: %d\n" % len(unnamed))
            for r in unnamed[:200]:
                ev.write("  %s %d.%d %s ret=%d %s\n" % (r["comm"], r["pid"], r["tid"], r["name"],
                                                        r["ret"], r["file"]))
    s_rows = sum(s_cnt.values())
    summary = "%d strace rows in %d keys, %d ior rows; %d workload pids" % (
        s_rows, len(s_cnt), sum(i_cnt.values()), len(pids))
    if bad:
        print("%d strace lines not understood, e.g. %s" % (len(bad), bad[0][:200]))
        return 1
    if diff:
        print("%d of %d (syscall, file) counts differ (%s)" % (len(diff), len(keys), summary))
        for k in diff[:20]:
            print(fmt(k))
        return 1
    if s_rows < min_rows or len(s_cnt) < min_keys:
        print("vacuous: %s, want >= %d rows and >= %d keys" % (summary, min_rows, min_keys))
        return 1
    print("%d keys agree: %s" % (len(keys), summary))
    return 0


def main(argv):
    if len(argv) >= 2 and argv[0] == "names":
        cmd_names(load_table(argv[1]))
        return 0
    if len(argv) in (7, 8) and argv[0] == "compare":
        return cmd_compare(load_table(argv[1]), argv[2], argv[3], argv[4], int(argv[5]),
                           int(argv[6]), argv[7] if len(argv) == 8 else None)
    print(__doc__.strip().splitlines()[2], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
