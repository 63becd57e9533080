#!/bin/bash
# console_loop.sh - the console end to end on a loop device: pick the target
# in the Devices pane, launch the 4k-randread preset from the Presets pane,
# see live IOPS, strips and the CPU pane; resize to 80x24 and 200x60 (and
# below the minimum); toggle log scale and theme; help; quit with q, y;
# terminal restored; results directory written.
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
t_loop 256M
RES=$T_TMP/results
u_start 120 40 "$NVS_BIN" --results "$RES"
u_wait 'Devices' 10
u_wait 'Presets' 5

# select the target: add/mark it by path (the row exists: it gets marked)
u_keys a
u_wait 'Add target' 5
u_text "$LOOP"
u_keys Enter
u_wait "added and marked $LOOP" 5
u_screen | grep -Eq "^\* +$(basename "$LOOP") " || fail "target row not marked"
ok "target $LOOP marked"

# presets pane, jump to 4k-randread ('4'), run
u_keys Tab 4 Enter
u_wait 'RUNNING 4k-randread' 10
u_wait 'IOPS \((linear|log)\) +now [1-9]' 15
# each part waited for (a screen read once may be mid-redraw)
u_wait 'IOPS R +[1-9][0-9.]*[kM]? ' 10    # read IOPS in the numbers pane
u_waitp '[\x{2801}-\x{28ff}]' 10           # braille dots in the strips
u_wait 'Latency' 10                       # the latency strip
u_wait 'CPU' 10                           # the CPU pane
# its per-core bars: the CPU pane is right of the strips when the terminal
# is wide, so a bar's row starts with the strip's braille dots (CI run L)
u_wait '(^| )(all|0) \[\|' 10
ok "live view: IOPS, strips, CPU"

# resizes
u_resize 80 24
u_wait 'IOPS R' 5
u_wait 'Latency' 10 # panes redraw one frame after another on a slow (sanitizer) build
u_wait 'CPU' 5
S=$(u_screen)
echo "$S" | grep -q 'Latency' || fail "80x24: no latency strip"
echo "$S" | grep -q 'CPU' || fail "80x24: no CPU pane"
echo "$S" | head -1 | grep -q '^ nvscope | RUNNING' || fail "80x24: no title bar"
[ "$(echo "$S" | wc -l)" -le 24 ] || fail "80x24: too many lines"
u_wait 'F1Help .*qQuit' 10   # the status bar, once the start message is gone
ok "80x24"
u_resize 200 60
u_wait 'IOPS R' 5
u_wait 'CPU' 10 || fail "200x60: no CPU pane"
ok "200x60"
u_resize 50 15
u_wait 'Terminal too small' 5
u_resize 120 40
u_wait 'IOPS R' 5
ok "below the minimum: message, then back"

# log scale and theme
u_keys l
u_wait 'IOPS \(log\)' 5
u_wait 'Latency \(log\)' 5
u_keys l
u_wait 'IOPS \(linear\)' 5
u_tmux capture-pane -e -p -t ui | grep -q '38;5;' || fail "default theme: no 256-colour output"
u_keys t
u_wait '\| light (lin|log)' 5
u_keys t
u_wait '\| mono (lin|log)' 5
u_gone '\[(3|4)8;5;|\[3[0-7]m' 5 -e # no colour left once mono has redrawn
ok "log toggle and theme cycle"

# help overlay, any key closes it
u_keys '?'
u_wait 'keys of the (setup|live) screen' 5
u_keys x
u_gone 'keys of the (setup|live) screen' 5 # any key closes the help
ok "help"

# quit while running: asks, y confirms
u_keys q
u_wait 'stop it and quit\? \(y/n\)' 5
u_keys y
u_restored
u_screen | grep -q 'NVS-EXIT 0' || fail "exit status not 0"
u_screen | grep -q "results in $RES" || fail "no results line"
[ -s "$RES/samples.csv" ] || fail "no samples.csv"
[ "$(wc -l <"$RES/samples.csv")" -ge 3 ] || fail "samples.csv has too few rows"
[ -s "$RES/summary.json" ] || fail "no summary.json"
grep -q '"iops"' "$RES/summary.json" || fail "summary.json without iops"
grep -q 'stopped by the user (quit)' "$RES/events.log" || fail "events.log lacks the stop"
ok "quit, terminal restored, results written"
