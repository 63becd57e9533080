#!/bin/bash
# console_80x24.sh - at 80x24 nothing is cut to a misleading value: the
# per-QD table leaves out whole columns (max) instead of cutting CPU% to
# one digit; the steady-state line ends with an ellipsis rather than
# running into the Numbers pane; the CPU pane's own-CPU line is whole; a
# QD sweep's rows all reachable (k j g G), the rows out of sight counted in
# the table's header; the help lists every key of the screen, none cut
# without a marker (issue 22 item 6); the strips leave a blank column before
# the Numbers and CPU panes, and the CPU pane's title gives iowait.
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
# the bars are busy time as their figures are; iowait (idle) said apart
echo "$S" | grep -Eq '─ CPU ─+ (usr sys irq  )?iowait [0-9]+% ─' || { echo "$S" >&2; fail "CPU pane title"; }
L=$(echo "$S" | grep 'steady state' || true)
[ -n "$L" ] || fail "no steady-state line"
echo "$L" | grep -q 'ro errors\|[^ ] errors' && fail "steady line runs into Numbers: $L"
ok "80x24: per-QD columns whole, steady line and CPU line not cut"
u_wait 'DONE' 20
u_keys q
u_restored

# a sweep of 9 depths in a table of 5 rows: the newest shown, the others
# counted and reachable
u_start 80 24 "$NVS_BIN" --target "$LOOP" --rw=randread --iodepth=1,2,4,8,16,32,64,128,256 \
	--runtime=100ms --results "$T_TMP/res2"
u_wait 'DONE' 30
# the strips leave a blank column before the panes on their right (the
# newest dots ran into the Numbers pane): at the end the data reaches the
# plots' right edge
u_screen | python3 -c '
import sys
rows = sys.stdin.read().split("\n")
hdr = next(i for i, r in enumerate(rows) if r.startswith("─ IOPS ("))
w = rows[hdr].index(" Numbers") - 1
end = next(i for i, r in enumerate(rows) if r.startswith("─ Per queue depth"))
strip = [r.ljust(80) for r in rows[hdr + 1:end] if not r.startswith(("─", "steady"))]
assert all(r[w - 1] == " " for r in strip), "no gap at column %d" % (w - 1)
assert any(r[w - 2] != " " for r in strip), "no data at the right edge"
' || { u_screen >&2; fail "80x24: the strips run into the panes on their right"; }
qd() { u_screen | sed -n '/Per queue depth/,/^started\|^─/p'; }
qd | grep -Eq '^ +256 ' || { qd >&2; fail "the newest depth not shown"; }
qd | grep -Eq '(↑|\^)[0-9]+ more' || { qd >&2; fail "rows above not counted"; }
u_keys g
u_wait '^ +1 +[0-9.]+[kM]? ' 5 || fail "g did not reach QD 1"
qd | grep -Eq '(↓|v)[0-9]+ more' || { qd >&2; fail "rows below not counted"; }
qd | grep -Eq '^ +256 ' && fail "QD 256 shown with QD 1 in 5 rows?"
u_keys j
# QD 2 was already in sight: wait for QD 1 to leave (the key's redraw)
n=0
while qd | grep -Eq '^ +1 +[0-9.]' && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
qd | grep -Eq '^ +1 +[0-9.]' && { qd >&2; fail "j did not scroll down"; }
qd | grep -Eq '^ +2 +[0-9.]+[kM]? ' || { qd >&2; fail "j scrolled past QD 2"; }
u_keys G
u_wait '^ +256 ' 5
ok "80x24: a QD sweep's 9 rows reachable in 5, the hidden ones counted"
u_keys '?'
u_wait 'keys of the live screen' 5
H=$(u_screen)
echo "$H" | grep -q 'per-QD: up / down' || { echo "$H" >&2; fail "per-QD keys not in the help"; }
echo "$H" | grep -q 'more keys' && { echo "$H" >&2; fail "the live screen's help does not fit 80x24"; }
echo "$H" | grep -Eq 'Devices: mark' && fail "setup keys in the live screen's help"
u_keys x
u_gone 'keys of the live screen' 5
ok "80x24: the live screen's help whole"
u_keys q
u_restored
