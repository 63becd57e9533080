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
