#!/bin/bash
# fio's job-running options against Debian's fio on one loop device:
# iodepth_low (refills in batches down from the mark), thinktime_spin (the
# pause burns CPU), thinktime_iotime (I/O share of the time), nice (the
# workers' nice value), numa_cpu_nodes / numa_mem_policy (node 0 runs, a
# missing node is refused at its line).
# test: no-sanitizer it compares how fio and nvscope pace a job (iodepth_low, thinktime, nice, numa), not memory; the options' logic runs under ASan and TSan in test_xrun.c, their parsing in the spec fuzzer
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "fio not installed"
command -v python3 >/dev/null || skip "python3 not installed"
t_loop 64M; dev=$LOOP
job() { # $1 = file, rest = option lines
	local f=$1; shift
	printf '[j]\nfilename=%s\ndirect=1\nioengine=libaio\nrw=randread\nbs=4k\nruntime=2\ntime_based\n' "$dev" >"$f"
	for o in "$@"; do echo "$o" >>"$f"; done
}
get() { # $1 = JSON file, $2 = python expression over the job j
	python3 -c "
import json; t = open('$1').read(); j = json.loads(t[t.index('{'):])['jobs'][0]; print($2)"
}
both() { # $1 = label; runs $T_TMP/x.fio with fio and nvscope
	fio --output-format=json "$T_TMP/x.fio" >"$T_TMP/f.json" 2>"$T_TMP/f.err" || fail "fio $1: $(cat "$T_TMP/f.err")"
	"$NVS_BIN" run --output-format=json "$T_TMP/x.fio" >"$T_TMP/n.json" 2>"$T_TMP/n.err" ||
		fail "nvscope $1: $(cat "$T_TMP/n.err")"
}

# iodepth_low: once full, nothing is submitted until 2 are left: refills
# come in batches of 9..16 (without it, one per completion or so)
job "$T_TMP/x.fio" iodepth=16 iodepth_low=2
both iodepth_low
b=$(get "$T_TMP/n.json" "j['iodepth_submit']['16']")
python3 -c "assert $b >= 90" || fail "iodepth_low=2: $b% of submits in batches of 9-16"
job "$T_TMP/x.fio" iodepth=16
both "no iodepth_low"
b0=$(get "$T_TMP/n.json" "j['iodepth_submit']['16']")
python3 -c "assert $b0 < 90" || fail "without iodepth_low: $b0% of submits in batches of 9-16"
ok "iodepth_low=2: $b% of refills in batches of 9-16 (without: $b0%)"

# thinktime_spin: every pause of 20 ms spins 15 of it: the CPU time is many
# times that of sleeping pauses (a share, not a speed: the machine may be
# busy).  Debian's fio 3.33 never ends a job with thinktime_spin here (its
# usec_spin loops past the runtime), so nvscope's run is checked alone.
job "$T_TMP/x.fio" iodepth=1 thinktime=20ms thinktime_spin=15ms thinktime_blocks=10
"$NVS_BIN" run --output-format=json "$T_TMP/x.fio" >"$T_TMP/n.json" 2>"$T_TMP/n.err" ||
	fail "nvscope thinktime_spin: $(cat "$T_TMP/n.err")"
n=$(get "$T_TMP/n.json" "j['usr_cpu'] + j['sys_cpu']")
job "$T_TMP/x.fio" iodepth=1 thinktime=20ms thinktime_blocks=10
"$NVS_BIN" run --output-format=json "$T_TMP/x.fio" >"$T_TMP/n.json" 2>"$T_TMP/n.err" ||
	fail "nvscope thinktime: $(cat "$T_TMP/n.err")"
n0=$(get "$T_TMP/n.json" "j['usr_cpu'] + j['sys_cpu']")
python3 -c "assert $n > 5 * $n0 and $n > 10, ($n, $n0)" || fail "thinktime_spin: CPU $n% (sleeping: $n0%)"
ok "thinktime_spin: CPU $n% (sleeping pauses: $n0%)"

