#!/bin/bash
# fio's random streams (io/core/frand.h, io/core/offgen.c): with the same options and
# randrepeat=1 (fio's default), nvscope issues the same sequence of
# (direction, offset, length) as Debian's fio 3.33, I/O for I/O: each tool
# writes its write_iolog on the same loop device and the sequences are
# compared per job (numjobs: nvscope's one log holds both jobs interleaved,
# each job's own order kept; at iodepth > 1 both logs are in submission
# order).  Covers the rwmix, bssplit, bsrange, tausworthe64, lfsr,
# norandommap, randseed, percentage_random, random_distribution=zoned,
# random_distribution=zipf/pareto/normal (fio's per-file stream: jhash of
# the file's name x thread number; centers), strided zones, do_verify's
# read-back order, numjobs=2, sequential bssplit, filename=a:b (the job's
# streams shared by the files, file_service_type=random's next_file_state;
# numjobs=2 over a file set: each job its own streams), cmdprio's per-I/O
# priority draw (fio's prio_state; compared through the kernel's
# block_rq_issue events, which carry the ioprio, as fio's iolog does not),
# and fio's iometer and cmdprio-bssplit examples (time based: the map's
# restarts included, size=4g on a smaller device).
#
# Its cost is the tools' start-up (fio's clock calibration: ~0.2 s of CPU a
# run) and the comparisons, not the I/O (2000 I/Os take milliseconds): the
# runs go in two lanes side by side, each on loop devices of its own, and
# each run's logs are kept; one python3 compares them all at the end (every
# comparison made, each failure reported).
# test: no-sanitizer it compares the offsets fio's and nvscope's random generators draw, not memory; the generators run under ASan and TSan in the unit tests (test_frand.c, test_offgen.c, test_randmap.c)
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "no fio"
t_loop 64M
devA=$LOOP
t_loop 64M
devB=$LOOP
t_loop 16M
dev2=$LOOP
C=$T_TMP/cases
mkdir -p "$C"
# fio's clock: clock_gettime (fio's own choice, the TSC, is tested at each
# start unless a clocksource is given: a quarter of a run's CPU time here;
# the clock has no part in the I/O streams)
fio() { command fio --aux-path="$T_TMP" --clocksource=clock_gettime "$@"; }

# the comparisons, made by check.py at the end over the lanes' lists: each a
# line "KIND<TAB>WHAT<TAB>FIO_LOG<TAB>NVS_LOG<TAB>MIN"
#  io:  the write_iologs, per job ("same: ..." or the first difference;
#       with MIN (time_based runs) the common prefix of each job, at least MIN)
#  req: the block_rq_issue requests (direction, sector, length, priority)
#  fs:  a file set's (file, direction, offset, length) sequence, whole
cat >"$T_TMP/check.py" <<'PY'
import re, sys

def jobs(path):
    out, cur = [], None
    for l in open(path):
        l = l.strip()
        if l.startswith("fio version"):
            cur = []
            out.append(cur)
            continue
        m = re.fullmatch(r"(?:\d+ )?\S+ (read|write|trim) (\d+) (\d+)", l)
        if m:
            cur.append((m.group(1), int(m.group(2)), int(m.group(3))))
    return [j for j in out if j]

def io(fp, np, mn):
    f, n = jobs(fp), jobs(np)
    if not f or not n:
        return False, "empty log: fio %d, nvscope %d job(s)" % (len(f), len(n))
    if len(n) == 1 and len(f) > 1:
        # nvscope's log merges its workers: split it into fio's jobs, each
        # record going to a job whose next I/O it is.  Where it is the next
        # I/O of several (zipf's hot blocks repeat), every choice is kept
        # (the set of positions reachable): a greedy choice failed later on
        # a correct log
        states = {tuple([0] * len(f))}
        last = next(iter(states))
        for x in n[0]:
            nxt = set()
            for st in states:
                for k in range(len(f)):
                    if st[k] < len(f[k]) and f[k][st[k]] == x:
                        nxt.add(st[:k] + (st[k] + 1,) + st[k + 1:])
            if not nxt:
                return False, "an I/O of no fio job's sequence: %s (after %s)" % (x, list(last))
            states, last = nxt, next(iter(nxt))
        n = [f[k][:last[k]] for k in range(len(f))]
    if len(f) != len(n):
        return False, "jobs: fio %d, nvscope %d" % (len(f), len(n))
    f, n = sorted(f), sorted(n)
    if mn:
        for k in range(len(f)):
            m = min(len(f[k]), len(n[k]))
            if m < int(mn):
                return False, "job %d: only %d I/Os in common (fio %d, nvscope %d)" % (k, m, len(f[k]), len(n[k]))
            f[k], n[k] = f[k][:m], n[k][:m]
    for k, (a, b) in enumerate(zip(f, n)):
        if a != b:
            i = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
            return False, "job %d: I/O %d differs (fio %d I/Os, nvscope %d): fio %s, nvscope %s" % (
                k, i, len(a), len(b), a[i:i + 2], b[i:i + 2])
    return True, "same: %d job(s), %s I/Os" % (len(f), "+".join(str(len(a)) for a in f))

