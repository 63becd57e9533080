#!/bin/bash
# console_check_narrow.sh - the check view at 80x24 (a rack's serial
# console; issue 22 item 1): each drive's serial, verdict and reasons on
# screen (reasons wrapped under their column where narrower, not cut, at
# 80x24 and 100x30); the batch's counts with N/A and the results directory
# stay until the view is closed; E shows every verdict whole in the event list; the title's state
# never runs into the profile's description.  `nvscope --check PROFILE
# --target ...` (or --all-nvme) opens the view and starts the batch at
# once, as a technician starts a tray.  A health-only profile: loop
# devices have no health log, so each drive is N/A with its reason, and no
# I/O is needed.  With --results DIR the check writes DIR, a second one DIR-2.
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
t_loop 16M
A=$LOOP
t_loop 16M
B=$LOOP
a=$(basename "$A") b=$(basename "$B")
P=$T_TMP/presets
mkdir -p "$P/checks"
printf '[check]\ndescription=health only: the SMART criteria of every drive, a long description to cut\nselftest=none\nerror_log=1\n[thresholds]\ncritical_warning=1\n' \
	>"$P/checks/quick.ini"
U_CWD=$T_TMP
u_start 80 24 env NVSCOPE_PRESETS="$P" "$NVS_BIN"
u_scanned 10 # `c` waits for the devices' probes
for dev in "$A" "$B"; do
	u_keys a
	u_wait 'Add target' 5
	u_text "$dev"
	u_keys Enter
	u_wait "added and marked $dev" 5
done
u_keys c
u_wait 'READY *$' 5
# the same capacity as the Devices pane ("17MB"), not another rounding
u_screen | grep -Eq "^ $a +loop +17MB " || { u_screen >&2; fail "capacity not as in the Devices pane"; }
u_screen | head -1 | grep -Eq '(…|~) +READY *$' || { u_screen >&2; fail "the title's description not cut before the state"; }
u_keys Enter
u_wait 'DONE *$' 30
S=$(u_screen)
for d in "$a" "$b"; do
	echo "$S" | grep -Eq "^ $d .* N/A +health: not available \(not an NVMe device\)" ||
		{ echo "$S" >&2; fail "$d: verdict and reason not on the 80x24 screen"; }
done
echo "$S" | grep -q 'DONE: 0 PASS, 0 WARN, 0 FAIL, 2 N/A' || { echo "$S" >&2; fail "counts without N/A"; }
dir=$(echo "$S" | sed -n 's/^ results: \(.*[^ ]\) *$/\1/p')
[ -n "$dir" ] && [ -s "$T_TMP/$dir/summary.json" ] || { echo "$S" >&2; fail "results directory not whole on screen: '$dir'"; }
ok "80x24: serial, verdict and reason of each drive, the counts with N/A, the results directory"
# the counts and the directory are the view's own rows (21, 22), not the
# message row (23) that a message leaves after 6 s
S=$(u_screen)
echo "$S" | sed -n 21p | grep -q 'DONE: 0 PASS, 0 WARN, 0 FAIL, 2 N/A' || { echo "$S" >&2; fail "the counts are not the view's"; }
echo "$S" | sed -n 22p | grep -q "results: $dir" || fail "the results directory is not the view's"
u_keys E
u_wait 'Events' 5
for d in "$a" "$b"; do
	u_screen | tr -s ' \n' ' ' | grep -q "check quick: $d (loop, /dev/$d) N/A: health: not available (not an NVMe device)" ||
		{ u_screen >&2; fail "$d: its verdict not whole in the event list"; }
done
u_keys E
u_gone 'E closes' 5
ok "the counts stay; E lists every verdict whole"
u_keys q
u_wait 'Presets' 5
u_keys q
u_restored
ok "view closed, console quit"

# one line at the rack: the view opens on the batch, already running.  A
# self-test too (not supported on a loop device): the reasons are longer
# than their column at 80x24 and 100x30, and go on on the next row, whole
sed 's/^selftest=none/selftest=short/' "$P/checks/quick.ini" >"$P/checks/st.ini"
# (and --results DIR: the check writes there, not under results/)
R=$T_TMP/rack-tray
before=$(ls "$T_TMP/results")
u_start 80 24 env NVSCOPE_PRESETS="$P" "$NVS_BIN" --check st --target "$A" --target "$B" --results "$R"
u_wait 'DONE: 0 PASS, 0 WARN, 0 FAIL, 2 N/A' 20
[ -s "$R/summary.json" ] || { u_screen >&2; fail "--results $R: no summary.json there"; }
u_screen | grep -q "^ results: $R *\$" || { u_screen >&2; fail "--results $R: not the directory on screen"; }
wrapped() { # each drive's row and the next: the reasons whole
	local d r
	for d in "$a" "$b"; do
		r=$(u_screen | grep -A1 -E "^ $d " | sed 's/.* N\/A  *//' | tr -d ' \n')
		[ "$r" = "health:notavailable(notanNVMedevice);self-test:notsupported" ] || return 1
	done
}
wrapped || { u_screen >&2; fail "80x24: the reasons not wrapped whole onto a second row"; }
u_resize 100 30
wide() { [ "$(u_screen | head -1 | wc -L)" -gt 80 ]; } # redrawn at 100 columns
n=0
until { wide && wrapped; } || [ $n -ge 20 ]; do sleep 0.1; n=$((n + 1)); done
if ! { wide && wrapped; }; then
	u_screen >&2
	fail "100x30: the reasons not wrapped whole onto a second row"
fi
ok "80x24 and 100x30: a long reason goes on on the next row, not cut"
u_keys q
u_wait 'Presets' 5
# a second check in the same console: DIR-2, as a second run would
u_keys c
u_wait 'READY *$' 5
u_keys Enter
u_wait "results: $R-2" 20
[ -s "$R-2/summary.json" ] || fail "the second check: no $R-2/summary.json"
[ "$(ls "$T_TMP/results")" = "$before" ] || fail "a check wrote under results/ though --results was given"
ok "--results DIR: the console's first check writes DIR, the second DIR-2"
u_keys q
u_wait 'Presets' 5
u_keys q
u_restored
for args in "--all-nvme" "--check quick" "--check quick --plan x --target $A" "--check nope --target $A"; do
	# shellcheck disable=SC2086
	env NVSCOPE_PRESETS="$P" "$NVS_BIN" $args >/dev/null 2>"$T_TMP/e"
	rc=$?
	[ $rc -eq 2 ] || fail "nvscope $args: exit $rc, not 2: $(cat "$T_TMP/e")"
done
ok "--check PROFILE --target: the batch starts with the screen; bad combinations exit 2"
