#!/bin/bash
# console_80x24.sh - at 80x24 nothing is cut to a misleading value: the
# per-QD table leaves out whole columns (max) instead of cutting CPU% to
# one digit; the steady-state line ends with an ellipsis rather than
# running into the Numbers pane; the CPU pane's own-CPU line is whole.
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
t_loop 64M
u_start 80 24 "$NVS_BIN" --target "$LOOP" --rw=randread --iodepth=1,4 --runtime=3s \
	--results "$T_TMP/res"
u_wait 'RUNNING' 10
u_wait '^ +4 +[0-9.]+[kM]? ' 15 # the second step's row
S=$(u_screen)
echo "$S" | grep -Eq '^ +QD +IOPS +MB/s +mean +p99 +CPU%' || { echo "$S" >&2; fail "per-QD header"; }
echo "$S" | grep -q ' max  CPU' && fail "max column kept where CPU% does not fit"
echo "$S" | grep -Eq 'ui (N/A|[0-9.]+%)' || { echo "$S" >&2; fail "own CPU line cut"; }
L=$(echo "$S" | grep 'steady state' || true)
[ -n "$L" ] || fail "no steady-state line"
echo "$L" | grep -q 'ro errors\|[^ ] errors' && fail "steady line runs into Numbers: $L"
ok "80x24: per-QD columns whole, steady line and CPU line not cut"
u_wait 'DONE' 20
u_keys q
u_restored
