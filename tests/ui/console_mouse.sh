#!/bin/bash
# console_mouse.sh - the mouse (X10 reports written into the pane, as a
# terminal sends them once the console enabled mouse mode): a click selects
# a Devices row (Space then marks that row), focuses a pane and its row (the
# form), runs a key-bar button; the wheel moves a list.  On a terminal
# without mouse support the same bytes do nothing harmful (never letters).
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
t_loop 64M
name=${LOOP#/dev/}

# click ROW COL (0-based screen cell): an X10 press and release of button 1
click() {
	local x y
	x=$(printf %x $(($2 + 33)))
	y=$(printf %x $(($1 + 33)))
	u_keys -H 1b 5b 4d 20 "$x" "$y" 1b 5b 4d 23 "$x" "$y"
}
wheel_down() { u_keys -H 1b 5b 4d 61 "$(printf %x $(($2 + 33)))" "$(printf %x $(($1 + 33)))"; }
# row_of REGEX: the 0-based screen row of the first line matching
row_of() { u_screen | grep -nE -- "$1" | head -1 | cut -d: -f1 | awk '{print $1 - 1}'; }
sel() { u_tmux capture-pane -p -e -t ui | sed '1d;$d' | grep -E $'\e\\[([0-9;]*;)?7[;m]' | sed 's/\x1b\[[0-9;]*m//g'; }

u_start 120 40 "$NVS_BIN" --no-settings --theme mono --results "$T_TMP/res"
u_wait 'targets marked: 0' 10
[ "$(u_tmux display -p -t ui '#{mouse_standard_flag}#{mouse_any_flag}')" != 00 ] ||
	fail "the console did not enable mouse reporting"
# the devices come after the first frame (docs/console.md, "Draw first,
# scan after"): the row is waited for, not read once (TSan's CI run read
# the screen before the scan had listed it)
u_wait "^ +$name " 20
y=$(row_of "^ +$name ")
[ -n "$y" ] || fail "no row for $name"
click "$y" 4
sleep 0.3
u_keys Space
u_wait 'targets marked: 1' 5
u_screen | grep -Eq "^\\* +$name " || { u_screen >&2; fail "Space marked another row than the clicked one"; }
ok "a click selects the Devices row"

# a click in the form: focuses it on the clicked field; Enter edits that one
y=$(row_of 'runtime +60s')
col_of() { local l; l=$(u_screen | sed -n "$(($1 + 1))p"); l=${l%%"$2"*}; echo ${#l}; } # characters
x=$(col_of "$y" runtime)
click "$y" "$x"
u_wait '\[Custom workload\]' 5
u_keys Enter
u_wait 'runtime = 60s' 5
u_keys Escape
sleep 0.3
ok "a click focuses the form on that field"

# the wheel over Presets focuses it and moves its cursor 3 rows down
y=$(row_of '^  128k-seqread ')
wheel_down "$y" 3
u_wait '\[Presets\]' 5
for _ in $(seq 50); do sel | grep -q '^W 4k-randwrite ' && break; sleep 0.1; done # once drawn
sel | grep -q '^W 4k-randwrite ' || { sel >&2; fail "wheel did not move the Presets cursor to the 4th entry"; }
ok "the wheel moves a list"

# a key-bar button: F1Help opens the help (generated from the key table)
click 39 1
u_wait 'keys of the (setup|live) screen' 5
u_screen | grep -q 'Devices: mark a target' || fail "setup keys missing from the help"
click 10 10  # a click closes the help, as any key does
u_gone 'keys of the (setup|live) screen' 5
x=$(col_of 39 qQuit)
click 39 "$x"
u_restored
ok "key-bar buttons run their actions"

# vt100: no mouse mode; the same bytes must not be taken as keys (x+33 = 'q'
# would quit, a button byte ' ' would mark a row)
u_start 100 30 env TERM=vt100 LANG=C LC_ALL=C "$NVS_BIN" --no-settings --results "$T_TMP/res2"
u_wait 'targets marked: 0' 10
click 5 $((0x71 - 33))
click 4 $((0x71 - 33))
sleep 0.5
u_screen | grep -q 'NVS-EXIT' && fail "mouse bytes were taken as keys (quit)"
u_screen | grep -q 'targets marked: 0' || fail "mouse bytes were taken as keys (marked)"
u_keys q
u_restored
ok "no mouse terminal: reports are never letters"
