#!/bin/bash
# console_mixed.sh - a mixed workload (randrw): the Numbers pane shows the
# read and the write latency apart (mean and p99 of each direction), not
# only their combination; a read-only run keeps the combined rows.
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
F=$T_TMP/mixed.img
truncate -s 64M "$F"
u_start 120 40 "$NVS_BIN" --no-settings --target "$F" --rw=randrw --rwmixread=70 --direct=0 \
	--size=64m --runtime=3s --time_based --results "$T_TMP/res"
u_wait 'DONE' 20
S=$(u_screen)
for row in 'mean R' 'p99 R'; do
	echo "$S" | grep -Eq "$row +[0-9.]+(µs|us|ms) +[0-9.]+(µs|us|ms)" ||
		{ echo "$S" >&2; fail "no '$row' row with now and average"; }
done
[ "$(echo "$S" | grep -Ec '^.{50,}  +W +[0-9.]+(µs|us|ms) +[0-9.]+(µs|us|ms)')" -ge 2 ] ||
	{ echo "$S" >&2; fail "no write latency rows (mean W, p99 W)"; }
echo "$S" | grep -q 'lat mean' && fail "combined latency row still shown for a mixed run"
u_keys q
u_restored
ok "mixed workload: read and write latency apart"

u_start 120 40 "$NVS_BIN" --no-settings --target "$F" --rw=randread --direct=0 \
	--size=64m --runtime=2s --time_based --results "$T_TMP/res2"
u_wait 'DONE' 20
u_screen | grep -q 'lat mean' || fail "a read-only run lost its latency row"
u_keys q
u_restored
ok "read-only run: combined rows"
