#!/bin/bash
# fio options nvscope used to refuse (issue 13), run by Debian's fio and by
# nvscope from the same job file on the same loop device: which blocks were
# written (read back), I/O counts and mean block size per direction.
# test: no-sanitizer it compares the blocks, counts and sizes fio and nvscope produce for each option, not memory, and its timed lanes are sleeps' lengths a sanitizer stretches; the options' code runs under ASan and TSan in test_spec.c, test_offgen.c, test_flow.c, the spec fuzzer, fio_meaning.sh and fio_groups.sh
# test: exclusive its think-time counts and rate_min verdicts are sleeps' lengths, which other tests' CPU use stretches (nvscope's thinktime=20ms did 57-65 I/Os in 2 s at load 15, fio 91: 20% apart)
#
# The checks run in lanes side by side, each on a loop device of its own
# (nvscope claims a device it writes) with its own files: first the lanes
# that count blocks and I/Os of size-bound runs, then those whose runs are
# timed (think times, start delay, rate_min: asleep most of the time, and
# not beside the CPU-bound lanes).  Each lane's output is printed in order.
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "fio not installed"
# the interpreter itself: a python3 found through a version manager's shim
# (pyenv's is bash scripts) costs more to start than the checks it runs
PY=$(python3 -c 'import sys; print(sys.executable)') || fail "python3"
declare -A devs
for l in m1 m2 j t s r; do
	t_loop 32M; devs[$l]=$LOOP
done

# written_map: one char per 4k block of the device, 1 = not zeros
written_map() {
	$PY - "$dev" <<'PY'
import sys
with open(sys.argv[1], "rb") as f:
    d = f.read()
print("".join("0" if d[i:i + 4096].count(0) == 4096 else "1" for i in range(0, len(d), 4096)))
PY
}
zero() { dd if=/dev/zero of="$dev" bs=1M oflag=direct status=none 2>/dev/null; }
job() { # $1 = the job's lines
	printf '[global]\nioengine=io_uring\ndirect=1\nfilename=%s\n[j]\n%s\n' "$dev" "$1"
}
# same_map LINES WHAT: the blocks fio writes are the blocks nvscope writes
same_map() {
	job "$1" >"$T_TMP/j.fio"
	zero; fio "$T_TMP/j.fio" >/dev/null 2>&1 || fail "fio: $2"; fm=$(written_map)
	zero; "$NVS_BIN" run -q "$T_TMP/j.fio" >/dev/null 2>"$T_TMP/err" ||
		fail "nvscope: $2: $(cat "$T_TMP/err")"
	nm=$(written_map)
	[ "$fm" = "$nm" ] || fail "$2: written blocks differ
fio:     ${fm:0:128}
nvscope: ${nm:0:128}"
	ok "$2: the same blocks written as fio"
}

# counts and mean block size per direction, fio vs nvscope (JSON); norandommap
# where sizes vary: fio's random map cuts an I/O short at a block done before,
# nvscope's offsets are always uniform with replacement
cmp_json() { # $1 = lines, $2 = what, $3 = python check of (f, n)
	job "$1" >"$T_TMP/c.fio"
	zero
	# both tools side by side: the same moment's load for both
	fio --output-format=json "$T_TMP/c.fio" >"$T_TMP/f.json" 2>/dev/null &
	local fpid=$!
	"$NVS_BIN" run --output-format=json "$T_TMP/c.fio" >"$T_TMP/n.json" 2>"$T_TMP/err" ||
		fail "nvscope: $2: $(cat "$T_TMP/err")"
	wait $fpid || fail "fio: $2"
	$PY - "$T_TMP/f.json" "$T_TMP/n.json" "$2" "$3" <<'PY' || fail "$2 differs from fio"
import json, sys
f, n = (json.load(open(p))["jobs"][0] for p in sys.argv[1:3])
def mbs(j, d):
    return j[d]["io_bytes"] / j[d]["total_ios"] if j[d]["total_ios"] else 0
for d in ("read", "write"):
    print("  ", sys.argv[3], d, "ios fio", f[d]["total_ios"], "nvscope", n[d]["total_ios"],
          "mean bs fio", round(mbs(f, d)), "nvscope", round(mbs(n, d)))
exec(sys.argv[4])
PY
	ok "$2: as fio"
}
close='def near(a, b, tol): assert abs(a - b) <= tol * max(a, b, 1), (a, b)
'

