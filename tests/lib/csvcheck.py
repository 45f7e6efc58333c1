#!/usr/bin/env python3
r"""csvcheck: parse ior's -plain CSV and check expectations about it.

usage: csvcheck.py [--lenient] [--show N] CSVFILE [SELECT...] [-- ] ASSERTION...

Exit status 0 when the file is well formed and every assertion holds; 1 with
one line per failure on stdout ("csvcheck: ...") otherwise; 2 on bad usage.
Nothing is printed on success, so a caller decides how to report (see
check() in tests/lib/common.sh). Only the standard library is used.

The file is ior's stdout: the header line
    durationToPrevNs,durationNs,comm,pid.tid,name,ret,file
(then the -plainColumns ior was asked for, csv/csv.h: where, or
deviceNs,requests,deviceBytes, or cachePages, in any order) then one RFC
4180 record per completed syscall. Unless --lenient, the file
itself is checked first: exact header, its fields per record, integer
durations >= 0, pid.tid as two integers, integer ret and a non-empty name.
The file field (csv/csv.c) is PATH%(FD,FLAGS), PATH%(FD) when the open
flags are unknown, OLD=>NEW for two-path syscalls, just PATH when the
syscall has no fd, or empty. ior escapes control bytes as \xHH and a
backslash as \\ (-escape auto/always); filters see the field as printed.

Columns of a row (used by filters and metrics):
    gap    durationToPrevNs      dur   durationNs
    comm   pid   tid   name   ret
    file   the raw file field as printed
    path   the file field without the %(fd,flags) suffix; for two-path
           syscalls (rename, link) the first path
    path2  the second path of a two-path syscall, else ""
    fd     the fd in %(fd,flags), "" when absent
    flags  the flags in %(fd,flags), "" when absent or unknown
    seq    1-based position of the row among the rows of its tid, in file
           order (the whole file, before any filter): seq=2 is a thread's
           second syscall
    bytes  ret when ret > 0, else 0
    where  the where column (-plainColumns=where), "" when empty or absent
    devns reqs devbytes cachepages   the device and cache columns, 0 when
           absent

SELECT (a global filter applied to every assertion): FILTER, e.g. pid=1234

ASSERTION: METRIC[FILTER,FILTER,...]OP NUMBER   (one argument; no spaces)
    METRIC  count        rows that match
            sum_bytes    sum of bytes (positive ret)
            sum_ret      sum of ret
            min_gap max_gap min_dur max_dur min_ret max_ret
            tids pids    distinct tids / pids among the rows
    OP      == != >= <= > <
    min_/max_ over no rows fail ("no rows match").
FILTER: COLUMN=VALUE (equal), COLUMN!=VALUE, COLUMN~VALUE (contains),
    COLUMN!~VALUE (does not contain). For flags, = and != compare the sets
    of |-separated names (O_RDWR|O_CREAT equals O_CREAT|O_RDWR). In VALUE,
    \\, \, \] \n \t and \xHH escape a backslash, a comma, a bracket, a
    newline, a tab and a raw byte (\xc3\xa9 is UTF-8 "é"; \xff a byte that
    is not UTF-8, as ior -escape never prints it); anything else is
    literal. To match ior's own escape text \xff, write \\xff.

Examples:
    csvcheck.py out.csv pid=42 'count[name=openat,path=/tmp/t/data]==1' \
        'sum_bytes[name=read]==320' 'count[name!=read]==0' \
        'min_gap[name=read,seq=3]>=100000000' 'max_gap[seq=1]==0'

As a module: rows, errors = csvcheck.load(path); each row is a dict of the
columns above (numbers as int).
"""
import csv
import re
import sys

HEADER = ["durationToPrevNs", "durationNs", "comm", "pid.tid", "name", "ret", "file"]
# -plainColumns groups: their header names and the columns they fill
EXTRAS = {"where": ["where"], "device": ["deviceNs", "requests", "deviceBytes"], "cache": ["cachePages"]}
EXTRA_COLUMN = {"where": "where", "deviceNs": "devns", "requests": "reqs", "deviceBytes": "devbytes",
                "cachePages": "cachepages"}
WHERES = {"", "inline", "io-wq", "poll"}
# ior joins the two paths of rename/link with this (csv/csv.c).
PATH2_SEPARATOR = "=>"
# path%(fd,FLAGS), or path%(fd) when ior does not know the open flags
FILE_RE = re.compile(r"^(?P<path>.*)%\((?P<fd>-?\d+)(?:,(?P<flags>[A-Za-z0-9_|]*))?\)$", re.S)
INT_COLUMNS = {"gap", "dur", "pid", "tid", "ret", "seq", "bytes", "devns", "reqs", "devbytes", "cachepages"}
COLUMNS = INT_COLUMNS | {"comm", "name", "file", "path", "path2", "fd", "flags", "where"}
METRICS = {"count", "sum_bytes", "sum_ret", "min_gap", "max_gap", "min_dur",
           "max_dur", "min_ret", "max_ret", "tids", "pids"}
