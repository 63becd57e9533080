#!/bin/bash
# fio_output.sh - fio's tools read nvscope's output (issue 13).
#
# On a loop device this test makes:
# 1. JSON: the same randrw workload through Debian's fio and nvscope
#    (--output-format=json+); tests/tools/fiojson_compare.py walks fio's
#    JSON and asserts every key is in nvscope's with fio's type, plus the
#    keys fio-plot reads.
# 2. A job file with two jobs: each job reports its own rw; "global options"
#    never contradicts a job (fio-plot merges it over the job's options).
# 3. A QD sweep with --output-dir: one fio JSON per depth, named as fio-plot's
#    bench-fio names them (RW-QD-NUMJOBS.json), each one job, as fio-plot's
#    QD bar chart reads them.
# 4. json+: fio_jsonplus_clat2csv converts and validates nvscope's bins, and
#    its cumulative percentiles agree with nvscope's clat_ns percentiles.
# 5. Logs (write_iops_log/bw/lat, log_avg_msec=500): fio's names and 5-column
#    lines; Debian's fiologparser.py averages equal nvscope's own figures.
#    Side by side with fio on one job file (three jobs, numjobs=2,
#    per_job_logs=0, log_offset, log_prio): the same file names (fio's
#    thread_number), the same line shapes; write_lat_log's _slat, _clat and
#    _lat each their own quantity (slat, clat <= lat line by line, slat +
#    clat = lat), their I/O-weighted means nvscope's JSON slat/clat/lat.
# 6. write_hist_log: fio's 1856 bins per line, counts adding up to the I/Os;
#    fiologparser_hist.py's samples and mean match nvscope's interval.
# 7. numjobs=4 with and without group_reporting, side by side with fio's
#    JSON (entries, jobnames, groupids, keys and types); clat2csv per copy;
#    the text's blocks.
# 8. slat_ns measured when asked (N = I/Os, lat = slat + clat), fio's keys;
#    text lines.
#
# The parts run in five lanes (1, 3, 4 / 2, 5 / 6 / 7 / 8), each on a loop
# device of its own (nvscope claims a device it writes) with its own files
# in the scratch directory: 1-4, 7 and 8 side by side (their runs are
# time_based, so each lasts its runtime whatever CPU share it gets, and none
# checks a speed), then 2 and 5, then 6.  Each lane's output in order.
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "fio is not installed"
command -v python3 >/dev/null || skip "python3 is needed"
# the interpreter itself: a python3 found through a version manager's shim
# (pyenv's is bash scripts) costs more to start than the checks it runs
PY=$(python3 -c 'import sys; print(sys.executable)') || fail "python3"
PYD=/usr/bin/python3
# fio's converter is a python3 script too (#!/usr/bin/env python3): run by
# the same interpreter, without the shim
C2C=$(command -v fio_jsonplus_clat2csv) || fail "no fio_jsonplus_clat2csv"
fio_jsonplus_clat2csv() { $PY "$C2C" "$@"; }
CMP=$(realpath "$NVS_TOP/tests/tools/fiojson_compare.py")
NVS_BIN=$(realpath "$NVS_BIN")
declare -A dev
for l in a b c d e; do
	t_loop 64M; dev[$l]=$LOOP
done
cd "$T_TMP" || fail "cd"
zcat /usr/share/doc/fio/fiologparser.py.gz >fiologparser.py 2>/dev/null ||
	cp /usr/share/doc/fio/fiologparser.py fiologparser.py 2>/dev/null || rm -f fiologparser.py

