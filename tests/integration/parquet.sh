#!/bin/bash
# shellcheck disable=SC2034 # REC_ARGS is read by tests/lib/flame.sh
# ior's Parquet files as an engine reads them: DuckDB (tests/lib/duckdb.sh)
# opens what ior parquet converts and what -parquet writes while tracing.
#  - the schema: names, physical and logical types, which are optional
#  - the basic scenario: rows = the recording's pairs; per (comm, syscall,
#    file) counts, byte sums and duration sums equal ior collapsed's on the
#    same recording; the live file holds the same rows; metadata; ior
#    collapsed -fields host,comm on the recording twice counts it twice
#  - hostile names (newline, quotes, invalid UTF-8; a 4 KiB path) read
#    back as the CSV of the same run shows them (live and converted)
#  - arrow-rs and hyparquet (tests/lib/pqengines.sh) read the same
#    schema and every row, value for value, as DuckDB does; the column
#    statistics (min, max, nulls) are those of the values
#  - -duration closes the file cleanly; SIGKILL leaves no OUT (only
#    OUT.tmp, which the next run replaces)
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/flame.sh"
. "$(dirname "$0")/../lib/duckdb.sh"
. "$(dirname "$0")/../lib/pqengines.sh"
flame_setup

if ! duckdb_setup; then
	fail duckdb-setup "$WHY"
	finish
	exit
fi
pass duckdb-setup
if pqengines_setup; then
	ENGINES=1
	pass engines-setup
else
	ENGINES=""
	fail engines-setup "$WHY"
fi

# ---- other engines, statistics -------------------------------------------------
# every column as text, the way tests/lib/pqengines.mjs prints it
ALL="SELECT epoch_ns(time_ns)::VARCHAR AS time_ns, host, boot_id, comm, pid::VARCHAR AS pid,
	tid::VARCHAR AS tid, syscall, family, fd::VARCHAR AS fd, ret::VARCHAR AS ret, bytes::VARCHAR AS bytes,
	file, file2, flags, is_error::VARCHAR AS is_error, errno_name, duration_ns::VARCHAR AS duration_ns,
	gap_ns::VARCHAR AS gap_ns, pairs::VARCHAR AS pairs, timeout_ns::VARCHAR AS timeout_ns, \"where\",
	device_ns::VARCHAR AS device_ns, block_requests::VARCHAR AS block_requests,
	block_bytes::VARCHAR AS block_bytes, cache_pages::VARCHAR AS cache_pages FROM"
cat >"$T/engines.py" <<'PY'
import json, sys
duck = json.loads(open(sys.argv[1]).readline())
engines = [json.loads(l) for l in open(sys.argv[2])]
cols = [("time_ns", "INT64", "TIMESTAMP", 0), ("host", "BYTE_ARRAY", "STRING", 0), ("boot_id", "BYTE_ARRAY", "STRING", 1),
        ("comm", "BYTE_ARRAY", "STRING", 0), ("pid", "INT32", "", 0), ("tid", "INT32", "", 0),
        ("syscall", "BYTE_ARRAY", "STRING", 0), ("family", "BYTE_ARRAY", "STRING", 0), ("fd", "INT32", "", 1),
        ("ret", "INT64", "", 1), ("bytes", "INT64", "", 0), ("file", "BYTE_ARRAY", "STRING", 1),
        ("file2", "BYTE_ARRAY", "STRING", 1), ("flags", "BYTE_ARRAY", "STRING", 1), ("is_error", "BOOLEAN", "", 0),
        ("errno_name", "BYTE_ARRAY", "STRING", 1), ("duration_ns", "INT64", "", 0), ("gap_ns", "INT64", "", 0),
        ("pairs", "INT64", "", 0), ("timeout_ns", "INT64", "", 1), ("where", "BYTE_ARRAY", "STRING", 1),
        ("device_ns", "INT64", "", 0), ("block_requests", "INT64", "", 0), ("block_bytes", "INT64", "", 0),
        ("cache_pages", "INT64", "", 0)]
arrow = {("INT64", "TIMESTAMP"): "Timestamp<NANOSECOND, UTC>", ("BYTE_ARRAY", "STRING"): "Utf8",
         ("INT32", ""): "Int32", ("INT64", ""): "Int64", ("BOOLEAN", ""): "Bool"}
want_schema = {"arrow-rs": [[n, arrow[(p, l)], bool(o)] for n, p, l, o in cols],
               "hyparquet": [[n, p + (":" + l if l else ""), bool(o)] for n, p, l, o in cols]}
