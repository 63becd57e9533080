#!/bin/bash
# nvscope check survives an interruption: SIGINT mid-batch keeps the
# finished phases (state.json), --resume DIR runs only the rest and gives
# the verdicts; a drive that is not the one the check began on is refused.
. "$(dirname "$0")/../lib.sh"
t_loop 64M
A=$LOOP
t_loop 64M
B=$LOOP
# perf jobs capped and short (ramp 250 ms, runtime 1 s, rounds of a third):
# the test is about the state, not the figures
sed 's/^time_based$/time_based\nrate_iops=400/; s/^ramp_time=1$/ramp_time=250ms/; s/^runtime=5$/runtime=1/' "$NVS_TOP/presets/checks/quick.ini" >"$T_TMP/qc.ini"
step() { sed -n 's/^[[:space:]]*"next_step":[[:space:]]*\([0-9]*\),.*/\1/p' "$T_TMP/r/state.json" 2>/dev/null; }

"$NVS_BIN" check --target "$A" --target "$B" --profile "$T_TMP/qc.ini" -o "$T_TMP/r" \
	>"$T_TMP/out1" 2>"$T_TMP/err1" &
pid=$!
for _ in $(seq 600); do [ "$(step)" = 2 ] && break; t_nap 0.1; done
[ "$(step)" = 2 ] || { kill $pid; fail "state.json never reached step 2 (health, read-sample)"; }
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 1 ] || fail "interrupted check exited $rc, wanted 1: $(cat "$T_TMP/err1")"
grep -q "(interrupted)" "$T_TMP/out1" || fail "table does not say interrupted: $(cat "$T_TMP/out1")"
grep -q "not run to the end (check interrupted)" "$T_TMP/r/summary.json" ||
	fail "interrupted jobs not marked"
grep -q '"status":	"interrupted"' "$T_TMP/r/meta.json" || fail "meta status: $(cat "$T_TMP/r/meta.json")"
[ "$(step)" = 2 ] || fail "state moved past the interrupted phase: $(step)"
ok "SIGINT: interrupted, finished phases kept in state.json (step 2 of 5)"

# the state names the drives by serial: another drive at the path is refused
cp -r "$T_TMP/r" "$T_TMP/r-other"
sed -i "s/\"serial\":[[:space:]]*\"$(basename "$A")\"/\"serial\":\t\"SOMEONE-ELSE\"/" "$T_TMP/r-other/state.json"
"$NVS_BIN" check --resume "$T_TMP/r-other" 2>"$T_TMP/err2" >/dev/null
rc=$?
[ $rc -eq 2 ] || fail "resume onto another drive exited $rc"
grep -q "SOMEONE-ELSE" "$T_TMP/err2" || fail "no reason: $(cat "$T_TMP/err2")"
ok "resume refused when the drive at a path is not the one the check began on"
"$NVS_BIN" check --resume "$T_TMP/r" --target "$A" >/dev/null 2>&1
[ $? -eq 2 ] || fail "--resume with --target accepted"
"$NVS_BIN" check --resume "$T_TMP/nonexistent" >/dev/null 2>&1
[ $? -eq 2 ] || fail "--resume of nothing accepted"

"$NVS_BIN" check --resume "$T_TMP/r" >"$T_TMP/out3" 2>"$T_TMP/err3"
rc=$?
cat "$T_TMP/out3"
[ $rc -eq 0 ] || fail "resume exited $rc: $(cat "$T_TMP/err3")"
grep -q "read-sample" "$T_TMP/err3" && fail "resume ran the finished read-sample again"
grep -q "perf-4k-randread" "$T_TMP/err3" || fail "resume did not run the perf jobs: $(cat "$T_TMP/err3")"
grep -q "2 drives: 2 PASS" "$T_TMP/out3" || fail "verdicts after resume"
[ "$(step)" = 5 ] || fail "state after resume: step $(step)"
grep -q '"status":	"done"' "$T_TMP/r/meta.json" || fail "meta status after resume"
python3 - "$T_TMP/r/summary.json" <<'EOF' || fail "summary after resume"
import json, sys
d = json.load(open(sys.argv[1]))
for x in d["drives"]:
    jobs = {j["name"]: j for j in x["jobs"]}
    assert jobs["read-sample"]["bytes"] == 64 << 20, jobs   # kept from the first run
    assert jobs["perf-4k-randread"]["figure"] > 0, jobs
    assert not x["reasons"], x["reasons"]
EOF
ok "resume ran only the unfinished phases; both drives PASS"
