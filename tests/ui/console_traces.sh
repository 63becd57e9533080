#!/bin/bash
# console_traces.sh - the shipped traces in the console: the Presets pane
# (Launch) lists a plan per trace (presets/plans/trace-NAME.ini), the VDI
# boot storm and the VDI test; picking the boot trace asks for the typed confirmation (it
# writes), replays it on the marked loop device and ends DONE with the
# step's nvscope.trace in its results.
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
t_loop 300M
P=$T_TMP/presets
mkdir -p "$P/plans" "$P/traces"
cp presets/4k-randread.ini "$P/"
cp presets/plans/trace-*.ini presets/plans/vdi-boot-storm.ini presets/plans/vdi.ini "$P/plans/"
cp presets/traces/*.log "$P/traces/"
RES=$T_TMP/res
u_start 150 40 env NVSCOPE_PRESETS="$P" "$NVS_BIN" --target "$LOOP" --results "$RES"
for n in ext4-build sqlite-oltp vdi-login vdi-monday vm-boot; do
	u_wait "plan:trace-$n +Trace replay" 10
done
u_wait 'plan:vdi-boot-storm +VDI boot storm' 5
u_wait 'plan:vdi +VDI: boot storm, initial login, Monday login' 5
ok "Launch pane: a plan per shipped trace, the boot storm and the VDI test"
# 4k-randread, trace-ext4-build, trace-sqlite-oltp, trace-vdi-login,
# trace-vdi-monday, trace-vm-boot
u_scanned 10 # a plan waits for its target's probe
u_keys Tab Down Down Down Down Down Enter
u_wait 'Type .* to DESTROY the data on' 5
u_text "$LOOP"
u_keys Enter
u_wait 'PLAN trace-vm-boot' 10
u_wait 'DONE trace-vm-boot' 60
u_keys q
u_restored
python3 - "$RES" <<'PY' || fail "no nvscope.trace in the results"
import glob, json, os, sys
ts = [json.load(open(p)).get("nvscope", {}).get("trace") for p in glob.glob(os.path.join(sys.argv[1], "*", "qd*.json"))]
ts = [t for t in ts if t]
assert len(ts) == 1 and ts[0]["issued"] == 809 and ts[0]["file"].endswith("vm-boot.log"), ts
PY
ok "boot trace launched from the console: confirmed, replayed, DONE"
