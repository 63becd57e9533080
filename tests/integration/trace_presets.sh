#!/bin/bash
# The shipped traces (presets/traces/*.log) load, fio's own reader agrees on
# their counts, and the "traces" plan ([trace NAME] steps, a 4-copy storm)
# replays them on a loop device with nvscope.trace figures per step.
. "$(dirname "$0")/../lib.sh"
for f in presets/traces/*.log; do
	"$NVS_BIN" trace show "$f" >"$T_TMP/show" || fail "trace show $f"
	if command -v fio >/dev/null; then
		truncate -s 300M "$T_TMP/x.img"
		fio --name=r --read_iolog="$f" --replay_redirect="$T_TMP/x.img" --replay_no_stall=1 \
			--output-format=json >"$T_TMP/fio.json" 2>/dev/null || fail "fio on $f"
		python3 - "$T_TMP/show" "$T_TMP/fio.json" <<'PY' || fail "fio disagrees on $f"
import json, re, sys
m = re.search(r"\((\d+) reads, (\d+) writes", open(sys.argv[1]).read())
t = open(sys.argv[2]).read(); j = json.loads(t[t.index("{"):])["jobs"][0]
assert (j["read"]["total_ios"], j["write"]["total_ios"]) == (int(m[1]), int(m[2])), (m.groups(), j["read"]["total_ios"], j["write"]["total_ios"])
PY
		rm -f "$T_TMP/x.img"
	fi
done
ok "shipped traces load (fio agrees on the counts)"

t_loop 1100M
R=$T_TMP/res
"$NVS_BIN" plan traces --target "$LOOP" --results "$R" --yes-destroy-data="$LOOP" \
	>"$T_TMP/out" 2>&1 || { tail -20 "$T_TMP/out"; fail "plan traces exited $?"; }
n=$(grep -c "^  trace: " "$T_TMP/out" || true)
[ "$n" -eq 3 ] || { cat "$T_TMP/out"; fail "$n trace lines, not 3"; }
grep -q "4 copies" "$T_TMP/out" || fail "storm step not 4 copies"
python3 - "$R" <<'PY' || fail "nvscope.trace in the steps' JSON"
import glob, json, os, sys
found = {}
for p in glob.glob(os.path.join(sys.argv[1], "*", "qd*.json")):
    try:
        d = json.load(open(p))
    except Exception:
        continue
    t = d.get("nvscope", {}).get("trace") if isinstance(d, dict) else None
    if t:
        found[p] = t
assert len(found) == 3, sorted(found)
for p, t in found.items():
    assert t["issued"] == (t["reads"] + t["writes"]) * t["copies"], (p, t)
print("steps with nvscope.trace:", len(found))
PY
ok "plan traces"
