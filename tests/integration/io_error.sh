#!/bin/bash
# An I/O error mid-run (the file shrinks under the workload, so reads come
# back short) ends the run cleanly: exit 1, the error named, partial results
# written.  With --continue_on_error=all the run goes on and counts errors.
. "$(dirname "$0")/../lib.sh"
f=$T_TMP/shrinks.dat
"$NVS_BIN" run --target "$f" --size=16m -q --rw=randread --runtime=1 >/dev/null || fail "layout"
( sleep 1; truncate -s 0 "$f" ) &
"$NVS_BIN" run --target "$f" --rw=randread --bs=4k --iodepth=4 --runtime=5 --time_based \
	--output-format=json --output "$T_TMP/e.json" >"$T_TMP/out" 2>"$T_TMP/err"
rc=$?
wait
[ $rc -eq 1 ] || fail "exit $rc, want 1: $(cat "$T_TMP/err")"
grep -q "read error" "$T_TMP/err" || fail "error not named: $(cat "$T_TMP/err")"
python3 - "$T_TMP/e.json" <<'PY' || fail "partial results"
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
r = j["read"]
assert r["errors"] >= 1 and r["total_ios"] > 0, r
assert j["read"]["runtime"] < 4500, j["read"]["runtime"]   # ended early
assert "first_error" in r
PY
ok "I/O error ends the run with partial results"

truncate -s 16m "$f"
( sleep 1; truncate -s 0 "$f" ) &
"$NVS_BIN" run --target "$f" --rw=randread --bs=4k --iodepth=2 --runtime=2 --time_based \
	--continue_on_error=all --output-format=json >"$T_TMP/c.json" 2>/dev/null
rc=$?
wait
python3 -c "
import json; r=json.load(open('$T_TMP/c.json'))['jobs'][0]['read']
assert r['errors'] > 100 and r['runtime'] > 1800, r" || fail "continue_on_error (rc $rc)"
ok "continue_on_error counts errors and goes on"
