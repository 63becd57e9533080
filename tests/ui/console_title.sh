#!/bin/bash
# console_title.sh - the title bar names the host and shows the clock (a
# rack has many hosts), at 120 and at 80 columns (the left part cut with an
# ellipsis, never into a misleading value); the I/O threads are named io/N
# (top -H, ps -L).
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
t_loop 64M
HOST=$(hostname)
u_start 120 30 "$NVS_BIN" --target "$LOOP" --preset 4k-randread --numjobs=2 \
	--results "$T_TMP/res"
u_wait 'RUNNING 4k-randread' 10
u_wait "$HOST [0-2][0-9]:[0-5][0-9]:[0-5][0-9] *\$" 5
ok "title: host and clock"

sh=$(u_tmux display -p -t ui '#{pane_pid}')
pid=$(pgrep -P "$sh" | head -1)
[ -n "$pid" ] || fail "no console process"
names=$(cat /proc/"$pid"/task/*/comm)
echo "$names" | grep -qx 'io/0' || { echo "$names" >&2; fail "no thread named io/0"; }
echo "$names" | grep -qx 'io/1' || fail "no thread named io/1"
ok "threads named io/N"

u_resize 80 24
u_wait '[0-2][0-9]:[0-5][0-9]:[0-5][0-9] *$' 5
T=$(u_screen | head -1)
echo "$T" | grep -q '^ nvscope | RUNNING' || fail "80x24: title lost its start: $T"
[ "$(printf %s "$T" | wc -m)" -le 80 ] || fail "80x24: title wider than the screen"
ok "80x24: title with the clock"
u_keys q
u_wait '\(y/n\)' 5
u_keys y
u_restored