# thinktime_iotime: 1 s of I/O time, then a 1 s pause (fio: the first pause
# after iotime + thinktime, from 2 s to 3 s); the 250 ms windows of the IOPS
# log with no I/O are the pause: about 4 of 16 in both (one more empty
# window elsewhere is a busy machine's stall, seen once at 3750 ms under
# load: tolerated, the pause must still fall from 2 s to 3.25 s)
job "$T_TMP/x.fio" iodepth=4 runtime=4 thinktime=1s thinktime_iotime=1s write_iops_log=it log_avg_msec=250
(cd "$T_TMP" && fio "$T_TMP/x.fio" >/dev/null 2>&1) || fail "fio thinktime_iotime"
mkdir -p "$T_TMP/n" && (bin=$(readlink -f "$NVS_BIN") && cd "$T_TMP/n" && "$bin" run "$T_TMP/x.fio" >"$T_TMP/n.err" 2>&1) ||
	fail "nvscope thinktime_iotime: $(cat "$T_TMP/n.err")"
idle() { # the 250 ms windows up to 4 s without a line, as "t1 t2 ..."
	python3 -c "
got = {round(int(l.split(',')[0]) / 250) for l in open('$1') if l.strip()}
print(' '.join(str(k * 250) for k in range(1, 17) if k not in got))"
}
f=$(idle "$T_TMP/it_iops.1.log") n=$(idle "$T_TMP/n/it_iops.1.log")
python3 -c "
f, n = [int(x) for x in '$f'.split()], [int(x) for x in '$n'.split()]
p = [k for k in n if 2000 <= k <= 3250]
assert 3 <= len(p) <= 5 and abs(len(f) - len(p)) <= 2, (f, n)
assert len(n) - len(p) <= 1, n" || fail "thinktime_iotime: idle windows fio [$f], nvscope [$n]"
ok "thinktime_iotime: idle windows (ms) fio [$f], nvscope [$n]"

# nice: the worker threads run at nice 7 (field 19 of /proc/PID/task/TID/stat)
job "$T_TMP/x.fio" iodepth=1 nice=7 runtime=3
"$NVS_BIN" run "$T_TMP/x.fio" >/dev/null 2>&1 &
pid=$!
sleep 1.5
nices=$(for s in /proc/$pid/task/*/stat; do sed 's/.*) //' "$s" | cut -d' ' -f17; done | sort -u | tr '\n' ' ')
wait $pid || fail "nvscope nice=7 failed"
case " $nices" in *" 7 "*) ;; *) fail "nice=7: thread nice values: $nices" ;; esac
ok "nice=7: thread nice values $nices"

# exitall_on_error: job a fails at once (verify_only finds no verify header
# on a device never written with one), job b of the same run group would run
# 10 s: with the option it is stopped, without it runs on (fio's exitall)
printf '[global]\nfilename=%s\nbs=4k\ndirect=1\n[a]\nrw=read\nverify=crc32c\nverify_only=1\nverify_fatal=1\nexitall_on_error\n[b]\nrw=randread\nruntime=10\ntime_based\n' "$dev" >"$T_TMP/e.fio"
t0=$(date +%s)
"$NVS_BIN" run "$T_TMP/e.fio" >/dev/null 2>&1 && fail "exitall_on_error: job a did not fail"
t1=$(date +%s)
[ $((t1 - t0)) -lt 8 ] || fail "exitall_on_error: job b ran on ($((t1 - t0)) s)"
ok "exitall_on_error: a failed job stopped the other after $((t1 - t0)) s (of 10)"

# NUMA: node 0 exists everywhere; node 63 nowhere here
job "$T_TMP/x.fio" iodepth=1 runtime=1 numa_cpu_nodes=0 numa_mem_policy=bind:0
"$NVS_BIN" run "$T_TMP/x.fio" >/dev/null 2>"$T_TMP/n.err" || fail "numa node 0: $(cat "$T_TMP/n.err")"
ok "numa_cpu_nodes=0 numa_mem_policy=bind:0 runs"
[ -e /sys/devices/system/node/node63 ] && skip "a machine with 64 NUMA nodes"
job "$T_TMP/x.fio" iodepth=1 runtime=1 numa_cpu_nodes=63
out=$("$NVS_BIN" run "$T_TMP/x.fio" 2>&1) && fail "numa_cpu_nodes=63 accepted"
line=$(grep -n '^numa_cpu_nodes' "$T_TMP/x.fio" | cut -d: -f1)
[ "$(echo "$out" | wc -l)" = 1 ] && echo "$out" | grep -q "x.fio:$line: numa_cpu_nodes" ||
	fail "numa_cpu_nodes=63: not one 'file:line: option' message: $out"
ok "numa_cpu_nodes=63 refused: $out"
