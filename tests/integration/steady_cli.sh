#!/bin/bash
# steady_cli.sh - `nvscope steady` on constructed series with known answers:
# fio write_iops_log files and nvscope's per-interval CSV; --json exactly as
# the issue specifies; --round averaging; bad input.
. "${NVS_TOP:-.}/tests/lib.sh"
B=$NVS_BIN
d=$T_TMP

# fio log: msec, value, ddir, bs, offset
fio_log() { # values... -> one line per second
	local t=0 v
	for v in "$@"; do t=$((t + 1000)); echo "$t, $v, 1, 4096, 0"; done
}

fio_log 100 100 100 100 100 100 >"$d/flat.log"
out=$("$B" steady --json "$d/flat.log") || fail "flat: exit $?"
[ "$out" = '{"attained": true, "round": 5, "window_avg": 100, "range_pct": 0, "slope_pct": 0}' ] ||
	fail "flat: $out"
ok "flat series: steady at round 5"

fio_log 100 110 121 133 146 161 177 195 214 >"$d/trend.log"
out=$("$B" steady --json "$d/trend.log") || fail "trend: exit $?"
case $out in '{"attained": false, "round": null, "window_avg": '*) ;; *) fail "trend: $out" ;; esac
ok "trending series: not attained"

# fresh-out-of-box high, then the drop: first all-low window ends at round 8
fio_log 400 400 400 100 101 99 100 100 100 101 >"$d/step.log"
out=$("$B" steady --json "$d/step.log")
case $out in '{"attained": true, "round": 8, "window_avg": 100,'*) ;; *) fail "step: $out" ;; esac
ok "step change: round 8"

# boundaries: range exactly 20 % passes, a hair more fails
fio_log 90 110 100 100 100 >"$d/r20.log"
fio_log 90 110.05 100 100 100 >"$d/r21.log"
"$B" steady --json "$d/r20.log" | grep -q '"attained": true' || fail "range 20% boundary"
"$B" steady --json "$d/r21.log" | grep -q '"attained": false' || fail "range > 20%"
# slope: +2.5/round around 100 = 10 % excursion passes; --slope 9 fails it
fio_log 95 97.5 100 102.5 105 >"$d/s10.log"
"$B" steady --json "$d/s10.log" | grep -q '"attained": true' || fail "slope 10% boundary"
"$B" steady --json --slope 9 "$d/s10.log" | grep -q '"attained": false' || fail "--slope 9"
ok "boundaries of both criteria"

# too short, and --window
fio_log 100 100 100 >"$d/short.log"
out=$("$B" steady --json "$d/short.log")
[ "$out" = '{"attained": false, "round": null, "window_avg": null, "range_pct": null, "slope_pct": null}' ] ||
	fail "short: $out"
"$B" steady --json --window 3 "$d/short.log" | grep -q '"round": 3' || fail "--window 3"
ok "too short / --window"

# --round: 2 samples per round (1 s each) -> rounds of 2 s; two lines of the
# same msec (read and write) are summed
: >"$d/rw.log"
for i in $(seq 1 10); do
	echo "$((i * 1000)), $((i % 2 ? 60 : 40)), 0, 4096, 0" >>"$d/rw.log"
	echo "$((i * 1000)), 50, 1, 4096, 0" >>"$d/rw.log"
done
out=$("$B" steady --json --round 2 "$d/rw.log")
[ "$out" = '{"attained": true, "round": 5, "window_avg": 100, "range_pct": 0, "slope_pct": 0}' ] ||
	fail "--round 2: $out"
"$B" steady --json --ddir 1 "$d/rw.log" | grep -q '"window_avg": 50' || fail "--ddir 1"
ok "--round averaging and --ddir"

# text output lists each window and the first steady one
"$B" steady "$d/step.log" >"$d/text" || fail "text exit"
grep -q "steady state attained at round 8" "$d/text" || fail "text verdict"
[ "$(grep -c 'not steady' "$d/text")" -eq 3 ] || fail "text: windows 5..7 not steady"

