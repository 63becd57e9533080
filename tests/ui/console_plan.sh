#!/bin/bash
# console_plan.sh - test plans in the console on a loop device:
#  1. `nvscope --plan FILE --target LOOP --yes-destroy-data=LOOP`: the plan
#     runs in its thread, the step list advances (current step marked), the
#     precondition step shows its rounds against the plan's own rule, the
#     run ends (DONE) and the results directory is complete;
#  2. a plan picked in the Presets pane asks for the typed confirmation
#     (a wrong answer writes nothing), runs once confirmed, and `s` stops
#     it with a resumable state.
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
t_loop 128M
RES=$T_TMP/plan
PLAN=tests/ui/tiny-plan.ini

# bad input: one line, exit 2, before the screen opens
out=$("$NVS_BIN" --plan nosuch-plan --target "$LOOP" 2>&1 </dev/null)
[ $? -eq 2 ] || fail "unknown plan: not exit 2 ($out)"
echo "$out" | grep -q "no plan 'nosuch-plan'" || fail "unknown plan: said '$out'"
out=$("$NVS_BIN" --plan "$PLAN" 2>&1 </dev/null)
[ $? -eq 2 ] || fail "--plan without --target: not exit 2 ($out)"
out=$("$NVS_BIN" --plan "$PLAN" --target "$LOOP" --bs=8k 2>&1 </dev/null)
[ $? -eq 2 ] || fail "--plan with --bs: not exit 2 ($out)"
ok "bad plan options refused"

u_start 130 40 "$NVS_BIN" --plan "$PLAN" --target "$LOOP" --yes-destroy-data="$LOOP" \
	--results "$RES"
u_wait 'PLAN .* step [1-3]/4' 10
u_wait 'Plan tiny-plan .*[1-4]/4 ETA' 5
u_wait '▶ +3 precondit' 15 # (the name may give way to the round)
u_screen | grep -Eq '✓ +2 fill' || fail "fill not marked done while preconditioning"
u_wait '\[plan rounds, window 3\]' 10
ok "step list: precondition current, the plan's rounds and window"
u_wait '▶ +4 measure 4k-randread' 15
u_wait 'DONE tiny-plan' 20
u_wait 'plan tiny-plan done: results in' 5
S=$(u_screen)
echo "$S" | grep -Eq '✓ +4 measure 4k-randread' || fail "last step not marked done"
echo "$S" | grep -Eq '^ +8 +[0-9.]+k? ' || fail "no QD 8 row from qd.csv"
u_keys q
u_restored
u_screen | grep -q 'NVS-EXIT 0' || fail "exit status not 0"
grep -q '"finished":[[:space:]]*true' "$RES/state.json" || fail "state.json not finished"
grep -q '"status":[[:space:]]*"done"' "$RES/meta.json" || fail "meta.json status not done"
for f in plan.ini VERSION 01-purge/purge.json 02-fill/samples.csv \
	03-precondition-4k-randwrite/rounds.csv 03-precondition-4k-randwrite/steady.json \
	04-measure-4k-randread/qd.csv 04-measure-4k-randread/summary.json; do
	[ -s "$RES/$f" ] || fail "results: no $f"
done
[ "$(tail -n +2 "$RES/04-measure-4k-randread/qd.csv" | wc -l)" -eq 2 ] || fail "qd.csv rows"
ok "plan ran to the end; results directory complete"

# 2. from the Presets pane, with a presets directory holding one preset and
# the tiny plan (plans/ are listed after the presets as "plan:NAME")
RES2=$T_TMP/plan2
mkdir -p "$T_TMP/presets/plans"
cp "$PLAN" "$T_TMP/presets/plans/"
cp presets/4k-randread.ini "$T_TMP/presets/"
u_start 130 40 env NVSCOPE_PRESETS="$T_TMP/presets" "$NVS_BIN" --target "$LOOP" --results "$RES2"
u_wait 'plan:tiny-plan +test plan: trim' 10
u_scanned 10 # a plan waits for its target's probe
u_keys Tab Down Enter
u_wait 'Type .* to DESTROY the data on' 5
u_screen | grep -q 'Plan tiny-plan purges' || fail "no confirmation box for the plan"
u_text "wrong"
u_keys Enter
u_wait 'not confirmed: nothing written' 5
[ -e "$RES2" ] && fail "results directory made without confirmation"
u_keys Enter
u_wait 'Type .* to DESTROY' 5
u_text "$LOOP"
u_keys Enter
u_wait 'PLAN tiny-plan' 10
u_wait 'Plan tiny-plan' 5
u_keys s
u_wait 'Stop the plan\? .*\(y/n\)' 5   # a plan's stop is confirmed
u_keys n
u_wait 'the plan goes on' 5
u_screen | grep -q 'STOPPED tiny-plan' && fail "n stopped the plan"
u_keys s
u_wait 'Stop the plan\?' 5
u_keys y
u_wait 'STOPPED tiny-plan' 20
u_wait 'plan tiny-plan stopped' 5
grep -q '"status":[[:space:]]*"interrupted"' "$RES2/meta.json" || fail "meta.json not interrupted"
grep -q '"finished":[[:space:]]*true' "$RES2/state.json" && fail "a stopped plan says finished"
grep -q "override: typed confirmation $LOOP" "$RES2/events.log" ||
	fail "the typed confirmation is not in events.log"
u_keys q
u_restored
ok "plan from the Presets pane: typed confirmation, stop leaves it resumable"

# 3. a device holding a filesystem: --yes-destroy-data is not enough and
# the typed token is no override either (docs/safety.md): refused, naming
# --force-destroy; the filesystem stays
if command -v mkfs.ext4 >/dev/null && command -v blkid >/dev/null &&
	mkfs.ext4 -q -F "$LOOP" 2>/dev/null; then
	u_start 170 40 "$NVS_BIN" --plan "$PLAN" --target "$LOOP" --yes-destroy-data="$LOOP" \
		--results "$T_TMP/plan3"
	u_wait "refused: $LOOP holds an ext4 filesystem: the typed confirmation does not" 10
	u_screen | grep -q "Type .* to DESTROY" && fail "a dialog was opened over a filesystem"
	blkid -p "$LOOP" 2>/dev/null | grep -q 'TYPE="ext4"' || fail "the filesystem was touched"
	[ -e "$T_TMP/plan3" ] && fail "results directory made without confirmation"
	u_keys q
	u_restored
	ok "a device with data is refused even with --yes-destroy-data"
fi

# 4. `nvscope replay DIR` of a plan's results directory follows a plan that
# runs headless in another process, step by step, to its end
wipefs -a -q "$LOOP" 2>/dev/null
R4=$T_TMP/plan4
"$NVS_BIN" plan "$PLAN" --target "$LOOP" --yes-destroy-data="$LOOP" --results "$R4" --quiet \
	>"$T_TMP/plan4.out" 2>&1 &
PID4=$!
n=0
until [ -s "$R4/state.json" ] && [ -s "$R4/plan.ini" ]; do
	sleep 0.1
	n=$((n + 1))
	[ $n -lt 100 ] || fail "the headless plan did not start: $(cat "$T_TMP/plan4.out")"
done
u_start 130 40 "$NVS_BIN" replay "$R4"
u_wait 'Plan tiny-plan' 5
u_wait '▶ +3 precondit' 15 # (the name may give way to the round)
u_wait 'DONE tiny-plan' 20
u_screen | grep -Eq '✓ +4 measure 4k-randread' || fail "follow: last step not done"
wait $PID4 || fail "the headless plan failed: $(cat "$T_TMP/plan4.out")"
u_keys q
u_restored
ok "replay follows a plan running headless"
