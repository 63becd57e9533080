#!/bin/bash
# console_kiosk.sh - `nvscope --target FILE --preset NAME` starts at once
# (kiosk / scripted use) in ASCII mode with the showfloor theme (large
# digits); the run ends by itself and leaves a results directory that
# `nvscope replay DIR` plays back.
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
F=$T_TMP/target.img
RES=$T_TMP/kiosk
u_start 120 40 "$NVS_BIN" --target "$F" --size=64m --direct=0 --preset 4k-randread \
	--runtime=3 --ramp_time=0 --numjobs=1 --ascii --theme showfloor --results "$RES"
u_wait 'RUNNING 4k-randread' 10
u_wait 'IOPS \(linear\) +now [1-9]' 10
S=$(u_screen)
echo "$S" | grep -qP '[\x{2800}-\x{28ff}\x{2500}-\x{25ff}]' && fail "--ascii drew Unicode"
echo "$S" | grep -q '###' || fail "showfloor: no large digits"
echo "$S" | grep -q '| showfloor' || fail "theme not showfloor"
ok "started at once, ASCII, showfloor"
u_wait 'DONE 4k-randread' 15
u_wait "done: results in $RES" 5
u_keys q # not running: quits at once
u_restored
u_screen | grep -q 'NVS-EXIT 0' || fail "exit status not 0"
[ "$(wc -l <"$RES/samples.csv")" -ge 3 ] || fail "samples.csv too short"
grep -q '"jobs"' "$RES/summary.json" || fail "summary.json has no jobs"
ok "run ended, results written"

# replay the directory just written, with a recorded health log as an NVMe
# target leaves it (this machine has no NVMe: written here)
printf 'time_s,temp_c,throttle_events\n0.000,41.0,0\n1.000,42.0,0\n2.000,,1\n3.000,44.0,1\n' \
	>"$RES/health.csv"
u_start 100 30 "$NVS_BIN" replay "$RES" --speed 2
u_wait '(REPLAY|PAUSED) kiosk' 10
u_wait 'IOPS \(linear\) +now [1-9]' 10
u_screen | grep -qP '[\x{2801}-\x{28ff}]' || fail "replay: no strip"
u_keys End
u_wait 'PAUSED' 5
u_wait 'Health \(recorded\) +44C +throttle events 1' 5
u_keys Home
u_wait 'REPLAY' 5
u_keys q
u_restored
u_screen | grep -q 'NVS-EXIT 0' || fail "replay exit status not 0"
ok "replay"

# an unknown terminal type is one clear line and exit 2, not a crash
u_start 80 24 env TERM=nosuchterm "$NVS_BIN"
u_wait "cannot use terminal type 'nosuchterm'" 10
u_wait 'NVS-EXIT 2' 5
ok "unknown TERM"
