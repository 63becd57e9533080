#!/bin/bash
# fio's ignore_error against Debian's fio on a loop device.  The error every
# I/O gets: polled completions (hipri) on a loop device, which has no poll
# queues: EOPNOTSUPP (95, a number: fio's names stop before it).  With 95
# in the reads' list both run to the end, count every error and exit 0;
# a list without it (or only the writes' list) fails the job, exit 1.
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "fio not installed"
t_loop 16M; dev=$LOOP
# "exit-status error errors" of a run: fio's total_err, nvscope's read errors
run() { # $1 = fio|nvscope, $2 = option line
	printf '[j]\nfilename=%s\ndirect=1\nbs=4k\nsize=64k\nrw=read\nioengine=io_uring\nhipri\n%s\n' \
		"$dev" "$2" >"$T_TMP/j.fio"
	if [ "$1" = fio ]; then
		fio --output-format=json "$T_TMP/j.fio" >"$T_TMP/o.json" 2>/dev/null
	else
		"$NVS_BIN" run --output-format=json "$T_TMP/j.fio" >"$T_TMP/o.json" 2>/dev/null
	fi
	echo "$? $(python3 -c "
import json; t = open('$T_TMP/o.json').read(); d = json.loads(t[t.index('{'):]); j = d['jobs'][0]
print(j['error'], j.get('total_err', j['read'].get('errors', 0)))")"
}
f=$(run fio "ignore_error=95")
case $f in "0 95 16") ;; *) skip "hipri on a loop device does not fail with EOPNOTSUPP here (fio: $f)" ;; esac
n=$(run nvscope "ignore_error=95")
[ "$n" = "$f" ] || fail "ignore_error=95: nvscope '$n', fio '$f' (exit error errors)"
ok "ignore_error=95: every I/O's EOPNOTSUPP counted, the job runs to its end: '$n' as fio"
for opt in "ignore_error=EIO:EINVAL" "ignore_error=,95" "continue_on_error=none"; do
	f=$(run fio "$opt")
	n=$(run nvscope "$opt")
	[ "${f%% *}" = 1 ] || fail "fio $opt: '$f'"
	# fio counts no error of a job that failed on it (total_err 0)
	[ "$(cut -d' ' -f1,2 <<<"$n")" = "$(cut -d' ' -f1,2 <<<"$f")" ] ||
		fail "$opt: nvscope '$n', fio '$f' (exit error errors)"
	ok "$opt: the first EOPNOTSUPP fails the job: '$n' as fio"
done
