#!/bin/bash
# fio's random streams (io/frand.h, io/offgen.c): with the same options and
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
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "no fio"
t_loop 64M
dev=$LOOP

# compare FIO_LOG NVS_LOG [MIN]: "same: ..." or the first difference (exit
# 1); with MIN (time_based runs) the common prefix of each job, at least MIN
compare() {
	python3 - "$1" "$2" "${3:-}" <<'PY'
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
f, n = jobs(sys.argv[1]), jobs(sys.argv[2])
if not f or not n:
    print("empty log: fio %d, nvscope %d job(s)" % (len(f), len(n)))
    sys.exit(1)
if len(n) == 1 and len(f) > 1:
    # nvscope's log merges its workers: split it into fio's jobs, each
    # record going to the job whose next I/O it is
    pos, split = [0] * len(f), [[] for _ in f]
    for io in n[0]:
        k = next((k for k in range(len(f)) if pos[k] < len(f[k]) and f[k][pos[k]] == io), None)
        if k is None:
            print("an I/O of no fio job's sequence: %s (after %s)" % (io, pos))
            sys.exit(1)
        split[k].append(io)
        pos[k] += 1
    n = split
if len(f) != len(n):
    print("jobs: fio %d, nvscope %d" % (len(f), len(n)))
    sys.exit(1)
f, n = sorted(f), sorted(n)
if sys.argv[3]:
    for k in range(len(f)):
        m = min(len(f[k]), len(n[k]))
        if m < int(sys.argv[3]):
            print("job %d: only %d I/Os in common (fio %d, nvscope %d)" % (k, m, len(f[k]), len(n[k])))
            sys.exit(1)
        f[k], n[k] = f[k][:m], n[k][:m]
for k, (a, b) in enumerate(zip(f, n)):
    if a != b:
        i = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
        print("job %d: I/O %d differs (fio %d I/Os, nvscope %d): fio %s, nvscope %s" %
              (k, i, len(a), len(b), a[i:i + 2], b[i:i + 2]))
        sys.exit(1)
print("same: %d job(s), %s I/Os" % (len(f), "+".join(str(len(a)) for a in f)))
PY
}

# same "what" FIO_ARGS... -- NVS_ARGS...: fio (psync unless given) and
# nvscope with the same options on $dev
same() {
	local what=$1 out
	shift
	local fargs=() nargs=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do fargs+=("$1"); shift; done
	[ "${1:-}" = -- ] && shift
	nargs=("$@")
	rm -f "$T_TMP/f.log" "$T_TMP/n.log"
	fio --name=j --filename="$dev" --direct=1 "${fargs[@]}" --write_iolog="$T_TMP/f.log" \
		>"$T_TMP/f.txt" 2>&1 || { cat "$T_TMP/f.txt"; fail "$what: fio exited"; }
	"$NVS_BIN" run --target "$dev" "${nargs[@]}" --write_iolog="$T_TMP/n.log" \
		>"$T_TMP/n.txt" 2>&1 || { cat "$T_TMP/n.txt"; fail "$what: nvscope exited"; }
	out=$(compare "$T_TMP/f.log" "$T_TMP/n.log") || fail "$what: $out"
	ok "$what: $out"
}

# both tools get the same options (nvscope's iodepth is the queue depth; fio's
# psync runs one I/O at a time)
both() {
	local what=$1
	shift
	same "$what" --ioengine=psync "$@" -- "$@"
}

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
# numjobs=2: fio numbers a job's copies one after another (threads 1, 2),
# as two jobs; fio's numjobs copies would share one write_iolog file, so
# fio runs two jobs with a log each
twojobs() { # twojobs "what" ARGS...: fio's jobs a and b, nvscope's numjobs=2
	local what=$1 out
	shift
	rm -f "$T_TMP/f"*.log "$T_TMP/n.log"
	fio --filename="$dev" --direct=1 --ioengine=psync "$@" \
		--name=a --write_iolog="$T_TMP/f1.log" --name=b --write_iolog="$T_TMP/f2.log" >"$T_TMP/f.txt" 2>&1 ||
		{ cat "$T_TMP/f.txt"; fail "$what: fio exited"; }
	cat "$T_TMP/f1.log" "$T_TMP/f2.log" >"$T_TMP/f.log"
	"$NVS_BIN" run --target "$dev" "$@" --numjobs=2 \
		--write_iolog="$T_TMP/n.log" >"$T_TMP/n.txt" 2>&1 || { cat "$T_TMP/n.txt"; fail "$what: nvscope exited"; }
	out=$(compare "$T_TMP/f.log" "$T_TMP/n.log") || fail "$what: $out"
	ok "$what (fio's threads 1 and 2): $out"
}
twojobs "randrw numjobs=2" --rw=randrw --bssplit=4k/50:16k/50 --number_ios=1000
# random_distribution's seed is the file name's hash x the thread number
twojobs "randread zipf:1.1 numjobs=2" --rw=randread --bs=4k --random_distribution=zipf:1.1 --number_ios=1000
# queue depth 4: fio's libaio and nvscope's io_uring, compared in submission order
same "randrw bssplit iodepth=4" --ioengine=libaio --iodepth=4 --rw=randrw --bssplit=4k/60:32k/40 --number_ios=2000 -- \
	--iodepth=4 --rw=randrw --bssplit=4k/60:32k/40 --number_ios=2000

