#!/bin/bash
# test: exclusive the I/O counts of two jobs in 1 s must keep their weights' ratio within 10%: a job starved of CPU by other tests ends its run with a different share
# test: no-sanitizer it compares the ratio of two jobs' I/O counts with fio's, not memory, and a sanitizer's slowdown of one job moves the ratio; flow's code runs under ASan and TSan in test_flow.c
# fio's flow control between jobs (flow, flow_id, flow_sleep; fio's flow.c):
# jobs of one flow_id issue I/Os in the ratio of their weights.  Two jobs on
# a loop device, flow=1 (write) and flow=8 (randread) as fio's flow.fio,
# then 1:3 with a shorter flow_sleep and a third job in another flow_id
# (never held: alone in its flow); the I/O counts' ratio is the weights'
# for nvscope as for fio.  Bad values are refused.
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "no fio"
t_loop 64M
dev=$LOOP

# $1: extra [global] lines, $2: job b's weight, $3: extra job section
ratio() {
	cat >"$T_TMP/j.fio" <<JOB
[global]
norandommap
direct=1
ioengine=libaio
iodepth=8
bs=8k
time_based
runtime=1
$1
[a]
rw=write
flow=1
[b]
rw=randread
flow=$2
${3:-}
JOB
	"$NVS_BIN" run --target "$dev" --output-format=json --output="$T_TMP/n.json" "$T_TMP/j.fio" \
		>"$T_TMP/n.txt" 2>&1 || { cat "$T_TMP/n.txt"; fail "nvscope exited"; }
	fio --filename="$dev" --output-format=json --output="$T_TMP/f.json" "$T_TMP/j.fio" \
		>"$T_TMP/f.txt" 2>&1 || { cat "$T_TMP/f.txt"; fail "fio exited"; }
	python3 - "$T_TMP/n.json" "$T_TMP/f.json" "$2" <<'PY'
import json, sys
out = []
for p in sys.argv[1:3]:
    js = {j["jobname"]: j for j in json.load(open(p))["jobs"]}
    a, b = js["a"]["write"]["total_ios"], js["b"]["read"]["total_ios"]
    r = b / max(a, 1)
    c = js["c"]["read"]["total_ios"] if "c" in js else 0
    out.append("%d:%d:%.2f:%d" % (a, b, r, c))
    # the weights' ratio within 10%; job c (its own flow) not held back
    if a < 50 or abs(r / float(sys.argv[3]) - 1) > 0.10 or ("c" in js and c < b):
        print("BAD " + " ".join(out))
        sys.exit(1)
print(" ".join(out))
PY
}
r=$(ratio "flow_sleep=1000" 8) || fail "flow=1 vs flow=8: $r (nvscope, fio: a:b:ratio:c)"
ok "flow=1 vs flow=8, flow_sleep=1000: a:b:ratio nvscope, fio = $r"
r=$(ratio "flow_sleep=100" 3 "[c]
rw=randread
flow_id=7
flow=1") || fail "flow 1:3 with another flow_id: $r"
ok "flow 1:3, flow_sleep=100, job c alone in flow_id 7 runs free: $r"

for bad in "--flow=1001" "--flow=-1" "--flow=nan" "--flow_id=inf" "--flow_sleep=99999999999" "--flow_sleep=1e3"; do
	"$NVS_BIN" run --target "$dev" --rw=randread --runtime=1 $bad >"$T_TMP/b.txt" 2>&1
	rc=$?
	[ "$rc" = 2 ] || { cat "$T_TMP/b.txt"; fail "$bad: exit $rc, not 2"; }
done
ok "flow, flow_id, flow_sleep: out of range, NaN, inf, overflow refused"
