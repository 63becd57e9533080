#!/bin/bash
# fio_trim_sync.sh - fio's trims and syncs, refereed by the kernel's counters
# of a loop device this test makes (/sys/block/loopN/stat, merges off):
#   fields 12-15 = discard ios, merges, sectors, ticks
#   fields 16-17 = flush ios, ticks
# - rw=randtrim: nvscope's JSON trim total_ios / io_bytes equal the kernel's
#   discards / sectors*512 (within the queue depth: I/Os in flight at the
#   end); reads and writes stay 0; the console summary has a trim line;
# - rw=trimwrite: as many trims as writes, each counted by the kernel;
# - a regular file: trims punch holes (blocks freed, size kept);
# - a trim is a write for the safety rule: refused on a device holding a
#   file system signature without force_destroy, nothing discarded;
# - fsync=4: the JSON sync total_ios is writes/4, the kernel saw flushes
#   (at most one per sync: the block layer merges concurrent flushes) and
#   none without it; fdatasync=2 likewise; sync=1 / sync=dsync: flushes
#   with no fsync issued (O_SYNC writes on a write-back cache); end_fsync=1:
#   a flush at the end, outside the sync section; write_iolog logs trims
#   and syncs as fio does.
. "${NVS_TOP:-.}/tests/lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the JSON"
t_loop 64M
name=${LOOP#/dev/}
command -v udevadm >/dev/null && udevadm settle -t 5 2>/dev/null
echo 2 >"/sys/block/$name/queue/nomerges" 2>/dev/null
[ -r "/sys/block/$name/stat" ] || skip "no /sys/block/$name/stat"
[ "$(awk '{print NF}' "/sys/block/$name/stat")" -ge 17 ] || skip "stat has no discard/flush fields"
[ "$(cat "/sys/block/$name/queue/discard_max_bytes")" != 0 ] || skip "$LOOP does not discard"

# run NAME ARGS...: one 1-s job; leaves $T_TMP/NAME.json, .out and the
# kernel's before/after stat lines in B and A
run() {
	local n=$1 rc
	shift
	B=$(cat "/sys/block/$name/stat")
	"$NVS_BIN" run --target "$LOOP" --ramp_time=0 --runtime=1 --time_based \
		--output-format=json --output "$T_TMP/$n.json" "$@" >"$T_TMP/$n.out" 2>&1
	rc=$?
	A=$(cat "/sys/block/$name/stat")
	[ $rc -eq 0 ] || fail "$n: nvscope exited $rc: $(cat "$T_TMP/$n.out")"
}
check() { # check NAME PYTHON: the JSON's job j, kernel deltas d[0..16]
	python3 - "$T_TMP/$1.json" "$B" "$A" "$2" <<'PY' || fail "$1: see above"
import json, sys
path, b, a, code = sys.argv[1:5]
d = [int(y) - int(x) for x, y in zip(b.split(), a.split())]
jobs = json.load(open(path))["jobs"]
j = {k: sum(x[k]["total_ios"] for x in jobs) for k in ("read", "write", "trim", "sync")}
tb = sum(x["trim"]["io_bytes"] for x in jobs)
R, W, TR, S = j["read"], j["write"], j["trim"], j["sync"]
exec(code)
PY
}
json_ok() { [ -s "$T_TMP/$1.json" ] || fail "$1: no JSON: $(cat "$T_TMP/$1.out")"; }

run randtrim --rw=randtrim --bs=64k --iodepth=4
json_ok randtrim
check randtrim '
print(f"randtrim: nvscope trims={TR} bytes={tb} | kernel discards={d[11]} merges={d[12]} bytes={d[13]*512}")
assert TR > 0, "no trims counted"
assert R == 0 and W == 0, "trims counted as reads or writes"
assert 0 <= d[11] + d[12] - TR <= 4, "trim count differs from the kernel discards"
assert 0 <= d[13] * 512 - tb <= 4 * 65536, "trimmed bytes differ from the kernel"
t = jobs[0]["trim"]
assert t["lat_ns"]["N"] == TR and t["lat_ns"]["mean"] > 0 and t["bw_bytes"] > 0
assert t["iops_samples"] > 0
'
grep -q "  trim: IOPS=" "$T_TMP/randtrim.out" || fail "no trim line in the summary: $(cat "$T_TMP/randtrim.out")"
ok "randtrim: trims counted as the kernel's discards, in the trim section and summary"

run trimwrite --rw=trimwrite --bs=16k --iodepth=1
check trimwrite '
print(f"trimwrite: nvscope trims={TR} writes={W} | kernel discards={d[11]} writes={d[4]}")
assert TR > 0 and abs(TR - W) <= 1, "trimwrite: trims and writes not paired"
assert 0 <= d[11] - TR <= 1 and 0 <= d[4] - W <= 1, "kernel counts differ"
'
ok "trimwrite: each block trimmed then written"

# the same job file to fio and to nvscope: the same trims and writes
if command -v fio >/dev/null; then
	for rw in trim randtrim trimwrite; do
		printf '[global]\nfilename=%s\nioengine=io_uring\niodepth=4\ndirect=1\nsize=16M\nbs=64k\n[t]\nrw=%s\n' \
			"$LOOP" $rw >"$T_TMP/$rw.fio"
		fio --output-format=json "$T_TMP/$rw.fio" >"$T_TMP/$rw.fio.json" 2>"$T_TMP/$rw.fio.err" ||
			fail "fio $rw: $(cat "$T_TMP/$rw.fio.err")"
		"$NVS_BIN" run "$T_TMP/$rw.fio" --output-format=json >"$T_TMP/$rw.nv.json" 2>"$T_TMP/$rw.nv.err" ||
			fail "nvscope $rw: $(cat "$T_TMP/$rw.nv.err")"
		python3 - "$T_TMP/$rw.fio.json" "$T_TMP/$rw.nv.json" $rw <<'PY' || fail "$rw: differs from fio"
import json, sys
f, n = (json.load(open(p))["jobs"][0] for p in sys.argv[1:3])
got = {d: (n[d]["total_ios"], n[d]["io_bytes"]) for d in ("read", "write", "trim")}
want = {d: (f[d]["total_ios"], f[d]["io_bytes"]) for d in ("read", "write", "trim")}
print(f"{sys.argv[3]}: fio {want} nvscope {got}")
assert got == want
PY
	done
	ok "rw=trim, randtrim, trimwrite job files: the same I/O counts as fio"
fi

# a regular file: trims punch holes (its blocks are freed), counted as trims
f=$T_TMP/trim.img
dd if=/dev/urandom of="$f" bs=1M count=4 status=none
[ "$(stat -c %b "$f")" -gt 0 ] || fail "file not allocated"
"$NVS_BIN" run --target "$f" --rw=trim --bs=64k --size=4M --output-format=json \
	--output "$T_TMP/ftrim.json" >"$T_TMP/ftrim.out" 2>&1 || fail "trim on a file: $(cat "$T_TMP/ftrim.out")"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]; assert j["trim"]["total_ios"] == 64, j["trim"]' \
	"$T_TMP/ftrim.json" || fail "file trims not counted"
