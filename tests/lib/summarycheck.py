#!/usr/bin/env python3
"""Checks the tables of ior -summary / ior summary FILE (stats/report.h).

  summarycheck.py OUT totals COL=N...
      the first line "N pairs in ...; N errors; N bytes read, N written; ..."
      has these numbers (pairs, errors, read, written)
  summarycheck.py OUT row TABLE KEY COL=VALUE...
      TABLE's row KEY (Syscalls: the syscall or "total", Families: the
      family, Files: the path, Processes: the pid or "-" for (other)) has
      these cells
  summarycheck.py OUT keys TABLE KEY...
      TABLE holds exactly these rows (Syscalls without "total")
  summarycheck.py OUT folded TABLE COL FOLDED
      COL of every row equals the folded stacks' sums (ior collapsed):
      keys Syscalls: the syscall; Files: the path's frames "/;a;b";
      Processes: "pid N". COL "bytes": read for reads, written for writes
      (a transfer counts both: either)
  summarycheck.py OUT same OTHER
      OUT and OTHER hold the same totals line and tables

OUT may hold other lines (ior's statistics on stderr): the tables are the
lines after "\\nSyscalls\\n", "\\nFamilies\\n", "\\nFiles\\n", "\\nProcesses\\n" up to a blank
line. Exit 0 when all holds, else 1 and one line of why.
"""
import re
import sys

TAIL = {"Syscalls": None, "Families": None, "Files": "path", "Processes": "comm"}
KEY = {"Syscalls": "syscall", "Families": "family", "Files": "path", "Processes": "pid"}


def parse(path):
    text = open(path, encoding="utf-8", errors="surrogateescape").read()
    lines = text.split("\n")
    m = next((re.match(r"^(\d+) pairs in \S+( \(\d+/s\))?; (\d+) errors; (\d+) bytes read, (\d+) written; \S+ in syscalls$", l)
              for l in lines if re.match(r"^\d+ pairs in ", l)), None)
    if not m:
        sys.exit("%s: no totals line \"N pairs in ...\"" % path)
    totals = {"pairs": m.group(1), "errors": m.group(3), "read": m.group(4), "written": m.group(5)}
    tables = {}
    for i, line in enumerate(lines):
        if line in TAIL and i > 0 and lines[i - 1] == "" and i + 1 < len(lines):
            head = lines[i + 1].split()
            rows = {}
            for row in lines[i + 2:]:
                if not row:
                    break
                cells = row.split(None, len(head) - 1) if TAIL[line] else row.split()
                if len(cells) != len(head):
                    sys.exit("%s: %s: row %r has %d cells, the header %d" % (path, line, row, len(cells), len(head)))
                r = dict(zip(head, cells))
                if r[KEY[line]] in rows:
                    sys.exit("%s: %s: row %r twice" % (path, line, r[KEY[line]]))
                rows[r[KEY[line]]] = r
            tables[line] = rows
    return totals, tables


def table(tables, name):
    if name not in tables:
        sys.exit("no table %s" % name)
    return tables[name]


def folded(path):
    out = {}
    for line in open(path, encoding="utf-8", errors="surrogateescape"):
        stack, _, n = line.rstrip("\n").rpartition(" ")
        out[stack] = out.get(stack, 0) + int(n)
    return out


def stack_of(tname, key):
    if tname == "Files":
        return ";".join(["/"] + [p for p in key.split("/") if p])
    if tname == "Processes":
        return "pid " + key
    return key


def main():
    out, cmd, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    totals, tables = parse(out)
    bad = []
    if cmd == "totals":
        for kv in args:
            k, v = kv.split("=", 1)
            if totals.get(k) != v:
                bad.append("%s is %s, want %s" % (k, totals.get(k), v))
    elif cmd == "row":
        rows = table(tables, args[0])
        if args[1] not in rows:
            sys.exit("%s: no row %r (rows: %s)" % (args[0], args[1], ", ".join(sorted(rows))[:300]))
        for kv in args[2:]:
            k, v = kv.split("=", 1)
            if rows[args[1]].get(k) != v:
                bad.append("%s %s: %s is %s, want %s" % (args[0], args[1], k, rows[args[1]].get(k), v))
    elif cmd == "keys":
        got = set(table(tables, args[0])) - ({"total"} if args[0] == "Syscalls" else set())
        if got != set(args[1:]):
            bad.append("%s: rows %s, want %s" % (args[0], sorted(got), sorted(args[1:])))
    elif cmd == "folded":
        tname, col, want = args[0], args[1], folded(args[2])
        got = {}
        for key, r in table(tables, tname).items():
            if key == "total":
                continue
            v = max(int(r["read"]), int(r["written"])) if col == "bytes" else int(r[col])
            if v:
                got[stack_of(tname, key)] = v
        want = {k: v for k, v in want.items() if v}
        for k in sorted(set(got) | set(want)):
            if got.get(k, 0) != want.get(k, 0):
                bad.append("%s: summary %d, collapsed %d" % (k, got.get(k, 0), want.get(k, 0)))
    elif cmd == "same":
        if parse(args[0]) != (totals, tables):
            bad.append("the tables of %s and %s differ" % (out, args[0]))
    else:
        sys.exit("unknown command " + cmd)
    if bad:
        sys.exit("; ".join(bad[:6]))


main()