OPS = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b,
    ">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b, "<": lambda a, b: a < b,
}


class Usage(Exception):
    pass


def split_file(field):
    """(path, path2, fd, flags) of a file field."""
    m = FILE_RE.match(field)
    if m:
        path, fd, flags = m.group("path"), m.group("fd"), m.group("flags") or ""
    else:
        path, fd, flags = field, "", ""
    path2 = ""
    if PATH2_SEPARATOR in path:
        path, path2 = path.split(PATH2_SEPARATOR, 1)
    return path, path2, fd, flags


def parse_int(text, what, errors, lineno):
    try:
        return int(text, 10)
    except ValueError:
        errors.append("line %d: %s is not an integer: %r" % (lineno, what, text))
        return 0


def load(path, lenient=False):
    """Rows (dicts) and a list of format errors."""
    errors, rows, seq = [], [], {}
    with open(path, newline="", encoding="utf-8", errors="surrogateescape") as f:
        reader = csv.reader(f, strict=True)
        try:
            header = next(reader, None)
            if not header_ok(header):
                errors.append("header is %r, want %r and -plainColumns groups %r" % (header, HEADER, EXTRAS))
                header = HEADER
            for rec in reader:
                lineno = reader.line_num
                if len(rec) != len(header):
                    errors.append("line %d: %d fields, want %d: %r" % (lineno, len(rec), len(header), rec))
                    continue
                row = make_row(rec[:len(HEADER)], lineno, errors, seq)
                add_extras(row, header[len(HEADER):], rec[len(HEADER):], lineno, errors)
                rows.append(row)
        except csv.Error as e:
            errors.append("line %d: not RFC 4180 CSV: %s" % (reader.line_num, e))
    return rows, ([] if lenient else errors)


def header_ok(header):
    """The seven columns, then whole -plainColumns groups, each once."""
    if not header or header[:len(HEADER)] != HEADER:
        return False
    rest, seen = header[len(HEADER):], set()
    while rest:
        group = next((g for g, cols in EXTRAS.items() if rest[:len(cols)] == cols), None)
        if group is None or group in seen:
            return False
        seen.add(group)
        rest = rest[len(EXTRAS[group]):]
    return True


def add_extras(row, names, values, lineno, errors):
    row["where"] = ""
    for c in ("devns", "reqs", "devbytes", "cachepages"):
        row[c] = 0
    for name, value in zip(names, values):
        col = EXTRA_COLUMN[name]
        if col == "where":
            if value not in WHERES:
                errors.append("line %d: where is %r, want one of %r" % (lineno, value, sorted(WHERES)))
            row[col] = value
        else:
            row[col] = parse_int(value, name, errors, lineno)


def make_row(rec, lineno, errors, seq):
    gap, dur, comm, pidtid, name, ret, file = rec
    row = {"comm": comm, "name": name, "file": file, "line": lineno}
    row["gap"] = parse_int(gap, "durationToPrevNs", errors, lineno)
    row["dur"] = parse_int(dur, "durationNs", errors, lineno)
    row["ret"] = parse_int(ret, "ret", errors, lineno)
    m = re.match(r"^(\d+)\.(\d+)$", pidtid)
    if m:
        row["pid"], row["tid"] = int(m.group(1)), int(m.group(2))
    else:
        errors.append("line %d: pid.tid is %r" % (lineno, pidtid))
        row["pid"] = row["tid"] = -1
    if row["gap"] < 0 or row["dur"] < 0:
        errors.append("line %d: negative duration: %r" % (lineno, rec))
    if not name:
        errors.append("line %d: empty name" % lineno)
    row["path"], row["path2"], row["fd"], row["flags"] = split_file(file)
    row["bytes"] = row["ret"] if row["ret"] > 0 else 0
    seq[row["tid"]] = seq.get(row["tid"], 0) + 1
    row["seq"] = seq[row["tid"]]
    return row


def unescape(s):
    """Filter value -> text as load() decodes the file (UTF-8 with
    surrogateescape): \\xHH is a raw byte, so \\xc3\\xa9 is "é" and \\xff
    matches a byte that is not UTF-8."""
    out, i = bytearray(), 0
    while i < len(s):
        c = s[i]
        if c != "\\" or i + 1 == len(s):
            out += c.encode("utf-8", "surrogateescape")
            i += 1
            continue
        n = s[i + 1]
        if n == "n":
            out += b"\n"
        elif n == "t":
            out += b"\t"
        elif n == "x" and re.match(r"[0-9a-fA-F]{2}$", s[i + 2:i + 4]):
            out.append(int(s[i + 2:i + 4], 16))
            i += 2
        elif n in "\\,]":
            out += n.encode()
        else:
            out += ("\\" + n).encode("utf-8", "surrogateescape")
        i += 2
    return out.decode("utf-8", "surrogateescape")


