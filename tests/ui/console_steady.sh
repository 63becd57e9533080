#!/bin/bash
# console_steady.sh - live steady state in the console: a rate-limited read
# workload on a file (a stable target) in 1-second rounds reaches steady
# state; the screen shows "steady at round N, T s", both criteria against
# their limits and the window marker under the IOPS strip; r cycles the
# round length; bad --round/--window values are refused with exit 2.
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
F=$T_TMP/steady.img
truncate -s 64M "$F" || fail "truncate"
RES=$T_TMP/results

# bad values: one line, exit 2, before the screen opens
for bad in "--round 0" "--round x" "--window 1" "--range -1" "--slope abc"; do
	# shellcheck disable=SC2086
	out=$("$NVS_BIN" $bad 2>&1 </dev/null)
	rc=$?
	[ $rc -eq 2 ] || fail "'$bad' exited $rc, not 2: $out"
	[ "$(echo "$out" | wc -l)" -eq 1 ] || fail "'$bad' printed more than one line: $out"
done
ok "bad steady-state options refused"

# rate-limited: the IOPS per round are flat, so steady state is certain
u_start 140 40 "$NVS_BIN" --target "$F" --rw=randread --bs=4k --iodepth=4 \
	--rate_iops=2000 --time_based --runtime 10 --round 1 --window 4 --results "$RES"
u_wait 'RUNNING' 10
u_wait 'steady state: [0-9]/4 rounds|not steady|steady at round' 10
u_wait 'steady at round ([4-9]|10), ([4-9]|10) s' 15
S=$(u_screen)
echo "$S" | grep -Eq 'range [0-9.]+% <= 20%' || fail "no range criterion"
echo "$S" | grep -Eq 'slope [0-9.]+% <= 10%' || fail "no slope criterion"
echo "$S" | grep -q '\[1 s rounds, window 4\]' || fail "no round/window legend"
echo "$S" | grep -Eq '^ *rnd .*├.*window.*┤' || fail "no window marker row"
ok "steady at round N with both criteria and the window marked"

# r: next round length (1 -> 10 s): fewer rounds than the window now
u_keys r
u_wait 'rounds of 10 s' 5
u_wait 'steady state: [0-1]/4 rounds .*\[10 s rounds, window 4\]' 5
ok "r cycles the round length"
u_wait 'DONE' 15
u_keys q
u_restored

# replay: the same display from the recording
u_start 140 40 "$NVS_BIN" replay "$RES" --round 1 --window 4 --speed 64
u_wait 'steady at round ([4-9]|10), ([4-9]|10) s' 15
n=$(u_screen | grep -Eo 'steady at round [0-9]+' | head -1 | grep -Eo '[0-9]+$')
u_keys q
u_restored
ok "replay shows the steady state too"

# `nvscope steady --round` cuts the same samples the console's way: same round
cli=$("$NVS_BIN" steady --json --round 1 --window 4 "$RES/samples.csv")
echo "$cli" | grep -q "\"attained\": true, \"round\": $n," ||
	fail "console: steady at round $n; nvscope steady --round 1: $cli"
ok "nvscope steady --round agrees with the console (round $n)"

# a plan's precondition step brings its own rounds (rounds.csv) and rule
# (steady.json): falling for 3 rounds, then flat - steady at round 6 with a
# window of 3 (read from steady.json, not the default 5)
P=$T_TMP/03-precondition-x
mkdir -p "$P"
{
	echo "time_s,read_iops,write_iops,read_mbps,write_mbps,read_lat_mean_us,write_lat_mean_us,read_lat_p99_us,write_lat_p99_us,read_lat_max_us,write_lat_max_us,errors,cpu_pct,ramp"
	for i in $(seq 1 8); do
		v=$((i <= 3 ? 9000 - 2000 * i : 1000 + (i % 2) * 10))
		echo "$((2 * i - 1)).000,0,$v,0,4,0,100,0,200,0,300,0,5,0"
		echo "$((2 * i)).000,0,$v,0,4,0,100,0,200,0,300,0,5,0"
	done
} >"$P/samples.csv"
{
	echo "round,t_start_s,t_end_s,value,iops"
	for i in $(seq 1 8); do
		v=$((i <= 3 ? 9000 - 2000 * i : 1000 + (i % 2) * 10))
		echo "$i,$((2 * i - 2)).000,$((2 * i)).000,$v,$v"
	done
} >"$P/rounds.csv"
echo '{"rule": "snia", "window": 3, "range_limit_pct": 20, "slope_limit_pct": 10}' >"$P/steady.json"
u_start 140 40 "$NVS_BIN" replay "$P" --speed 64
u_wait 'steady at round 6, 12 s' 15
u_screen | grep -q '\[plan rounds, window 3\]' || fail "plan rounds not used"
u_keys q
u_restored
ok "replay of a plan step: its rounds and rule"

# leaving steady state: flat for 6 s, then a collapse - the verdict turns
# into the warning and the status bar says so (1 s rounds, window 3)
D=$T_TMP/drop
mkdir -p "$D"
{
	echo "time_s,read_iops,write_iops,read_mbps,write_mbps,read_lat_mean_us,write_lat_mean_us,read_lat_p99_us,write_lat_p99_us,read_lat_max_us,write_lat_max_us,errors,cpu_pct,ramp"
	for i in $(seq 1 9); do
		v=$((i <= 6 ? 1000 : 300))
		echo "$i.000,$v,0,4,0,100,0,200,0,300,0,0,5,0"
	done
} >"$D/samples.csv"
u_start 140 40 "$NVS_BIN" replay "$D" --round 1 --window 3 --speed 2
u_wait 'steady at round 3, 3 s' 10
u_wait 'LEFT STEADY STATE \(was steady at round 3, 3 s\) +range [0-9.]+% > 20%' 15
u_screen | grep -q 'WARNING: the drive left steady state' || fail "no warning in the status bar"
u_keys q
u_restored
ok "leaving steady state is flagged"