lane_a() {
	# 1. the same workload through fio and nvscope
	# (1 s: fio's JSON has the same keys and types after 0.5, 1 or 2 s; both
	# tools side by side)
	common="--rw=randrw --rwmixread=70 --bs=4k --iodepth=4 --runtime=1 --time_based"
	fio --name=cmp --filename="$LOOP" $common --ioengine=io_uring --direct=1 \
		--output-format=json+ >fio.json 2>fio.err &
	fpid=$!
	"$NVS_BIN" run --target "$LOOP" $common --output-format=json+ -q >nv.json 2>nv.err ||
		fail "nvscope run: $(cat nv.err)"
	wait $fpid || fail "fio: $(cat fio.err)"
	$PY "$CMP" fio.json nv.json >cmp1.out || fail "JSON differs from fio's: $(head -20 cmp1.out)"
	ok "every key of fio's JSON, with fio's type"

	# 3. a QD sweep laid out for fio-plot (500 ms per depth: its files and keys)
	"$NVS_BIN" run --target "$LOOP" --rw=randrw --rwmixread=70 --bs=4k --iodepth=1,4 --runtime=500ms \
		--time_based --output-format=json+ --output-dir sweep -q >/dev/null 2>sweep.err ||
		fail "sweep: $(cat sweep.err)"
	[ -f sweep/randrw-1-1.json ] && [ -f sweep/randrw-4-1.json ] ||
		fail "sweep files: $(ls sweep)"
	for f in sweep/*.json; do
		$PY "$CMP" fio.json "$f" >cmp3.out || fail "$f differs from fio's: $(head cmp3.out)"
	done
	$PY - sweep <<'EOT' || fail "fio-plot's reading of the sweep"
# fio-plot's jsonimport.filter_json_files: a file counts for (rw, QD, numjobs)
# when jobs[0]["job options"] (with "global options" merged) say so
import json, os, sys
seen = {}
for name in sorted(os.listdir(sys.argv[1])):
    d = json.load(open(os.path.join(sys.argv[1], name)))
    assert sum(k in d for k in ["fio version", "global options", "client_stats", "jobs"]) >= 2
    assert len(d["jobs"]) == 1, name
    o = dict(d["jobs"][0]["job options"], **d.get("global options", {}))
    seen[(o["rw"], int(o["iodepth"]), int(o["numjobs"]))] = d["jobs"][0]["read"]["iops"]
assert set(seen) == {("randrw", 1, 1), ("randrw", 4, 1)}, seen
assert all(v > 0 for v in seen.values()), seen
EOT
	ok "QD sweep: one fio JSON per depth, bench-fio's names"

	# 4. json+ through fio's own converter
	fio_jsonplus_clat2csv nv.json clat >/dev/null 2>c2c4.err || fail "clat2csv: $(cat c2c4.err)"
	fio_jsonplus_clat2csv --validate nv.json clat >/dev/null 2>c2c4.err ||
		fail "clat2csv --validate: $(cat c2c4.err)"
	$PY - nv.json clat_job0 <<'EOT' || fail "clat2csv's percentiles"
import csv, json, sys
job = json.load(open(sys.argv[1]))["jobs"][0]
rows = list(csv.reader(open(sys.argv[2]), skipinitialspace=True))
head = [h.strip() for h in rows[0]]
for ddir in ("read", "write"):
    col = head.index(f"{ddir}_clat_ns_percentile")
    # the converter writes the cumulative share as a fraction
    pts = [(int(r[0]), 100 * float(r[col])) for r in rows[1:] if r[col].strip()]
    assert pts, ddir
    for p, v in job[ddir]["clat_ns"]["percentile"].items():
        p = float(p)
        csv_v = next(ns for ns, pct in pts if pct >= p - 1e-9)
        # same bucket, except nvscope clamps its percentiles to the exact min/max
        lo, hi = job[ddir]["clat_ns"]["min"], job[ddir]["clat_ns"]["max"]
        want = min(max(csv_v, lo), hi)
        assert abs(want - v) <= v / 64, (ddir, p, v, csv_v)
EOT
	ok "fio_jsonplus_clat2csv reads nvscope's json+; its percentiles are nvscope's"
}

lane_b() {
	# 2. two jobs: per-job rw, global options consistent
	cat >two.fio <<EOT
[global]
ioengine=io_uring
bs=4k
runtime=1
time_based
[reader]
rw=randread
[writer]
rw=randwrite
iodepth=2
EOT
	"$NVS_BIN" run --target "$LOOP" --job two.fio --output-format=json -q >two.json 2>two.err ||
		fail "job file run: $(cat two.err)"
	$PY - two.json <<'EOT' || fail "per-job options"
import json, sys
d = json.load(open(sys.argv[1]))
jobs = d["jobs"]
assert [j["job options"]["rw"] for j in jobs] == ["randread", "randwrite"], jobs
assert [j["job options"]["iodepth"] for j in jobs] == ["1", "2"]
g = d.get("global options", {})
for j in jobs:
    for k, v in g.items():
        assert j["job options"].get(k) == v, (k, v)
assert "rw" not in g and g.get("bs") == "4k", g
assert jobs[0]["write"]["total_ios"] == 0 and jobs[1]["read"]["total_ios"] == 0
EOT
	ok "each job its own rw and options; global options agree with every job"

	# 5. log files through fio's log parser
	# (--disable_slat=0: slat asked, so the _slat log is written, as fio's)
	"$NVS_BIN" run --target "$LOOP" --rw=randread --bs=4k --iodepth=2 --runtime=2 --time_based \
		--write_iops_log=nv --write_bw_log=nv --write_lat_log=nv --log_avg_msec=500 \
		--disable_slat=0 \
		--output-format=json -q >logs.json 2>logs.err || fail "logs run: $(cat logs.err)"
	for t in iops bw lat slat clat; do
		[ -s nv_$t.1.log ] || fail "no nv_$t.1.log: $(ls)"
		grep -Evq '^[0-9]+, [0-9]+, [01], 0, 0$' nv_$t.1.log && fail "nv_$t.1.log: $(head -3 nv_$t.1.log)"
	done
	[ "$(wc -l <nv_iops.1.log)" -ge 3 ] || fail "too few log lines: $(cat nv_iops.1.log)"
	[ -s fiologparser.py ] || skip "no fiologparser.py"
	# Debian's fiologparser.py (fio 3.33) still splits 4 columns; fio 3.33's own
	# logs have 5 (the priority), so both are fed their first four
	for t in iops bw lat slat clat; do
		cut -d, -f1-4 nv_$t.1.log >p_$t.log
		$PY fiologparser.py p_$t.log >p_$t.out 2>p5.err || fail "fiologparser $t: $(cat p5.err)"
	done
	$PY - logs.json p_iops.out p_bw.out p_lat.out <<'EOT' || fail "fiologparser's averages"
import json, sys
job = json.load(open(sys.argv[1]))["jobs"][0]
iops, bw, lat = (float(open(f).read().split()[-1]) for f in sys.argv[2:5])
r = job["read"]
pts = [p for p in job["nvscope"]["series"] if not p["ramp"]]
lat_mean = sum(p["lat_mean_us"] * 1000 for p in pts) / len(pts)
def near(a, b, tol):
    return abs(a - b) <= tol * max(abs(b), 1)
assert near(iops, r["iops_mean"], 0.01), (iops, r["iops_mean"])
assert near(bw, r["bw_mean"], 0.01), (bw, r["bw_mean"])
assert near(lat, lat_mean, 0.01), (lat, lat_mean)
EOT
	$PY - nv_slat.1.log nv_clat.1.log nv_lat.1.log p_slat.out p_clat.out <<'EOT' ||
import sys
def vals(f):
    return [int(l.split(",")[1]) for l in open(f)]
for log, out in ((sys.argv[1], sys.argv[4]), (sys.argv[2], sys.argv[5])):
    v = vals(log)
    parsed = float(open(out).read().split()[-1])
    assert abs(parsed - sum(v) / len(v)) <= 0.01 * parsed + 1, (log, parsed, v)
assert all(0 < s < l and 0 < c < l for s, c, l in zip(*map(vals, sys.argv[1:4])))
EOT
		fail "fiologparser on _slat/_clat: $(head -3 nv_slat.1.log nv_clat.1.log nv_lat.1.log)"
	ok "fio log files: fio's names and lines; fiologparser.py gives nvscope's averages"

	cat >logs.fio <<'EOT'
[global]
ioengine=io_uring
direct=1
bs=4k
iodepth=2
runtime=2
time_based
log_avg_msec=500
write_iops_log
write_lat_log
[aa]
rw=randrw
write_bw_log
[bb]
rw=randread
numjobs=2
[cc]
rw=randwrite
numjobs=2
per_job_logs=0
log_offset=1
log_prio=1
EOT
	mkdir fl nl || fail "mkdir"
	# (fio's run and nvscope's side by side)
	(cd fl && fio --filename="$LOOP" --output-format=json ../logs.fio >../fl.json 2>../fl.err) &
	fpid=$!
	(cd nl && "$NVS_BIN" run --target "$LOOP" --job ../logs.fio --output-format=json -q \
		>../nl.json 2>../nl.err) || fail "nvscope logs job: $(cat nl.err)"
	wait $fpid || fail "fio logs job: $(cat fl.err)"
	[ "$(ls fl)" = "$(ls nl)" ] || fail "log file names differ: fio $(ls fl | tr '\n' ' '), nvscope $(ls nl | tr '\n' ' ')"
	$PY - fl nl nl.json <<'EOT' || fail "logs side by side with fio"
import json, os, re, sys
fdir, ndir = sys.argv[1], sys.argv[2]
jobs = json.load(open(sys.argv[3]))["jobs"]
five = re.compile(r"^[0-9]+, [0-9]+, [01], 0, 0$")
seven = re.compile(r"^[0-9]+, [0-9]+, [01], 0, 0, 0x0000$")  # log_offset, log_prio
names = sorted(os.listdir(ndir))
assert names == sorted(["aa_bw.1.log", "aa_iops.1.log", "aa_lat.1.log", "aa_slat.1.log",
                        "aa_clat.1.log"] +
                       [f"bb_{t}.{n}.log" for t in ("iops", "lat", "slat", "clat") for n in (2, 3)] +
                       [f"cc_{t}.log" for t in ("iops", "lat", "slat", "clat")]), names
def lines(d, f):
    return open(os.path.join(d, f)).read().splitlines()
for f in names:
    rx = seven if f.startswith("cc_") else five
    for d in (fdir, ndir):
        ls = lines(d, f)
        assert ls and all(rx.match(l) for l in ls), (d, f, ls[:3])
def rows(f):
    return [[int(x, 0) for x in l.split(", ")] for l in lines(ndir, f)]
# each quantity its own: slat, clat <= lat, slat + clat = lat (rounding)
for f in names:
    if "_lat." not in f:
        continue
    lat, slat, clat = rows(f), rows(f.replace("_lat", "_slat")), rows(f.replace("_lat", "_clat"))
    assert len(lat) == len(slat) == len(clat) > 0, f
    for l, s, c in zip(lat, slat, clat):
        assert l[0] == s[0] == c[0] and l[2] == s[2] == c[2], (f, l, s, c)
        assert 0 < s[1] <= l[1] and 0 < c[1] <= l[1] and abs(s[1] + c[1] - l[1]) <= 1, (f, l, s, c)
# the I/O-weighted means of a copy's log lines are its JSON means
# (fio's thread_number N is JSON entry N-1: no group_reporting)
dirs = ("read", "write")
for n in (1, 2, 3):
    job = jobs[n - 1]
    pre = "aa" if n == 1 else "bb"
    iops = rows(f"{pre}_iops.{n}.log")
    for q in ("lat", "slat", "clat"):
        v = rows(f"{pre}_{q}.{n}.log")
        for d in (0, 1):
            w = [(i[1], x[1]) for i, x in zip(iops, v) if x[2] == d]
            assert all(i[0] == x[0] and i[2] == x[2] for i, x in zip(iops, v)), (n, q)
            if not job[dirs[d]]["total_ios"]:
                assert not w, (n, q, d)
                continue
            mean = sum(i * x for i, x in w) / sum(i for i, _ in w)
            ref = job[dirs[d]][q + "_ns"]["mean"]
            assert abs(mean - ref) <= 0.05 * ref, (n, q, d, mean, ref)
EOT
	ok "write_lat_log side by side with fio: same names and lines; _slat/_clat/_lat each its own, means as the JSON's"
	for t in lat slat clat; do
		cut -d, -f1-4 nl/bb_$t.2.log >q_$t.log
		$PY fiologparser.py q_$t.log >/dev/null 2>p5.err || fail "fiologparser bb_$t.2.log: $(cat p5.err)"
	done
	ok "fiologparser.py reads a job file's _lat, _slat and _clat logs"
}

lane_c() {
	# 6. the histogram log through fio's histogram log parser (needs Debian's
	#    python3 with pandas: fiologparser_hist.py imports it)
	"$NVS_BIN" run --target "$LOOP" --rw=randread --bs=4k --iodepth=4 --runtime=2 --time_based \
		--write_hist_log=h --output-format=json -q >hist.json 2>hist.err ||
		fail "hist log run: $(cat hist.err)"
	[ -s h_clat_hist.1.log ] || fail "no h_clat_hist.1.log: $(ls)"
	$PY - hist.json h_clat_hist.1.log <<'EOT' || fail "hist log lines"
import json, sys
job = json.load(open(sys.argv[1]))["jobs"][0]
total = 0
for line in open(sys.argv[2]):
    v = [int(x) for x in line.split(",")]
    assert len(v) == 3 + 1856 and v[1] == 0 and v[2] == 4096, v[:3]
    total += sum(v[3:])
assert total == job["read"]["total_ios"], (total, job["read"]["total_ios"])
EOT
	ok "histogram log: fio's 1856 bins per line; counts add up to the I/Os"
	if $PYD -c 'import pandas, numpy' 2>/dev/null &&
		zcat /usr/share/doc/fio/fiologparser_hist.py.gz >fph.py 2>/dev/null; then
		$PYD fph.py h_clat_hist.1.log >fph.out 2>fph.err || fail "fiologparser_hist: $(cat fph.err)"
		$PY - hist.json fph.out <<'EOT' || fail "fiologparser_hist's figures: $(cat fph.out)"
import csv, json, sys
job = json.load(open(sys.argv[1]))["jobs"][0]
rows = list(csv.reader(open(sys.argv[2]), skipinitialspace=True))
assert rows[0][:4] == ["end-time", "samples", "min", "avg"], rows[0]
pts = [p for p in job["nvscope"]["series"] if not p["ramp"]]
# the first interval (0..1000 ms) is a whole one in both
r, p = rows[1], pts[0]
assert int(r[0]) == 1000 and abs(p["t"] - 1.0) < 0.05, (r, p)
assert abs(int(r[1]) - p["read_iops"] * p["t"]) <= 1, (r, p)
assert abs(float(r[3]) - p["lat_mean_us"] * 1000) <= 0.02 * p["lat_mean_us"] * 1000, (r, p)
EOT
		ok "fiologparser_hist.py reads the histogram log: nvscope's counts and means"
	else
		echo "note: no pandas for /usr/bin/python3: fiologparser_hist.py not run"
	fi
}

lane_d() {
	# 7. numjobs=4: fio lists each copy (same jobname and groupid, its own
	#    figures); group_reporting folds them into one (fio's job_runtime: the
	#    copies' summed).  Side by side with fio on the same device; fio's tools
	#    read the four.
	nj="--rw=randread --bs=4k --iodepth=2 --numjobs=4 --runtime=1 --time_based"
	for g in 0 1; do  # (fio's run and nvscope's side by side)
		fio --name=nj --filename="$LOOP" $nj --group_reporting=$g --ioengine=io_uring --direct=1 \
			--output-format=json+ >fnj$g.json 2>fnj.err &
		fpid=$!
		"$NVS_BIN" run --target "$LOOP" --name=nj $nj --group_reporting=$g --output-format=json+ \
			-q >nnj$g.json 2>nnj.err || fail "nvscope numjobs: $(cat nnj.err)"
		wait $fpid || fail "fio numjobs: $(cat fnj.err)"
		$PY "$CMP" fnj$g.json nnj$g.json >cmp7.out || fail "numjobs JSON: $(head -20 cmp7.out)"
	done
	$PY - fnj0.json nnj0.json fnj1.json nnj1.json <<'EOT' || fail "numjobs structure"
import json, sys
f0, n0, f1, n1 = (json.load(open(p)) for p in sys.argv[1:5])
def shape(d):
    return [(j["jobname"], j["groupid"], j.get("jobid")) for j in d["jobs"]]
def keys(j, drop=("nvscope",)):
    return {k: type(v).__name__ for k, v in j.items() if k not in drop}
assert len(f0["jobs"]) == len(n0["jobs"]) == 4, (len(f0["jobs"]), len(n0["jobs"]))
assert shape(f0) == shape(n0) == [("nj", 0, None)] * 4, (shape(f0), shape(n0))
assert len(f1["jobs"]) == len(n1["jobs"]) == 1 and shape(f1) == shape(n1), (shape(f1), shape(n1))
for f, n in ((f0, n0), (f1, n1)):
    for fj, nj in zip(f["jobs"], n["jobs"]):
        assert keys(fj) == keys(nj), (keys(fj), keys(nj))
        for d in ("read", "write", "trim"):
            # nvscope adds its error count and first error to a direction
            assert keys(fj[d]) == keys(nj[d], ("errors", "first_error")), (d, keys(nj[d]))
    assert ("disk_util" in f) == ("disk_util" in n)
# each copy its own figures; together they are the run's
ios = [j["read"]["total_ios"] for j in n0["jobs"]]
assert all(i > 0 for i in ios) and len(set(ios)) > 1, ios
for j in n0["jobs"]:
    assert j["job options"]["numjobs"] == "4", j["job options"]
    assert j["read"]["clat_ns"]["N"] == j["read"]["total_ios"]
    assert 900 <= j["job_runtime"] <= 1200, j["job_runtime"]
# group_reporting: one entry, the copies' I/Os; job_runtime summed as fio's
g, fg = n1["jobs"][0], f1["jobs"][0]
assert g["job_runtime"] >= 3 * g["read"]["runtime"], (g["job_runtime"], g["read"]["runtime"])
assert fg["job_runtime"] >= 3 * fg["read"]["runtime"], fg["job_runtime"]
EOT
	ok "numjobs=4: four entries as fio's (jobname, groupid, keys); group_reporting one"
	fio_jsonplus_clat2csv nnj0.json nclat >/dev/null 2>c2c7.err || fail "clat2csv numjobs: $(cat c2c7.err)"
	fio_jsonplus_clat2csv fnj0.json fclat >/dev/null 2>c2c7.err || fail "clat2csv fio: $(cat c2c7.err)"
	[ "$(ls nclat_job* | wc -l)" -eq 4 ] && [ "$(ls fclat_job* | wc -l)" -eq 4 ] ||
		fail "clat2csv files: $(ls nclat_job* fclat_job*)"
	ok "fio_jsonplus_clat2csv: one CSV per copy, as from fio's"
	# normal text: one block per copy, as fio prints them (300 ms: the text's
	# blocks, not the figures, are checked)
	nj=${nj/--runtime=1 /--runtime=300ms }
	"$NVS_BIN" run --target "$LOOP" --name=nj $nj -q >nnj.txt 2>nnj.err || fail "text: $(cat nnj.err)"
	[ "$(grep -c '^nj: ' nnj.txt)" -eq 4 ] || fail "text blocks: $(cat nnj.txt)"
	"$NVS_BIN" run --target "$LOOP" --name=nj $nj --group_reporting -q >nnjg.txt 2>nnj.err ||
		fail "text: $(cat nnj.err)"
	[ "$(grep -c '^nj: ' nnjg.txt)" -eq 1 ] && grep -q 'jobs=4' nnjg.txt ||
		fail "group_reporting text: $(cat nnjg.txt)"
	ok "normal text: a block per copy; group_reporting one with jobs=4"
}

lane_e() {
	# 8. slat: asked (--disable_slat=0; nvscope's own runs leave it out unless
	#    asked, fio's job files ask by default: qd1_syscalls.sh), measured as
	#    fio's io_uring engine does (prep to submitted); N is the I/O count,
	#    lat = slat + clat I/O by I/O; slat_ns's keys are fio's (no
	#    percentiles by default); the text has fio's slat/clat/lat lines.
	#    (500 ms, side by side: fio's keys are the same after 0.5 or 1 s)
	sl="--rw=randrw --rwmixread=50 --bs=4k --iodepth=4 --runtime=500ms --time_based"
	fio --name=sl --filename="$LOOP" $sl --ioengine=io_uring --direct=1 --output-format=json \
		>fsl.json 2>fsl.err &
	fpid=$!
	"$NVS_BIN" run --target "$LOOP" --name=sl $sl --disable_slat=0 --output-format=json --output nsl.json \
		>nsl.txt 2>nsl.err || fail "nvscope slat: $(cat nsl.err)"
	wait $fpid || fail "fio slat: $(cat fsl.err)"
	$PY - fsl.json nsl.json <<'EOT' || fail "slat_ns"
import json, sys
f, n = (json.load(open(p))["jobs"][0] for p in sys.argv[1:3])
for d in ("read", "write"):
    fs, r = f[d], n[d]
    for k in ("slat_ns", "clat_ns", "lat_ns"):
        print("  ", d, k, "fio", {x: v for x, v in fs[k].items() if x != "percentile"},
              "nvscope", {x: v for x, v in r[k].items() if x != "percentile"})
    s, c, l = r["slat_ns"], r["clat_ns"], r["lat_ns"]
    assert set(s) == set(fs["slat_ns"]), (set(s), set(fs["slat_ns"]))
    assert set(fs["clat_ns"]) <= set(c), (set(fs["clat_ns"]), set(c))
    assert r["total_ios"] > 0 and s["N"] == c["N"] == l["N"] == r["total_ios"], (s, r["total_ios"])
    for h in (s, c, l):
        assert 0 < h["min"] <= h["mean"] <= h["max"], h
    # lat = slat + clat, I/O by I/O (fio's definition): the means add up
    assert abs(l["mean"] - (s["mean"] + c["mean"])) <= 1e-6 * l["mean"] + 1, (s, c, l)
    assert l["min"] >= s["min"] + c["min"] and l["max"] <= s["max"] + c["max"], (s, c, l)
EOT
	grep -q '^   slat (usec): min=' nsl.txt && grep -q '^   clat (usec): min=' nsl.txt ||
		fail "text slat/clat lines: $(cat nsl.txt)"
	ok "slat_ns: fio's keys, N = I/Os, lat = slat + clat; text's slat and clat lines"
}

# lanes L...: each in the background; then each one's output in order
failed="" skipped=""
lanes() {
	local l rc pids=()
	for l in "$@"; do
		LOOP=${dev[$l]} lane_$l >"lane_$l.log" 2>&1 &
		pids+=($!)
	done
	for l in "$@"; do
		wait "${pids[0]}"
		rc=$?
		pids=("${pids[@]:1}")
		cat "lane_$l.log"
		case $rc in
		0) ;;
		77) skipped="$skipped $l" ;;
		*) failed="$failed $l" ;;
		esac
	done
}
# the logs' and the histogram's per-interval figures (5, 6) each by itself:
# fiologparser weights each log line by its interval's length, which a
# loaded CPU stretches (beside the other lanes, its mean of the _slat log
# came 2% off the lines' plain mean at load 13)
lanes a d e
lanes b
lanes c
[ -z "$failed" ] || fail "lane(s)$failed failed (FAIL lines above)"
[ -z "$skipped" ] || skip "lane(s)$skipped skipped (SKIP lines above)"
