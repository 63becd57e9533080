#!/bin/bash
# console_planlive.sh - a plan you can follow (tests/ui/live-plan.ini on a
# loop device holding ext2, run from the Presets pane with --force-destroy
# and the typed confirmation):
#  1. live: the ETA in the step list, each step's result as it ends - the
#     precondition that cannot reach steady state marked failed (✗, alert
#     role) with its range and slope against the limits, the other one
#     "steady at round 2"; the event list (E) holds the step results and the
#     confirmation with time stamps, and events.log the same; the Devices
#     row no longer says ext2 after the fill (rescanned);
#  2. `nvscope replay` of the plan's directory plays the steps one after
#     another (not a static frame of the last one), ✗ in ASCII too;
#  3. replay of the precondition step: the verdict follows a seek (G, g).
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
command -v mkfs.ext2 >/dev/null || skip "mkfs.ext2 not installed"
t_loop 64M
mkfs.ext2 -q -F "$LOOP" 2>/dev/null || skip "mkfs.ext2 failed"
RES=$T_TMP/res
DEV=$(basename "$LOOP")
mkdir -p "$T_TMP/presets/plans"
cp tests/ui/live-plan.ini "$T_TMP/presets/plans/"
cp presets/4k-randread.ini "$T_TMP/presets/"

# --force-destroy alone starts nothing (it is an override, not a workload)
u_start 100 30 env NVSCOPE_PRESETS="$T_TMP/presets" "$NVS_BIN" --force-destroy \
	--target "$LOOP" --results "$RES"
u_wait 'plan:live-plan' 10
u_wait "^\*? *$DEV .*ext2" 5
u_screen | grep -q 'RUNNING' && fail "--force-destroy started a workload"
u_keys Tab Down Enter
u_wait "Type $LOOP to DESTROY" 5
u_text "$LOOP"
u_keys Enter
u_wait 'PLAN live-plan' 10
u_wait 'Plan.* [1-4]/4 ETA (≤|>)?[0-9]+s' 10
ok "the plan runs with an ETA"
# the failed step's name gives way to its criterion (cut with a marker
# when the figure is long: '✗  2 pre… range 0.0433%>0% …', run J)
u_wait '✗ +2 pre[a-z]*…?' 20
u_wait '✓ +3 precondit' 20
u_wait 'DONE live-plan' 20
S=$(u_screen)
echo "$S" | grep -Eq '✓ +1 fill' || fail "fill not marked done"
echo "$S" | grep -Eq '✓ +4 measure rd' || fail "last step not marked done"
echo "$S" | grep -Eq '✓ +2 pre' && fail "a failed precondition marked as a success"
echo "$S" | grep -Eq '✗ +2 pre[a-z]*…?.* (range|slope) [0-9.]+%>[0-9.]+%' || { echo "$S" >&2; fail "the failed step's row does not say why first"; }
echo "$S" | grep -Eq '✓ +3 precondit.* steady r2' || fail "the steady step's row has no verdict"
# the failed step's row is drawn in the alert role, not as the done ones
E=$(u_tmux capture-pane -p -e -t ui)
a1=$(echo "$E" | grep -Eo $'(\e\\[[0-9;]*m)+ ✓  1 ' | head -1)
a2=$(echo "$E" | grep -Eo $'(\e\\[[0-9;]*m)+ ✗  2 ' | head -1)
[ -n "$a2" ] && [ "$a1" != "$a2" ] || fail "the failed step not in its own role"
ok "live: failed precondition ✗ in the alert role, the others ✓"

u_keys E
u_wait '─ Events ' 5
u_wait '[0-9]{2}:[0-9]{2}:[0-9]{2} step 2/4 precondition nope: NOT steady: range [0-9.]+% > 0%, slope [0-9.]+% > 0% \(3 rounds\)' 5
S=$(u_screen)
echo "$S" | grep -Eq '[0-9:]{8} step 3/4 precondition yes: steady at round 2' || fail "no steady event"
echo "$S" | grep -Eq "[0-9:]{8} confirmed by typing $LOOP" || fail "no confirmation event"
echo "$S" | grep -Eq '[0-9:]{8} plan live-plan done' || fail "no end event"
u_keys E
# the overlay covers the lower half only ('IOPS' is above it): wait for the
# overlay to go, not for a word that was there all along
u_gone '─ Events ' 5
u_wait 'IOPS' 5
grep -q 'step 2/4 precondition nope: NOT steady: .* (3 rounds)' "$RES/events.log" ||
	fail "events.log: no step result"
grep -q 'step 3/4 precondition yes: steady at round 2' "$RES/events.log" ||
	fail "events.log: no verdict"
ok "event list (E): step results, verdicts, confirmation; the same in events.log"

u_keys v
u_wait 'Devices' 5
row=$(u_screen | grep -E "^\*? *$DEV ")
[ -n "$row" ] || fail "no Devices row for $LOOP"
echo "$row" | grep -q ext2 && fail "Devices row still says ext2 after the fill: $row"
ok "Devices rescanned after the destructive steps"
u_keys q
u_restored

# 2. replay of the whole plan directory: the steps advance with the time
u_start 100 30 "$NVS_BIN" replay "$RES"
u_wait '▶ +2 precondit' 10
u_wait '▶ +3 precondit' 15
u_wait 'PAUSED live-plan' 15
u_wait '✗ +2 pre[a-z]*…?' 5
u_screen | grep -Eq '✓ +4 measure rd' || fail "replay: last step not done at the end"
u_keys q
u_restored
u_start 100 30 env TERM=vt100 LANG=C LC_ALL=C "$NVS_BIN" replay "$RES" --ascii --speed 64
u_wait 'PAUSED live-plan' 10
u_wait 'x +2 pre[a-z]*~?' 5
u_screen | grep -Eq '\+ +3 precondit' || fail "ascii: no + for the steady step"
# no colour: the failed row still carries its own attributes (alert role)
E=$(u_tmux capture-pane -p -e -t ui)
m1=$(echo "$E" | grep -Eo $'(\e\\[[0-9;]*m)* \\+  1 ' | head -1)
m2=$(echo "$E" | grep -Eo $'(\e\\[[0-9;]*m)+ x  2 ' | head -1)
[ -n "$m2" ] && [ "$m1" != "$m2" ] || fail "vt100: the failed step has no attribute of its own"
u_keys q
u_restored
ok "replay of a plan directory plays its steps; the failed mark in ASCII"

# 3. the verdict at the play position, also after a seek
u_start 100 30 "$NVS_BIN" replay "$RES/03-precondition-yes"
u_wait 'REPLAY|PAUSED' 5
u_keys G
u_wait 'steady at round 2' 5
u_keys g
u_keys Space
u_wait 'steady state: [01]/2 rounds' 5
u_screen | grep -q 'steady at round 2' && fail "the verdict of the end after a seek to the start"
u_keys q
u_restored
ok "replay: the verdict follows a seek"
