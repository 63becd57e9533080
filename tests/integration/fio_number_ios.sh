#!/bin/bash
# fio's number_ios (backend.c exceeds_number_ios) side by side with Debian's
# fio on one loop device: a job ends after N I/Os per job (x loops), also a
# time_based one, and never does more than its size allows; bad counts are
# refused at their line.
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "fio not installed"
t_loop 64M; dev=$LOOP
ios() { # $1 = JSON file: read+write I/Os of all jobs (fio lists numjobs
	# clones one by one, nvscope as one job)
	python3 -c "
import json; t = open('$1').read(); d = json.loads(t[t.index('{'):])
print(sum(j['read']['total_ios'] + j['write']['total_ios'] for j in d['jobs']))"
}
both() { # $1 = expected I/Os (both tools), rest: option lines
	local want=$1
	shift
	{ printf '[j]\nfilename=%s\nbs=4k\ndirect=1\nioengine=libaio\niodepth=8\n' "$dev"; printf '%s\n' "$@"; } >"$T_TMP/j.fio"
	fio --output-format=json "$T_TMP/j.fio" >"$T_TMP/f.json" 2>"$T_TMP/err" || fail "fio $*: $(cat "$T_TMP/err")"
	"$NVS_BIN" run --output-format=json "$T_TMP/j.fio" >"$T_TMP/n.json" 2>"$T_TMP/err" ||
		fail "nvscope $*: $(cat "$T_TMP/err")"
	f=$(ios "$T_TMP/f.json")
	n=$(ios "$T_TMP/n.json")
	[ "$f" = "$want" ] || fail "$*: fio did $f I/Os, expected $want (the test's model of fio is wrong)"
	[ "$n" = "$f" ] || fail "$*: nvscope did $n I/Os, fio $f"
}
both 1000 rw=read number_ios=1000
both 500 rw=randrw number_ios=500
both 1200 rw=read number_ios=600 numjobs=2   # per job: 600 each
both 256 rw=read number_ios=100000 size=1m      # size ends it first
ok "number_ios: 1000, randrw, per job with numjobs, size first: as fio"
# time_based: fio's I/O loop does not stop at number_ios (fio 3.33): the runtime ends it
{ printf '[j]\nfilename=%s\nbs=4k\nrw=randread\nnumber_ios=50\nruntime=1\ntime_based\n' "$dev"; } >"$T_TMP/t.fio"
fio --output-format=json "$T_TMP/t.fio" >"$T_TMP/f.json" 2>"$T_TMP/err" || fail "fio: $(cat "$T_TMP/err")"
"$NVS_BIN" run --output-format=json "$T_TMP/t.fio" >"$T_TMP/n.json" 2>"$T_TMP/err" || fail "nvscope: $(cat "$T_TMP/err")"
[ "$(ios "$T_TMP/f.json")" -gt 50 ] || fail "fio stopped a time_based job at number_ios: the model is wrong"
[ "$(ios "$T_TMP/n.json")" -gt 50 ] || fail "nvscope stopped a time_based job at number_ios (fio does not)"
ok "time_based: number_ios does not end the job, as in fio"
for bad in nan -1 1e3 99999999999999999999 x; do
	printf '[j]\nfilename=%s\nnumber_ios=%s\n' "$dev" "$bad" >"$T_TMP/b.fio"
	"$NVS_BIN" run --parse-only "$T_TMP/b.fio" 2>"$T_TMP/err" && fail "number_ios=$bad accepted"
	grep -q "b.fio:3: number_ios: " "$T_TMP/err" || fail "number_ios=$bad: $(cat "$T_TMP/err")"
done
ok "bad number_ios values refused at their line"