# cmdprio: fio's write_iolog carries no priority, the kernel's block_rq_issue
# event does (its ioprio: class,hint,level): both tools' requests on $dev
# through a tracefs instance of this test, compared request for request
# (direction, sector, length, priority; nvscope's own probes before the run,
# from its main thread, left out).  fio's io_uring engine at iodepth=1.
TR=
trap '[ -n "$TR" ] && rmdir "$TR" 2>/dev/null; t_cleanup' EXIT
tracefs=/sys/kernel/tracing
[ -d $tracefs/instances ] || tracefs=/sys/kernel/debug/tracing
if [ -d $tracefs/instances ] && [ -e $tracefs/events/block/block_rq_issue/format ] &&
	grep -q ioprio $tracefs/events/block/block_rq_issue/format && mkdir "$tracefs/instances/nvs-rng-$$"; then
	TR=$tracefs/instances/nvs-rng-$$
	echo 4096 >"$TR/buffer_size_kb"
	devt=$(((0x$(stat -c %t "$dev") << 20) | 0x$(stat -c %T "$dev")))
	echo "dev == $devt" >"$TR/events/block/block_rq_issue/filter"
	reqs() { # reqs OUT CMD...: $dev's requests while CMD runs
		local out=$1
		shift
		echo >"$TR/trace"
		echo 1 >"$TR/events/block/block_rq_issue/enable"
		"$@" >"$out.txt" 2>&1 || { cat "$out.txt"; fail "$*"; }
		echo 0 >"$TR/events/block/block_rq_issue/enable"
		sed -n 's/.*block_rq_issue: [0-9]*,[0-9]* \([RW]\)[A-Z]* [0-9]* () \([0-9]*\) + \([0-9]*\) \([a-z]*,[0-9]*,[0-9]*\) \[\(.*\)\]$/\1 \2 \3 \4 \5/p' \
			"$TR/trace" | awk '$5 != "nvscope" {print $1, $2, $3, $4}' >"$out"
	}
	prio_same() { # prio_same "what" ARGS...
		local what=$1 out
		shift
		reqs "$T_TMP/fp" fio --name=j --filename="$dev" --direct=1 --ioengine=io_uring "$@"
		reqs "$T_TMP/np" "$NVS_BIN" run --target "$dev" "$@"
		out=$(python3 - "$T_TMP/fp" "$T_TMP/np" <<'PY'
import sys
f, n = (open(p).read().split("\n")[:-1] for p in sys.argv[1:3])
if not f or len(f) != len(n) or f != n:
    i = next((i for i in range(min(len(f), len(n))) if f[i] != n[i]), min(len(f), len(n)))
    print("request %d differs (fio %d, nvscope %d): fio %s, nvscope %s" % (i, len(f), len(n), f[i:i + 2], n[i:i + 2]))
    sys.exit(1)
prios = {}
for l in f:
    prios[l.split()[3]] = prios.get(l.split()[3], 0) + 1
print("same: %d requests, %s" % (len(f), " ".join("%s %d" % kv for kv in sorted(prios.items()))))
PY
) || fail "$what: $out"
		ok "$what: $out"
	}
	prio_same "randrw cmdprio_percentage=30" --rw=randrw --bs=4k --cmdprio_percentage=30 --number_ios=2000
	prio_same "randrw cmdprio_percentage=20,60 cmdprio_class=3" --rw=randrw --bssplit=4k/50:16k/50 \
		--cmdprio_percentage=20,60 --cmdprio_class=3 --cmdprio=5 --number_ios=2000
	# bssplit: only the listed sizes draw (the 8k I/Os none)
	prio_same "randread cmdprio_bssplit" --rw=randread --bssplit=4k/40:8k/30:64k/30 \
		--cmdprio_bssplit=4k/30/1/2:4k/20/3/0:64k/50 --number_ios=2000
	prio_same "randrw cmdprio_bssplit r,w prioclass=2 randseed=7" --rw=randrw --bssplit=4k/50:16k/50 \
		--prioclass=2 --prio=6 --cmdprio_bssplit=16k/50/1/1,4k/25 --randseed=7 --number_ios=2000
	rmdir "$TR" 2>/dev/null
	TR=
else
	echo "   (no tracefs instance with block_rq_issue's ioprio: cmdprio's draws not compared)"
fi

