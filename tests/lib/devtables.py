"""Checks of the device table beyond -summary (tests/integration/block_tables.sh).

  devtables.py parquet SUMMARY DEVICES_JSON HIST_JSON [BEFORE AFTER DEV]
      the rows DuckDB read from OUT.devices.parquet (one JSON line: an array
      of row objects) are the Devices rows of `ior summary` (SUMMARY) for
      the same recording, requests, bytes, errors, in-syscalls and
      syscall-bytes exactly; each row's device-latency histogram
      (OUT.device_hist.parquet) holds its issued requests; with BEFORE
      AFTER DEV, DEV's completed requests and sectors per op in the two
      /proc/diskstats copies equal the file's
  devtables.py same A_JSON B_JSON
      two DuckDB results are the same rows (the live file and the
      converted one)
  devtables.py diff JSON SUMMARY_BASE SUMMARY_NEW DEV
      ior diff -summary -json -normalize total: its devices rows for DEV
      are the two summaries' rows (requests, bytes), and NEW has more
      reads than BASE
"""
import json
import sys

from blockcheck import ROW, against_diskstats  # the summary's device rows, /proc/diskstats


def summary_rows(path):
    rows = {}
    for line in open(path, errors="replace"):
        m = ROW.match(line)
        if m:
            rows[(m.group(1), m.group(2))] = tuple(int(m.group(i)) for i in range(3, 8))
    return rows


def cmd_parquet(summary, devices, hist, before=None, after=None, dev=None):
    want = summary_rows(summary)
    rows = json.loads(open(devices).readline())
    got = {(r["device"], r["op"]): tuple(int(r[k]) for k in ("requests", "bytes", "errors", "in_syscalls",
                                                               "syscall_bytes")) for r in rows}
    if len(got) != len(rows):
        sys.exit("a (device, op) twice in the devices file: %r" % rows)
    if not want:
        sys.exit("no Devices rows in %s" % summary)
    if got != want:
        sys.exit("devices file %r != ior summary %r" % (got, want))
    print("%d rows equal ior summary's Devices table: %s" % (len(got), ", ".join(
        "%s %s %d req %d B" % (k[0], k[1], v[0], v[1]) for k, v in sorted(got.items()))))
    buckets = {}
    for h in json.loads(open(hist).readline()):
        if h["latency"] == "device":
            k = (h["device"], h["op"])
            buckets[k] = buckets.get(k, 0) + int(h["requests"])
            if int(h["hi_ns"]) != 2 * int(h["lo_ns"]) and int(h["lo_ns"]) != 0:
                sys.exit("bucket %r is not a power of two" % h)
    for r in rows:
        k = (r["device"], r["op"])
        issued = int(r["requests"]) - int(r["not_issued"])
        if buckets.get(k, 0) != issued:
            sys.exit("%s %s: the histogram holds %d requests, %d were issued" % (k[0], k[1], buckets.get(k, 0), issued))
        if issued and not int(r["device_min_ns"]) <= int(r["device_p50_ns"]) <= int(r["device_max_ns"]):
            sys.exit("%s %s: min/p50/max out of order: %r" % (k[0], k[1], r))
    print("each row's device-time histogram holds its issued requests")
    if dev:
        got = {r["op"]: (int(r["requests"]), int(r["bytes"]) // 512) for r in rows if r["device"] == dev}
        against_diskstats(before, after, dev, got, "parquet")


def cmd_same(a, b):
    x, y = json.loads(open(a).readline()), json.loads(open(b).readline())
    if x != y:
        sys.exit("differ: %r vs %r" % (x, y))
    print("%d rows, value for value" % len(x))


def cmd_diff(path, base, new, dev):
    j = json.load(open(path))
    if j.get("normalize") != "total" or j.get("factor") != 1:
        sys.exit("not -normalize total: %r" % {k: j.get(k) for k in ("normalize", "factor")})
    b, n = summary_rows(base), summary_rows(new)
    seen = 0
    for r in j["devices"]:
        if r["device"] != dev:
            continue
        k = (dev, r["op"])
        want = ([b.get(k, (0, 0))[0], n.get(k, (0, 0))[0]], [b.get(k, (0, 0))[1], n.get(k, (0, 0))[1]])
        if (r["requests"], r["bytes"]) != want:
            sys.exit("%s %s: diff says requests %r bytes %r, the summaries %r" % (dev, r["op"], r["requests"],
                                                                               r["bytes"], want))
        if r["op"] == "read" and not ("device_p50_ns" in r and "device_p99_ns" in r):
            sys.exit("%s read: no device_p50_ns/device_p99_ns: %r" % (dev, r))
        print("%s %-5s requests %d -> %d, bytes %d -> %d, device time %d -> %d ns" %
              (dev, r["op"], r["requests"][0], r["requests"][1], r["bytes"][0], r["bytes"][1],
               r["device_ns"][0], r["device_ns"][1]))
        seen += 1
    if seen != len([k for k in set(b) | set(n) if k[0] == dev]):
        sys.exit("diff has %d rows of %s, the summaries %d" % (seen, dev, len([k for k in set(b) | set(n) if k[0] == dev])))
    rd = [r for r in j["devices"] if r["device"] == dev and r["op"] == "read"]
    if not rd or not rd[0]["requests"][1] > rd[0]["requests"][0]:
        sys.exit("NEW does not read more than BASE: %r" % rd)


if __name__ == "__main__":
    cmds = {"parquet": cmd_parquet, "same": cmd_same, "diff": cmd_diff}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        sys.exit(__doc__)
    cmds[sys.argv[1]](*sys.argv[2:])
