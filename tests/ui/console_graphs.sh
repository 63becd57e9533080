#!/bin/bash
# console_graphs.sh - graphs for a room, on a loop device: a QD sweep's step
# shows a marker labelled with the new depth (live and replayed, from
# events.log); the `d` key's fill mode draws filled cells under the curve.
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
t_loop 64M
A=$LOOP

# fill: every column of the IOPS strip is, below its first '#', all '#'
under_curve() {
	python3 -c '
import re, sys
rows = sys.stdin.read().split("\n")
top = next(i for i, l in enumerate(rows) if re.search(r"IOPS \((linear|log)\)", l))
end = next(i for i in range(top + 1, len(rows)) if re.match(r"^ +0s ", rows[i]))
area = [r[7:int(sys.argv[1])].ljust(int(sys.argv[1]) - 7) for r in rows[top + 1:end]]
filled = 0
for c in range(len(area[0])):
    seen = False
    for r in area:
        if r[c] == "#":
            seen = True
            filled += 1
        elif seen:
            sys.exit("col %d: %r under a filled cell" % (c + 7, r[c]))
sys.exit(0 if filled >= 10 else "only %d filled cells" % filled)
' "$1"
}

RES=$T_TMP/sweep
u_start 120 40 "$NVS_BIN" --target "$A" --rw=randread --iodepth=1,16 --runtime=3 \
	--time_based --ramp_time=0 --ascii --results "$RES"
u_wait 'RUNNING custom QD16 2/2' 15
u_wait 'IOPS \(linear\) +now [1-9]' 10
# the marker: a rule at the step's start, "QD16" on the strip's top row (a data
# point may take the rule's top cell: the label is drawn over the data, the rule is not)
marked() { awk "/$1 \\(linear\\)/ {getline; print; exit}" | grep -q '[^ ]QD16'; }
for _ in $(seq 50); do u_screen | marked IOPS && u_screen | marked Latency && break; sleep 0.1; done
S=$(u_screen)
echo "$S" | awk '/IOPS \(linear\)/ {getline; print; exit}' | grep -q '[^ ]QD16' ||
	{ echo "$S" >&2; fail "no QD16 step marker on the IOPS strip"; }
echo "$S" | awk '/Latency \(linear\)/ {getline; print; exit}' | grep -q '[^ ]QD16' ||
	fail "no QD16 step marker on the latency strip"
ok "step marker at the QD change"
u_keys d
u_wait 'strips: thick' 5
u_keys d
u_wait 'strips: fill' 5
for _ in $(seq 50); do u_screen | under_curve 84 && break; sleep 0.1; done # once redrawn
u_screen | under_curve 84 || { u_screen >&2; fail "fill: not filled under the curve"; }
ok "fill mode fills under the curve"
u_wait 'DONE custom' 15
u_keys q
u_restored
u_screen | grep -q 'NVS-EXIT 0' || fail "exit status not 0 (a sanitizer report?)"
# a replay of it shows the marker too (from events.log)
u_start 120 40 "$NVS_BIN" replay "$RES" --ascii
u_wait '(REPLAY|PAUSED) sweep' 10
u_keys G
u_wait 'PAUSED' 5
u_screen | awk '/IOPS \(linear\)/ {getline; print; exit}' | grep -q '[^ ]QD16' ||
	fail "replay: no QD16 step marker"
u_keys q
u_restored
u_screen | grep -q 'NVS-EXIT 0' || fail "exit status not 0 (a sanitizer report?)"
ok "replayed step marker"


# a plan's QD sweep (a measure step with a ramp): a marker where each
# measurement begins, labelled from the step's table once its row is written
cat >"$T_TMP/m.ini" <<'INI'
[plan]
description = measure only: QD 1, 4, 16 with a ramp
runtime = 1s

[measure 4k-randread]
rw = randread
bs = 4k
iodepth = 1,4,16
ramp_time = 1s
INI
u_start 120 40 "$NVS_BIN" --plan "$T_TMP/m.ini" --target "$A" --ascii --results "$T_TMP/plan"
u_wait 'PLAN m step 1/1' 15
u_wait '[^ ]QD4 ' 20
u_wait 'DONE|[^ ]QD16' 20
u_screen | awk '/IOPS \(linear\)/ {getline; print; exit}' | grep -q '[^ ]QD4' ||
	fail "plan: no QD4 marker on the IOPS strip"
ok "plan step markers"
u_wait 'DONE' 20
u_keys q
u_restored
