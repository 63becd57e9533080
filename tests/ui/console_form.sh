#!/bin/bash
# console_form.sh - the custom workload form: bssplit, a queue-depth list
# (one pool per depth: the per-QD table fills row by row), runtime; bad
# values are refused in place; zoom and scroll of the time axis.
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
t_loop 128M
u_start 120 40 "$NVS_BIN" --target "$LOOP" --results "$T_TMP/res"
u_wait 'Custom workload' 10
u_keys Tab Tab           # Devices -> Presets -> Custom workload
u_wait '\[Custom workload\]' 5

field() { # field N VALUE: edit the Nth field (0 = rw)
	u_keys Home
	local i
	for ((i = 0; i < $1; i++)); do u_keys Down; done
	u_keys Enter C-u
	u_text "$2"
	u_keys Enter
}
field 3 "1,4,nope"
u_wait 'iodepth \(list\):' 5   # refused, with the reason
u_screen | grep -q 'iodepth (list)  32' || fail "a bad value replaced the field"
ok "bad value refused"
field 2 "4k/50:64k/50"
field 3 "1,4"
field 5 "2s"
u_screen | grep -q 'bs / bssplit    4k/50:64k/50' || fail "bssplit not taken"
u_screen | grep -q 'iodepth (list)  1,4' || fail "iodepth list not taken"
u_keys r
u_wait 'RUNNING custom QD1 1/2' 10
u_wait 'Per queue depth' 5
u_wait 'RUNNING custom QD4 2/2' 10
u_wait 'DONE custom' 10
S=$(u_screen)
echo "$S" | grep -Eq '^ +1 +[1-9][0-9.]*k? +[0-9]+ ' || fail "no QD1 row"
echo "$S" | grep -Eq '^ +4 +[1-9][0-9.]*k? +[0-9]+ ' || fail "no QD4 row"
ok "QD sweep from the form, per-QD table"

# the whole run is 0..4 s; zoom to 10 s minimum shows 0..10 s
u_keys 0
u_wait ' 4s' 5
u_keys +
u_wait ' 10s' 5
u_keys 0
u_wait ' 4s' 5
ok "zoom"
u_keys q
u_restored

# the replay shows the same per-QD table, read from summary.json
u_start 120 40 "$NVS_BIN" replay "$T_TMP/res"
u_wait 'from summary.json' 10
S=$(u_screen)
echo "$S" | grep -Eq '^ +1 +[1-9][0-9.]*k? +[0-9]+ ' || fail "replay: no QD1 row"
echo "$S" | grep -Eq '^ +4 +[1-9][0-9.]*k? +[0-9]+ ' || fail "replay: no QD4 row"
u_keys q
u_restored
ok "replay per-QD table"
