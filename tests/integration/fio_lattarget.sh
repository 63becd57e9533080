#!/bin/bash
# fio's latency target (latency_target, latency_window, latency_percentile,
# latency_run) side by side with Debian's fio on one loop device: both search
# a queue depth within 1..iodepth, end the job by themselves once it is
# found (without latency_run), and write the JSON keys latency_depth,
# latency_target (ns), latency_percentile and latency_window (us) with fio's
# types.  Nothing here asserts on timing or on the depth found: the loop
# device's latency depends on the machine's load.
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "fio not installed"
t_loop 64M; dev=$LOOP
keys() { # name: "depth target pct window types", one line per JSON job
	python3 -c "
import json, sys; t = open('$1').read(); d = json.loads(t[t.index('{'):])
for j in d['jobs']:
    v = [j[k] for k in ('latency_depth', 'latency_target', 'latency_percentile', 'latency_window')]
    print(*v, ''.join(type(x).__name__[0] for x in v), j['read']['total_ios'])"
}
job() { # $1 = extra options
	cat >"$T_TMP/l.fio" <<JOB
[global]
filename=$dev
direct=1
ioengine=libaio
rw=randread
bs=4k
iodepth=16
runtime=20
time_based
latency_target=$2
latency_window=100ms
latency_percentile=99.5
$1
[lat]
JOB
}
both() {
	fio --output-format=json "$T_TMP/l.fio" >"$T_TMP/f.json" 2>"$T_TMP/err" ||
		fail "fio: $(cat "$T_TMP/err")"
	"$NVS_BIN" run --output-format=json "$T_TMP/l.fio" >"$T_TMP/n.json" 2>"$T_TMP/err" ||
		fail "nvscope: $(cat "$T_TMP/err")"
	keys "$T_TMP/f.json" >"$T_TMP/f" || fail "fio JSON"
	keys "$T_TMP/n.json" >"$T_TMP/n" || fail "nvscope JSON: $(head -c 300 "$T_TMP/n.json")"
}

# 1. a target every depth meets (1 s): both double 1, 2, 4, 8, 16, run one
# more window at 16 and end the job there, long before runtime
job "" 1s
both
read -r fd ft fp fw fty fios <"$T_TMP/f"
read -r nd nt np nw nty nios <"$T_TMP/n"
[ "$nty" = "$fty" ] || fail "JSON types: nvscope $nty, fio $fty (depth target pct window)"
[ "$nt" = "$ft" ] && [ "$nt" = 1000000000 ] || fail "latency_target: nvscope $nt, fio $ft (ns)"
[ "$nw" = "$fw" ] && [ "$nw" = 100000 ] || fail "latency_window: nvscope $nw, fio $fw (us)"
python3 -c "import sys; sys.exit(abs($np - $fp) > 1e-9 or abs($np - 99.5) > 1e-9)" ||
	fail "latency_percentile: nvscope $np, fio $fp"
[ "$nd" = 16 ] && [ "$fd" = 16 ] || fail "latency_depth with a target always met: nvscope $nd, fio $fd (16)"
# the job ended by itself: its runtime (the final window) is far below 20 s
rt=$(python3 -c "import json; print(json.load(open('$T_TMP/n.json'))['jobs'][0]['job_runtime'])")
[ "$rt" -lt 15000 ] || fail "the search did not end the job (job_runtime $rt ms)"
[ "$nios" -gt 0 ] || fail "no I/O reported"
ok "latency_target met at every depth: both ended at depth 16, keys $nty as fio"
"$NVS_BIN" run "$T_TMP/l.fio" >"$T_TMP/n.txt" 2>"$T_TMP/err" || fail "nvscope (text): $(cat "$T_TMP/err")"
grep -q "latency: target=1000000.00us, window=100.00ms, percentile=99.50%, depth=16" "$T_TMP/n.txt" ||
	fail "no latency line (fio's 'latency :'): $(cat "$T_TMP/n.txt")"
ok "the text says the target and the depth found, as fio's latency line"

# 2. a target nothing meets (1 us), latency_run: both keep searching until
# runtime and report a depth in 1..16
job "latency_run=1" 1us
sed -i 's/^runtime=20/runtime=1/' "$T_TMP/l.fio"
both
read -r fd ft fp fw fty fios <"$T_TMP/f"
read -r nd nt np nw nty nios <"$T_TMP/n"
[ "$nty" = "$fty" ] || fail "JSON types: nvscope $nty, fio $fty"
[ "$nt" = 1000 ] && [ "$ft" = 1000 ] || fail "latency_target 1us: nvscope $nt, fio $ft"
[ "$nd" -ge 1 ] && [ "$nd" -le 16 ] || fail "latency_depth $nd not in 1..16"
[ "$fd" -ge 1 ] && [ "$fd" -le 16 ] || fail "fio's latency_depth $fd not in 1..16"
ok "latency_target never met, latency_run: depth nvscope $nd, fio $fd (1..16)"

# 3. without a target the keys are fio's defaults (depth = iodepth)
sed -i '/^latency_/d' "$T_TMP/l.fio"
both
read -r nd nt np nw nty nios <"$T_TMP/n"
read -r fd ft fp fw fty fios <"$T_TMP/f"
[ "$nd $nt $nw $nty" = "$fd $ft $fw $fty" ] || fail "no target: nvscope '$nd $nt $nw $nty', fio '$fd $ft $fw $fty'"
ok "no latency_target: latency_depth $nd, target 0, window 0 as fio"

# 4. refusals: NaN, out-of-range percentiles and times name the line
for bad in "latency_percentile=nan" "latency_percentile=100.5" "latency_target=inf" \
	"latency_window=-5" "latency_target=99999999999999999999"; do
	printf '[j]\nfilename=%s\n%s\n' "$dev" "$bad" >"$T_TMP/b.fio"
	"$NVS_BIN" run --parse-only "$T_TMP/b.fio" 2>"$T_TMP/err" && fail "$bad accepted"
	grep -q "b.fio:3: ${bad%%=*}" "$T_TMP/err" || fail "$bad: $(cat "$T_TMP/err")"
done
ok "NaN, infinities, negatives, overflow and out-of-range percentiles refused at their line"
