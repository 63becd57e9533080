#!/bin/bash
# Buffered I/O runs fio's workload at the device, measured by the kernel
# (/sys/block/loopN/stat), side by side with Debian's fio on loop devices:
# - fio's invalidate=1 and fadvise_hint=1 (defaults): the cache is dropped
#   before the job and random reads get no readahead, so every buffered 4k
#   random read of a pass reaches the device as one 4k read;
# - fio opens the file again for each pass (the random map full, the
#   sequential stream at the end, each of loops=), which drops the cache
#   again: every pass reads the device again, and buffered writes are
#   written back at each pass (BLKFLSBUF syncs first);
# - invalidate=0 and norandommap: the cache serves what it holds;
# - fio's asynchronous engines that Linux runs one I/O at a time run at
#   queue depth 1: posixaio (glibc serves a descriptor in order) and libaio
#   without direct=1 (io_submit returns after the buffered I/O).
# Before this, nvscope read or wrote a 64 MiB device once in 2 s where fio
# reached it with every I/O (4.7x fio's IOPS for fio-rand-read.fio).
# The runs go in three lanes side by side, each on a loop device of its own
# (its own counters, its own page cache): the passes, the cache held (a
# holder on that device only), fadvise_hint and the engines.  Each run's
# JSON and counters are kept; one python3 reads them all (a start of python3
# is ~0.4 s of CPU here), then the checks.  The passes' devices are 4 MiB,
# not 16: what is checked is that more than one pass reached the device (or
# the cache): a pass is 1024 I/Os, not 4096, and the time-based passes still
# last 2 s: buffered 4k reads through a loop device wait for its worker
# thread, and on this 2-CPU machine loaded 17 times over they ran at 360-650
# a second (35,000 idle).  The cached time-based run also lasts 2 s: its
# first reads go to the device too (500 ms made 930 under load).  Rarely, a
# page of the held device leaves the cache while it runs and is read again
# (+16-76 KiB over the device's size; seen also with the former 16 MiB, where
# fio read 16460 KiB once in 8 runs; no reclaim in /proc/vmstat; not found).
# test: no-sanitizer it compares the kernel's counts of fio's and nvscope's buffered I/O, not memory; the cache handling (io/feat/pagecache.c) runs under ASan and TSan in every buffered run (run_file.sh, safety_symlink.sh, fio_groups_shared.sh, the console tests of files)
# Not exclusive since session 13: its checks are the kernel's I/O counts of
# its loop devices, which other tests' device scans move (the console's
# libblkid probe of every block device read 336 KiB of a fresh device during a
# fadvise_hint=1 run here); now every test's scans see only its own devices
# (NVSCOPE_DEVICES, tests/lib.sh)
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "no fio"
t_loop 4M
devA=$LOOP
t_loop 4M
devB=$LOOP
pass=1024 # a pass of devA or devB: 4 MiB in 4k I/Os
t_loop 16M
devC=$LOOP
C=$T_TMP/runs
mkdir -p "$C"
# one bio = one request: the kernel counts each 4k I/O once, also when the
# loop device's queue backs up (the block layer merged a pass's written-back
# pages into 420 KiB requests with other lanes and tests running)
for d in $devA $devB $devC; do echo 2 >"/sys/block/${d#/dev/}/queue/nomerges"; done

