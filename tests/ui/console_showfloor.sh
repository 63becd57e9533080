#!/bin/bash
# console_showfloor.sh - `nvscope console --showfloor` at 80x24 on a loop
# device: big digits with their labels (larger on a larger screen), v (setup screen) and s (stop)
# refused (the A_LOCK flag of the key table), q asks first (A_ASK).
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
t_loop 64M
A=$LOOP

# showfloor at 80x24: big digits, labels, locked keys, quit asks
u_start 80 24 "$NVS_BIN" console --showfloor --target "$A" --rw=randread --iodepth=4 \
	--runtime=3 --time_based --ramp_time=0 --ascii --results "$T_TMP/floor"
u_wait 'RUNNING custom' 10
u_wait 'nvscope showfloor' 5
u_wait 'p99 latency (us|ms)' 10
S=$(u_screen)
[ "$(echo "$S" | grep -c '###')" -ge 2 ] || { echo "$S" >&2; fail "no large digits"; }
echo "$S" | grep -q 'IOPS  *MB/s  *p99 latency' || fail "figure labels missing"
echo "$S" | grep -q 'Devices' && fail "setup pane shown in showfloor"
# digit rows: between the header and the labels, rows with a cell
digit_rows() { u_screen | sed -n '/nvscope showfloor/,/IOPS  *MB\/s  *p99 latency/p' | grep -c '#'; }
[ "$(digit_rows)" -le 5 ] || fail "80x24: digits taller than 5 rows"
ok "showfloor: large digits"
u_keys v
u_wait 'locked in showfloor' 5
u_screen | grep -q 'Devices' && fail "v left the live screen in showfloor"
u_keys s
u_wait 's F9: locked in showfloor' 5
# not stopped: still running, or done at its 3 s (a loaded machine's
# waits above may outlast the run); a stop would say STOPPED
u_screen | grep -q 'STOPPED' && fail "s stopped the run in showfloor"
u_screen | grep -qE '(RUNNING|DONE) custom' || fail "s: the run neither running nor done"
ok "showfloor refuses v and s"
u_wait 'DONE custom' 15
# the figures stay after the run.  A big screen: larger digits (the pane
# and the cells grow); back at 80x24 as before, labels whole
u_resize 200 55
n=0
while [ "$(digit_rows)" -le 5 ] && [ $n -lt 30 ]; do sleep 0.1; n=$((n + 1)); done
[ "$(digit_rows)" -ge 10 ] || { u_screen >&2; fail "200x55: digits not larger than 3x5"; }
u_resize 80 24
n=0
while [ "$(digit_rows)" -gt 5 ] && [ $n -lt 30 ]; do sleep 0.1; n=$((n + 1)); done
[ "$(digit_rows)" -le 5 ] || { u_screen >&2; fail "back at 80x24: digits still large"; }
u_screen | grep -q 'IOPS  *MB/s  *p99 latency' || fail "80x24 after a resize: labels cut"
ok "showfloor: digits grow with the screen"
u_keys q
u_wait "Showfloor mode: 'q' \(quit\)\? \(y/n\)" 5
u_keys n
sleep 0.3
u_screen | grep -q 'NVS-EXIT' && fail "quit without the answer"
u_keys q
u_wait "Showfloor mode: 'q'" 5
u_keys y
u_restored
u_screen | grep -q 'NVS-EXIT 0' || fail "exit status not 0"
ok "showfloor asks before quitting"
