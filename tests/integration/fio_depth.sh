#!/bin/bash
# fio's iodepth_level / iodepth_submit / iodepth_complete tables, measured
# by the worker as fio's io_u.c counts them, against Debian's fio on one
# loop device (they were written as zeros before).
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "fio not installed"
t_loop 64M; dev=$LOOP
tables() { # $1 = JSON file: "LEVEL SUBMIT COMPLETE" as key:pct lists
	python3 -c "
import json, sys; t = open('$1').read(); j = json.loads(t[t.index('{'):])['jobs'][0]
for k in ('iodepth_level', 'iodepth_submit', 'iodepth_complete'):
    o = j[k]; s = sum(o.values())
    assert abs(s - 100) < 1, (k, o)  # shares of all I/Os / calls
    print(','.join('%s:%.0f' % (a, b) for a, b in o.items() if b >= 1), end=' ')
print()"
}
for opts in "ioengine=libaio iodepth=4" "ioengine=libaio iodepth=32" "ioengine=psync iodepth=8"; do
	printf '[j]\nfilename=%s\nrw=randread\ndirect=1\nruntime=1\ntime_based\n' "$dev" >"$T_TMP/d.fio"
	for o in $opts; do echo "$o" >>"$T_TMP/d.fio"; done
	fio --output-format=json "$T_TMP/d.fio" >"$T_TMP/f.json" 2>/dev/null || fail "fio $opts"
	"$NVS_BIN" run --output-format=json "$T_TMP/d.fio" >"$T_TMP/n.json" 2>/dev/null || fail "nvscope $opts"
	f=$(tables "$T_TMP/f.json") || fail "fio's tables $opts"
	n=$(tables "$T_TMP/n.json") || fail "nvscope's tables $opts: $(grep -A9 iodepth_level "$T_TMP/n.json")"
	# the queue depth fio keeps is the one nvscope keeps (>= 90% of the I/Os)
	qd=$(echo "$opts" | sed -n 's/.*iodepth=\([0-9]*\).*/\1/p')
	case $opts in *psync*) qd=1 ;; esac
	python3 -c "
import json
for p in ('$T_TMP/f.json', '$T_TMP/n.json'):
    t = open(p).read(); l = json.loads(t[t.index('{'):])['jobs'][0]['iodepth_level']
    assert l['$qd'] >= 90, (p, l)
" || fail "$opts: depth $qd for 90% of the I/Os: fio $f / nvscope $n"
	ok "$opts: fio $f / nvscope $n"
done
