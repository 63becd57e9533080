#!/bin/bash
# One stalled device freezes nothing else (issue 20, cause 7; docs/safety.md
# "Rule: a stalled device blocks nothing"): with a loop device that does not
# answer (tests/stall.inc) present, `nvscope list` ends within a few seconds
# and shows it "not responding" (unknown, so in use: never a free row),
# runs (write and read) on another loop device end on their --runtime,
# `purge` (trim) of another one completes, a check of another drive gets
# its verdict, the console draws its first frame and quits on q, and
# SIGINT ends each promptly; the console fills the device in once it
# answers again.  Every command has a deadline: a regression fails instead
# of hanging the suite.
. "$(dirname "$0")/../lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
. "$NVS_TOP/tests/stall.inc"
# only `list` (also the agent's list request for `nvscope list --host`,
# cmd/agentreq.c) and the console scan with probes (every other caller of the
# device model only identifies devices: dev_scan_ids, nothing opened); the
# console's scans run in dev/devscan.c, started by src/ui/ only
bad=$(grep -rn --include='*.c' -e 'dev_scan(' -e 'dev_list_probe(' -e 'devscan_start(' \
	-e 'devscan_run(' "$NVS_TOP/src" |
	grep -v -e '^[^:]*/src/cmd/list\.c:' -e '^[^:]*/src/cmd/agentreq\.c:' -e '^[^:]*/src/ui/console\.c:' \
		-e '^[^:]*/src/ui/actions\.c:' -e '^[^:]*/src/dev/devmodel\.c:' \
		-e '^[^:]*/src/dev/devscan\.c:')
[ -z "$bad" ] || fail "a scan that probes every device, outside list and the console: $bad"
ok "only list and the console probe devices that are not a target"

st_setup $((16 << 20))
t_loop 16M
A=$LOOP
sname=$(basename "$SDEV")
st_stall

# A command that hangs on the stalled device cannot be killed (SIGKILL waits
# for the read, and so would `timeout`): each command runs in the
# background, and one still running after 20 s fails the test, whose exit
# releases the stall (the command then ends).
# tm NAME MAXMS CMD...: runs CMD, fails when it took longer than MAXMS;
# sets RC, output in $T_TMP/NAME.{out,err}
tm() {
	local name=$1 max=$2 t0 ms pid
	shift 2
	t0=$(date +%s%N)
	"$@" >"$T_TMP/$name.out" 2>"$T_TMP/$name.err" &
	pid=$!
	for _ in $(seq 400); do kill -0 "$pid" 2>/dev/null || break; t_nap 0.05; done
	ms=$((($(date +%s%N) - t0) / 1000000))
	if kill -0 "$pid" 2>/dev/null; then
		ps -L -o tid,stat,wchan:32,cmd -p "$pid" >&2
		fail "$name: still running after $ms ms"
	fi
	wait "$pid"
	RC=$?
	echo "$name: exit $RC after $ms ms"
	[ "$ms" -le "$max" ] || fail "$name took $ms ms (more than $max)"
}
# sigint NAME HANDLER CMD...: starts CMD, sends SIGINT once it runs (its
# handler installed when HANDLER is yes, else 0.5 s in) and wants it gone
# within 3 s with exit status 130 (1 for check: interrupted)
sigint() {
	local name=$1 handler=$2 pid t0 ms rc
	shift 2
	set -m # a background job of a script ignores SIGINT without job control
	"$@" >"$T_TMP/$name.out" 2>"$T_TMP/$name.err" &
	pid=$!
	set +m
	if [ "$handler" = yes ]; then
		t_wait_caught "$pid" INT || fail "$name: no SIGINT handler: $(cat "$T_TMP/$name.err")"
	else
		t_nap 0.5
	fi
	kill -0 "$pid" 2>/dev/null || fail "$name: ended before SIGINT: $(cat "$T_TMP/$name.err")"
	t0=$(date +%s%N)
	kill -INT "$pid"
	for _ in $(seq 60); do kill -0 "$pid" 2>/dev/null || break; t_nap 0.05; done
	ms=$((($(date +%s%N) - t0) / 1000000))
	kill -0 "$pid" 2>/dev/null && fail "$name: SIGINT did not end it in $ms ms"
	wait "$pid"
	rc=$?
	echo "$name: ended $ms ms after SIGINT (exit $rc)"
	[ "$rc" -eq 130 ] || { [ "$name" = check-int ] && [ "$rc" -eq 1 ]; } ||
		fail "$name: exit $rc after SIGINT: $(cat "$T_TMP/$name.err")"
}