[ "$(stat -c %b "$f")" -eq 0 ] || fail "trimmed file still has $(stat -c %b "$f") blocks"
[ "$(stat -c %s "$f")" -eq 4194304 ] || fail "trim changed the file size"
ok "a file: 64 trims punch every block, the size stays"

# the safety rule: a trim is a write; over a file system signature refused
# without force_destroy, and nothing is discarded
if command -v mkfs.ext4 >/dev/null; then
	mkfs.ext4 -q -F "$LOOP" >/dev/null 2>&1 || fail "mkfs"
	command -v udevadm >/dev/null && udevadm settle -t 5 2>/dev/null
	B=$(cat "/sys/block/$name/stat")
	"$NVS_BIN" run --target "$LOOP" --rw=trim --bs=64k --runtime=1 >"$T_TMP/refuse.out" 2>&1
	rc=$?
	A=$(cat "/sys/block/$name/stat")
	[ $rc -eq 2 ] || fail "trim over ext4: exit $rc, wanted 2: $(cat "$T_TMP/refuse.out")"
	grep -q "force" "$T_TMP/refuse.out" || fail "refusal does not name the override: $(cat "$T_TMP/refuse.out")"
	echo '{"jobs": []}' >"$T_TMP/refuse.json"
	check refuse 'assert d[11] == 0, "a refused trim discarded"'
	ok "a trim over ext4 is refused like a write (exit 2), nothing discarded"
	dd if=/dev/zero of="$LOOP" bs=1M count=1 oflag=direct status=none
fi

run nosync --rw=randwrite --bs=4k --iodepth=4
check nosync '
print(f"no sync: nvscope writes={W} syncs={S} | kernel flushes={d[15]}")
assert S == 0 and d[15] == 0, "flushes without fsync="
'
run fsync --rw=randwrite --bs=4k --iodepth=4 --fsync=4
check fsync '
print(f"fsync=4: nvscope writes={W} syncs={S} | kernel flushes={d[15]}")
assert S > 0 and abs(S - W // 4) <= 4, "not one fsync per 4 writes"
assert 1 <= d[15] <= S + 4, "kernel flushes do not match the syncs"
s = jobs[0]["sync"]["lat_ns"]
assert s["N"] == S and s["mean"] > 0 and "percentile" in s
'
grep -q "  sync: " "$T_TMP/fsync.out" || fail "no sync line in the summary"
run fdatasync --rw=randwrite --bs=4k --iodepth=2 --fdatasync=2
check fdatasync '
print(f"fdatasync=2: nvscope writes={W} syncs={S} | kernel flushes={d[15]}")
assert S > 0 and abs(S - W // 2) <= 2
assert 1 <= d[15] <= S + 2
'
ok "fsync=4 / fdatasync=2: one sync per N writes, the kernel flushed"
for m in 1 dsync; do
	run "sync$m" --rw=randwrite --bs=4k --iodepth=2 --sync=$m
	check "sync$m" '
print(f"sync: nvscope writes={W} syncs={S} | kernel flushes={d[15]}")
assert S == 0 and d[15] >= 1, "O_SYNC writes made no flush"
'
done
ok "sync=1 / sync=dsync: synchronous writes (the kernel flushed, no fsync issued)"
run endfsync --rw=write --bs=64k --size=8M --end_fsync=1
check endfsync '
print(f"end_fsync: nvscope writes={W} syncs={S} | kernel flushes={d[15]}")
assert S == 0 and d[15] >= 1, "end_fsync made no flush"
'
ok "end_fsync=1: a flush after the writes, not in the sync section"

# write_iolog names trims and syncs as fio does ("trim OFF LEN", "sync")
"$NVS_BIN" run --target "$LOOP" --rw=trimwrite --bs=64k --size=1M --fsync=2 \
	--write_iolog="$T_TMP/tw.iolog" -q >"$T_TMP/il.out" 2>&1 || fail "iolog run: $(cat "$T_TMP/il.out")"
[ "$(grep -c " trim " "$T_TMP/tw.iolog")" -eq 16 ] || fail "iolog trims: $(head "$T_TMP/tw.iolog")"
[ "$(grep -c " write " "$T_TMP/tw.iolog")" -eq 16 ] || fail "iolog writes"
grep -q " sync " "$T_TMP/tw.iolog" || fail "iolog has no sync"
ok "write_iolog: trim, write and sync entries"