def split_filters(text):
    """Splits on commas not escaped by a backslash; keeps escapes."""
    parts, cur, i = [], [], 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            cur.append(text[i:i + 2])
            i += 2
            continue
        if text[i] == ",":
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(text[i])
        i += 1
    parts.append("".join(cur))
    return [p for p in parts if p]


def parse_filter(text):
    m = re.match(r"^([a-z0-9]+)(!=|!~|=|~)(.*)$", text, re.S)
    if not m or m.group(1) not in COLUMNS:
        raise Usage("bad filter %r: want COLUMN=VALUE, !=, ~ or !~ with COLUMN in %s"
                    % (text, ",".join(sorted(COLUMNS))))
    col, op, value = m.group(1), m.group(2), unescape(m.group(3))
    if col in INT_COLUMNS and op in ("=", "!="):
        try:
            value = int(value, 10)
        except ValueError:
            raise Usage("filter %r: %s takes an integer" % (text, col))
    return col, op, value


def flag_set(s):
    return frozenset(x for x in s.split("|") if x)


def matches(row, flt):
    col, op, value = flt
    have = row[col]
    if op in ("~", "!~"):
        hit = str(value) in str(have)
        return hit if op == "~" else not hit
    if col == "flags":
        equal = flag_set(have) == flag_set(value)
    else:
        equal = have == value
    return equal if op == "=" else not equal


def parse_assertion(text):
    m = re.match(r"^([a-z_]+)", text)
    if not m or m.group(1) not in METRICS:
        raise Usage("bad assertion %r: metric must be one of %s" % (text, ",".join(sorted(METRICS))))
    metric, i, filters = m.group(1), m.end(), []
    if i < len(text) and text[i] == "[":
        j = i + 1
        while j < len(text) and text[j] != "]":
            j += 2 if text[j] == "\\" else 1
        if j >= len(text):
            raise Usage("bad assertion %r: no closing ]" % text)
        filters = [parse_filter(f) for f in split_filters(text[i + 1:j])]
        i = j + 1
    m = re.match(r"^(==|!=|>=|<=|>|<)(-?\d+)$", text[i:])
    if not m:
        raise Usage("bad assertion %r: want OP NUMBER after the metric" % text)
    return metric, filters, m.group(1), int(m.group(2))


def measure(metric, rows):
    if metric == "count":
        return len(rows)
    if metric == "sum_bytes":
        return sum(r["bytes"] for r in rows)
    if metric == "sum_ret":
        return sum(r["ret"] for r in rows)
    if metric == "tids":
        return len({r["tid"] for r in rows})
    if metric == "pids":
        return len({r["pid"] for r in rows})
    if not rows:
        return None
    agg, col = metric.split("_", 1)
    values = [r[col] for r in rows]
    return min(values) if agg == "min" else max(values)


def describe(rows, show):
    lines = []
    for r in rows[:show]:
        lines.append("    line %d: gap=%d dur=%d %s %d.%d %s ret=%d file=%r" % (
            r["line"], r["gap"], r["dur"], r["comm"], r["pid"], r["tid"], r["name"], r["ret"], r["file"]))
    if len(rows) > show:
        lines.append("    ... %d more" % (len(rows) - show))
    return lines


def check(rows, select, assertions, show):
    failures = []
    rows = [r for r in rows if all(matches(r, f) for f in select)]
    for text, (metric, filters, op, want) in assertions:
        hit = [r for r in rows if all(matches(r, f) for f in filters)]
        got = measure(metric, hit)
        if got is None:
            failures.append("%s: no rows match" % text)
        elif not OPS[op](got, want):
            failures.append("%s: got %d" % (text, got))
            failures.extend(describe(hit, show))
    return failures


def main(argv):
    lenient, show, args = False, 5, list(argv)
    while args and args[0].startswith("--") and args[0] != "--":
        opt = args.pop(0)
        if opt == "--lenient":
            lenient = True
        elif opt == "--show" and args:
            show = int(args.pop(0))
        else:
            raise Usage("unknown option %s" % opt)
    if not args:
        raise Usage("no CSV file")
    path, select, assertions = args.pop(0), [], []
    for a in args:
        if a == "--":
            continue
        m = re.match(r"^[a-z_]+", a)
        if m and m.group(0) in METRICS:
            assertions.append((a, parse_assertion(a)))
        else:
            select.append(parse_filter(a))
    rows, errors = load(path, lenient)
    failures = ["format: " + e for e in errors[:10]]
    if len(errors) > 10:
        failures.append("format: ... %d more format errors" % (len(errors) - 10))
    failures += check(rows, select, assertions, show)
    for f in failures:
        print("csvcheck: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Usage as e:
        print("csvcheck: usage: %s (see the top of tests/lib/csvcheck.py)" % e)
        sys.exit(2)
    except OSError as e:
        print("csvcheck: %s" % e)
        sys.exit(1)