# list: the stalled device is not responding (unknown: in use), the
# others are read as usual; the text form is the console's (below)
tm list 5000 "$NVS_BIN" list --json
[ "$RC" -eq 0 ] || fail "list exited $RC: $(cat "$T_TMP/list.err")"
/usr/bin/python3 - "$T_TMP/list.out" "$SDEV" "$A" <<'PY' || fail "list --json: $(cat "$T_TMP/list.out")"
import json, sys
d = {x["path"]: x["in_use"] for x in json.load(open(sys.argv[1]))["block_devices"]}
s, a = d[sys.argv[2]], d[sys.argv[3]]
assert s["unknown"] and s["any"] and s["unknown_reason"] == "not responding (no answer in 2 s)", s
assert not a["any"], a
PY
ok "list ends and shows $sname as not responding (unknown: in use)"
sigint list-int no "$NVS_BIN" list
ok "SIGINT ends list while $sname does not answer"

# runs, purge and a check on another device
tm rw 6000 "$NVS_BIN" run --target "$A" --rw=randrw --bs=4k --runtime=300ms --time_based \
	--output-format=json
[ "$RC" -eq 0 ] || fail "write+read run exited $RC: $(cat "$T_TMP/rw.err")"
/usr/bin/python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]
assert j["read"]["total_ios"] > 0 and j["write"]["total_ios"] > 0, j' "$T_TMP/rw.out" ||
	fail "write+read run: no reads or no writes"
sigint run-int yes "$NVS_BIN" run --target "$A" --rw=randread --bs=4k --runtime=60 --time_based
ok "runs on $(basename "$A") end on their runtime and on SIGINT"
tm purge 6000 "$NVS_BIN" purge "$A" --method=trim --yes-destroy-data="$A" --quiet
[ "$RC" -eq 0 ] || fail "purge exited $RC: $(cat "$T_TMP/purge.err")"
ok "purge (trim) of $(basename "$A") completes"

cat >"$T_TMP/tiny.ini" <<'INI'
[check]
description=a tiny read check
selftest=none
error_log=0
[global]
ioengine=io_uring
direct=1
[read-sample]
rw=read
bs=64k
iodepth=4
size=1m
[perf-4k-randread]
rw=randread
bs=4k
iodepth=4
runtime=200ms
time_based
INI
sigint check-int yes "$NVS_BIN" check --target "$A" --profile "$T_TMP/tiny.ini" -o "$T_TMP/ck2" -q
ok "check of $(basename "$A") ends on SIGINT"
# the stalled device among the checked drives: it completes nothing for the
# profile's stall_timeout and is not responding (FAIL, its job stopped, its
# later phases skipped); the other drive goes on to its verdict
sed 's/^error_log=0$/error_log=0\nstall_timeout=500ms/' "$T_TMP/tiny.ini" >"$T_TMP/tiny1.ini"
tm check2 12000 "$NVS_BIN" check --target "$A" --target "$SDEV" --profile "$T_TMP/tiny1.ini" \
	-o "$T_TMP/ck3" --json -q
[ "$RC" -eq 1 ] || fail "check with $sname exited $RC (want 1: a FAIL): $(cat "$T_TMP/check2.err")"
/usr/bin/python3 - "$T_TMP/check2.out" "$(basename "$A")" "$sname" <<'PY' ||
import json, sys
d = {x["serial"]: x for x in json.load(open(sys.argv[1]))["drives"]}
a, s = d[sys.argv[2]], d[sys.argv[3]]
print(sys.argv[2], a["verdict"], "|", sys.argv[3], s["verdict"], s["reasons"])
assert a["verdict"] == "PASS", a
assert s["verdict"] == "FAIL" and "not responding" in json.dumps(s["reasons"]), s
PY
	fail "check with $sname: $(cat "$T_TMP/check2.out")"
ok "check of $(basename "$A") and $sname: $sname not responding (FAIL), $(basename "$A") judged"

# the console: first frame, the stalled row, q
t0=$(date +%s%N)
u_start 160 40 "$NVS_BIN" --results "$T_TMP/res"
u_wait 'Presets' 5
echo "console: first frame after $((($(date +%s%N) - t0) / 1000000)) ms"
u_wait "$sname .*unknown: not respond" 5
u_screen | grep -E " $sname "
# the healthy device is not held up by the stalled one: filled in (on a
# machine loaded enough that its own probe passed the 1 s deadline, by the
# console's retry 2 s later; a TSan run beside 5 others once did)
u_gone " $(basename "$A") .*not respond" 6 || fail "console: $A not responding"
# once it answers again, a rescan of the console's own fills it in
st_release
u_wait " $sname .* - *\$" 6
u_screen | grep -E " $sname " | grep -q 'not respond' && fail "console: $sname still not responding"
u_screen | grep -E " $sname "
ok "console fills $sname in once it answers"
st_stall
t0=$(date +%s%N)
u_keys q
u_restored
echo "console: gone $((($(date +%s%N) - t0) / 1000000)) ms after q"
ok "console draws, shows $sname not responding, quits on q"
u_start 160 40 "$NVS_BIN" --results "$T_TMP/res2"
u_wait 'Presets' 5
u_keys C-c
u_restored
ok "console ends on Ctrl-C"
