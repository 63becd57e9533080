#!/bin/bash
# fio's filename=a:b is ONE job over both files (fio's file set: the files
# served in turn, file_service_type; size split over them; each file done
# after its own size), not one worker per file and not refused.  Checked
# against Debian's fio and the kernel's counters of two loop devices.
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "fio not installed"
t_loop 8M; a=$LOOP
t_loop 16M; b=$LOOP

# kernel's completed I/Os of a device in direction $KDIR (/sys/block/X/stat
# field 1 reads, 5 writes): nvscope's write-safety check reads the device
# before a write job, so a write job is counted by its writes
KDIR=read
kios() { awk -v d=$KDIR '{print d == "read" ? $1 : $5}' "/sys/block/$(basename "$1")/stat"; }
# runs $1 (a job file) with $2 (fio or nvscope): prints "JOBIOS DELTA_A
# DELTA_B", JOBIOS of direction $KDIR
run() {
	local a0 b0 n
	# udev reads a device a writer closed (blkid probe): let it finish first
	udevadm settle 2>/dev/null
	a0=$(kios "$a"); b0=$(kios "$b")
	if [ "$2" = fio ]; then
		fio --output-format=json "$1" >"$T_TMP/out.json" 2>"$T_TMP/err" || fail "fio: $(cat "$T_TMP/err")"
	else
		"$NVS_BIN" run --output-format=json "$1" >"$T_TMP/out.json" 2>"$T_TMP/err" ||
			fail "nvscope: $(cat "$T_TMP/err")"
	fi
	n=$(python3 -c "
import json; d=json.load(open('$T_TMP/out.json'))
assert len(d['jobs']) == 1, 'one job, not one per file: %d' % len(d['jobs'])
j=d['jobs'][0]; print(j['$KDIR']['total_ios'])") || fail "$2: JSON"
	udevadm settle 2>/dev/null
	echo "$n $(( $(kios "$a") - a0 )) $(( $(kios "$b") - b0 ))"
}

job() { # $1 = rw, $2.. = more option lines
	local rw=$1; shift
	printf '[global]\ndirect=1\nbs=4k\nioengine=libaio\niodepth=1\nrandrepeat=0\n[j]\nfilename=%s:%s\nrw=%s\n' \
		"$a" "$b" "$rw"
	for l in "$@"; do echo "$l"; done
}

# 1. sequential writes, size=8m: fio gives each file 4m (size / nrfiles)
job write size=8m >"$T_TMP/w.fio"
KDIR=write
f=$(run "$T_TMP/w.fio" fio); n=$(run "$T_TMP/w.fio" nvscope)
[ "$f" = "2048 1024 1024" ] || fail "fio's own figures unexpected: $f"
[ "$n" = "$f" ] || fail "size=8m over two files: nvscope '$n', fio '$f' (job ios, kernel a, kernel b)"
ok "rw=write size=8m: 1024 writes on each device, 2048 in the job, as fio"

# reads: udev probes a device (blkid reads) after a writer closes it, and
# other programs on a shared machine scan block devices, so the kernel's
# read counts run some dozens over the job's; the job's own counts must be
# fio's (exact), each device's kernel count at least that and within slack
# (the writes above are exact: nothing else writes these devices)
near() { # $1 = kernel delta, $2 = job's count on that device
	[ "$1" -ge "$2" ] && [ "$1" -le $(($2 + $2 / 10 + 128)) ]
}
members() { python3 -c "
import json; m=json.load(open('$T_TMP/out.json'))['jobs'][0]['nvscope']['members']
print(' '.join(str(x['total_ios']) for x in m))"; }

# 2. random reads without size: each file its whole size (8m and 16m)
job randread >"$T_TMP/r.fio"
KDIR=read
read -r f _ _ <<<"$(run "$T_TMP/r.fio" fio)"
read -r n da db <<<"$(run "$T_TMP/r.fio" nvscope)"
read -r ma mb <<<"$(members)"
[ "$f" = 6144 ] && [ "$n" = 6144 ] || fail "randread over 8m + 16m files: nvscope $n, fio $f"
[ "$ma $mb" = "2048 4096" ] || fail "per-file counts in nvscope.members: $ma $mb"
near "$da" 2048 && near "$db" 4096 || fail "kernel's reads $da $db for 2048 + 4096"
ok "rw=randread: each file its own size (2048 + 4096 reads, kernel $da + $db), as fio"

# 3. file_service_type=sequential: the same totals (one file, then the next)
job read size=8m file_service_type=sequential >"$T_TMP/s.fio"
read -r f _ _ <<<"$(run "$T_TMP/s.fio" fio)"
read -r n da db <<<"$(run "$T_TMP/s.fio" nvscope)"
[ "$n" = "$f" ] && [ "$(members)" = "1024 1024" ] || fail "file_service_type=sequential: nvscope $n ($(members)), fio $f"
near "$da" 1024 && near "$db" 1024 || fail "kernel's reads $da $db for 1024 + 1024"
ok "file_service_type=sequential: $n"

# 4. time_based mixed: both devices see writes; the kernel counts the job's
# writes (plus at most the queue depth in flight when the window closed)
job randrw runtime=1 time_based >"$T_TMP/t.fio"
KDIR=write
read -r tot da db <<<"$(run "$T_TMP/t.fio" nvscope)"
[ "$da" -gt 50 ] && [ "$db" -gt 50 ] || fail "time_based: both files must see writes: $da $db"
ex=$((da + db - tot))
[ "$ex" -ge 0 ] && [ "$ex" -le 4 ] || fail "time_based: kernel $((da + db)) writes vs job $tot"
ok "time_based randrw: $da + $db kernel writes, $tot in the job"

# 5. one worker per target stays nvscope's --target a,b (two results)
"$NVS_BIN" run --parse-only --rw=read --filename="$a:$b" >"$T_TMP/p" 2>&1 || fail "--filename=a:b: $(cat "$T_TMP/p")"
grep -q "filename=$a:$b" "$T_TMP/p" || fail "--filename=a:b parse: $(cat "$T_TMP/p")"
"$NVS_BIN" run --parse-only --rw=read --filename="$a:$b" --target "$a" >"$T_TMP/p" 2>&1
[ $? = 2 ] || fail "--filename=a:b with --target must be refused: $(cat "$T_TMP/p")"
ok "--filename=a:b on the command line"
