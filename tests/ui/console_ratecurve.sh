#!/bin/bash
# console_ratecurve.sh - a plan's rate curve in the console (replay of its
# results directory): the table shows the rate asked, the IOPS achieved and
# the achieved % of the asked rate for each point, "-" for the max run.
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
t_loop 64M
cat >"$T_TMP/rc.ini" <<'INI'
[plan]
description = test rate curve: max, then 50 and 100% of it
runtime = 1s
[global]
direct = 1
[rate-curve 4k-randread]
rw = randread
bs = 4k
iodepth = 4
points = 50,100
INI
"$NVS_BIN" plan "$T_TMP/rc.ini" --target "$LOOP" --results "$T_TMP/res" >"$T_TMP/out" 2>&1 ||
	fail "plan exited $?: $(cat "$T_TMP/out")"
cat "$T_TMP"/res/*rate*/rate.csv
u_start 120 40 "$NVS_BIN" replay "$T_TMP/res" --no-settings
u_wait 'asked +IOPS +%ask' 10
S=$(u_screen)
echo "$S" | grep -Eq '^ +max +- +[0-9.]+k? +- ' || { echo "$S" >&2; fail "no max row with '-' asked"; }
echo "$S" | grep -Eq '^ +50 +[0-9.]+k? +[0-9.]+k? +[0-9]+% ' || { echo "$S" >&2; fail "no 50% row with asked / achieved / %"; }
u_keys q
u_restored
ok "rate curve: asked vs achieved"
