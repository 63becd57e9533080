#!/bin/bash
# console_check.sh - the console's check view: mark two loop devices, `c`
# opens the view (READY, profile quick; `p` cycles to rma and back), Enter
# runs it with live phases, the verdict of each drive shows at the end and
# is the one written to the results directory (summary.json); q closes the
# view, the console goes on.
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
command -v python3 >/dev/null || skip "no python3"
t_loop 64M
A=$LOOP
t_loop 64M
B=$LOOP
a=$(basename "$A") b=$(basename "$B")
# the shipped quick profile, its perf jobs capped at the same rate on both
# drives and shortened (ramp 250 ms, runtime 1 s: perf jobs run one drive
# at a time, 4 x 6 s uncapped at full speed before), under its own name in
# a presets directory of the test's own (the workload presets linked, so
# the Presets pane lists them as before; rma is still the shipped one)
P=$T_TMP/presets
mkdir -p "$P/checks"
ln -s "$NVS_TOP"/presets/*.ini "$P/"
# the other shipped check profiles (rma), found here whatever the current
# directory and the binary's (a sanitizer build's has no presets beside it)
for f in "$NVS_TOP"/presets/checks/*.ini; do
	[ "${f##*/}" = quick.ini ] || ln -s "$f" "$P/checks/"
done
sed 's/^time_based$/time_based\nrate_iops=400/; s/^ramp_time=1$/ramp_time=250ms/; s/^runtime=5$/runtime=1/' \
	"$NVS_TOP/presets/checks/quick.ini" >"$P/checks/quick.ini"
[ "$(grep -c -e '^rate_iops=400$' -e '^ramp_time=250ms$' -e '^runtime=1$' "$P/checks/quick.ini")" -eq 6 ] ||
	fail "could not derive the capped profile"
# the interpreter itself, resolved once (a version manager's shim, such as
# pyenv's, costs ~0.6 s of CPU per start)
PY=$(python3 -c 'import sys; print(sys.executable)') && [ -x "$PY" ] || PY=python3
# the default results directory (results/ of the current directory) in the
# test's own scratch directory, where no other test writes
U_CWD=$T_TMP
u_start 150 40 env NVSCOPE_PRESETS="$P" "$NVS_BIN"
u_scanned 10 # `c` waits for the devices' probes
for dev in "$A" "$B"; do
	u_keys a
	u_wait 'Add target' 5
	u_text "$dev"
	u_keys Enter
	u_wait "added and marked $dev" 5
done
u_keys c
u_wait 'nvscope check - profile quick' 5
u_wait 'READY' 5
S=$(u_screen)
echo "$S" | grep -Eq "^ $a +loop " || fail "no row for $a"
echo "$S" | grep -Eq "^ $b +loop " || fail "no row for $b"
u_keys p
u_wait 'profile rma' 5
u_keys p
u_wait 'profile quick' 5
ok "check view lists the marked drives, profiles cycle"

u_keys Enter
u_wait 'RUNNING' 5
u_wait "(read-sample|perf-4k-randread|perf-128k-seqread) +[0-9]+%" 20
ok "live phase and progress"
u_wait 'DONE' 90
u_wait "^ $a +loop .* (PASS|WARN|FAIL) " 5
S=$(u_screen)
dir=$(echo "$S" | grep -o 'results: [^ ]*' | head -1 | cut -d' ' -f2)
[ -n "$dir" ] && [ -s "$T_TMP/$dir/summary.json" ] || fail "no results directory on screen: $dir"
for d in "$a" "$b"; do
	v=$("$PY" -c 'import json,sys
d = json.load(open(sys.argv[1]))
print([x["verdict"] for x in d["drives"] if x["serial"] == sys.argv[2]][0])' "$T_TMP/$dir/summary.json" "$d")
	echo "$S" | grep -Eq "^ $d +loop .* $v " || fail "$d: the file says $v, the screen does not"
	grep -q '"read-sample: read without errors"' "$T_TMP/$dir/$d/verdict.json" ||
		fail "$d: read-sample not judged"
done
rm -rf "${T_TMP:?}/$dir"
ok "verdicts on screen = summary.json"
u_keys q
u_wait 'Presets' 5
u_keys q
u_restored
ok "view closed, console quit"