def req(fp, np, mn):
    f, n = (open(p).read().split("\n")[:-1] for p in (fp, np))
    if not f or len(f) != len(n) or f != n:
        i = next((i for i in range(min(len(f), len(n))) if f[i] != n[i]), min(len(f), len(n)))
        return False, "request %d differs (fio %d, nvscope %d): fio %s, nvscope %s" % (
            i, len(f), len(n), f[i:i + 2], n[i:i + 2])
    prios = {}
    for l in f:
        prios[l.split()[3]] = prios.get(l.split()[3], 0) + 1
    return True, "same: %d requests, %s" % (len(f), " ".join("%s %d" % kv for kv in sorted(prios.items())))

def fs(fp, np, mn):
    f, n = ([m.groups() for m in (re.fullmatch(r"(?:\d+ )?(\S+) (read|write) (\d+) (\d+)", l.strip()) for l in open(p)) if m]
            for p in (fp, np))
    if not f or f != n:
        i = next((i for i in range(min(len(f), len(n))) if f[i] != n[i]), min(len(f), len(n)))
        return False, "I/O %d differs (fio %d, nvscope %d): fio %s, nvscope %s" % (i, len(f), len(n), f[i:i + 2], n[i:i + 2])
    return True, "same: %d I/Os, %s" % (len(f), " ".join("%s %d" % (x, sum(1 for x2 in f if x2[0] == x)) for x in sorted({x[0] for x in f})))

bad = 0
for lst in sys.argv[1:]:
    for l in open(lst):
        kind, what, fp, np, mn = l.rstrip("\n").split("\t")
        good, out = {"io": io, "req": req, "fs": fs}[kind](fp, np, mn)
        if good:
            print("ok: %s: %s" % (what, out))
        else:
            print("FAIL: %s: %s" % (what, out), file=sys.stderr)
            bad += 1
sys.exit(1 if bad else 0)
PY

# fio's run of a comparison: FAIL with its output when it exits non-zero
# (as nvscope's); the lane ($lane) numbers its comparisons ($n) for their
# log files and lists them in $C/$lane.list
n=0
next_case() { # next_case KIND "what": sets F and N, the logs' paths
	n=$((n + 1))
	F=$C/$lane$n.f.log N=$C/$lane$n.n.log
	printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$F" "$N" "${3:-}" >>"$C/$lane.list"
}
run() { # run "what" TOOL OUT ARGS...
	local what=$1 tool=$2 out=$3
	shift 3
	"$@" >"$out" 2>&1 || { cat "$out"; fail "$what: $tool exited"; }
}

# same "what" FIO_ARGS... -- NVS_ARGS...: fio (psync unless given) and
# nvscope with the same options on $dev
same() {
	local what=$1
	shift
	local fargs=() nargs=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do fargs+=("$1"); shift; done
	[ "${1:-}" = -- ] && shift
	nargs=("$@")
	next_case io "$what"
	run "$what" fio "$F.txt" fio --name=j --filename="$dev" --direct=1 "${fargs[@]}" --write_iolog="$F"
	run "$what" nvscope "$N.txt" "$NVS_BIN" run --target "$dev" "${nargs[@]}" --write_iolog="$N"
}

# both tools get the same options (nvscope's iodepth is the queue depth; fio's
# psync runs one I/O at a time)
both() {
	local what=$1
	shift
	same "$what" --ioengine=psync "$@" -- "$@"
}

