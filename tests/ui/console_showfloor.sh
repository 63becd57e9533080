#!/bin/bash
# console_showfloor.sh - `nvscope console --showfloor` at 80x24 on a loop
# device: big digits with their labels, v (setup screen) and s (stop)
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
ok "showfloor: large digits"
u_keys v
u_wait 'locked in showfloor' 5
u_screen | grep -q 'Devices' && fail "v left the live screen in showfloor"
u_keys s
u_wait 's F9: locked in showfloor' 5
u_screen | grep -q 'RUNNING custom' || fail "s stopped the run in showfloor"
ok "showfloor refuses v and s"
u_wait 'DONE custom' 15
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