lane_m1() {
same_map $'rw=write:4k\nbs=4k\nsize=1m' "rw=write:4k (a 4k hole after each write)"
same_map $'rw=write\nbs=4k\nsize=256k\nnumjobs=3\noffset_increment=8m' \
	"offset_increment=8m x numjobs=3"
same_map $'rw=write\nbs=8k,4k\nsize=512k\noffset=4m' "bs=8k,4k: writes 4k (per direction)"

# percentage_random=0 is sequential, rw=randread:N sequential runs: same
# blocks read... checked through writes: randwrite with percentage_random=0
same_map $'rw=randwrite\nbs=4k\nsize=512k\npercentage_random=0' "percentage_random=0"
# rw=randwrite:N: sequential between random offsets.  With N larger than the
# job, one contiguous run of blocks (fio 3.33 starts it at block 7 here,
# nvscope at the region's start)
job $'rw=randwrite:1000000\nbs=4k\nsize=512k' >"$T_TMP/j.fio"
for who in fio nvscope; do
	zero
	if [ $who = fio ]; then fio "$T_TMP/j.fio" >/dev/null 2>&1; else "$NVS_BIN" run -q "$T_TMP/j.fio" >/dev/null; fi ||
		fail "$who: rw=randwrite:N"
	runs=$(written_map | tr -s 0 ' ' | wc -w)
	[ "$runs" = 1 ] || fail "$who: rw=randwrite:1000000 wrote $runs runs of blocks, not one"
done
ok "rw=randwrite:N: one sequential run, as fio"
}

lane_m2() {
# random_distribution: fio's lib/zipf.c and lib/gauss.c.  The hot spot's
# share, measured as the distinct blocks 2048 writes reach over 8192
# (norandommap: fio's random map would move repeats elsewhere)
distinct() { written_map | tr -d 0 | wc -c; }
for d in zipf:1.2 zipf:0.8 pareto:0.9 normal:5 random; do
	job "rw=randwrite
bs=4k
io_size=8m
norandommap
random_distribution=$d" >"$T_TMP/d.fio"
	zero; fio "$T_TMP/d.fio" >/dev/null 2>&1 || fail "fio: $d"; fd=$(distinct)
	zero; "$NVS_BIN" run -q "$T_TMP/d.fio" >/dev/null 2>"$T_TMP/err" ||
		fail "nvscope: $d: $(cat "$T_TMP/err")"
	nd=$(distinct)
	echo "   random_distribution=$d distinct blocks: fio $fd nvscope $nd"
	$PY -c "import sys; f, n = $fd, $nd; sys.exit(abs(f - n) > 0.08 * f + 8)" ||
		fail "random_distribution=$d: fio $fd distinct blocks, nvscope $nd"
done
ok "random_distribution: the hot spot as fio's"
}

lane_j() {
cmp_json $'rw=randrw\nbs=4k,16k\nio_size=8m\nsize=16m' "bs=4k,16k on randrw" \
	"$close"'for d in ("read", "write"):
    near(mbs(f, d), mbs(n, d), 0.001)
near(f["read"]["io_bytes"] + f["write"]["io_bytes"], n["read"]["io_bytes"] + n["write"]["io_bytes"], 0.05)'
cmp_json $'rw=randread\nbsrange=4k-32k\nio_size=16m\nnorandommap' "bsrange=4k-32k" \
	"$close"'near(mbs(f, "read"), mbs(n, "read"), 0.06)'
cmp_json $'rw=randwrite\nbssplit=4k/20:64k/80,\nrw=randrw\nio_size=16m\nnorandommap' \
	"bssplit per direction (reads 4k/20:64k/80, writes 4k)" \
	"$close"'near(mbs(f, "read"), mbs(n, "read"), 0.08); near(mbs(f, "write"), mbs(n, "write"), 0.001)'

# a fixture with several jobs: the same jobs, rw, I/O counts per direction
# (exact where the sizes are fixed) and mean block sizes as fio
zero
J=tests/jobfiles/fio-options.fio
fio --output-format=json --output="$T_TMP/fio.json" --filename="$dev" "$J" >/dev/null \
	2>"$T_TMP/e" || fail "fio: $(cat "$T_TMP/e")"
"$NVS_BIN" run -q --target "$dev" --output-format=json --output "$T_TMP/nvs.json" "$J" \
	>/dev/null 2>"$T_TMP/e" || fail "nvscope: $(cat "$T_TMP/e")"
$PY - "$T_TMP/fio.json" "$T_TMP/nvs.json" <<'PY' || fail "fixture differs from fio"
import json, sys
fj, nj = (json.load(open(p))["jobs"] for p in sys.argv[1:])
# both report each numjobs clone (as fio does): sum each job's clones
def fold(jobs):
    f = []
    for j in jobs:
        if f and f[-1]["jobname"] == j["jobname"]:
            f[-1]["n"] += 1
            for d in ("read", "write"):
                for k in ("total_ios", "io_bytes"):
                    f[-1][d][k] += j[d][k]
        else:
            f.append(dict(j, n=1))
    return f
f, n = fold(fj), fold(nj)
assert [j["n"] for j in f] == [j["n"] for j in n], ("clones", [j["n"] for j in f], [j["n"] for j in n])
assert [j["jobname"] for j in f] == [j["jobname"] for j in n], ([j["jobname"] for j in f], [j["jobname"] for j in n])
assert [j["job options"]["rw"].split(":")[0] for j in f] == [j["job options"]["rw"] for j in n], "rw"
for a, b in zip(f, n):
    for d in ("read", "write"):
        fa, nb = a[d]["total_ios"], b[d]["total_ios"]
        fm = a[d]["io_bytes"] / fa if fa else 0
        nm = b[d]["io_bytes"] / nb if nb else 0
        print("  ", a["jobname"], d, "ios fio", fa, "nvscope", nb, "mean bs fio", round(fm), "nvscope", round(nm))
        # mixed and ranged jobs draw directions/sizes at random: within noise
        tol = 0.12 if a["jobname"] in ("per-dir-bs", "range") else 0
        assert abs(fa - nb) <= tol * max(fa, nb), (a["jobname"], d, fa, nb)
        assert abs(fm - nm) <= 0.1 * max(fm, nm, 1), (a["jobname"], d, fm, nm)
PY
ok "multi-job fixture: jobs, rw, counts and sizes as fio"
}