# DuckDB reads a UTC TIMESTAMP(NANOS) as TIMESTAMPTZ, in microseconds: the
# engines' nanoseconds are compared with it cut to microseconds, and
# with each other whole
micros = lambda rows: sorted([str(int(r[0]) // 1000)] + r[1:] for r in rows)
want = micros([r[c[0]] for c in cols] for r in duck)
if not engines:
    sys.exit("no engine printed anything")
for e in engines:
    if e["schema"] != want_schema[e["engine"]]:
        sys.exit("%s schema: %r, want %r" % (e["engine"], e["schema"], want_schema[e["engine"]]))
    got = micros(e["rows"])
    if got != want:
        diff = [(g, w) for g, w in zip(got, want) if g != w][:1]
        sys.exit("%s: %d rows, DuckDB %d; first difference (engine, DuckDB): %.600r" % (e["engine"], len(got), len(want), diff))
if any(sorted(e["rows"]) != sorted(engines[0]["rows"]) for e in engines):
    sys.exit("the engines read different nanoseconds")
print(len(want), "rows,", ", ".join(e["engine"] for e in engines))
PY
engines_check() { # NAME FILE
	local out
	[ -n "$ENGINES" ] || return
	duckdb_sql "$ALL '$2'" >"$T/$1.all.json" 2>&1
	pqengines_read "$2" >"$T/$1.engines.json" 2>"$T/$1.engines.err"
	if out=$(python3 "$T/engines.py" "$T/$1.all.json" "$T/$1.engines.json" 2>&1); then
		pass "$1-other-engines ($out)"
	else
		fail "$1-other-engines" "$out $(head -c 300 "$T/$1.engines.err")"
	fi
}

# Each row group's statistics of each column (DuckDB reads them as text)
# against the values, by its own min, max and null count. The file has
# rows enough only for row group 0.
STATS="SELECT path_in_schema AS c, stats_min_value AS lo, stats_max_value AS hi,
	stats_null_count::VARCHAR AS nulls FROM parquet_metadata"
cat >"$T/stats.py" <<'PY'
import json, sys
meta, vals = [json.loads(l) for l in open(sys.argv[1])]
v = vals[0]
for m in meta:
    c = m["c"]
    want = (v[c + "_lo"], v[c + "_hi"], v[c + "_n"])
    got = (m["lo"], m["hi"], m["nulls"])
    if got != want:
        sys.exit("column %s: statistics (min, max, nulls) %r, values %r" % (c, got, want))
print(len(meta), "columns")
PY
stats_check() { # FILE
	local c sel="" out
	for c in time_ns host boot_id comm pid tid syscall family fd ret bytes file file2 flags is_error errno_name duration_ns gap_ns pairs timeout_ns where device_ns block_requests block_bytes cache_pages; do
		sel="$sel, min(\"$c\")::VARCHAR AS ${c}_lo, max(\"$c\")::VARCHAR AS ${c}_hi, (count(*) - count(\"$c\"))::VARCHAR AS ${c}_n"
	done
	duckdb_sql "$STATS('$1') WHERE row_group_id = 0" "SELECT ${sel#, } FROM '$1'" >"$T/stats.json" 2>&1
	if out=$(python3 "$T/stats.py" "$T/stats.json" 2>&1); then
		pass "statistics ($out)"
	else
		fail statistics "$out $(head -c 400 "$T/stats.json")"
	fi
}

# ---- schema, totals against ior collapsed ------------------------------------
mkdir -p "$T/b"
REC_ARGS=(-plain -parquet "$T/live.parquet")
if ! record_scenario pq basic "$T/b" 40; then
	fail basic-record "$WHY"
	finish
	exit
fi
cp "$IOR_OUT" "$T/basic.csv"
if out=$("$IOR" parquet "$REC" -o "$T/conv.parquet" 2>&1) && [ -f "$T/conv.parquet" ]; then
	pass basic-convert
else
	fail basic-convert "ior parquet: $out"
	finish
	exit
fi
if [ -f "$T/live.parquet" ] && [ ! -e "$T/live.parquet.tmp" ]; then
	pass live-written
else
	fail live-written "no $T/live.parquet after the run (or a .tmp left): $(tail -c 300 "$IOR_ERR")"
fi

duckdb_sql "SELECT name, type, repetition_type, converted_type, logical_type FROM parquet_schema('$T/conv.parquet')" \
	>"$T/schema.json" 2>&1
cat >"$T/schema.py" <<'PY'
import json, sys
want = [("time_ns", "INT64", "REQUIRED", None, "Timestamp(isAdjustedToUTC=1, timeUnit=TimeUnit(NANOS=NanoSeconds()))"),
        ("host", "BYTE_ARRAY", "REQUIRED", "UTF8", "String"), ("boot_id", "BYTE_ARRAY", "OPTIONAL", "UTF8", "String"),
        ("comm", "BYTE_ARRAY", "REQUIRED", "UTF8", "String"), ("pid", "INT32", "REQUIRED", None, None),
        ("tid", "INT32", "REQUIRED", None, None), ("syscall", "BYTE_ARRAY", "REQUIRED", "UTF8", "String"),
        ("family", "BYTE_ARRAY", "REQUIRED", "UTF8", "String"), ("fd", "INT32", "OPTIONAL", None, None),
        ("ret", "INT64", "OPTIONAL", None, None), ("bytes", "INT64", "REQUIRED", None, None),
        ("file", "BYTE_ARRAY", "OPTIONAL", "UTF8", "String"), ("file2", "BYTE_ARRAY", "OPTIONAL", "UTF8", "String"),
        ("flags", "BYTE_ARRAY", "OPTIONAL", "UTF8", "String"), ("is_error", "BOOLEAN", "REQUIRED", None, None),
        ("errno_name", "BYTE_ARRAY", "OPTIONAL", "UTF8", "String"), ("duration_ns", "INT64", "REQUIRED", None, None),
        ("gap_ns", "INT64", "REQUIRED", None, None), ("pairs", "INT64", "REQUIRED", None, None),
        ("timeout_ns", "INT64", "OPTIONAL", None, None), ("where", "BYTE_ARRAY", "OPTIONAL", "UTF8", "String"),
        ("device_ns", "INT64", "REQUIRED", None, None), ("block_requests", "INT64", "REQUIRED", None, None),
        ("block_bytes", "INT64", "REQUIRED", None, None), ("cache_pages", "INT64", "REQUIRED", None, None)]
rows = json.loads(open(sys.argv[1]).readline())
got = [(r["name"], r["type"], r["repetition_type"], r["converted_type"], r["logical_type"]) for r in rows[1:]]
norm = lambda l: (l or "").replace(" ", "").lower()
for w, g in zip(want, got):
    # DuckDB versions print logical types differently: TimestampType(...) or Timestamp(...)
    if w[:4] != g[:4] or (w[4] is None) != (g[4] is None) or (w[4] and not norm(g[4]).startswith(norm(w[4]).split("(")[0])) \
       or (w[0] == "time_ns" and ("nanos=nanoseconds" not in norm(g[4]) or "isadjustedtoutc=1" not in norm(g[4]).replace("true", "1"))):
        sys.exit("column %s: got %r, want %r" % (w[0], g, w))
if len(got) != len(want):
    sys.exit("%d columns, want %d: %r" % (len(got), len(want), [g[0] for g in got]))
PY
if out=$(python3 "$T/schema.py" "$T/schema.json" 2>&1); then
	pass schema
else
	fail schema "$out; DuckDB said: $(head -c 600 "$T/schema.json")"
fi

# ior collapsed -fields comm,tracepoint,path: "comm;syscall;/;a;b value",
# stacks whose value is 0 left out
for m in count bytes duration; do
	"$IOR" collapsed -fields comm,tracepoint,path -count "$m" "$REC" >"$T/collapsed.$m" 2>/dev/null
done
Q="SELECT comm, syscall, coalesce(file, '(no path)') AS file, sum(pairs)::VARCHAR AS count,
	sum(bytes)::VARCHAR AS bytes, sum(duration_ns)::VARCHAR AS duration FROM"
duckdb_sql "SELECT count(*)::VARCHAR AS n FROM '$T/conv.parquet'" "$Q '$T/conv.parquet' GROUP BY ALL" \
	"$Q '$T/live.parquet' GROUP BY ALL" "SELECT count(*)::VARCHAR AS n FROM '$T/live.parquet'" \
	"SELECT key::VARCHAR AS k, value::VARCHAR AS v FROM parquet_kv_metadata('$T/conv.parquet')" >"$T/totals.json" 2>&1
cat >"$T/totals.py" <<'PY'
import json, sys
t, pairs = sys.argv[1], int(sys.argv[2])
lines = [json.loads(l) for l in open(t + "/totals.json")]
n, conv, live, nlive, kv = lines
if int(n[0]["n"]) != pairs:
    sys.exit("the converted file has %s rows, the recording %d pairs" % (n[0]["n"], pairs))
if int(nlive[0]["n"]) != pairs:
    sys.exit("the -parquet file has %s rows, the recording %d pairs" % (nlive[0]["n"], pairs))
want = {}
for m in ("count", "bytes", "duration"):
    for line in open(t + "/collapsed." + m):
        stack, v = line.rstrip("\n").rsplit(" ", 1)
        f = stack.split(";")
        path = "(no path)" if f[2:] == ["(no path)"] else ("/" if f[2] == "/" else "") + "/".join(f[3:] if f[2] == "/" else f[2:])
        want.setdefault((f[0], f[1], path), {"count": 0, "bytes": 0, "duration": 0})[m] = int(v)
def table(rows):
    return {(r["comm"], r["syscall"], r["file"]): {"count": int(r["count"]), "bytes": int(r["bytes"]),
            "duration": int(r["duration"])} for r in rows}
for name, rows in (("converted", conv), ("-parquet", live)):
    got = table(rows)
    for k in sorted(set(want) | set(got)):
        w, g = want.get(k), got.get(k)
        if w != g:
            sys.exit("%s file, %r: %r, ior collapsed: %r" % (name, k, g, w))
meta = {r["k"]: r["v"] for r in kv}
for k in ("ior.host", "ior.kernel", "ior.version", "ior.cmdline", "ior.pairs", "ior.lost", "ior.summarized"):
    if k not in meta:
        sys.exit("no %s in the key-value metadata: %r" % (k, meta))
if int(meta["ior.pairs"]) != pairs or "-pid" not in meta["ior.cmdline"]:
    sys.exit("metadata: %r" % meta)
print(len(want), "stacks")
PY
if out=$(python3 "$T/totals.py" "$T" "$REC_PAIRS" 2>&1); then
	pass "totals-equal-collapsed ($out)"
else
	fail totals-equal-collapsed "$out; $(head -c 300 "$T/totals.json")"
fi
engines_check basic "$T/conv.parquet"
stats_check "$T/conv.parquet"

# ior collapsed A B: one graph; -fields host puts each recording's host
# at the bottom (here both are this host's: every count doubles)
one=$("$IOR" collapsed -fields comm "$REC" 2>/dev/null | awk '{ s += $NF } END { print s }')
two=$("$IOR" collapsed -fields host,comm "$REC" "$REC" 2>/dev/null)
host=$(uname -n)
if [ "$(echo "$two" | awk '{ s += $NF } END { print s }')" = $((2 * one)) ] && [ -n "$one" ] &&
	[ "$(echo "$two" | grep -c "^$host;")" = "$(echo "$two" | wc -l)" ]; then
	pass collapsed-merges
else
	fail collapsed-merges "one recording: $one pairs; twice, by host: $(echo "$two" | head -c 300)"
fi
svg=${REC%.ior.zst}.host-by-count.svg
if out=$("$IOR" -ior="$REC,$REC" -nohttp -fields host 2>&1) && grep -q ">$host<" "$svg" 2>/dev/null; then
	pass flamegraph-merges
else
	fail flamegraph-merges "ior -ior=REC,REC -nohttp -fields host: $out; $(ls "$(dirname "$REC")")"
fi

# -ior=DIR: the directory's recordings (*.ior.zst only), in name order,
# merged; the outputs are named after the first
mkdir -p "$T/fleet"
cp "$REC" "$T/fleet/a.ior.zst" && cp "$REC" "$T/fleet/b.ior.zst" && echo x >"$T/fleet/notes.txt"
json="$T/fleet/a.host:comm-by-count.json"
if out=$("$IOR" -ior="$T/fleet" -nohttp -flamegraphJson -fields host,comm 2>&1) &&
	grep -q "\"name\":\"all\",\"value\":$((2 * one))," "$json" 2>/dev/null &&
	grep -q "\"name\":\"$host\",\"value\":$((2 * one))," "$json"; then
	pass flamegraph-directory
else
	fail flamegraph-directory "ior -ior=DIR: $out; want $((2 * one)) pairs under all and $host: $(head -c 300 "$json" 2>&1)"
fi
mkdir -p "$T/empty"
if ior_fails 2 "no \*\.ior\.zst in directory" -ior="$T/empty" -nohttp; then
	pass flamegraph-directory-empty
else
	fail flamegraph-directory-empty "$WHY"
fi

# ---- hostile names: as the CSV shows them -----------------------------------
# Parquet's columns put back together into the CSV's comm and file columns
# (path%(fd,FLAGS), old=>new), compared as multisets with the CSV's rows.
ROWS="SELECT comm, coalesce(file, '') || coalesce('=>' || file2, '') ||
	CASE WHEN fd IS NULL THEN '' ELSE '%(' || fd || coalesce(',' || flags, '') || ')' END AS f,
	syscall, coalesce(ret::VARCHAR, '') AS ret, coalesce(errno_name, '') AS e FROM"
cat >"$T/rows.py" <<'PY'
import csv, json, sys
csvfile, jsonfile, minlen = sys.argv[1], sys.argv[2], int(sys.argv[3])
want = sorted((r["comm"], r["file"], r["name"], r["ret"]) for r in csv.DictReader(open(csvfile, newline="")))
for i, line in enumerate(open(jsonfile)):
    rows = json.loads(line)
    got = sorted((r["comm"], r["f"], r["syscall"], r["ret"]) for r in rows)
    if got != want:
        extra = [g for g in got if g not in want][:2]
        missing = [w for w in want if w not in got][:2]
        sys.exit("file %d: %d rows, CSV %d; only in Parquet: %r; only in the CSV: %r" % (i, len(got), len(want), extra, missing))
    bad = [r for r in rows if r["ret"].startswith("-") != (r["e"] != "")]
    if bad:
        sys.exit("errno_name set on other rows than the failed ones: %r" % bad[:2])
if not any(len(w[1]) >= minlen for w in want):
    sys.exit("no file name of %d bytes or more in the CSV" % minlen)
PY
hostile_check() { # NAME CSV
	local name=$1 csv=$2 out
	"$IOR" parquet "$REC" -o "$T/$name.parquet" >/dev/null 2>&1
	duckdb_sql "$ROWS '$T/$name.live.parquet'" "$ROWS '$T/$name.parquet'" >"$T/$name.json" 2>&1
	if out=$(python3 "$T/rows.py" "$csv" "$T/$name.json" "${3:-0}" 2>&1); then
		pass "$name-as-csv"
	else
		fail "$name-as-csv" "$out $(head -c 300 "$T/$name.json")"
	fi
	engines_check "$name" "$T/$name.parquet"
}

mkdir -p "$T/h"
REC_ARGS=(-plain -parquet "$T/hostile.live.parquet")
if record_scenario pqh hostile "$T/h"; then
	cp "$IOR_OUT" "$T/hostile.csv"
	hostile_check hostile "$T/hostile.csv"
else
	fail hostile-record "$WHY"
fi

# a path of about 4 KiB, with a newline, a quote and a byte that is not
# UTF-8: held open before the trace (the fd table learns it from /proc),
# then read and closed
LONG="$T/l"
for _ in $(seq 1 16); do LONG="$LONG/$(printf 'd%.0s' $(seq 1 250))"; done
mkdir -p "$LONG"
LONG="$LONG/x\"y
z$(printf '\377')"
printf 'abc' >"$LONG"
REC_ARGS=(-plain -parquet "$T/long.live.parquet")
if record_scenario pql preopen "$LONG" 3; then
	cp "$IOR_OUT" "$T/long.csv"
	hostile_check long "$T/long.csv" 4000
else
	fail long-record "$WHY"
fi

# ---- ends of a run -------------------------------------------------------------
if start_ior -parquet "$T/dur.parquet" -comm pq-nobody -duration 1 && wait_ior 15 && [ "$IOR_RC" = 0 ] &&
	[ "$(duckdb_sql "SELECT count(*)::VARCHAR AS n FROM '$T/dur.parquet'" 2>&1)" = '[{"n":"0"}]' ]; then
	pass duration-closes
else
	fail duration-closes "rc ${IOR_RC:-?}, $WHY $(tail -c 300 "$IOR_ERR")"
fi

if start_ior -parquet "$T/killed.parquet" -comm pq-nobody; then
	kill -KILL "$IOR_PID"
	wait "$IOR_PID" 2>/dev/null
	IOR_PID=""
	if [ ! -e "$T/killed.parquet" ] && [ -e "$T/killed.parquet.tmp" ]; then
		pass sigkill-leaves-no-file
	else
		fail sigkill-leaves-no-file "after SIGKILL: $(ls "$T" | grep killed)"
	fi
	if start_ior -parquet "$T/killed.parquet" -comm pq-nobody && stop_ior &&
		[ -f "$T/killed.parquet" ] && [ ! -e "$T/killed.parquet.tmp" ]; then
		pass next-run-replaces-tmp
	else
		fail next-run-replaces-tmp "$WHY $(ls "$T" | grep killed)"
	fi
else
	fail sigkill-leaves-no-file "$WHY"
fi
finish
