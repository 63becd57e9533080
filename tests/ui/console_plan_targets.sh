#!/bin/bash
# console_plan_targets.sh - a plan run from the console on two loop devices
# shows one strip per target, as a live run does: the plan's thread feeds
# its rows to the screen in memory (run/planview.c drain_feed), aggregate
# and per target; the step's samples.csv stays for replay.
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
t_loop 128M
L1=$LOOP
t_loop 128M
L2=$LOOP
RES=$T_TMP/plan
PLAN=tests/ui/tiny-plan.ini
u_start 130 40 "$NVS_BIN" --plan "$PLAN" --target "$L1" --target "$L2" \
	--yes-destroy-data="$L1,$L2" --results "$RES"
u_wait 'PLAN tiny-plan' 10
u_wait 'Per target IOPS' 20
u_wait '▶ +3 precondition 4k-randwrite' 15
for d in "$L1" "$L2"; do
	u_wait "${d##*/} +[1-9]" 10
done
u_screen | grep -q '2 targets' || fail "target count missing"
ok "plan from the console: per-target strips"
u_wait 'DONE tiny-plan' 30
u_keys q
u_restored
u_screen | grep -q 'NVS-EXIT 0' || fail "exit status not 0"
[ "$(tail -n +2 "$RES/03-precondition-4k-randwrite/samples.csv" | wc -l)" -ge 1 ] ||
	fail "samples.csv not written (files stay for replay)"
ok "plan on two targets ran to the end; samples.csv written"
