#!/bin/bash
# fio's in-job steady state (steadystate=, ss_dur=, ss_ramp=) against
# Debian's fio on one loop device: a criterion both attain stops the job
# well before its runtime; one that cannot be met (iops_slope:0%: |slope|
# is never below 0) runs to the runtime; with group_reporting the group is
# judged as one.  fio's JSON "steadystate" object: same keys, order and
# types in both, and the text line "steadystate  : attained=...".  fio
# master's lat criterion (which fio 3.33 refuses) by nvscope alone.
# test: no-sanitizer it compares when fio and nvscope judge steady state reached and the JSON object's shape, not memory; the criteria run under ASan and TSan in test_fioss.c, their parsing in the spec fuzzer
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "fio not installed"
t_loop 64M; dev=$LOOP

# "name runtime_ms attained" per JSON job, then the steadystate object's
# shape (keys with types, arrays with their length) on one line
summary() {
	python3 - "$1" <<'PY'
import json, sys
t = open(sys.argv[1]).read(); d = json.loads(t[t.index('{'):])
def shape(v):
    if isinstance(v, dict):
        return '{' + ','.join(k + ':' + shape(x) for k, x in v.items()) + '}'
    if isinstance(v, list):
        return '[%d:%s]' % (len(v), ','.join(sorted(set(shape(x) for x in v))))
    return type(v).__name__
for j in d['jobs']:
    ss = j.get('steadystate')
    print(j['jobname'], j['job_runtime'], ss['attained'] if ss else '-', ss['ss'] if ss else '-')
    print(shape(ss) if ss else '-')
PY
}
both() { # $1 = job file: fio's and nvscope's summaries in $T_TMP/f, $T_TMP/n
	fio --output-format=json,normal --output="$T_TMP/f.out" "$1" 2>"$T_TMP/err" ||
		fail "fio: $(cat "$T_TMP/err")"
	# fio writes the JSON then the text into one file: split at the text
	awk '/^[a-z0-9]+: \(groupid/{exit} {print}' "$T_TMP/f.out" >"$T_TMP/f.json"
	"$NVS_BIN" run --output-format=json --output="$T_TMP/n.json" "$1" >"$T_TMP/n.txt" \
		2>"$T_TMP/err" || fail "nvscope: $(cat "$T_TMP/err")"
	summary "$T_TMP/f.json" >"$T_TMP/f" || fail "fio JSON: $(head -c 300 "$T_TMP/f.json")"
	summary "$T_TMP/n.json" >"$T_TMP/n" || fail "nvscope JSON"
}
job() { # $1 = file, $2.. = extra lines
	local f=$1; shift
	{
		printf '[global]\nfilename=%s\ndirect=1\nioengine=libaio\niodepth=4\nrw=randread\nbs=4k\ntime_based\n' "$dev"
		printf '%s\n' "$@"
	} >"$f"
}

# 1. attainable: IOPS within 50% of the mean over 3 s; runtime 30 s
job "$T_TMP/a.fio" runtime=30 ss=iops:50% ss_dur=3 '[a]'
both "$T_TMP/a.fio"
read -r _ fms fatt fss < "$T_TMP/f"
read -r _ nms natt nss < "$T_TMP/n"
[ "$fatt" = 1 ] && [ "$natt" = 1 ] || fail "attained: fio $fatt, nvscope $natt"
[ "$fms" -lt 15000 ] && [ "$nms" -lt 15000 ] || fail "early stop: fio ${fms} ms, nvscope ${nms} ms of 30 s"
[ "$fss" = "$nss" ] || fail "ss: fio $fss, nvscope $nss"
[ "$(sed -n 2p "$T_TMP/f")" = "$(sed -n 2p "$T_TMP/n")" ] ||
	fail "steadystate keys/types: fio $(sed -n 2p "$T_TMP/f") nvscope $(sed -n 2p "$T_TMP/n")"
grep -q '^  steadystate  : attained=yes, bw=.*, iops mean dev=[0-9.]*%$' "$T_TMP/n.txt" ||
	fail "text line: $(grep steadystate "$T_TMP/n.txt")"
