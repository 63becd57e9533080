#!/bin/bash
# nvscope run --read_iolog: a trace's I/Os reach the device (counts against
# /sys/block/*/stat), its figures land in nvscope.trace, copies get their own
# regions, and bad input or a device holding data is refused (exit 2,
# nothing written).
. "$(dirname "$0")/../lib.sh"
t_loop 64M
dev=$LOOP
name=${dev##*/}
tr=$T_TMP/t.log
{
	echo "fio version 3 iolog"
	echo "0 /dev/sdz add"
	for i in $(seq 0 39); do
		op=read; [ $((i % 3)) -eq 0 ] && op=write
		echo "$((i * 2000)) /dev/sdz $op $((i * 65536)) $(((i % 4 + 1) * 4096))"
	done
	echo "80000 /dev/sdz trim 8388608 4096"
	echo "80500 /dev/sdz sync 0 0"
	echo "81000 /dev/sdz close"
} >"$tr"
grep -v "write\|trim" "$tr" >"$T_TMP/ro.log" # a trim destroys too
# reads first, counted exactly: a write makes udev probe the device (reads) later
command -v udevadm >/dev/null && udevadm settle -t 5 2>/dev/null
r0=$(awk '{print $1}' /sys/block/$name/stat)
"$NVS_BIN" run --read_iolog="$T_TMP/ro.log" --target "$dev" -q >/dev/null 2>&1 || fail "read trace"
r1=$(awk '{print $1}' /sys/block/$name/stat)
[ $((r1 - r0)) -eq 26 ] || fail "kernel counted $((r1 - r0)) reads, the trace has 26"
ok "read trace: 26 reads, as the kernel counts"
stat0=($(cat /sys/block/$name/stat))
"$NVS_BIN" run --read_iolog="$tr" --target "$dev" --iodepth=4 --output-format=json \
	--output "$T_TMP/r.json" >"$T_TMP/out.txt" 2>&1 || { cat "$T_TMP/out.txt"; fail "replay exited $?"; }
stat1=($(cat /sys/block/$name/stat))
python3 - "$T_TMP/r.json" "${stat0[0]}" "${stat1[0]}" "${stat0[4]}" "${stat1[4]}" \
	"${stat0[11]:-0}" "${stat1[11]:-0}" "${stat0[15]:-0}" "${stat1[15]:-0}" <<'PY' || fail "replay figures"
import json, sys
d = json.load(open(sys.argv[1]))
j = d["jobs"][0]
t = d["nvscope"]["trace"]
assert t["ios"] == 42 and t["reads"] == 26 and t["writes"] == 14 and t["trims"] == 1, t
assert t["issued"] == 42 and t["skipped"] == 0, t  # the trim and the sync are replayed
if len(sys.argv) > 9 and sys.argv[9] != "0":  # flushes counted (fields 16-17)
    assert int(sys.argv[9]) - int(sys.argv[8]) == 1, ("kernel flushes", sys.argv[8:10])
assert j["trim"]["total_ios"] == 1, j["trim"]
assert int(sys.argv[7]) - int(sys.argv[6]) == 1, ("kernel discards", sys.argv[6:8])
assert j["read"]["total_ios"] == 26 and j["write"]["total_ios"] == 14, (j["read"], j["write"])
rd, wr = int(sys.argv[3]) - int(sys.argv[2]), int(sys.argv[5]) - int(sys.argv[4])
fl = int(sys.argv[9]) - int(sys.argv[8]) if len(sys.argv) > 9 else 0
# the kernel counts an empty flush (the sync) as a write too
assert rd >= 26 and wr == 14 + fl, ("kernel counted", rd, wr, "flushes", fl)  # udev may read
assert t["timed"] and t["lag_us"]["p99"] >= t["lag_us"]["p50"] >= 0, t
assert 0 <= t["late_pct"] <= 100
print("counts match the kernel:", rd, wr, "lag p50/p99 us", t["lag_us"]["p50"], t["lag_us"]["p99"])
PY
grep -q "^trace: .*42 I/Os issued (trims and syncs too), 0 not replayed" "$T_TMP/out.txt" || fail "trace line missing"
ok "replay counts"

# the data written is at the trace's offsets: block 0 (written) is not zero
# and the untouched 4 KiB at 60 MiB still is
[ "$(dd if="$dev" bs=4096 count=1 2>/dev/null | tr -d '\0' | wc -c)" -gt 0 ] || fail "offset 0 not written"
[ "$(dd if="$dev" bs=4096 skip=15360 count=1 2>/dev/null | tr -d '\0' | wc -c)" -eq 0 ] || fail "stray write"
ok "write offsets"

# boot storm: 2 copies, staggered; no_stall with a fixed queue depth
"$NVS_BIN" run --read_iolog="$tr" --target "$dev" --trace_copies=2 --trace_stagger=20ms \
	--output-format=json --output "$T_TMP/s.json" >/dev/null 2>&1 || fail "storm exited $?"
"$NVS_BIN" run --read_iolog="$tr" --target "$dev" --replay_no_stall --iodepth=8 \
	--output-format=json --output "$T_TMP/n.json" >/dev/null 2>&1 || fail "no_stall exited $?"
python3 - "$T_TMP/s.json" "$T_TMP/n.json" <<'PY' || fail "storm/no_stall figures"
import json, sys
d = json.load(open(sys.argv[1]))
s, t = d["jobs"][0], d["nvscope"]["trace"]
assert t["copies"] == 2 and len(t["per_copy"]) == 2 and t["issued"] == 84, t
assert all(c["issued"] == 42 for c in t["per_copy"]), t["per_copy"]
assert s["read"]["total_ios"] == 52 and s["write"]["total_ios"] == 28
n = json.load(open(sys.argv[2]))["nvscope"]["trace"]
assert not n["timed"] and n["issued"] == 42, n
PY
ok "storm and no_stall"

# bad input: exit 2 naming file and line, and nothing written (the kernel's
# write count of the device stays)
w0=$(awk '{print $5}' /sys/block/$name/stat)
printf 'fio version 3 iolog\n0 /dev/x read 0 4096\n5 /dev/x read 4096 4x\n' >"$T_TMP/bad.log"
"$NVS_BIN" run --read_iolog="$T_TMP/bad.log" --target "$dev" >"$T_TMP/e.txt" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "bad trace: exit $rc, not 2"
grep -q "bad.log:3: bad length" "$T_TMP/e.txt" || fail "bad trace message: $(cat "$T_TMP/e.txt")"
printf 'fio version 9 iolog\n' >"$T_TMP/v9.log"
"$NVS_BIN" run --read_iolog="$T_TMP/v9.log" --target "$dev" >"$T_TMP/e.txt" 2>&1
[ $? -eq 2 ] && grep -q "v9.log:1: unknown iolog version" "$T_TMP/e.txt" || fail "version line"
printf 'fio version 2 iolog\n/dev/x read 0 4096\n/dev/x write 67108864 4096\n' >"$T_TMP/far.log"
"$NVS_BIN" run --read_iolog="$T_TMP/far.log" --target "$dev" >"$T_TMP/e.txt" 2>&1
[ $? -eq 2 ] && grep -q "far.log: line 3: offset 67108864 + 4096 bytes is beyond" "$T_TMP/e.txt" ||
	fail "beyond the target: $(cat "$T_TMP/e.txt")"
"$NVS_BIN" run --read_iolog="$tr" --target "$dev" --trace_copies=30 >"$T_TMP/e.txt" 2>&1
[ $? -eq 2 ] && grep -q "(one of 30 copies)" "$T_TMP/e.txt" || fail "copies that do not fit"
# a truncated blktrace capture (record 2 cut at 38 of 48 bytes) and a
# corrupt one (bad magic), named with the record
python3 - "$T_TMP/cut.blktrace.0" "$T_TMP/junk.blktrace.0" <<'PY'
import struct, sys
def rec(t, sector, nbytes, action):
    return struct.pack("<IIQQIIIIIHH", 0x65617407, 1, t, sector, nbytes, action, 0, (7 << 20) | 9, 0, 0, 0)
w = rec(1000, 0, 4096, (1 << 17) | 7)  # a write issue (D) event
open(sys.argv[1], "wb").write(w + w[:38])
open(sys.argv[2], "wb").write(w + b"\x00" * 48)
PY
"$NVS_BIN" run --read_iolog="$T_TMP/cut.blktrace.0" --target "$dev" >"$T_TMP/e.txt" 2>&1
[ $? -eq 2 ] && grep -q "cut.blktrace.0: record 2: truncated (38 of 48 bytes)" "$T_TMP/e.txt" ||
	fail "truncated blktrace: $(cat "$T_TMP/e.txt")"
"$NVS_BIN" run --read_iolog="$T_TMP/junk.blktrace.0" --target "$dev" >"$T_TMP/e.txt" 2>&1
[ $? -eq 2 ] && grep -q "junk.blktrace.0: record 2: bad magic" "$T_TMP/e.txt" ||
	fail "corrupt blktrace: $(cat "$T_TMP/e.txt")"
# a text trace cut in the middle of a line, and one with a NUL byte
printf 'fio version 3 iolog\n0 /dev/x write 0 4096\n10 /dev/x write 8192' >"$T_TMP/cut.log"
"$NVS_BIN" run --read_iolog="$T_TMP/cut.log" --target "$dev" >"$T_TMP/e.txt" 2>&1
[ $? -eq 2 ] && grep -q "cut.log:3: " "$T_TMP/e.txt" || fail "cut text trace: $(cat "$T_TMP/e.txt")"
printf 'fio version 3 iolog\n0 /dev/x write 0 4096\n1\0 /dev/x read 0 512\n' >"$T_TMP/nul.log"
"$NVS_BIN" run --read_iolog="$T_TMP/nul.log" --target "$dev" >"$T_TMP/e.txt" 2>&1
[ $? -eq 2 ] && grep -q "nul.log:3: NUL byte" "$T_TMP/e.txt" || fail "NUL byte: $(cat "$T_TMP/e.txt")"
[ "$(awk '{print $5}' /sys/block/$name/stat)" = "$w0" ] || fail "a refused trace wrote to the device"
ok "bad input refused"

# a trace that writes on a device holding data: refused, nothing written
command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
mkfs.ext4 -q -F "$dev" || fail "mkfs"
sum0=$(md5sum <"$dev")
w1=$(awk '{print $5}' /sys/block/$name/stat)
"$NVS_BIN" run --read_iolog="$tr" --target "$dev" >"$T_TMP/e.txt" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "write trace on ext4: exit $rc, not 2 ($(cat "$T_TMP/e.txt"))"
grep -qi "refus" "$T_TMP/e.txt" || fail "no refusal message: $(cat "$T_TMP/e.txt")"
[ "$(md5sum <"$dev")" = "$sum0" ] || fail "the device changed"
[ "$(awk '{print $5}' /sys/block/$name/stat)" = "$w1" ] || fail "the kernel counted writes"
# a read-only trace runs on it
"$NVS_BIN" run --read_iolog="$T_TMP/ro.log" --target "$dev" >/dev/null 2>&1 || fail "read-only trace on ext4"
[ "$(md5sum <"$dev")" = "$sum0" ] || fail "the device changed on a read trace"
ok "write safety"
