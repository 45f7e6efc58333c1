"""Checks of ior's block requests (tests/integration/trace_block.sh).

  blockcheck.py diskstats BEFORE AFTER DEV IOR_ERR
      the completed reads, writes, discards and flushes and the sectors
      read, written and discarded of DEV in /proc/diskstats (two copies)
      equal the Devices table ior printed (-summary) exactly
  blockcheck.py pairs CSV NAME PATH N BYTES
      -plainDevice rows of syscall NAME on PATH: N of them, each with one
      request of BYTES bytes and 0 < deviceNs <= durationNs
  blockcheck.py fsync CSV PATH
      the fsync on PATH: its requests include the flush (>= 1) and
      0 < deviceNs <= durationNs
  blockcheck.py norequests CSV NAME
      every row of NAME carries no request and no device time
  blockcheck.py cache CSV PATH PAGES
      the read rows on PATH added PAGES page-cache pages in all (0: every
      row is a hit)
  blockcheck.py devprocs IOR_ERR DEV OP REGEX [ABSENT_REGEX]
      the Devices row DEV OP lists a process matching REGEX (and none
      matching ABSENT_REGEX)
"""
import csv
import re
import sys

HEADER = ["durationToPrevNs", "durationNs", "comm", "pid.tid", "name", "ret", "file",
          "deviceNs", "requests", "deviceBytes", "cachePages"]
ROW = re.compile(r"^(\S+)\s+(read|write|discard|flush|other)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s")


def diskstats(path, dev):
    for line in open(path):
        f = line.split()
        if len(f) >= 20 and f[2] == dev:
            return {"read": (int(f[3]), int(f[5])), "write": (int(f[7]), int(f[9])),
                    "discard": (int(f[14]), int(f[16])), "flush": (int(f[18]), 0)}
    sys.exit("no %s in %s" % (dev, path))


def device_table(path, dev):
    rows = {}
    for line in open(path, errors="replace"):
        m = ROW.match(line)
        if m and m.group(1) == dev:
            rows[m.group(2)] = (int(m.group(3)), int(m.group(4)) // 512)
    return rows


def against_diskstats(before, after, dev, got, source):
    """Exits naming the ops whose (requests, sectors) in got, a dict by op
    read from SOURCE, differ from diskstats' change between two reads."""
    a, b = diskstats(before, dev), diskstats(after, dev)
    bad = []
    for op in ("read", "write", "discard", "flush"):
        want = (b[op][0] - a[op][0], b[op][1] - a[op][1])
        g = got.get(op, (0, 0))
        print("%s %-7s diskstats: %d requests %d sectors; %s: %d requests %d sectors" %
              (dev, op, want[0], want[1], source, g[0], g[1]))
        if want != g:
            bad.append(op)
    if bad:
        sys.exit("differ from diskstats: " + ", ".join(bad))


def cmd_diskstats(before, after, dev, err):
    against_diskstats(before, after, dev, device_table(err, dev), "ior")


def rows(path):
    with open(path, newline="", encoding="utf-8", errors="surrogateescape") as f:
        r = csv.reader(f, strict=True)
        if next(r, None) != HEADER:
            sys.exit("header is not -plainDevice's")
        for rec in r:
            if len(rec) != len(HEADER):
                sys.exit("row of %d fields: %r" % (len(rec), rec))
            yield {"dur": int(rec[1]), "name": rec[4], "file": rec[6], "dev": int(rec[7]),
                   "req": int(rec[8]), "bytes": int(rec[9]), "ret": int(rec[5]), "pages": int(rec[10])}


def on(r, path):
    return r["file"] == path or r["file"].startswith(path + "%(")


def cmd_pairs(path, name, file, n, nbytes):
    sel = [r for r in rows(path) if r["name"] == name and on(r, file)]
    if len(sel) != int(n):
        sys.exit("%d %s rows on %s, want %s" % (len(sel), name, file, n))
    for r in sel:
        if r["req"] != 1 or r["bytes"] != int(nbytes) or not 0 < r["dev"] <= r["dur"]:
            sys.exit("%s row: %d requests, %d bytes, deviceNs %d, durationNs %d" %
                     (name, r["req"], r["bytes"], r["dev"], r["dur"]))
    print("%d %s pairs: 1 request of %s bytes each, 0 < deviceNs <= durationNs (max deviceNs %d)" %
          (len(sel), name, nbytes, max(r["dev"] for r in sel)))


def cmd_fsync(path, file):
    sel = [r for r in rows(path) if r["name"] == "fsync" and on(r, file)]
    if len(sel) != 1 or sel[0]["req"] < 1 or not 0 < sel[0]["dev"] <= sel[0]["dur"]:
        sys.exit("fsync rows: %r" % sel)
    print("fsync: %d requests, deviceNs %d of durationNs %d" % (sel[0]["req"], sel[0]["dev"], sel[0]["dur"]))


def cmd_norequests(path, name):
    sel = [r for r in rows(path) if r["name"] == name]
    if not sel:
        sys.exit("no %s rows" % name)
    bad = [r for r in sel if r["req"] or r["dev"] or r["bytes"]]
    if bad:
        sys.exit("%d of %d %s rows carry requests: %r" % (len(bad), len(sel), name, bad[0]))
    print("%d %s rows, none with a request (%d bytes written)" % (len(sel), name, sum(r["ret"] for r in sel)))


def cmd_cache(path, file, pages):
    sel = [r for r in rows(path) if r["name"] == "read" and on(r, file)]
    got = sum(r["pages"] for r in sel)
    total = sum(max(r["ret"], 0) for r in sel)
    hits = sum(1 for r in sel if r["ret"] > 0 and r["pages"] == 0)
    print("%d reads of %d bytes on %s added %d pages (%d hits)" % (len(sel), total, file, got, hits))
    if not sel or got != int(pages):
        sys.exit("pages added: %d, want %s" % (got, pages))
    if int(pages) == 0 and hits != sum(1 for r in sel if r["ret"] > 0):
        sys.exit("not every read is a hit")


def cmd_devprocs(err, dev, op, want, absent=None):
    lines, inrow = [], False
    for line in open(err, errors="replace"):
        m = ROW.match(line)
        if m:
            inrow = m.group(1) == dev and m.group(2) == op
            continue
        if inrow and line.startswith("    process "):
            lines.append(line.strip())
    if not any(re.search(want, l) for l in lines):
        sys.exit("no process matching %s under %s %s: %r" % (want, dev, op, lines))
    if absent and any(re.search(absent, l) for l in lines):
        sys.exit("a process matching %s under %s %s: %r" % (absent, dev, op, lines))
    print("%s %s: %s" % (dev, op, "; ".join(lines)))


if __name__ == "__main__":
    cmds = {"diskstats": cmd_diskstats, "pairs": cmd_pairs, "fsync": cmd_fsync,
            "norequests": cmd_norequests, "devprocs": cmd_devprocs,
            "cache": cmd_cache}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        sys.exit(__doc__)
    cmds[sys.argv[1]](*sys.argv[2:])
