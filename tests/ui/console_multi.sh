#!/bin/bash
# console_multi.sh - several targets at once: the aggregate strip plus one
# small strip per target, live and replayed (target-N.csv, targets.txt);
# the replay at its end shows the whole run's p99 and p99.99.
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
RES=$T_TMP/multi
u_start 120 40 "$NVS_BIN" --target "$T_TMP/alpha.img" --target "$T_TMP/beta.img" \
	--target "$T_TMP/gamma.img" --size=16m --direct=0 --rw=randread --iodepth=4 \
	--runtime=3 --time_based --results "$RES"
u_wait 'RUNNING custom' 10
u_wait 'Per target IOPS' 5
for n in alpha beta gamma; do
	u_wait "$n\\.img [1-9]" 10
done
u_screen | grep -q '3 targets' || fail "target count missing"
ok "live per-target strips"
u_wait 'DONE custom' 15
u_keys q
u_restored
for t in 0 1 2; do [ "$(wc -l <"$RES/target-$t.csv")" -ge 2 ] || fail "target-$t.csv empty"; done
grep -q "^2 .*gamma.img$" "$RES/targets.txt" || fail "targets.txt"
ok "per-target series recorded"

u_start 120 40 "$NVS_BIN" replay "$RES"
u_wait '(REPLAY|PAUSED) multi' 10
u_keys End
u_wait 'PAUSED' 5
S=$(u_screen)
for n in alpha beta gamma; do
	echo "$S" | grep -Eq "$n\\.img [1-9]" || fail "no replayed strip for $n"
done
# at the end of the play the Numbers pane's averages are the whole run's,
# p99 and p99.99 too (summary.json's, as the live run's full histograms)
for row in 'lat p99' 'p99.99'; do
	echo "$S" | grep -Eq "$row +[^ ]+ +[0-9.]+[mµ]?s( |$)" || { echo "$S" >&2; fail "replay at its end: no whole-run $row"; }
done
u_keys q
u_restored
ok "replayed per-target strips"
