#!/bin/bash
# console_vt100.sh - a colourless terminal (TERM=vt100, no UTF-8, as at a
# rack's serial console): the cursor row is shown in reverse video (SGR 7),
# not by colour alone; the strips draw read and write with distinct glyphs
# and the legend says which.
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
t_loop 64M
u_start 100 30 env TERM=vt100 LANG=C LC_ALL=C "$NVS_BIN" --results "$T_TMP/res"
u_scanned 10
# the cursor is on the first row of the Devices pane: its line carries
# reverse video (and no colour at all is sent)
E=$(u_tmux capture-pane -p -e -t ui)
echo "$E" | grep -q $'\e\\[[0-9;]*3[0-7][;m]' && fail "colour sent to a vt100"
echo "$E" | sed -n 4p | grep -Eq $'\e\\[([0-9;]*;)?7[;m]' || {
	echo "$E" | cat -v | head -6 >&2
	fail "cursor row not in reverse video"
}
ok "vt100: cursor row in reverse video, no colour"

# sel: the text of the highlighted (reverse video) rows between the title
# and the status bar
sel() { u_tmux capture-pane -p -e -t ui | sed '1d;$d' | grep -E $'\e\\[([0-9;]*;)?7[;m]' | sed 's/\x1b\[[0-9;]*m//g'; }
# sel_wait REGEX: waits (5 s) until a highlighted row matches: a key's
# effect is read once it is drawn, not after a fixed sleep
sel_wait() {
	local n=50
	while [ $n -gt 0 ]; do
		sel | grep -q -- "$1" && return 0
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}
# End as xterm sends it (vt100's terminfo has no kend): decoded, not '4'
u_keys Tab
u_wait '\[Presets\]' 5
u_text $'\e[4~'
# the last plan as the console lists them: sorted by file name
last=$(ls "$NVS_TOP"/presets/plans/*.ini | sed 's#.*/##' | LC_ALL=C sort | tail -n 1 | sed 's/\.ini$//')
sel_wait "plan:$last" || { sel >&2; fail "End did not reach the last entry (plan:$last)"; }
sel | grep -q '4k-' && fail "End was taken as the letter 4"
u_text $'\e[1~'
sel_wait '128k-seqread' || { sel >&2; fail "Home did not reach the first entry"; }
u_text $'\e[99~x'  # unknown sequence dropped whole; x is a key of its own (none)
u_text 'G'
sel_wait "plan:$last" || fail "G (End's letter) did not reach the last entry"
# letters jump only after '/': q here is quit, not a jump
u_text '/o'
sel_wait 'oltp' || { sel >&2; fail "/o did not jump to oltp"; }
# '/' and a letter: the first entry from the top, not the next one (issue
# 22 item 8); '/p' reaches the plans ("plan:..." as shown)
u_text $'\e[1~'
sel_wait '128k-seqread' || fail "Home"
u_text '/1'
sleep 0.3
sel | grep -q '128k-seqwrite' && fail "/1 went to the next match, not the first"
sel_wait '128k-seqread' || fail "/1 left the first match"
first=$(ls "$NVS_TOP"/presets/plans/*.ini | sed 's#.*/##; s/\.ini$//' | LC_ALL=C sort | head -n 1)
u_text '/p'
sel_wait "plan:$first" || { sel >&2; fail "/p did not reach the first plan (plan:$first)"; }
# the presets that write say so first, whatever the width cuts
S=$(u_screen)
for p in 128k-seqwrite 4k-randwrite 8k-7030 seq-fill; do
	echo "$S" | grep -Eq "^W +$p " || { echo "$S" >&2; fail "$p not marked W (writes)"; }
done
for p in 128k-seqread 4k-randread 8k-randread crystaldiskmark; do
	echo "$S" | grep -Eq "^W +$p " && fail "$p marked W"
done
ok "vt100 keys: End/Home decoded, unknown sequences dropped, letters for them, / jump"

u_keys '?'
u_wait 'TERM=vt100 has:' 5
u_screen | grep -q 'lacks (use):.*Home(g)' || fail "help does not say what this terminal lacks"
u_screen | grep -Eq 'TERM=vt100 has:.* F1 F2 F3 |lacks \(use\):.* F1\(\?\)' || fail "help's key line omits F1-F3"
u_keys x
u_gone 'TERM=vt100 has:' 5 # the help closed before the next keys
u_keys Tab Tab # back to Devices
ok "help shows what this terminal has"

# a read run on the loop device: reads drawn with '+', legend '+read'
u_keys a
u_wait 'Add target' 5
u_text "$LOOP"
u_keys Enter
u_wait "added and marked" 5
u_keys Tab 4 Enter
u_wait 'RUNNING 4k-randread' 10
u_wait '\+read xwrite' 10
# a point in the plot: on a row with an axis label ("500k|   +") or on
# one without (its first mark a '+'); which rows the points fall on
# depends on the IOPS the machine reaches (ASan's were all unlabelled)
u_wait '^ +([0-9.]+[kM]?\|.* | *)\+' 15
S=$(u_screen)
echo "$S" | grep -q '\*mean op99' || fail "latency legend without glyphs"
ok "vt100: series glyphs and legends"
u_keys q
u_wait 'y/n|Quit' 5
u_keys y
u_restored
ok "quit, terminal restored"

# vt100 has no alternate screen: the results path is printed over the last
# line (a run that ended by itself leaves "done: results in ..." there),
# and must stand alone on its line: the old line's tail stayed after it
u_start 100 30 env TERM=vt100 LANG=C LC_ALL=C "$NVS_BIN" --target "$LOOP" --rw=randread \
	--runtime=1 --results "$T_TMP/res2"
u_wait 'DONE' 10
u_keys q
u_restored
u_screen | grep -Fxq "nvscope: results in $T_TMP/res2" ||
	{ u_screen | tail -5 >&2; fail "the results line is not whole and alone on its line"; }
ok "the results path printed whole, alone on its line"