lane_t() {
cmp_json $'rw=randread\nbs=4k\nthinktime=20ms\nruntime=2\ntime_based' "thinktime=20ms" \
	"$close"'near(f["read"]["total_ios"], n["read"]["total_ios"], 0.2)'
cmp_json $'rw=randread\nbs=4k\niodepth=4\nthinktime=20ms\nthinktime_blocks=4\nruntime=2\ntime_based' \
	"thinktime_blocks=4" "$close"'near(f["read"]["total_ios"], n["read"]["total_ios"], 0.2)'
}

lane_s() {
# startdelay: the job starts that much later (a lower bound, not a speed)
s=$(date +%s%N)
"$NVS_BIN" run -q --target "$dev" --rw=read --size=64k --startdelay=1500ms >/dev/null ||
	fail "startdelay"
e=$(( ($(date +%s%N) - s) / 1000000 ))
[ "$e" -ge 1500 ] || fail "startdelay=1500ms ran in $e ms"
ok "startdelay"
}

lane_r() {
	declare -A fp np
# rate_min: a job below it fails (exit 1), as fio's does; above it runs on
# (the four runs side by side: each 4 s asleep between its reads)
for m in 1m 100k; do
	job "rw=randread
bs=4k
thinktime=20ms
rate_min=$m
runtime=4
time_based" >"$T_TMP/m$m.fio"
	fio "$T_TMP/m$m.fio" >/dev/null 2>&1 &
	fp[$m]=$!
	"$NVS_BIN" run -q "$T_TMP/m$m.fio" >/dev/null 2>"$T_TMP/err$m" &
	np[$m]=$!
done
for m in 1m 100k; do
	wait "${fp[$m]}"; f=$?
	wait "${np[$m]}"; n=$?
	echo "   rate_min=$m with ~200 KB/s: fio exit $f, nvscope exit $n"
	[ "$f" = "$n" ] || fail "rate_min=$m: fio exit $f, nvscope $n: $(cat "$T_TMP/err$m")"
done
[ "$n" = 0 ] || fail "rate_min=100k failed"
ok "rate_min: fails below, as fio"
}

# lanes L...: each in the background in its own directory, on its device;
# then each one's output in order, and the test fails if one did
lanes() {
	local l rc failed="" pids=()
	for l in "$@"; do
		mkdir -p "$T_TMP/$l"
		T_TMP=$T_TMP/$l dev=${devs[$l]} lane_$l >"$T_TMP/$l.log" 2>&1 &
		pids+=($!)
	done
	for l in "$@"; do
		wait "${pids[0]}"
		rc=$?
		pids=("${pids[@]:1}")
		cat "$T_TMP/$l.log"
		[ $rc = 0 ] || failed="$failed $l"
	done
	[ -z "$failed" ] || fail "lane(s)$failed failed (FAIL lines above)"
}
lanes m1 m2 j
lanes t s r
