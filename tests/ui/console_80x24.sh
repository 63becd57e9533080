#!/bin/bash
# console_80x24.sh - at 80x24 nothing is cut to a misleading value: the
# per-QD table leaves out whole columns (max) instead of cutting CPU% to
# one digit; the steady-state line ends with an ellipsis rather than
# running into the Numbers pane; the CPU pane's own-CPU line is whole; a
# QD sweep's rows all reachable (k j g G), the rows out of sight counted in
# the table's header; the help lists every key of the screen, none cut
# without a marker (issue 22 item 6); the strips leave a blank column before
# the Numbers and CPU panes, and the CPU pane's title gives iowait.  A
# plan's failed precondition names its criterion in the 24-column step
# list; the purge dialog and the event list keep a long path whole on a
# line (issue 22 items 2 and 5); the event list scrolls and marks what it
# hides above and below.
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

# a plan at 80x24 on a file whose path is long (TERM=vt100, no UTF-8, as at
# a rack): the step list is 24 columns wide, and the failed precondition's
# row still says which criterion failed (its figure is in the event list,
# whole: issue 22 item 5); a path (or a serial) is never broken in its
# middle - not by the purge dialog (item 2: the box wrapped a serial), not
# by the event list - but goes whole onto the next line
F=$T_TMP/
F=$F$(printf '%*s' $((64 - ${#F})) '' | tr ' ' f)
[ ${#F} = 64 ] || skip "scratch directory path too long for the 64-character file"
truncate -s 16M "$F"
printf '[plan]\nruntime = 250ms\n[precondition nope]\nrw = randwrite\nbs = 4k\niodepth = 4\nround = 250ms\nmax_rounds = 2\nwindow = 2\nrange = 0\nslope = 0\n[measure rd]\nrw = randread\nbs = 4k\niodepth = 1\n' \
	>"$T_TMP/vmplan.ini"
u_start 80 24 env TERM=vt100 LANG=C LC_ALL=C "$NVS_BIN" --plan "$T_TMP/vmplan.ini" --target "$F" \
	--yes-destroy-data="$F" --results "$T_TMP/res3"
u_wait '^ nvscope \| DONE vmplan' 30
u_wait ' \+ +2 measure rd' 5
u_screen | grep -Eq ' x +1 [a-z~ ]+ range(>| [0-9.]+%>)0%' ||
	{ u_screen >&2; fail "80x24: the failed precondition's row does not say which criterion failed"; }
ok "80x24: the failed precondition's row names the criterion that failed"
# wider, the name whole and the figures after it (the name was padded to
# the list's width: at 200 columns nothing followed it)
u_resize 200 55
u_wait ' x +1 precondition nope range [0-9.]+%>0%' 5
u_resize 80 24
u_wait ' x +1 [a-z~ ]+ range(>| [0-9.]+%>)0%' 5
ok "200x55: the failed precondition's row: its name whole, then the criterion"
# evline: the event list's lines (E) without their times
evlines() { u_screen | sed -n '/^-* Events /,$p' | sed '1d;$d' | cut -c10- | sed 's/ *$//'; }
u_keys E
u_wait '^-* Events ' 5
evlines | grep -Eq '^step 1/2 precondition nope: NOT steady: range [0-9.]+% > 0%, slope' ||
	{ u_screen >&2; fail "80x24: the step's verdict not in the event list"; }
u_keys E
u_gone '^-* Events ' 5
ok "80x24: the event list holds the step's verdict"
# the purge dialog on the file (v: the setup screen; G: the last row, the
# file): the path to type whole on one line of the box, then Esc
u_keys v
u_wait 'Devices' 5
u_keys G P
u_wait 'a file: trim punches holes' 5
u_keys Enter
u_wait 'THIS PURGE DESTROYS DATA' 5
box() { u_screen | awk '/THIS PURGE DESTROYS DATA/ {f = 1} f && /\+-+\+/ {exit} f' |
	sed -E 's/^[^|]*\| ?//; s/ *\|[^|]*$//; s/ +$//'; }
box | grep -Fq -- "$F" || { u_screen >&2; fail "80x24: the purge dialog broke the path to type"; }
box | grep -q 'Type the path\.$' || { u_screen >&2; fail "80x24: the purge dialog cut"; }
u_keys Escape
u_wait 'purge not confirmed' 5
u_keys E
u_wait '^-* Events ' 5
evlines | grep -Fq -- "$F" || { u_screen >&2; fail "80x24: the event list broke the path (purge)"; }
u_keys E
u_gone '^-* Events ' 5
ok "80x24: the purge dialog and the event list keep a 64-character path whole on its line"
# more events than the list shows (12 purges not confirmed): a marker says
# how many earlier ones are hidden, k j g G scroll, a marker below says how
# many newer ones are hidden; nothing hidden without a marker
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
	u_keys P
	u_wait 'a file: trim punches holes' 5
	u_keys Enter
	u_wait 'THIS PURGE DESTROYS DATA' 5
	u_keys Escape
	u_gone 'THIS PURGE DESTROYS DATA' 5
done
u_keys E
u_wait '^\^ [0-9]+ earlier \(k PgUp g\)' 5
u_screen | grep -q '^v [0-9]* newer' && { u_screen >&2; fail "event list: a newer marker on the newest"; }
u_keys k
u_wait '^v 1 newer \(j PgDn G\)' 5
u_keys g
# (the screen after k also says "v 1 newer": wait for g's, the oldest
# event at the top and no earlier marker; a marker that stays fails here)
u_gone '^\^ [0-9]+ earlier' 5
u_wait '^v [0-9]+ newer' 5
u_keys G
u_gone '^v [0-9]+ newer' 5
u_wait '^\^ [0-9]+ earlier' 5
u_keys E
u_gone '^-* Events ' 5
ok "80x24: the event list scrolls (k g G) and marks the events it hides above and below"
u_keys q
u_restored
