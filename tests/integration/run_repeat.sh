#!/bin/bash
# run_repeat.sh - `nvscope run --repeat N` (issue 23, KDiskMark's repeat:
# each test N times, its average and peak): a QD sweep 1,4 run 3 times per
# depth; the JSON holds every run as a fio job and nvscope.repeat each
# step's runs summed up, which Python recomputes from those jobs (mean,
# min, max, sample standard deviation of the IOPS and MB/s, the runs in
# run order); the text has the table; what --repeat cannot name its
# outputs for (--csv, --output-dir, fio's logs) is refused by name, as
# are counts that are not 1 to 1000.
. "${NVS_TOP:-.}/tests/lib.sh"
B=$NVS_BIN
truncate -s 32M "$T_TMP/t.img"
J=(--target "$T_TMP/t.img" --rw=randread --bs=4k --iodepth=1,4 --runtime=150ms --direct=0 -q)
"$B" run "${J[@]}" --repeat 3 --output-format=json >"$T_TMP/r.json" 2>"$T_TMP/err" ||
	fail "run --repeat 3: $(cat "$T_TMP/err")"
python3 - "$T_TMP/r.json" <<'PY' || fail "nvscope.repeat differs from the runs"
import json, math, statistics, sys
d = json.load(open(sys.argv[1]))
jobs, rep = d["jobs"], d["nvscope"]["repeat"]
assert len(jobs) == 6, len(jobs)
assert rep["runs_asked"] == 3 and len(rep["steps"]) == 2, rep
for k, st in enumerate(rep["steps"]):
    runs = jobs[3 * k:3 * k + 3]
    assert st["iodepth"] == [1, 4][k] and st["runs"] == 3, st
    assert all(j["job options"]["iodepth"] == str(st["iodepth"]) for j in runs), runs
    for key, f in (("iops", lambda j: sum(j[x]["iops"] for x in ("read", "write", "trim"))),
                   ("mbps", lambda j: sum(j[x]["bw_bytes"] for x in ("read", "write", "trim")) / 1e6)):
        v = [f(j) for j in runs]
        want = {"mean": statistics.mean(v), "min": min(v), "max": max(v), "stdev": statistics.stdev(v)}
        for s, w in want.items():
            assert math.isclose(st[key][s], w, rel_tol=2e-3, abs_tol=1e-6), (k, key, s, st[key][s], w)
    assert st["lat_mean_us"]["min"] <= st["lat_mean_us"]["mean"] <= st["lat_mean_us"]["max"], st
print("ok: 2 steps x 3 runs: mean, min, max and stdev of IOPS and MB/s equal the runs'")
PY
ok "the JSON's repeat summary equals its runs"
"$B" run "${J[@]}" --repeat 3 >"$T_TMP/r.txt" 2>&1 || fail "text run"
grep -q '^repeat: each step 3 times' "$T_TMP/r.txt" || fail "no repeat table"
[ "$(grep -cE '^  job +[14] +3 ' "$T_TMP/r.txt")" = 2 ] || { cat "$T_TMP/r.txt" >&2; fail "repeat rows"; }
ok "the text's table: a row per depth, 3 runs each"
for bad in 0 1001 nan inf -1 1e3 ''; do
	"$B" run "${J[@]}" --repeat "$bad" >/dev/null 2>"$T_TMP/err" && fail "--repeat '$bad' accepted"
	grep -q -- "--repeat" "$T_TMP/err" || fail "--repeat '$bad': $(cat "$T_TMP/err")"
done
for extra in "--csv $T_TMP/x.csv" "--output-dir $T_TMP/od" "--write_bw_log=$T_TMP/bw"; do
	# shellcheck disable=SC2086
	rc=0; "$B" run "${J[@]}" --repeat 2 $extra >/dev/null 2>"$T_TMP/err" || rc=$?
	[ "$rc" = 2 ] && grep -q -- "--repeat 2: with" "$T_TMP/err" || fail "--repeat with $extra: rc $rc: $(cat "$T_TMP/err")"
done
[ ! -e "$T_TMP/x.csv" ] && [ ! -e "$T_TMP/od" ] || fail "a refused run wrote an output"
ok "counts outside 1-1000 refused; --csv, --output-dir and fio's logs refused by name, nothing written"
