#!/bin/bash
# console_vt100.sh - a colourless terminal (TERM=vt100, no UTF-8, as at a
# rack's serial console): the cursor row is shown in reverse video (SGR 7),
# not by colour alone; the strips draw read and write with distinct glyphs
# and the legend says which.
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
t_loop 64M
u_start 100 30 env TERM=vt100 LANG=C LC_ALL=C "$NVS_BIN" --results "$T_TMP/res"
u_wait 'Devices' 10
# the cursor is on the first row of the Devices pane: its line carries
# reverse video (and no colour at all is sent)
E=$(u_tmux capture-pane -p -e -t ui)
echo "$E" | grep -q $'\e\\[[0-9;]*3[0-7][;m]' && fail "colour sent to a vt100"
echo "$E" | sed -n 4p | grep -q $'\e\\[[0-9;]*7[;m]' || {
	echo "$E" | cat -v | head -6 >&2
	fail "cursor row not in reverse video"
}
ok "vt100: cursor row in reverse video, no colour"

# a read run on the loop device: reads drawn with '+', legend '+read'
u_keys a
u_wait 'Add target' 5
u_text "$LOOP"
u_keys Enter
u_wait "added and marked" 5
u_keys Tab 4 Enter
u_wait 'RUNNING 4k-randread' 10
u_wait '\+read xwrite' 10
u_wait '^ +[0-9.]+[kM]?\+.* \+' 15
S=$(u_screen)
echo "$S" | grep -q '\*mean op99' || fail "latency legend without glyphs"
ok "vt100: series glyphs and legends"
u_keys q
u_wait 'y/n|Quit' 5
u_keys y
u_restored
ok "quit, terminal restored"
