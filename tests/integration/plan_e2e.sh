#!/bin/bash
# plan_e2e.sh - a short plan end to end on a loop device: trim, fill,
# precondition in tiny rounds, QD sweep, rate curve, thread x QD grid and a
# small matrix; the results directory is complete; a run killed (SIGKILL) in
# the middle of preconditioning continues with --resume instead of starting
# over; refusals without --yes-destroy-data.
. "${NVS_TOP:-.}/tests/lib.sh"
B=$NVS_BIN
t_loop 64M
plan=$T_TMP/e2e.ini
cat >"$plan" <<'INI'
[plan]
description = e2e test plan
runtime = 300ms

[global]
interval = 100ms

[purge]
method = trim

[fill]
passes = 0.25

[precondition 4k-randwrite]
rw = randwrite
bs = 4k
iodepth = 16
round = 300ms
max_rounds = 8
window = 3
range = 0.0001

[measure 4k-randread]
rw = randread
bs = 4k
iodepth = 1,4

[rate-curve 4k-randread]
rw = randread
bs = 4k
iodepth = 4
points = 50,100

[grid 4k-randread]
rw = randread
bs = 4k
threads = 1,2
iodepth = 1,2
runtime = 200ms

[matrix mini]
bs_list = 4k,8k
mixes = 100,0
iodepth = 4
runtime = 200ms
max_rounds = 2
window = 2
range = 1000
slope = 1000
INI

# refused without confirmation, nothing written
R=$T_TMP/res
"$B" plan "$plan" --target "$LOOP" --results "$R" 2>"$T_TMP/err" && fail "ran without --yes-destroy-data"
[ $? -eq 2 ] || fail "refusal exit status"
grep -q -- "--yes-destroy-data=$LOOP" "$T_TMP/err" || fail "refusal message: $(cat "$T_TMP/err")"
[ ! -e "$R" ] || fail "refusal created $R"
# a bad plan names file:line
printf '[measure]\nbz=4k\n' >"$T_TMP/bad.ini"
"$B" plan "$T_TMP/bad.ini" --target "$LOOP" --yes-destroy-data="$LOOP" 2>"$T_TMP/err"
[ $? -eq 2 ] || fail "bad plan exit status"
grep -q "bad.ini:2:" "$T_TMP/err" || fail "bad plan message: $(cat "$T_TMP/err")"
ok "refusals"

# start, and kill -9 once three precondition rounds are checkpointed
"$B" plan "$plan" --target "$LOOP" --results "$R" --yes-destroy-data="$LOOP" >"$T_TMP/run1" 2>&1 &
pid=$!
for _ in $(seq 1 1200); do # up to a minute on a slow (sanitizer) build
	if [ -f "$R/state.json" ] && grep -q '"step":[[:space:]]*2,' "$R/state.json" &&
		grep -Eq '"sub":[[:space:]]*[3-7],' "$R/state.json"; then
		break
	fi
	kill -0 "$pid" 2>/dev/null || break
	t_nap 0.05
done
# a second run on the same directory is refused while the first runs
"$B" plan --resume "$R" --yes-destroy-data="$LOOP" >"$T_TMP/run-dup" 2>&1 && fail "concurrent resume ran"
grep -q "another nvscope plan is running" "$T_TMP/run-dup" || fail "concurrent resume: $(cat "$T_TMP/run-dup")"
kill -KILL "$pid" 2>/dev/null || fail "the plan ended before it could be killed: $(cat "$T_TMP/run1")"
wait "$pid" 2>/dev/null
grep -q '"finished":[[:space:]]*false' "$R/state.json" || fail "state says finished"
grep -q '"step":[[:space:]]*2,' "$R/state.json" || fail "not killed in the precondition step: $(cat "$R/state.json")"
pre=$R/03-precondition-4k-randwrite
[ -f "$pre/rounds.csv" ] || fail "no rounds.csv"
done_rounds=$(grep -Eo '"sub":[[:space:]]*[0-9]+' "$R/state.json" | grep -Eo '[0-9]+$')
head -n $((done_rounds + 1)) "$pre/rounds.csv" >"$T_TMP/rounds.before"
cp "$R/02-fill/fill.json" "$T_TMP/fill.before"
ok "killed after $done_rounds precondition rounds"

