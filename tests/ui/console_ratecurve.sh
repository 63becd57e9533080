#!/bin/bash
# console_ratecurve.sh - a plan's rate curve in the console (replay of its
# results directory): the table shows the rate asked, the IOPS achieved and
# the achieved % of the asked rate for each point, "-" for the max run; at
# 80x24 its eight rows (max, 10..110%) scroll in a table of fewer, the rows
# out of sight counted: the 110% row and the max row reachable (issue 22
# item 6: the rate curve's 110% row could not be reached).
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
t_loop 64M
cat >"$T_TMP/rc.ini" <<'INI'
[plan]
description = test rate curve: max, then 10 to 110% of it
runtime = 300ms
[global]
direct = 1
[rate-curve 4k-randread]
rw = randread
bs = 4k
iodepth = 4
points = 10,50,70,80,90,100,110
INI
"$NVS_BIN" plan "$T_TMP/rc.ini" --target "$LOOP" --results "$T_TMP/res" >"$T_TMP/out" 2>&1 ||
	fail "plan exited $?: $(cat "$T_TMP/out")"
cat "$T_TMP"/res/*rate*/rate.csv
u_start 120 40 "$NVS_BIN" replay "$T_TMP/res" --no-settings
u_wait 'asked +IOPS +%ask' 10
S=$(u_screen)
echo "$S" | grep -Eq '^ +max +- +[0-9.]+k? +- ' || { echo "$S" >&2; fail "no max row with '-' asked"; }
echo "$S" | grep -Eq '^ +50 +[0-9.]+k? +[0-9.]+k? +[0-9]+% ' || { echo "$S" >&2; fail "no 50% row with asked / achieved / %"; }
ok "rate curve: asked vs achieved"
# 80x24: 8 rows in a table of fewer, those out of sight counted; J (a page
# on) reaches the 110% row, K the max row (a replay's and a plan's table was
# pinned to its first row: the rows below it counted, not reachable; in a
# replay g and G restart it and jump to its end)
u_resize 80 24
rc() { u_screen | sed -n '/Per queue depth/,/^started\|^─/p'; }
n=0
while ! rc | grep -Eq '(↑|↓|\^|v)[0-9]+ more' && [ $n -lt 30 ]; do sleep 0.1; n=$((n + 1)); done
rc | grep -Eq '(↑|↓|\^|v)[0-9]+ more \(k j K J\)' || { rc >&2; fail "80x24: the rate curve's rows out of sight not counted (with a replay's keys)"; }
u_keys J
u_wait '^ +110 +[0-9.]+k? ' 5 || { rc >&2; fail "80x24: J did not reach the 110% row"; }
rc | grep -Eq '(↑|\^)[0-9]+ more' || { rc >&2; fail "80x24: the rows above 110% not counted"; }
u_keys K
u_wait '^ +max +- ' 5 || { rc >&2; fail "80x24: K did not reach the max row"; }
rc | grep -Eq '(↓|v)[0-9]+ more' || { rc >&2; fail "80x24: the rows below max not counted"; }
rc | grep -Eq '^ +110 ' && { rc >&2; fail "80x24: 110% and max in sight together?"; }
ok "80x24: the rate curve's 8 rows reachable, the hidden ones counted"
u_keys q
u_restored