# nvscope's per-interval CSV (ramp rows are skipped)
{
	echo "time_s,read_iops,write_iops,read_mbps,write_mbps,read_lat_mean_us,write_lat_mean_us,read_lat_p99_us,write_lat_p99_us,read_lat_max_us,write_lat_max_us,errors,cpu_pct,ramp"
	echo "1.000,0,9999,0,1,0,10,0,20,0,30,0,5,1"
	for i in 2 3 4 5 6 7; do echo "$i.000,0,5000,0,20.48,0,10,0,20,0,30,0,5,0"; done
} >"$d/samples.csv"
out=$("$B" steady --json "$d/samples.csv") || fail "csv: exit $?"
[ "$out" = '{"attained": true, "round": 5, "window_avg": 5000, "range_pct": 0, "slope_pct": 0}' ] ||
	fail "csv: $out"
"$B" steady --json --metric read_iops "$d/samples.csv" | grep -q '"attained": false' ||
	fail "csv --metric read_iops (all zero) must not be steady"
# fio-style alternative
"$B" steady --json --ss iops_slope:0.3% "$d/flat.log" | grep -q '"attained": true' ||
	fail "--ss iops_slope"
ok "nvscope CSV, --metric, --ss"

# --round cuts rounds the console's way (stats/rounds.c): intervals of
# unequal length weigh by their length, as in the console's steady view
{
	echo "time_s,read_iops,write_iops,read_mbps,write_mbps,read_lat_mean_us,write_lat_mean_us,read_lat_p99_us,write_lat_p99_us,read_lat_max_us,write_lat_max_us,errors,cpu_pct,ramp"
	for k in 0 1 2 3 4; do
		echo "$((2 * k)).500,1000,0,4,0,10,0,20,0,30,0,0,5,0"
		echo "$((2 * k + 2)).000,2000,0,8,0,10,0,20,0,30,0,0,5,0"
	done
} >"$d/uneven.csv"
out=$("$B" steady --json --round 2 "$d/uneven.csv") || fail "uneven: exit $?"
[ "$out" = '{"attained": true, "round": 5, "window_avg": 1750, "range_pct": 0, "slope_pct": 0}' ] ||
	fail "--round 2 of 0.5 s + 1.5 s intervals: time-weighted 1750 expected: $out"
ok "--round: one way with the console (time-weighted)"

# a plan's rounds.csv (one row per round, the tracked value)
{
	echo "round,t_start_s,t_end_s,value,iops"
	for i in 1 2 3 4 5 6; do echo "$i,$((i - 1)),$i,$((i < 3 ? 900 : 500)),0"; done
} >"$d/rounds.csv"
out=$("$B" steady --json --window 3 "$d/rounds.csv") || fail "rounds.csv: exit $?"
[ "$out" = '{"attained": true, "round": 5, "window_avg": 500, "range_pct": 0, "slope_pct": 0}' ] ||
	fail "rounds.csv: $out"
ok "plan rounds.csv"

# bad input: exit 2, one message naming file:line
printf '1000, 100, 1, 4096\nbogus\n' >"$d/bad.log"
"$B" steady "$d/bad.log" 2>"$d/err" && fail "bad log accepted"
[ $? -eq 2 ] || fail "bad log: exit status"
grep -q "bad.log:2:" "$d/err" || fail "bad log message: $(cat "$d/err")"
"$B" steady "$d/missing.log" 2>/dev/null; [ $? -eq 2 ] || fail "missing file: exit status"
"$B" steady --window 1 "$d/flat.log" 2>/dev/null; [ $? -eq 2 ] || fail "--window 1"
"$B" steady --range abc "$d/flat.log" 2>/dev/null; [ $? -eq 2 ] || fail "--range abc"
"$B" steady --ss lat:1 "$d/flat.log" 2>/dev/null; [ $? -eq 2 ] || fail "--ss lat"
ok "bad input refused with exit 2"
