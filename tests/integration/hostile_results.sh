#!/bin/bash
# hostile_results.sh - results read back (state.json, steady.json, CSV tables
# and samples, fio-layout JSON) with every number replaced by 1e308, -1e308
# or 1e999 (which cJSON reads as infinity): `report`, `steady` and `plan
# --resume` end with a message or a page, never a crash, and under `make
# asan` never an undefined-behaviour report (issue 8, item 14).
. "${NVS_TOP:-.}/tests/lib.sh"
B=$NVS_BIN
plan=$T_TMP/h.ini
cat >"$plan" <<'INI'
[plan]
runtime = 200ms
[global]
interval = 100ms
size = 16m
[precondition 4k-randwrite]
rw = randwrite
round = 200ms
max_rounds = 3
window = 2
range = 1000
slope = 1000
[measure 4k-randread]
rw = randread
iodepth = 1,2
[rate-curve r]
rw = randread
iodepth = 2
points = 50,100
[grid g]
rw = randread
threads = 1,2
iodepth = 1,2
runtime = 100ms
[matrix m]
bs_list = 4k,8k
mixes = 100,0
iodepth = 2
runtime = 100ms
INI
truncate -s 16M "$T_TMP/d.img"
d=$T_TMP/res
"$B" plan "$plan" --target "$T_TMP/d.img" --results "$d" --quiet \
	--yes-destroy-data="$T_TMP/d.img" >"$T_TMP/log" 2>&1 || fail "plan: $(cat "$T_TMP/log")"
python3 - "$d" <<'PY' || fail "mangling failed"
import glob, json, re, sys
big = ['1e308', '-1e308', '1e999', '4294967297', '18446744073709551616']
n = [0]
def pick():
    n[0] += 1
    return big[n[0] % len(big)]
def walk(o):
    if isinstance(o, dict):
        for k, v in o.items():
            if isinstance(v, (int, float)) and not isinstance(v, bool): o[k] = ('@' + pick())
            else: walk(v)
    elif isinstance(o, list):
        for i, v in enumerate(o):
            if isinstance(v, (int, float)) and not isinstance(v, bool): o[i] = ('@' + pick())
            else: walk(v)
for p in glob.glob(sys.argv[1] + '/**/*.json', recursive=True):
    d = json.load(open(p))
    walk(d)
    open(p, 'w').write(re.sub(r'"@([^"]*)"', r'\1', json.dumps(d)))
for p in glob.glob(sys.argv[1] + '/**/*.csv', recursive=True):
    lines = open(p).read().splitlines()
    out = lines[:1] + [','.join(pick() if re.match(r'^-?[0-9.]+$', f) else f
                                for f in l.split(',')) for l in lines[1:]]
    open(p, 'w').write('\n'.join(out) + '\n')
PY
check() { # check WHAT CMD...: no crash, no sanitizer report
	local what=$1 rc
	shift
	"$@" >"$T_TMP/o" 2>"$T_TMP/e"
	rc=$?
	[ $rc -lt 128 ] && [ $rc -ne 1 -o "$what" = report ] ||
		fail "$what: exit $rc: $(head -c 600 "$T_TMP/e")"
	grep -q 'runtime error\|Sanitizer' "$T_TMP/e" && fail "$what: $(head -c 600 "$T_TMP/e")"
	return 0
}
check report "$B" report "$d" -o "$T_TMP/r.html"
for f in "$d"/*/*.csv; do
	check "steady $f" "$B" steady "$f" --json
	grep -q 'nan\|inf' "$T_TMP/o" && fail "steady --json $f: $(cat "$T_TMP/o")"
	check "steady $f" "$B" steady "$f" --round=1
done
check resume "$B" plan --resume "$d" --dry-run
ok "hostile numbers in results: no crash, no UB, JSON without nan/inf"

# the console's replay of the same directory, and of a console results
# directory whose samples, health log and target list are hostile
command -v tmux >/dev/null || exit 0
. "$NVS_TOP/tests/ui/tmux.inc"
c=$T_TMP/console
mkdir -p "$c"
{
	echo "time_s,read_iops,write_iops,read_mbps,write_mbps,read_lat_mean_us,write_lat_mean_us,read_lat_p99_us,write_lat_p99_us,read_lat_max_us,write_lat_max_us,errors,cpu_pct,ramp"
	for i in 1 2 3 4 5 6; do
		echo "$i.000,1e308,1e308,1e308,1e308,1e308,1e308,1e308,1e308,1e308,1e308,1e19,1e308,0"
	done
	echo "1e308,1,1,1,1,1,1,1,1,1,1,0,1,0"
} >"$c/samples.csv"
cp "$c/samples.csv" "$c/target-0.csv"
printf '0 /dev/x\n4294967297 /dev/y\n' >"$c/targets.txt"
printf 't_s,temp_c,throttle\n1,1e308,1e308\n1e308,nan,inf\n2,,1e999\n' >"$c/health.csv"
for dir in "$d" "$c"; do
	u_start 120 40 "$B" replay "$dir" --speed 64
	sleep 2
	u_screen | grep -q 'NVS-EXIT' && fail "replay $dir ended: $(u_screen | tail -5)"
	u_keys q
	u_restored
	u_screen | grep -q 'NVS-EXIT 0' || fail "replay $dir: $(u_screen | tail -5)"
done
ok "console replays of hostile results: no crash, no UB"