laneA() {
	lane=A dev=$devA
	both "randread 4k" --rw=randread --bs=4k --number_ios=2000
	both "randrw rwmixread=70" --rw=randrw --rwmixread=70 --bs=4k --number_ios=2000
	both "randrw bssplit, tausworthe64" --rw=randrw --bssplit=4k/50:64k/30:8k --random_generator=tausworthe64 --number_ios=2000
	both "randrw bssplit=r,w" --rw=randrw --bssplit=4k/20:16k/80,64k/40:8k/60 --number_ios=2000
	both "randread bsrange" --rw=randread --bsrange=4k-64k --number_ios=2000
	both "randwrite norandommap" --rw=randwrite --bs=4k --norandommap --number_ios=2000
	both "randrw randseed=1234" --rw=randrw --bssplit=4k/50:16k/50 --randseed=1234 --number_ios=2000
	both "randread percentage_random=40" --rw=randread --bs=4k --percentage_random=40 --number_ios=2000
	both "randread random_distribution=zoned" --rw=randread --bs=4k --random_distribution=zoned:50/10:30/20:20/70 --number_ios=2000
	both "write bssplit (sequential)" --rw=write --bssplit=4k/50:8k/30:64k/20 --number_ios=2000
	both "randwrite one full pass" --rw=randwrite --bs=16k --size=16m
	both "randread lfsr" --rw=randread --bs=4k --random_generator=lfsr --number_ios=2000
	both "randrw lfsr bssplit norandommap" --rw=randrw --bssplit=4k/70:8k/30 --random_generator=lfsr --norandommap --number_ios=2000
	# random_distribution: fio's per-file stream (jhash of the file's name x
	# thread), its unreduced offset, centers
	both "randread zipf:1.2" --rw=randread --bs=4k --random_distribution=zipf:1.2 --number_ios=2000
	both "randrw pareto:0.9 bssplit" --rw=randrw --bssplit=4k/50:16k/50 --random_distribution=pareto:0.9 --number_ios=2000
	both "randread normal:10" --rw=randread --bs=4k --random_distribution=normal:10 --number_ios=2000
	both "randread zipf:0.8:0.3 (center)" --rw=randread --bs=4k --random_distribution=zipf:0.8:0.3 --number_ios=2000
	both "randread normal:5:0.2 (center)" --rw=randread --bs=4k --random_distribution=normal:5:0.2 --number_ios=2000
	both "randread normal:3, randseed=99" --rw=randread --bs=4k --random_distribution=normal:3 --randseed=99 --number_ios=2000
	both "randread strided zones" --zonemode=strided --rw=randread --bs=4k --zonesize=64k --zonerange=128k --zoneskip=128k --number_ios=2000
	# do_verify: the writes, then fio's read-back in the order written
	both "randwrite verify=crc32c" --rw=randwrite --bs=4k --size=4m --verify=crc32c
}

# numjobs=2: fio numbers a job's copies one after another (threads 1, 2),
# as two jobs; fio's numjobs copies would share one write_iolog file, so
# fio runs two jobs with a log each
twojobs() { # twojobs "what" ARGS...: fio's jobs a and b, nvscope's numjobs=2
	local what=$1
	shift
	next_case io "$what (fio's threads 1 and 2)"
	run "$what" fio "$F.txt" fio --filename="$dev" --direct=1 --ioengine=psync "$@" \
		--name=a --write_iolog="$F.1" --name=b --write_iolog="$F.2"
	cat "$F.1" "$F.2" >"$F"
	run "$what" nvscope "$N.txt" "$NVS_BIN" run --target "$dev" "$@" --numjobs=2 --write_iolog="$N"
}

# cmdprio: fio's write_iolog carries no priority, the kernel's block_rq_issue
# event does (its ioprio: class,hint,level): both tools' requests on their
# device (lane B's: the instance's filter, so that the other lane's and other
# tests' I/O on other devices is not seen) through a tracefs instance of this
# test, compared request for request (direction, sector, length, priority;
# nvscope's own probes before the run, from its main thread, left out).
# fio's io_uring engine at iodepth=1.
TR=
trap '[ -n "$TR" ] && rmdir "$TR" 2>/dev/null; t_cleanup' EXIT
tracefs=/sys/kernel/tracing
[ -d $tracefs/instances ] || tracefs=/sys/kernel/debug/tracing
if [ -d $tracefs/instances ] && [ -e $tracefs/events/block/block_rq_issue/format ] &&
	grep -q ioprio $tracefs/events/block/block_rq_issue/format && mkdir "$tracefs/instances/nvs-rng-$$"; then
	TR=$tracefs/instances/nvs-rng-$$
	echo 4096 >"$TR/buffer_size_kb"
	devt=$(((0x$(stat -c %t "$devB") << 20) | 0x$(stat -c %T "$devB")))
	echo "dev == $devt" >"$TR/events/block/block_rq_issue/filter"
