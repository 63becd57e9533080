#!/bin/bash
# sighup.sh - issue 20, cause 9: a command stopped by a signal leaves no
# system state behind and keeps what it measured.
#  1. run stopped by SIGHUP (the terminal hung up: an SSH session dropped) or
#     SIGQUIT exits 128+signal with its JSON (valid, nonzero I/O, marked
#     nvscope.stopped_by_signal) and its CSV (rows) written; a plan stopped
#     by SIGHUP exits 129 with its meta.json saying interrupted;
#  2. trace record (tracefs capture, where the kernel refuses blktrace): one
#     killed by SIGKILL leaves its instance nvscope-PID-START; the next
#     trace record removes it, and one whose PID now names another process
#     (another start time); those of live processes stay; SIGHUP ends a
#     record with its instance removed.
. "$(dirname "$0")/../lib.sh"
B=$NVS_BIN
tgt=$T_TMP/target.img
truncate -s 16M "$tgt"

for sig in HUP QUIT; do
	"$B" run --target "$tgt" --rw=randread --bs=4k --runtime=60 --time_based --rate_iops=2000 \
		--output-format=json --output "$T_TMP/r-$sig.json" --csv "$T_TMP/r-$sig.csv" \
		>/dev/null 2>"$T_TMP/e" &
	pid=$!
	t_wait_caught "$pid" "$sig" || fail "run: no handler for SIG$sig: $(cat "$T_TMP/e")"
	sleep 0.3 # some I/O measured (the CSV is written at the end)
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	want=$((128 + $(kill -l "$sig")))
	[ "$rc" -eq "$want" ] || fail "run stopped by SIG$sig exited $rc, not $want: $(cat "$T_TMP/e")"
	python3 - "$T_TMP/r-$sig.json" "$(kill -l "$sig")" <<'PY' || fail "SIG$sig: JSON"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["jobs"] and j["jobs"][0]["read"]["io_bytes"] > 0, "no I/O in the JSON"
assert j["nvscope"].get("stopped_by_signal") == int(sys.argv[2]), j["nvscope"]
PY
	[ "$(wc -l <"$T_TMP/r-$sig.csv")" -ge 2 ] || fail "SIG$sig: CSV has no rows"
done
ok "run stopped by SIGHUP/SIGQUIT: 129/131, JSON and CSV of what was measured"

plan=$T_TMP/read.ini
printf '[plan]\ndescription = read only\nruntime = 60s\n\n[measure 4k-randread]\nrw = randread\nbs = 4k\niodepth = 1\nrate_iops = 2000\n' >"$plan"
"$B" plan "$plan" --target "$tgt" --results "$T_TMP/p" --quiet >/dev/null 2>"$T_TMP/e" &
pid=$!
t_wait_caught "$pid" HUP || fail "plan: no handler for SIGHUP: $(cat "$T_TMP/e")"
for _ in $(seq 300); do [ -s "$T_TMP/p/meta.json" ] && break; t_nap 0.05; done
t_nap 0.3
kill -HUP "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 129 ] || fail "plan stopped by SIGHUP exited $rc, not 129: $(cat "$T_TMP/e")"
grep -q '"interrupted"' "$T_TMP/p/meta.json" || fail "plan's meta.json does not say interrupted"
ok "plan stopped by SIGHUP: 129, meta.json interrupted"

# 2: tracefs instances (where they cannot be made, part 1 still counts)
part_skip() { echo "SKIP (the tracefs part): $*"; exit 0; }
[ "$(id -u)" -eq 0 ] || part_skip "needs root (loop devices, tracefs)"
I=/sys/kernel/tracing/instances
[ -d "$I" ] || mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
[ -d "$I" ] || part_skip "no tracefs at /sys/kernel/tracing"
t_loop 16M
recs=()
cleanup_recs() {
	local p
	for p in "${recs[@]}"; do kill -INT "$p" 2>/dev/null; done
	for p in "${recs[@]}"; do wait "$p" 2>/dev/null; done
	# our own killed record's instance, should the sweep have failed
	[ -n "${stale:-}" ] && rmdir "$I/$stale" 2>/dev/null
	for d in ${decoys:-}; do rmdir "$I/$d" 2>/dev/null; done
	t_cleanup
}
trap cleanup_recs EXIT
# start_rec N: trace record in the background; REC its PID, INST its instance
start_rec() {
	"$B" trace record --target "$LOOP" --duration 60s -o "$T_TMP/t$1.log" 2>"$T_TMP/t$1.err" &
	REC=$!
	recs+=("$REC")
	INST=
	for _ in $(seq 100); do
		INST=$(cd "$I" && ls -d "nvscope-$REC-"* 2>/dev/null | head -1)
		[ -n "$INST" ] && return 0
		kill -0 "$REC" 2>/dev/null || fail "trace record $1 ended: $(cat "$T_TMP/t$1.err")"
		t_nap 0.05
	done
	kill -INT "$REC"
	wait "$REC"
	part_skip "no tracefs instance within 5 s (blktrace allowed here: its path is trace_blktrace.sh's)"
}
# decoys made by this test: this shell's own, by both forms (a live process
# with its start time: kept), and one with this PID but another start time
# (the PID was reused: removed)
me=$(awk '{sub(/.*\) /, ""); print $20}' /proc/$$/stat)
live=nvscope-$$-$me
reused=nvscope-$$-$((me + 1))
decoys="nvscope-$$ $live $reused"
for d in $decoys; do mkdir "$I/$d" || part_skip "cannot make a tracefs instance"; done
start_rec 1
stale=$INST
kill -KILL "$REC"
wait "$REC" 2>/dev/null
[ -d "$I/$stale" ] || fail "the killed record's instance is gone already (test premise)"
start_rec 2
a=$REC
[ -d "$I/$stale" ] && fail "trace record 2 did not remove $stale (its process is dead)"
grep -q "removed the stale tracefs instance $stale" "$T_TMP/t2.err" || fail "no word of the removal"
[ -d "$I/$reused" ] && fail "trace record 2 did not remove $reused (a reused PID)"
[ -d "$I/$live" ] || fail "trace record 2 removed $live (a live process's)"
[ -d "$I/nvscope-$$" ] || fail "trace record 2 removed nvscope-$$ (a live PID's)"
ainst=$INST
ok "a killed record's instance is removed by the next; live ones and others kept"

t_wait_caught "$a" HUP || fail "trace record: no handler for SIGHUP"
dd if="$LOOP" of=/dev/null bs=4096 count=8 iflag=direct 2>/dev/null
kill -HUP "$a"
wait "$a"
rc=$?
[ "$rc" -ne 129 ] || fail "trace record killed by SIGHUP (no handler)"
[ -d "$I/$ainst" ] && fail "SIGHUP: the record's instance $ainst remains"
ok "SIGHUP ends a trace record with its instance removed (exit $rc)"
