#!/bin/bash
# fio_verify.sh - fio's verify= on a loop device this test makes:
# - rw=write with verify=md5|crc32c|sha1|sha256|meta|pattern (do_verify=1,
#   fio's default): exit 0, every block written is read back and checked
#   (the JSON's nvscope.verify.blocks = blocks written, bad 0) and the kernel
#   read at least those bytes (/sys/block/loopN/stat field 3, sectors read);
#   as in fio, the read-back is the job's reads (read.total_ios, io_bytes) and
#   its time their runtime;
# - rw=randwrite verify=crc32c: the blocks written are read back, all good;
#   with verify_backlog=16 every write is checked during the job;
# - a block corrupted between the write (do_verify=0) and a verify_only
#   read-back (one sector overwritten with dd): exit 1, the bad block's byte
#   offset on stderr and in the JSON; with verify_fatal=1 on a read job the
#   first bad block ends the job (exit 1), naming the offset;
# - verify_dump=1: the bad block as read goes to loopN.OFFSET.received in the
#   current directory (the bytes on the device); a name already there, a
#   planted symlink, is not followed nor overwritten (the run still exits 1);
#   verify=pattern also writes the .expected block.
. "${NVS_TOP:-.}/tests/lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the JSON"
t_loop 32M
name=${LOOP#/dev/}
command -v udevadm >/dev/null && udevadm settle -t 5 2>/dev/null
echo 2 >"/sys/block/$name/queue/nomerges" 2>/dev/null
reads() { awk '{print $3}' "/sys/block/$name/stat"; } # sectors read
common="--target $LOOP --bs=64k --iodepth=4 --size=16M --ramp_time=0"

for v in md5 crc32c sha1 sha256 meta pattern; do
	extra=
	[ $v = pattern ] && extra=--verify_pattern=0x5a17c0de
	r0=$(reads)
	"$NVS_BIN" run $common --rw=write --verify=$v $extra --output-format=json \
		--output "$T_TMP/$v.json" >"$T_TMP/$v.out" 2>&1 ||
		fail "verify=$v: exit $?: $(cat "$T_TMP/$v.out")"
	r1=$(reads)
	python3 - "$T_TMP/$v.json" $((r1 - r0)) <<'PY' || fail "verify=$v: see above"
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
v, kreads = j["nvscope"]["verify"], int(sys.argv[2])
print(f"  written={j['write']['total_ios']} checked={v['blocks']} bad={v['bad']} kernel read sectors={kreads}")
assert j["write"]["total_ios"] == 256 and v["blocks"] == 256 and v["bad"] == 0, v
assert kreads * 512 >= 16 << 20, "the read-back did not reach the device"
# fio counts do_verify's read-back as the job's reads, its time as their runtime
assert j["read"]["total_ios"] == 256 and j["read"]["io_bytes"] == 16 << 20, j["read"]["total_ios"]
assert 0 < j["read"]["runtime"] and j["read"]["iops"] > 0, j["read"]
PY
	grep -q "verify: 256 blocks checked, 0 bad" "$T_TMP/$v.out" || fail "no verify line: $(cat "$T_TMP/$v.out")"
done
ok "write + read-back for md5, crc32c, sha1, sha256, meta, pattern: every block good"

"$NVS_BIN" run --target "$LOOP" --rw=randwrite --bs=4k --iodepth=8 --size=8M --verify=crc32c \
	--output-format=json --output "$T_TMP/rand.json" >"$T_TMP/rand.out" 2>&1 ||
	fail "randwrite verify: $(cat "$T_TMP/rand.out")"
python3 - "$T_TMP/rand.json" <<'PY' || fail "randwrite verify"
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
v = j["nvscope"]["verify"]
assert 0 < v["blocks"] <= j["write"]["total_ios"] and v["bad"] == 0, v
PY
ok "randwrite: the blocks written read back good"

# rw=write:48k (a 48k hole after each 16k write, as cross-stripe-verify.fio):
# each block written is read back, the holes are not
"$NVS_BIN" run --target "$LOOP" --rw=write:48k --bs=16k --iodepth=4 --size=16M --verify=crc32c \
	--output-format=json --output "$T_TMP/skip.json" >"$T_TMP/skip.out" 2>&1 ||
	fail "rw=write:48k verify: $(cat "$T_TMP/skip.out")"
python3 - "$T_TMP/skip.json" <<'PY' || fail "rw=write:48k verify"
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
v = j["nvscope"]["verify"]
assert v["blocks"] == j["write"]["total_ios"] == 256 and v["bad"] == 0, (v, j["write"]["total_ios"])
PY
ok "rw=write:48k: the blocks written (not the holes) read back good"

# fio's verify_backlog: every 16 blocks written are read back during the job
r0=$(reads)
"$NVS_BIN" run --target "$LOOP" --rw=randwrite --bs=4k --iodepth=8 --size=8M --verify=crc32c \
	--verify_backlog=16 --output-format=json --output "$T_TMP/bl.json" >"$T_TMP/bl.out" 2>&1 ||
	fail "verify_backlog: $(cat "$T_TMP/bl.out")"
r1=$(reads)
python3 - "$T_TMP/bl.json" $((r1 - r0)) <<'PY' || fail "verify_backlog"
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
v, ks = j["nvscope"]["verify"], int(sys.argv[2])
print(f"  backlog: written={j['write']['total_ios']} checked={v['blocks']} kernel read sectors={ks}")
assert v["blocks"] == j["write"]["total_ios"] == 2048 and v["bad"] == 0, v
assert ks * 512 >= 2048 * 4096
PY
ok "verify_backlog=16: each block written is read back and good"

# a sequential write without the read-back, then one sector of block 5
# overwritten, then fio's verify_only: the bad block is found and named
"$NVS_BIN" run $common --rw=write --verify=crc32c --do_verify=0 -q >"$T_TMP/w.out" 2>&1 ||
	fail "write: $(cat "$T_TMP/w.out")"
"$NVS_BIN" run $common --rw=write --verify=crc32c --verify_only --output-format=json \
	--output "$T_TMP/clean.json" >"$T_TMP/clean.out" 2>&1 || fail "verify_only of a good region: $(cat "$T_TMP/clean.out")"
bad=$((5 * 65536))
dd if=/dev/urandom of="$LOOP" bs=512 seek=$((bad / 512 + 3)) count=1 oflag=direct conv=notrunc status=none ||
	fail "dd"
"$NVS_BIN" run $common --rw=write --verify=crc32c --verify_only --output-format=json \
	--output "$T_TMP/bad.json" >"$T_TMP/bad.out" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "verify_only over a corrupted block: exit $rc, wanted 1: $(cat "$T_TMP/bad.out")"
grep -q "offset $bad" "$T_TMP/bad.out" || fail "the bad block's offset is not named: $(cat "$T_TMP/bad.out")"
python3 - "$T_TMP/bad.json" $bad <<'PY' || fail "bad block in the JSON"
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
v = j["nvscope"]["verify"]
assert v["bad"] == 1 and v["first_bad_offset"] == int(sys.argv[2]) and v["blocks"] == 256, v
assert j["write"]["total_ios"] == 0, "verify_only wrote"
PY
ok "a corrupted block: verify_only exits 1 naming offset $bad"

"$NVS_BIN" run $common --rw=read --verify=crc32c --verify_fatal=1 >"$T_TMP/fatal.out" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "verify_fatal: exit $rc: $(cat "$T_TMP/fatal.out")"
grep -q "verify_fatal.*offset $bad" "$T_TMP/fatal.out" || fail "verify_fatal message: $(cat "$T_TMP/fatal.out")"
ok "verify_fatal=1: the first bad block ends the job"

# verify_dump: fio's files in the current directory, through the safety module
mkdir -p "$T_TMP/dump" "$T_TMP/dump2" && chmod 755 "$T_TMP/dump" "$T_TMP/dump2"
(cd "$T_TMP/dump" && "$NVS_BIN" run $common --rw=read --verify=crc32c --verify_dump=1 \
	>"$T_TMP/dump.out" 2>&1)
rc=$?
[ $rc -eq 1 ] || fail "verify_dump: exit $rc: $(cat "$T_TMP/dump.out")"
f=$T_TMP/dump/$name.$bad.received
[ -f "$f" ] && [ ! -L "$f" ] || fail "verify_dump: no $f: $(ls -l "$T_TMP/dump"; cat "$T_TMP/dump.out")"
dd if="$LOOP" bs=64k skip=5 count=1 iflag=direct status=none | cmp - "$f" ||
	fail "verify_dump: $f is not the block on the device"
[ "$(ls "$T_TMP/dump" | wc -l)" = 1 ] || fail "verify_dump: other files: $(ls "$T_TMP/dump")"
grep -q "received data dumped as $name.$bad.received" "$T_TMP/dump.out" || fail "no dump line: $(cat "$T_TMP/dump.out")"
ok "verify_dump=1: the bad block as read is $name.$bad.received in the current directory"

echo keep >"$T_TMP/victim"
ln -s "$T_TMP/victim" "$T_TMP/dump2/$name.$bad.received"
(cd "$T_TMP/dump2" && "$NVS_BIN" run $common --rw=read --verify=crc32c --verify_dump=1 \
	>"$T_TMP/dump2.out" 2>&1)
rc=$?
[ $rc -eq 1 ] || fail "verify_dump over a symlink: exit $rc: $(cat "$T_TMP/dump2.out")"
[ "$(cat "$T_TMP/victim")" = keep ] || fail "verify_dump wrote through a planted symlink"
[ -L "$T_TMP/dump2/$name.$bad.received" ] || fail "the planted symlink was replaced"
grep -q "verify_dump: $name.$bad.received: not written" "$T_TMP/dump2.out" ||
	fail "the refusal is not said: $(cat "$T_TMP/dump2.out")"
# run again where the first dump is: an existing file is not overwritten
cp "$f" "$T_TMP/before"
(cd "$T_TMP/dump" && "$NVS_BIN" run $common --rw=read --verify=crc32c --verify_dump=1 >/dev/null 2>&1)
cmp -s "$f" "$T_TMP/before" || fail "verify_dump overwrote an existing dump"
ok "verify_dump: a planted symlink is neither followed nor replaced; an existing file is kept"

"$NVS_BIN" run $common --rw=write --verify=pattern --verify_pattern=0x5a17c0de --do_verify=0 -q \
	>/dev/null 2>&1 || fail "pattern write"
dd if=/dev/urandom of="$LOOP" bs=512 seek=$((bad / 512 + 3)) count=1 oflag=direct conv=notrunc status=none
mkdir -p "$T_TMP/dump3" && chmod 755 "$T_TMP/dump3"
(cd "$T_TMP/dump3" && "$NVS_BIN" run $common --rw=read --verify=pattern --verify_pattern=0x5a17c0de \
	--verify_dump=1 >"$T_TMP/dump3.out" 2>&1)
python3 - "$T_TMP/dump3/$name.$bad.expected" <<'PY' || fail "pattern's expected block: $(cat "$T_TMP/dump3.out")"
import sys
d = open(sys.argv[1], "rb").read()
assert d == bytes.fromhex("5a17c0de") * (65536 // 4), len(d)
PY
ok "verify_dump with verify=pattern: the expected block is the pattern"

# fio's do_io/do_verify loop, side by side with Debian's fio on this device:
# - time_based: fio's write phase ends after size bytes when verifying
#   (backend.c do_io), do_verify reads that pass back, and the job loops
#   until its runtime (which also ends a read-back): many passes of the
#   8 MiB region in 2 s, so the reads are whole passes of its 128 blocks,
#   and the writes' and reads' runtimes share the job's time.  Before,
#   nvscope wrote for the whole runtime and then read back each distinct
#   block once, after it.
# - writes its runtime cuts short are not read back (fio's do_verify is
#   skipped when the job is terminated): rate_iops=50 over 128 blocks with
#   runtime=1 reads nothing in either tool.
command -v fio >/dev/null || skip "no fio"
cmp_runs() { # label, then the options both tools take
	local label=$1
	shift
	"$NVS_BIN" run --target "$LOOP" "$@" --output-format=json >"$T_TMP/n.json" 2>"$T_TMP/n.err" ||
		fail "$label: nvscope exit $?: $(cat "$T_TMP/n.err")"
	fio --name=j --filename="$LOOP" --direct=1 --ioengine=libaio "$@" --output-format=json \
		>"$T_TMP/f.json" 2>"$T_TMP/f.err" || fail "$label: fio exit $?: $(cat "$T_TMP/f.err")"
}
figures() {
	python3 - "$1" <<'PY'
import json, sys
s = open(sys.argv[1]).read()
j = json.loads(s[s.index("{"):])["jobs"][0]
print(j["write"]["total_ios"], j["read"]["total_ios"], j["write"]["runtime"], j["read"]["runtime"])
PY
}
# a pass of VB blocks: 128 (8 MiB); under a sanitizer 32 (2 MiB), as a
# TSan build wrote only 329 blocks of 64k in the 2 s here
VB=128
[ -n "${NVS_SANITIZER:-}" ] && VB=32
cmp_runs "time_based verify" --rw=randwrite --bs=64k --iodepth=4 --size=$((VB * 64))k --verify=crc32c \
	--runtime=2 --time_based
read -r nw nr nwt nrt < <(figures "$T_TMP/n.json")
read -r fw fr fwt frt < <(figures "$T_TMP/f.json")
echo "  time_based verify: nvscope writes $nw reads $nr (${nwt}+${nrt} ms), fio writes $fw reads $fr (${fwt}+${frt} ms)"
for t in "nvscope $nw $nr $nwt $nrt" "fio $fw $fr $fwt $frt"; do
	set -- $t
	# p whole passes written: each but the last read back whole, the
	# last maybe cut by the runtime (a pass whose writes were cut is not
	# read back).  At least two passes, whatever the machine's speed
	# (under TSan here: 3 passes in 2 s, 4 and more without)
	p=$(($2 / VB))
	[ "$p" -ge 2 ] && [ "$3" -ge $(((p - 1) * VB)) ] && [ "$3" -le $((p * VB)) ] ||
		fail "$1: $3 reads, $2 writes: not passes of $VB blocks each read back"
	[ $(($4 + $5)) -ge 1700 ] && [ $(($4 + $5)) -le 2600 ] || fail "$1: runtimes $4 + $5 ms are not the job's 2 s"
done
ok "time_based verify: passes of the region, each read back, within the runtime, as fio"

cmp_runs "cut short" --rw=randwrite --bs=64k --iodepth=4 --size=8M --verify=crc32c --rate_iops=50 \
	--runtime=1
read -r nw nr _ _ < <(figures "$T_TMP/n.json")
read -r fw fr _ _ < <(figures "$T_TMP/f.json")
[ "$nr" = 0 ] && [ "$fr" = 0 ] && [ "$nw" -gt 0 ] && [ "$nw" -lt 128 ] ||
	fail "writes cut by the runtime: nvscope wrote $nw read $nr, fio wrote $fw read $fr"
ok "writes cut short by the runtime are not read back ($nw written, as fio: $fw)"