fi
reqs() { # reqs OUT "what" TOOL CMD...: $dev's requests while CMD runs
	local out=$1 what=$2 tool=$3
	shift 3
	echo >"$TR/trace"
	echo 1 >"$TR/events/block/block_rq_issue/enable"
	run "$what" "$tool" "$out.txt" "$@"
	echo 0 >"$TR/events/block/block_rq_issue/enable"
	sed -n 's/.*block_rq_issue: [0-9]*,[0-9]* \([RW]\)[A-Z]* [0-9]* () \([0-9]*\) + \([0-9]*\) \([a-z]*,[0-9]*,[0-9]*\) \[\(.*\)\]$/\1 \2 \3 \4 \5/p' \
		"$TR/trace" | awk '$5 != "nvscope" {print $1, $2, $3, $4}' >"$out"
}
prio_same() { # prio_same "what" ARGS...
	local what=$1
	shift
	next_case req "$what"
	reqs "$F" "$what" fio fio --name=j --filename="$dev" --direct=1 --ioengine=io_uring "$@"
	reqs "$N" "$what" nvscope "$NVS_BIN" run --target "$dev" "$@"
}

# filename=a:b: fio's one job over both files: the job's streams (offsets,
# sizes, rwmix) shared by the files, a map and position per file, a file
# done when its next I/O cannot be made; file_service_type=random's choice
# from fio's next_file_state (drawn again while the file is done); the
# (file, direction, offset, length) sequence to the last I/O (both done)
fileset_same() { # fileset_same "what" OPTION-LINES...
	local what=$1
	shift
	next_case fs "$what"
	printf '[j]\nfilename=%s:%s\ndirect=1\nioengine=psync\n' "$dev" "$dev2" >"$F.fio"
	printf '%s\n' "$@" >>"$F.fio"
	run "$what" fio "$F.txt" fio --write_iolog="$F" "$F.fio"
	run "$what" nvscope "$N.txt" "$NVS_BIN" run --job "$F.fio" --write_iolog="$N"
}

