#!/bin/bash
# plan_resume_hint.sh - the command a stopped plan prints to resume it works
# as printed (issue 22 item 5): a plan that writes needs the typed
# confirmation on --resume, so the hint carries --yes-destroy-data with each
# target's token; pasted into a shell it finishes the plan (exit 0).  A
# read-only plan's hint has no confirmation.  The results directory's name
# has a space: the hint quotes it.
. "$(dirname "$0")/../lib.sh"
t_loop 16M
plan=$T_TMP/w.ini
printf '[plan]\ndescription = writes\nruntime = 1500ms\n\n[measure w]\nrw = randwrite\nbs = 4k\niodepth = 1\nrate_iops = 200\n' >"$plan"
R="$T_TMP/res dir"
"$NVS_BIN" plan "$plan" --target "$LOOP" --yes-destroy-data="$LOOP" --results "$R" --quiet \
	>/dev/null 2>"$T_TMP/e" &
pid=$!
t_wait_caught "$pid" INT || fail "no handler for SIGINT: $(cat "$T_TMP/e")"
for _ in $(seq 200); do [ -s "$R/state.json" ] && break; t_nap 0.05; done
t_nap 0.3
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] || fail "plan stopped by SIGINT exited $rc: $(cat "$T_TMP/e")"
cmd=$(sed -n 's/^nvscope plan: interrupted; continue with: //p' "$T_TMP/e")
[ -n "$cmd" ] || fail "no resume hint: $(cat "$T_TMP/e")"
case $cmd in
*"--yes-destroy-data=$LOOP"*) ;;
*) fail "the hint lacks the confirmation: $cmd" ;;
esac
# a duration given again on --resume is refused, not ignored (it ran the
# run's 20 s while saying nothing)
eval "\"\$NVS_BIN\" ${cmd#nvscope } --runtime=300ms --quiet" >"$T_TMP/o2" 2>&1
rc=$?
[ "$rc" -eq 2 ] && grep -q -- "--runtime cannot be given again" "$T_TMP/o2" ||
	fail "--runtime on --resume not refused (exit $rc): $(cat "$T_TMP/o2")"
# the printed command, as a user pastes it (the binary's path for nvscope);
# the rest of the 1.5-s step runs
eval "\"\$NVS_BIN\" ${cmd#nvscope } --quiet" >"$T_TMP/o2" 2>&1 ||
	fail "the hint did not resume: $cmd: $(cat "$T_TMP/o2")"
grep -q '"finished":[[:space:]]*true' "$R/state.json" || fail "not finished after the resume"
ok "a writing plan's resume hint carries its token and works as printed: $cmd"

# a read-only plan: no confirmation in its hint
printf '[plan]\ndescription = reads\nruntime = 1500ms\n\n[measure r]\nrw = randread\nbs = 4k\nrate_iops = 200\n' >"$T_TMP/r.ini"
"$NVS_BIN" plan "$T_TMP/r.ini" --target "$LOOP" --results "$T_TMP/r" --quiet >/dev/null 2>"$T_TMP/e" &
pid=$!
t_wait_caught "$pid" INT || fail "no handler for SIGINT"
for _ in $(seq 200); do [ -s "$T_TMP/r/state.json" ] && break; t_nap 0.05; done
kill -INT "$pid"
wait "$pid"
grep -q "continue with: nvscope plan --resume $T_TMP/r\$" "$T_TMP/e" || fail "read-only hint: $(cat "$T_TMP/e")"
ok "a read-only plan's hint has no confirmation"