# run KEY TOOL ARGS...: runs the job on $dev, keeps its JSON report and the
# device's counters before and after in $C/KEY.*; nums KEY (after the
# python3 below) prints "ios dev_ios job_KiB dev_KiB" for it (reads and
# writes together)
run() {
	local key=$1 tool=$2 stat=/sys/block/${dev#/dev/}/stat
	shift 2
	awk '{print $1, $5, $3, $7}' "$stat" >"$C/$key.stat"
	if [ "$tool" = fio ]; then
		fio --name=j --filename="$dev" --output-format=json "$@" >"$C/$key.json" 2>"$C/$key.err"
	else
		"$NVS_BIN" run --target "$dev" --output-format=json "$@" >"$C/$key.json" 2>"$C/$key.err"
	fi || { cat "$C/$key.err" >&2; fail "$tool $* exited"; }
	awk '{print $1, $5, $3, $7}' "$stat" >>"$C/$key.stat"
	echo "$key" >>"$C/$lane.keys"
}
nums() { cat "$C/$1.num"; }

# both tools: the device saw (about) every I/O of the job, 4k each
each_io() { # each_io KEY "what" ARGS...: the runs
	local key=$1 t
	shift 2
	for t in fio nvscope; do run "$key.$t" "$t" "$@"; done
}
each_io_check() { # each_io_check KEY "what"
	local key=$1 what=$2 t ios dios kib dkib
	for t in fio nvscope; do
		read -r ios dios kib dkib < <(nums "$key.$t")
		# the safety probe reads a few KiB before a write: slack of 64
		[ "$ios" -gt $pass ] && [ "$dios" -ge $((ios * 95 / 100)) ] &&
			[ "$dios" -le $((ios + 64)) ] && [ "$dkib" -le $((kib + 1100)) ] ||
			fail "$what: $t issued $ios I/Os ($kib KiB), the device saw $dios ($dkib KiB)"
		echo "   $what: $t $ios I/Os ($kib KiB), device $dios ($dkib KiB)"
	done
}
passes() {
	lane=A dev=$devA
	each_io rr "randread, 2 s" --rw=randread --bs=4k --direct=0 --runtime=2 --time_based
	each_io sr "read, 2 s" --rw=read --bs=4k --direct=0 --runtime=2 --time_based --fadvise_hint=random
	each_io rw "randwrite, 2 s" --rw=randwrite --bs=4k --direct=0 --runtime=2 --time_based
	each_io l3 "randread loops=3" --rw=randread --bs=4k --direct=0 --loops=3
}

# the cache serves what it holds: the device is read (about) once.  fio
# closes the device between passes, and the kernel drops a block device's
# cache at its last close whatever invalidate says: a holder keeps it open
# (nvscope keeps its descriptor, so it behaves as fio with a holder)
cached_opts=("--invalidate=0 --loops=3" "--norandommap --runtime=2 --time_based")
cached() {
	lane=B dev=$devB
	local t k
	sleep 600 <"$dev" &
	local holder=$!
	for t in fio nvscope; do
		for k in 0 1; do
			run "c$k.$t.warm" "$t" --rw=randread --bs=4k --direct=0 ${cached_opts[$k]} # warm (invalidate=0 keeps it)
			run "c$k.$t" "$t" --rw=randread --bs=4k --direct=0 ${cached_opts[$k]}
		done
	done
	kill $holder
	wait $holder 2>/dev/null
	return 0
}

# fadvise_hint: a random job's default (FADV_RANDOM) reads what was asked;
# with 0 the kernel reads ahead where random offsets happen to be adjacent:
# both tools draw fio's stream, so the device reads the same (fio 1060 KiB
# for 1024 here; before fio's stream nvscope's was 1528)
fadvise() {
	lane=C dev=$devC
	local t
	for t in fio nvscope; do
		run "fa.$t" "$t" --rw=randread --bs=4k --direct=0 --size=8m --io_size=1m
		run "fa0.$t" "$t" --rw=randread --bs=4k --direct=0 --size=8m --io_size=1m --fadvise_hint=0
	done
	# the serial engines: queue depth 1, said once (and for buffered libaio
	# why fio's iodepth_level shows 16 there: docs/fio-examples.md)
	printf '[j]\nioengine=posixaio\niodepth=16\ndirect=1\nrw=randread\nsize=1m\n[k]\nioengine=libaio\niodepth=16\nrw=randread\nsize=1m\n' >"$T_TMP/s.fio"
	"$NVS_BIN" run --target "$dev" --output-format=json "$T_TMP/s.fio" >"$C/serial.json" 2>"$T_TMP/e.txt" ||
		{ cat "$T_TMP/e.txt"; fail "serial engines exited"; }
	grep -q "ioengine=posixaio (glibc's POSIX AIO serves a descriptor in order, one request at a time) runs as io_uring at queue depth 1" "$T_TMP/e.txt" &&
		grep -q "ioengine=libaio without direct=1 (Linux's libaio is synchronous on buffered I/O) runs as io_uring at queue depth 1 (one I/O at a time); fio's iodepth_level counts up to iodepth=16 there" "$T_TMP/e.txt" ||
		{ cat "$T_TMP/e.txt"; fail "the engine notes"; }
}

passes &
pa=$!
cached &
pb=$!
fadvise &
pc=$!
rc=0
for p in $pa $pb $pc; do wait $p || rc=1; done
[ $rc = 0 ] || fail "a run failed (above)"

# the numbers of every run (the kernel's counters summed in python: awk
# prints big sums as 2.6e+10), and the serial engines' queue depths
python3 - "$C" "$C"/*.keys <<'PY' || fail "serial engines: not at queue depth 1"
import json, sys
c = sys.argv[1]
for lst in sys.argv[2:]:
    for key in open(lst).read().split():
        d = json.load(open("%s/%s.json" % (c, key)))
        a, b = [list(map(int, x.split())) for x in open("%s/%s.stat" % (c, key))]
        ios = sum(j[k]["total_ios"] for j in d["jobs"] for k in ("read", "write"))
        kib = sum(j[k]["io_bytes"] for j in d["jobs"] for k in ("read", "write")) // 1024
        with open("%s/%s.num" % (c, key), "w") as o:
            print(ios, b[0] + b[1] - a[0] - a[1], kib, (b[2] + b[3] - a[2] - a[3]) // 2, file=o)
d = json.load(open(c + "/serial.json"))
for j in d["jobs"]:
    assert j["job options"]["iodepth"] == "1", j["job options"]
    lv = j["iodepth_level"]
    assert float(lv["1"]) >= 99.9, lv
PY

each_io_check rr "randread, 2 s"
each_io_check sr "read, 2 s"
each_io_check rw "randwrite, 2 s"
each_io_check l3 "randread loops=3"
ok "buffered: each pass reaches the device, as fio (invalidate, fadvise_hint, a new pass)"

# "about once": the device read less than one pass and a half, against at
# least 3 passes of reads asked (loops=3; norandommap: 4 passes in its 2 s,
# the cache answering): without the cache the device would read each of
# them (12-16 MiB).  A few pages are read twice (seen 8-224 KiB over a pass,
# in fio's runs as in nvscope's, about one run in 4 on a loaded machine,
# cause not found): a bound of 5% failed CI at 5.5%; what is checked is the
# cache, not the count of its misses
min_ios=($((3 * pass)) $((4 * pass)))
for t in fio nvscope; do
	for k in 0 1; do
		read -r ios dios kib dkib < <(nums "c$k.$t")
		[ "$ios" -ge "${min_ios[$k]}" ] && [ "$dkib" -le $((pass * 4 * 3 / 2)) ] ||
			fail "$t ${cached_opts[$k]}: $ios I/Os (at least ${min_ios[$k]} wanted) read $dkib KiB from a $((pass * 4)) KiB device"
		echo "   cached ${cached_opts[$k]}: $t $ios I/Os, the device read $dkib KiB"
	done
done
ok "invalidate=0, norandommap: the page cache serves them, as fio"

for t in fio nvscope; do
	read -r ios dios kib dkib < <(nums "fa.$t")
	read -r ios dios kib0 dkib0 < <(nums "fa0.$t")
	[ "$dkib" -le $((kib + 64)) ] && [ "$dkib0" -ge "$kib0" ] ||
		fail "$t: fadvise_hint=1 read $dkib KiB for $kib, fadvise_hint=0 $dkib0 KiB for $kib0"
	echo "   fadvise_hint: $t read $dkib KiB for $kib (hint 1), $dkib0 KiB (hint 0)"
	[ "$t" = fio ] && f0=$dkib0
done
[ $((dkib0 * 10)) -ge $((f0 * 9)) ] && [ $((dkib0 * 10)) -le $((f0 * 11)) ] ||
	fail "fadvise_hint=0: nvscope read $dkib0 KiB, fio $f0"
ok "fadvise_hint: the default reads what is asked, 0 reads ahead as much as fio's (within 10%)"
ok "posixaio and buffered libaio run at queue depth 1 (Linux runs them one at a time)"
