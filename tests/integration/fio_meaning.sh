#!/bin/bash
# fio options whose meaning nvscope had wrong (issue 13), against Debian's fio
# on the same loop device: rate_iops/rate per direction, percentile_list,
# iodepth_batch_complete (= _min), ioscheduler refused.
# test: no-sanitizer it compares rates, percentiles and batch sizes with fio's on the same device, not memory; the options' code runs under ASan and TSan in test_fiomean.c and every rate-capped run test, their parsing in the spec fuzzer
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "fio not installed"
# the interpreter itself, resolved once (a version manager's shim, such as
# pyenv's, costs ~0.6 s of CPU per start)
PY=$(python3 -c 'import sys; print(sys.executable)') && [ -x "$PY" ] || PY=python3
# the three rate comparisons (sleep-bound: rate-capped) run side by side,
# each on its own loop device and files
t_loop 64M; dev=$LOOP
t_loop 64M; dev2=$LOOP
t_loop 64M; dev3=$LOOP

# one job file, run by both (fio's meaning per direction: 200 reads/s and
# 100 writes/s; a limit per direction, not a total split by the mix)
job() { # OPTION-LINE [DEV]
	cat <<JOB
[global]
ioengine=io_uring
direct=1
filename=${2:-$dev}
time_based
runtime=2
bs=4k
iodepth=4
[j]
rw=randrw
$1
JOB
}
cmp_rates() { # $1 = option line, $2 = what, $3 = device, $4 = a name for its files
	local p=$T_TMP/$4
	job "$1" "$3" >"$p.fio"
	fio --output-format=json "$p.fio" >"$p.fio.json" 2>/dev/null || fail "fio: $2"
	"$NVS_BIN" run --output-format=json "$p.fio" >"$p.nvs.json" 2>"$p.err" ||
		fail "nvscope: $2: $(cat "$p.err")"
	# under a sanitizer the rate code still runs (its memory is checked)
	# but its rate is not compared: a sanitized worker on a loaded
	# machine can be held off the CPU for over a second, and nvscope does
	# not burst to make up a stall (a run of 2 s then falls short);
	# the plain run compares the rates (ASan, run F of session 10)
	"$PY" - "$p.fio.json" "$p.nvs.json" "$2" "${NVS_SANITIZER:-}" <<'PY' || fail "$2 differs from fio"
import json, sys
f, n = (json.load(open(p))["jobs"][0] for p in sys.argv[1:3])
for d in ("read", "write"):
    a, b = f[d]["iops"], n[d]["iops"]
    print(sys.argv[3], d, "fio", round(a), "nvscope", round(b))
    assert sys.argv[4] or abs(a - b) <= 0.15 * a + 5, (d, a, b)
PY
	ok "$2: per direction as fio"
}
( cmp_rates "rate_iops=200,100" "rate_iops=200,100" "$dev" r1 ) >"$T_TMP/lane1" 2>&1 & p1=$!
( cmp_rates "rate_iops=150" "rate_iops=150 (each direction)" "$dev2" r2 ) >"$T_TMP/lane2" 2>&1 & p2=$!
( cmp_rates "rate=800k,400k" "rate=800k,400k (bytes/s per direction)" "$dev3" r3 ) >"$T_TMP/lane3" 2>&1 & p3=$!
rc=0
wait $p1 || rc=1; cat "$T_TMP/lane1"
wait $p2 || rc=1; cat "$T_TMP/lane2"
wait $p3 || rc=1; cat "$T_TMP/lane3"
[ $rc -eq 0 ] || fail "a rate comparison failed (above)"

# percentile_list decides the JSON's percentiles, as in fio
# (capped and short: only the JSON's keys are checked)
job "percentile_list=50:99.5
rate_iops=500
runtime=500ms" >"$T_TMP/p.fio"
fio --output-format=json "$T_TMP/p.fio" >"$T_TMP/fio.json" 2>/dev/null || fail "fio percentile_list"
"$NVS_BIN" run --output-format=json "$T_TMP/p.fio" >"$T_TMP/nvs.json" 2>/dev/null ||
	fail "nvscope percentile_list"
"$PY" - "$T_TMP/fio.json" "$T_TMP/nvs.json" <<'PY' || fail "percentile keys differ"
import json, sys
f, n = (json.load(open(p))["jobs"][0] for p in sys.argv[1:3])
k = lambda j: sorted(j["read"]["clat_ns"]["percentile"])
assert k(f) == k(n) == ["50.000000", "99.500000"], (k(f), k(n))
PY
ok "percentile_list keys as fio's"

# iodepth_batch_complete is fio's _min: the JSON says so
job "iodepth_batch_complete=2
rate_iops=500
runtime=500ms" >"$T_TMP/b.fio"
"$NVS_BIN" run --output-format=json "$T_TMP/b.fio" >"$T_TMP/nvs.json" 2>/dev/null ||
	fail "iodepth_batch_complete=2"
"$PY" -c "
import json; o=json.load(open('$T_TMP/nvs.json'))['jobs'][0]['job options']
assert o.get('iodepth_batch_complete_min') == '2' and 'iodepth_batch_complete_max' not in o, o
" || fail "iodepth_batch_complete read as _max"
ok "iodepth_batch_complete = _min"

# refused, with the reason and the line (filename=a:b runs: fio_fileset.sh)
printf '[j]\nfilename=%s\nioscheduler=none\n' "$dev" >"$T_TMP/s.fio"
"$NVS_BIN" run --parse-only "$T_TMP/s.fio" 2>"$T_TMP/err"
[ $? = 2 ] && grep -q "s.fio:3: ioscheduler" "$T_TMP/err" || fail "ioscheduler: $(cat "$T_TMP/err")"
ok "ioscheduler refused with the line and why"

# cpus_allowed: fio's default policy (shared) gives every worker the whole
# set; cpus_allowed_policy=split one CPU each
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs for cpus_allowed"
affinity() { # $1 = policy; prints "COUNT LIST;" of the process's threads
	"$NVS_BIN" run --target "$dev" --rw=randread --numjobs=2 --cpus_allowed=0-1 \
		--cpus_allowed_policy="$1" --rate_iops=100 --runtime=3 --time_based \
		--output-format=json >/dev/null 2>&1 &
	local pid=$! seen="" n
	for _ in $(seq 30); do
		t_nap 0.1
		n=$(ls /proc/$pid/task 2>/dev/null | wc -l)
		[ "$n" -ge 3 ] || continue # main + 2 workers
		t_nap 0.3
		seen=$(grep -h Cpus_allowed_list /proc/$pid/task/*/status 2>/dev/null |
			awk '{print $2}' | sort | uniq -c | tr -s ' ' | tr '\n' ';')
		break
	done
	wait $pid
	echo "$seen"
}
# (on a 2-CPU machine the whole set is every CPU: shared shows no thread
# pinned to a single CPU, split shows one on each)
# (both at once: two processes reading one device)
affinity shared >"$T_TMP/aff.shared" & pa=$!
affinity split >"$T_TMP/aff.split" & pb=$!
wait $pa; wait $pb
s=$(cat "$T_TMP/aff.shared")
case $s in *" 0;"*|*" 1;"*|"") fail "shared: a worker on one CPU: $s" ;; esac
s=$(cat "$T_TMP/aff.split")
case $s in *" 1 0;"*" 1 1;"*) ;; *) fail "split: not one CPU each: $s" ;; esac
ok "cpus_allowed shared (default) and split as in fio"
