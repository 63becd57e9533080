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
    assert t["issued"] == (t["reads"] + t["writes"] + t["trims"] + t["syncs"]) * t["copies"], (p, t)
print("steps with nvscope.trace:", len(found))
PY
ok "plan traces"

# every shipped trace has its plan (the console's Launch pane lists plans):
# presets/plans/trace-NAME.ini replaying [trace NAME]
for f in presets/traces/*.log; do
	n=$(basename "$f" .log)
	[ -f "presets/plans/trace-$n.ini" ] || fail "no presets/plans/trace-$n.ini for $f"
	"$NVS_BIN" plan "trace-$n" --target "$LOOP" --dry-run >"$T_TMP/dry" 2>&1 ||
		{ cat "$T_TMP/dry"; fail "plan trace-$n does not load"; }
	grep -q "trace $n" "$T_TMP/dry" || fail "plan trace-$n has no [trace $n] step"
	# the dry run says what the step replays, not a workload it does not run
	grep -q "trace $n .* replay .*$n.log" "$T_TMP/dry" && ! grep -q "QD" "$T_TMP/dry" ||
		{ cat "$T_TMP/dry"; fail "plan trace-$n --dry-run does not show its trace"; }
	"$NVS_BIN" plan --list | grep -q "^trace-$n " || fail "plan --list lacks trace-$n"
done
ok "a plan per shipped trace"

# the boot trace replays; the VDI boot storm (8 staggered copies, then 8
# together) runs with per-copy figures on a 2.1 GiB loop device
"$NVS_BIN" plan trace-vm-boot --target "$LOOP" --results "$T_TMP/vb" --yes-destroy-data="$LOOP" \
	>"$T_TMP/out" 2>&1 || { tail -20 "$T_TMP/out"; fail "plan trace-vm-boot exited"; }
grep -q "^  trace: .*vm-boot.log.*1 copy, 809 I/Os issued (trims and syncs too), 0 not replayed" "$T_TMP/out" ||
	{ cat "$T_TMP/out"; fail "vm-boot step figures"; }
t_loop 2100M
big=$LOOP
"$NVS_BIN" plan vdi-boot-storm --target "$big" --results "$T_TMP/vs" --yes-destroy-data="$big" \
	>"$T_TMP/out" 2>&1 || { tail -20 "$T_TMP/out"; fail "plan vdi-boot-storm exited"; }
[ "$(grep -c "^  trace: .*8 copies, 6472 I/Os issued" "$T_TMP/out")" -eq 2 ] ||
	{ cat "$T_TMP/out"; fail "storm steps: not 2 x 8 copies"; }
python3 - "$T_TMP/vs" <<'PY' || fail "storm per-copy figures"
import glob, json, os, sys
n = 0
for p in glob.glob(os.path.join(sys.argv[1], "*", "qd*.json")):
    t = json.load(open(p)).get("nvscope", {}).get("trace")
    if not t:
        continue
    n += 1
    assert t["copies"] == 8 and len(t["per_copy"]) == 8, t
    assert all(c["issued"] == 809 for c in t["per_copy"]), t["per_copy"]
    if "stagger" in p:
        assert t["stagger_ms"] == 1000, t
assert n == 2, n
print("storm steps with 8 copies of 801 I/Os each:", n)
PY
ok "boot trace and VDI boot storm"

# a boot replay on a device holding data: refused, nothing written
command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
mkfs.ext4 -q -F "$big" || fail "mkfs"
name=${big##*/}
w0=$(awk '{print $5}' /sys/block/$name/stat)
"$NVS_BIN" plan trace-vm-boot --target "$big" --results "$T_TMP/vr" --yes-destroy-data="$big" \
	>"$T_TMP/out" 2>&1
rc=$?
[ $rc -eq 2 ] || { cat "$T_TMP/out"; fail "boot replay on ext4: exit $rc, not 2"; }
[ "$(awk '{print $5}' /sys/block/$name/stat)" = "$w0" ] || fail "the ext4 device was written"
ok "boot replay refused on a device holding data (exit 2, no write)"