# filename=a:b: fio's one job over both files: the job's streams (offsets,
# sizes, rwmix) shared by the files, a map and position per file, a file
# done when its next I/O cannot be made; file_service_type=random's choice
# from fio's next_file_state (drawn again while the file is done); the
# (file, direction, offset, length) sequence to the last I/O (both done)
t_loop 16M
dev2=$LOOP
fileset_same() { # fileset_same "what" OPTION-LINES...
	local what=$1 out
	shift
	printf '[j]\nfilename=%s:%s\ndirect=1\nioengine=psync\n' "$dev" "$dev2" >"$T_TMP/fs.fio"
	printf '%s\n' "$@" >>"$T_TMP/fs.fio"
	rm -f "$T_TMP/f.log" "$T_TMP/n.log"
	fio --write_iolog="$T_TMP/f.log" "$T_TMP/fs.fio" >"$T_TMP/f.txt" 2>&1 ||
		{ cat "$T_TMP/f.txt"; fail "$what: fio exited"; }
	"$NVS_BIN" run --job "$T_TMP/fs.fio" --write_iolog="$T_TMP/n.log" >"$T_TMP/n.txt" 2>&1 ||
		{ cat "$T_TMP/n.txt"; fail "$what: nvscope exited"; }
	out=$(python3 - "$T_TMP/f.log" "$T_TMP/n.log" <<'PY'
import re, sys
f, n = ([m.groups() for m in (re.fullmatch(r"(?:\d+ )?(\S+) (read|write) (\d+) (\d+)", l.strip()) for l in open(p)) if m]
        for p in sys.argv[1:3])
if not f or f != n:
    i = next((i for i in range(min(len(f), len(n))) if f[i] != n[i]), min(len(f), len(n)))
    print("I/O %d differs (fio %d, nvscope %d): fio %s, nvscope %s" % (i, len(f), len(n), f[i:i + 2], n[i:i + 2]))
    sys.exit(1)
print("same: %d I/Os, %s" % (len(f), " ".join("%s %d" % (x, sum(1 for io in f if io[0] == x)) for x in sorted({io[0] for io in f}))))
PY
) || fail "$what: $out"
	ok "$what: $out"
}
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
printf '[j]\nfilename=%s:%s\ndirect=1\nrw=randread\nbs=4k\nnumber_ios=1000\nnumjobs=2\n' "$dev" "$dev2" >"$T_TMP/fs.fio"
"$NVS_BIN" run --job "$T_TMP/fs.fio" --write_iolog="$T_TMP/n.log" >"$T_TMP/n.txt" 2>&1 ||
	{ cat "$T_TMP/n.txt"; fail "file set numjobs=2: nvscope exited"; }
out=$(awk '$3 == "read" {n++; if (!s[$2 " " $4]++) d++} END {print n + 0, d + 0}' "$T_TMP/n.log")
set -- $out
[ "$1" = 2000 ] && [ "$2" -gt 1800 ] || fail "file set numjobs=2: $2 distinct blocks of $1 reads (the jobs' streams alike?)"
ok "file set numjobs=2: $2 distinct blocks of $1 reads"

# fio's examples as job files (options as fio's examples/ give them; target
# and length set here: time_based for 2 s, as tests/fio_examples.py runs
# them, so that fio's pass restarts, re-seeded, when an I/O cannot be made:
# iometer's size=4g on the 64 MiB device after 1485 I/Os, cmdprio's 1M
# writes past the last 1M block after 29), compared over the I/Os both made
ex=$(dirname "$0")/../fixtures/fio-examples
jobfile() { # jobfile NAME SECTION: the example's [global] and [SECTION], time_based
	python3 - "$ex/$1" "$2" "$dev" "$3" <<'PY'
import sys
src, want, dev = sys.argv[1:4]
out, keep = [], False
for l in open(src):
    s = l.strip()
    if s.startswith("["):
        keep = s in ("[global]", "[%s]" % want)
    elif keep and s and s[0] not in ";#" and not s.startswith(("filename", "write_lat_log", "log_prio", "stonewall", "description")):
        out.append(s)
        continue
    if keep and s.startswith("["):
        out.append(s)
        if s == "[global]":
            out += ["filename=" + dev, "time_based=1", "runtime=2"]
print("\n".join(out))
PY
}
for ex_job in "iometer-file-access-server.fio iometer 3000" "cmdprio-bssplit.fio cmdprio 100"; do
	set -- $ex_job
	jobfile "$1" "$2" "$3" >"$T_TMP/ex.fio"
	rm -f "$T_TMP/f.log" "$T_TMP/n.log"
	fio --write_iolog="$T_TMP/f.log" "$T_TMP/ex.fio" >"$T_TMP/f.txt" 2>&1 ||
		{ cat "$T_TMP/f.txt"; fail "$1: fio exited"; }
	"$NVS_BIN" run --job "$T_TMP/ex.fio" --write_iolog="$T_TMP/n.log" >"$T_TMP/n.txt" 2>&1 ||
		{ cat "$T_TMP/n.txt"; fail "$1: nvscope exited"; }
	out=$(compare "$T_TMP/f.log" "$T_TMP/n.log" "$3") || fail "$1: $out"
	ok "$1 (2 s, at least $3 I/Os): $out"
done