grep -q '^  steadystate  : attained=yes' "$T_TMP/f.out" || fail "fio's text line"
opts=$(python3 -c "
import json, sys; o = json.load(open(sys.argv[1]))['jobs'][0]['job options']
print(o.get('steadystate'), o.get('steadystate_duration'))" "$T_TMP/n.json")
[ "$opts" = "iops:50% 3" ] || fail "job options: $opts (fio echoes steadystate=iops:50%, steadystate_duration=3)"
ok "iops:50% ss_dur=3: both attained (fio ${fms} ms, nvscope ${nms} ms of 30 s), same JSON shape"

# 2. never met: iops_slope:0% over 2 s, with ss_ramp=1: runs its 4 s
job "$T_TMP/b.fio" runtime=4 ss=iops_slope:0% ss_dur=2 ss_ramp=1 '[b]'
both "$T_TMP/b.fio"
read -r _ fms fatt fss < "$T_TMP/f"
read -r _ nms natt nss < "$T_TMP/n"
[ "$fatt" = 0 ] && [ "$natt" = 0 ] || fail "attained: fio $fatt, nvscope $natt"
[ "$fms" -ge 3500 ] && [ "$nms" -ge 3500 ] || fail "runtime: fio ${fms} ms, nvscope ${nms} ms of 4 s"
[ "$fss" = "$nss" ] || fail "ss: fio $fss, nvscope $nss"
[ "$(sed -n 2p "$T_TMP/f")" = "$(sed -n 2p "$T_TMP/n")" ] ||
	fail "steadystate keys/types: fio $(sed -n 2p "$T_TMP/f") nvscope $(sed -n 2p "$T_TMP/n")"
grep -q '^  steadystate  : attained=no, .*iops slope=' "$T_TMP/n.txt" ||
	fail "text line: $(grep steadystate "$T_TMP/n.txt")"
ok "iops_slope:0%: neither attained, both ran the runtime (fio ${fms} ms, nvscope ${nms} ms)"

# 3. group_reporting: [c] and [d] are judged together, one entry each
job "$T_TMP/c.fio" runtime=30 ss=bw:50% ss_dur=3 group_reporting '[c]' '[d]' rw=randwrite
both "$T_TMP/c.fio"
[ "$(wc -l <"$T_TMP/f")" = 2 ] && [ "$(wc -l <"$T_TMP/n")" = 2 ] ||
	fail "group entries: fio $(tr '\n' ';' <"$T_TMP/f") nvscope $(tr '\n' ';' <"$T_TMP/n")"
read -r _ fms fatt fss < "$T_TMP/f"
read -r _ nms natt nss < "$T_TMP/n"
[ "$fatt" = 1 ] && [ "$natt" = 1 ] && [ "$fms" -lt 15000 ] && [ "$nms" -lt 15000 ] ||
	fail "group: fio $fatt in ${fms} ms, nvscope $natt in ${nms} ms"
[ "$fss" = "$nss" ] && [ "$(sed -n 2p "$T_TMP/f")" = "$(sed -n 2p "$T_TMP/n")" ] ||
	fail "group steadystate: fio $(tr '\n' ';' <"$T_TMP/f") nvscope $(tr '\n' ';' <"$T_TMP/n")"
ok "group_reporting bw:50%: one steadystate for the group, both attained early"

# 4. fio master's latency criterion (fio 3.33 refuses it: nvscope alone):
#    lat:100% over 3 intervals of 1 s attains before the runtime; the JSON
#    has fio master's lat_mean and lat[] (mean clat per interval, ns), each
#    inside the job's clat range; refused values name the option
printf '[e]\nfilename=%s\nrw=randread\nruntime=30\ntime_based\nss=lat:100%%\nss_dur=3\n' \
	"$dev" >"$T_TMP/e.fio"
"$NVS_BIN" run --output-format=json "$T_TMP/e.fio" >"$T_TMP/e.json" 2>"$T_TMP/err" ||
	fail "ss=lat:100%: $(cat "$T_TMP/err")"
python3 - "$T_TMP/e.json" <<'PY' || fail "lat steady state: $(head -c 600 "$T_TMP/e.json")"
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
ss, c = j["steadystate"], j["read"]["clat_ns"]
d = ss["data"]
assert ss["ss"] == "lat:100.000000%" and ss["attained"] == 1, ss
assert list(d) == ["bw_mean", "iops_mean", "lat_mean", "lat", "iops", "bw"], list(d)
assert len(d["lat"]) == 3 and all(c["min"] <= v <= c["max"] for v in d["lat"]), (d, c)
assert d["lat_mean"] == sum(d["lat"]) // 3, d
assert j["job_runtime"] < 29000, j["job_runtime"]
PY
ok "ss=lat:100% (fio master's): attained early, lat_mean and lat[] in ns"
for bad in 'ss=latency:2%' 'ss=lat:1parsec' 'ss_interval=2' 'ss=lat:100us' 'ss=lat_slope:5'; do
	printf '[e]\nfilename=%s\n%s\nss_dur=3\n' "$dev" "$bad" >"$T_TMP/e.fio"
	"$NVS_BIN" run "$T_TMP/e.fio" >/dev/null 2>"$T_TMP/err"; rc=$?
	[ "$rc" = 2 ] && grep -q 'ss\|steadystate' "$T_TMP/err" || fail "$bad: exit $rc, $(cat "$T_TMP/err")"
done
ok "ss=latency:2%, lat:1parsec, ss_interval not dividing ss_dur, absolute lat limits (fio master reads us as ns): refused (exit 2)"
