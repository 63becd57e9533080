#!/bin/bash
# console_pin.sh - a workload started from the console pins its targets by
# identity from before their check to the run's end (docs/safety.md, "a
# confirmed target is pinned by identity"): another file renamed over the
# target between two steps of a QD sweep is refused at the next step's
# open, never written; the run says why.
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
F=$T_TMP/target.img
G=$T_TMP/other.img
truncate -s 16M "$F" "$G"
printf 'keep me' | dd of="$G" conv=notrunc status=none
sum0=$(md5sum <"$G")
u_start 120 40 "$NVS_BIN" --no-settings --target "$F" --rw=randwrite --bs=4k \
	--iodepth=1,2 --runtime=2 --results "$T_TMP/res"
u_wait 'RUNNING' 10
u_wait 'QD1 1/2' 5
mv -f "$G" "$F" # another file where the target was, between the two steps
u_wait 'FAILED|DONE' 20
u_wait 'not the (file|device) that was confirmed' 5
[ "$(md5sum <"$F")" = "$sum0" ] || fail "the file renamed over the target was written"
u_keys q
u_restored
ok "a file renamed over the console's target between two steps is refused, not written"