# fio's examples as job files (options as fio's examples/ give them; target
# and length set here: time_based for 1 s, as tests/fio_examples.py runs
# them, so that fio's pass restarts, re-seeded, when an I/O cannot be made:
# iometer's size=4g on the 64 MiB device after 1485 I/Os, cmdprio's 1M
# writes past the last 1M block after 29), compared over the I/Os both made,
# at least 3000 and 100 (2 restarts, 3).  Not shorter: on this 2-CPU machine
# loaded 15 times over, 300 ms made only 3227 iometer I/Os (1 s: three times
# that; an idle machine ~70,000).  No rate cap: fio's rate_iops also picks
# each I/O's direction.
ex=$(dirname "$0")/../fixtures/fio-examples
jobfile() { # jobfile NAME SECTION: the example's [global] and [SECTION], time_based
	awk -v want="[$2]" -v dev="$dev" '
	{ s = $0; sub(/^[ \t\r]+/, "", s); sub(/[ \t\r]+$/, "", s) }
	s ~ /^\[/ {
		keep = s == "[global]" || s == want
		if (keep) print s
		if (keep && s == "[global]") print "filename=" dev "\ntime_based=1\nruntime=1"
		next
	}
	keep && s != "" && s !~ /^[;#]/ && s !~ /^(filename|write_lat_log|log_prio|stonewall|description)/ { print s }' "$ex/$1"
}

laneB() {
	lane=B dev=$devB
	twojobs "randrw numjobs=2" --rw=randrw --bssplit=4k/50:16k/50 --number_ios=1000
	# random_distribution's seed is the file name's hash x the thread number
	twojobs "randread zipf:1.1 numjobs=2" --rw=randread --bs=4k --random_distribution=zipf:1.1 --number_ios=1000
	# queue depth 4: fio's libaio and nvscope's io_uring, compared in submission order
	same "randrw bssplit iodepth=4" --ioengine=libaio --iodepth=4 --rw=randrw --bssplit=4k/60:32k/40 --number_ios=2000 -- \
		--iodepth=4 --rw=randrw --bssplit=4k/60:32k/40 --number_ios=2000
	if [ -n "$TR" ]; then
		prio_same "randrw cmdprio_percentage=30" --rw=randrw --bs=4k --cmdprio_percentage=30 --number_ios=2000
		prio_same "randrw cmdprio_percentage=20,60 cmdprio_class=3" --rw=randrw --bssplit=4k/50:16k/50 \
			--cmdprio_percentage=20,60 --cmdprio_class=3 --cmdprio=5 --number_ios=2000
		# bssplit: only the listed sizes draw (the 8k I/Os none)
		prio_same "randread cmdprio_bssplit" --rw=randread --bssplit=4k/40:8k/30:64k/30 \
			--cmdprio_bssplit=4k/30/1/2:4k/20/3/0:64k/50 --number_ios=2000
		prio_same "randrw cmdprio_bssplit r,w prioclass=2 randseed=7" --rw=randrw --bssplit=4k/50:16k/50 \
			--prioclass=2 --prio=6 --cmdprio_bssplit=16k/50/1/1,4k/25 --randseed=7 --number_ios=2000
	else
		echo "   (no tracefs instance with block_rq_issue's ioprio: cmdprio's draws not compared)"
	fi
	fileset_same "read 64M:16M file_service_type=random" rw=read bs=64k file_service_type=random
	fileset_same "write 64M:16M file_service_type=random:3" rw=write bs=32k file_service_type=random:3
	fileset_same "read file_service_type=random randseed=5 tausworthe64" rw=read bs=64k file_service_type=random randseed=5 random_generator=tausworthe64
	fileset_same "randread 64M:16M roundrobin" rw=randread bs=16k
	fileset_same "randrw bssplit 64M:16M file_service_type=random" rw=randrw bssplit=4k/50:16k/50 file_service_type=random
	fileset_same "write bssplit 64M:16M" rw=write bssplit=4k/50:64k/50
	# no map (norandommap, a distribution): no file is ever done, both take
	# I/Os until the job's bytes; lfsr: a file is done when its values are
	fileset_same "randread norandommap 64M:16M" rw=randread bs=64k norandommap
	fileset_same "randread zipf:1.2 64M:16M" rw=randread bs=64k random_distribution=zipf:1.2
	fileset_same "randread lfsr 64M:16M" rw=randread bs=64k random_generator=lfsr
	# numjobs=2 over a file set: each job's copies of the streams are its own
	# thread's (the same offsets twice would reach only half the blocks)
	printf '[j]\nfilename=%s:%s\ndirect=1\nrw=randread\nbs=4k\nnumber_ios=1000\nnumjobs=2\n' "$dev" "$dev2" >"$C/nj.fio"
	run "file set numjobs=2" nvscope "$C/nj.txt" "$NVS_BIN" run --job "$C/nj.fio" --write_iolog="$C/nj.log"
	local out
	out=$(awk '$3 == "read" {n++; if (!s[$2 " " $4]++) d++} END {print n + 0, d + 0}' "$C/nj.log")
	set -- $out
	[ "$1" = 2000 ] && [ "$2" -gt 1800 ] || fail "file set numjobs=2: $2 distinct blocks of $1 reads (the jobs' streams alike?)"
	ok "file set numjobs=2: $2 distinct blocks of $1 reads"
	# randrepeat=0 (jesd219.fio): fio seeds from the OS, each run its own
	# offsets; with randseed= the seed is given and the runs repeat
	local k
	for k in a b c d; do
		local rs=
		case $k in c | d) rs=--randseed=9 ;; esac
		run "randrepeat=0 $k" nvscope "$C/rr$k.txt" "$NVS_BIN" run --target "$dev" --rw=randread \
			--bs=4k --direct=1 --number_ios=200 --randrepeat=0 $rs --write_iolog="$C/rr$k.log"
		awk '$3 == "read" {print $4}' "$C/rr$k.log" >"$C/rr$k.off"
	done
	[ "$(wc -l <"$C/rra.off")" = 200 ] || fail "randrepeat=0: $(wc -l <"$C/rra.off") reads logged, not 200"
	cmp -s "$C/rra.off" "$C/rrb.off" && fail "randrepeat=0: two runs read the same offsets (seeded alike)"
	cmp -s "$C/rrc.off" "$C/rrd.off" || fail "randrepeat=0 randseed=9: two runs read different offsets"
	ok "randrepeat=0: each run its own offsets; with randseed=9 the same"
	for ex_job in "iometer-file-access-server.fio iometer 3000" "cmdprio-bssplit.fio cmdprio 100"; do
		set -- $ex_job
		next_case io "$1 (1 s, at least $3 I/Os)" "$3"
		jobfile "$1" "$2" >"$F.fio"
		run "$1" fio "$F.txt" fio --write_iolog="$F" "$F.fio"
		run "$1" nvscope "$N.txt" "$NVS_BIN" run --job "$F.fio" --write_iolog="$N"
	done
}

laneA &
pa=$!
laneB &
pb=$!
wait $pa
ra=$?
wait $pb
rb=$?
[ $ra = 0 ] && [ $rb = 0 ] || fail "a run failed (lane A exit $ra, lane B exit $rb)"
[ -n "$TR" ] && rmdir "$TR" 2>/dev/null
TR=
python3 "$T_TMP/check.py" "$C/A.list" "$C/B.list" || fail "fio and nvscope differ (above)"