# a resume is checked as a fresh start: the confirmation is given again
"$B" plan --resume "$R" >"$T_TMP/run2" 2>&1 && fail "resumed without --yes-destroy-data"
grep -q -- "--yes-destroy-data=$LOOP" "$T_TMP/run2" || fail "resume refusal: $(cat "$T_TMP/run2")"
"$B" plan --resume "$R" --yes-destroy-data="$LOOP" >"$T_TMP/run2" 2>&1 || fail "resume failed: $(cat "$T_TMP/run2")"
grep -q "resuming .* at step 3/7 ($done_rounds done in it)" "$T_TMP/run2" || fail "resume message: $(head -3 "$T_TMP/run2")"
grep -q '^\[1/7\]\|^\[2/7\]' "$T_TMP/run2" && fail "resume re-ran purge or fill"
cmp -s "$R/02-fill/fill.json" "$T_TMP/fill.before" || fail "fill results changed"
# the rounds already done are kept as they were, then continue 4..8, once each
head -n $((done_rounds + 1)) "$pre/rounds.csv" | cmp -s - "$T_TMP/rounds.before" || fail "earlier rounds rewritten"
[ "$(cut -d, -f1 "$pre/rounds.csv" | tail -n +2 | tr '\n' ' ')" = "1 2 3 4 5 6 7 8 " ] ||
	fail "rounds: $(cut -d, -f1 "$pre/rounds.csv" | tr '\n' ' ')"
ok "resume continued at round $((done_rounds + 1))"

# the results directory is complete
for f in plan.ini meta.json state.json device-before.json device-after.json VERSION \
	01-purge/purge.json 02-fill/fill.json 02-fill/samples.csv \
	"$(basename "$pre")"/steady.json "$(basename "$pre")"/samples.csv \
	04-measure-4k-randread/qd.csv 04-measure-4k-randread/qd1.json 04-measure-4k-randread/qd4.json \
	04-measure-4k-randread/summary.json \
	05-rate-curve-4k-randread/rate.csv 05-rate-curve-4k-randread/max.json \
	05-rate-curve-4k-randread/pct50.json 05-rate-curve-4k-randread/pct100.json \
	06-grid-4k-randread/grid.csv 06-grid-4k-randread/t2q2.json \
	07-matrix-mini/matrix.csv 07-matrix-mini/rounds.csv 07-matrix-mini/steady.json \
	07-matrix-mini/r2-8k-0.json; do
	[ -s "$R/$f" ] || fail "missing $f"
done
cmp -s "$plan" "$R/plan.ini" || fail "plan.ini is not the exact plan text"
grep -q '"finished":[[:space:]]*true' "$R/state.json" || fail "state not finished"
grep -q '"status":[[:space:]]*"done"' "$R/meta.json" || fail "meta status"
grep -q '"nvscope_version"' "$R/meta.json" || fail "meta version"
grep -q '"driver":[[:space:]]*"loop"' "$R/device-before.json" || fail "device identity"
[ "$(wc -l <"$R/04-measure-4k-randread/qd.csv")" -eq 3 ] || fail "qd.csv rows"
[ "$(wc -l <"$R/05-rate-curve-4k-randread/rate.csv")" -eq 4 ] || fail "rate.csv rows"
[ "$(wc -l <"$R/06-grid-4k-randread/grid.csv")" -eq 5 ] || fail "grid.csv rows"
[ "$(wc -l <"$R/07-matrix-mini/matrix.csv")" -eq 9 ] || fail "matrix.csv rows"
grep -q '"attained":[[:space:]]*false' "$pre/steady.json" || fail "precondition verdict (range 0.0001% cannot hold)"
grep -q '"attained":[[:space:]]*true' "$R/07-matrix-mini/steady.json" || fail "matrix verdict"
# every measurement did I/O, and its fio-style JSON agrees with the table
awk -F, 'NR > 1 && $2 <= 0 { exit 1 }' "$R/04-measure-4k-randread/qd.csv" || fail "zero IOPS in qd.csv"
if command -v python3 >/dev/null; then
	python3 - "$R" <<'PY' || fail "JSON check"
import json, sys, csv, glob
r = sys.argv[1]
for p in glob.glob(r + "/*/*.json") + glob.glob(r + "/*.json"):
    json.load(open(p))
j = json.load(open(r + "/04-measure-4k-randread/qd4.json"))
rows = list(csv.DictReader(open(r + "/04-measure-4k-randread/qd.csv")))
iops = j["jobs"][0]["read"]["iops"]
assert abs(iops - float(rows[1]["iops"])) <= 0.01 * iops + 1, (iops, rows[1]["iops"])
s = json.load(open(r + "/04-measure-4k-randread/summary.json"))
assert [j["job options"]["iodepth"] for j in s["jobs"]] == ["1", "4"], s["jobs"]
PY
fi
# the same checkpoint sums: samples.csv rows have increasing time
awk -F, 'NR > 2 && $1 + 0 < prev - 1e-6 { exit 1 } { prev = $1 + 0 }' "$pre/samples.csv" ||
	fail "precondition samples go back in time (resume did not truncate)"
ok "results directory complete"

# a finished plan resumes to nothing
"$B" plan --resume "$R" | grep -q "already finished" || fail "resume of a finished plan"
"$B" plan --resume "$T_TMP/nowhere" 2>/dev/null; [ $? -eq 2 ] || fail "resume of a missing dir"
ok "resume edge cases"
