#!/bin/bash
# What reaches the device: write a region of a loop device, read it back and
# count distinct 4 KiB blocks and how well they compress (zlib per block, as
# a compressing drive sees a block; zstd --long over the whole region, as
# one that compresses across blocks).  Default: every block distinct,
# nothing compresses.  fio's data options give what fio gives on the same
# device (Debian's fio, run side by side): buffer_compress_percentage
# within 2 points, dedupe_percentage's share of duplicate blocks, zeros.
# test: no-sanitizer it compares the bytes fio and nvscope write (distinct and compressible blocks), not memory; the buffer generator runs under ASan and TSan in test_datagen.c and in every write test
. "$(dirname "$0")/../lib.sh"
command -v zstd >/dev/null || skip "zstd missing (make deps-test)"
t_loop 32M
SZ=$((32 << 20))

# measure NAME: figures of the region as JSON in $T_TMP/NAME.m; the
# compression figures only where a check reads them (RATIO=1: zlib over
# 32 MiB of incompressible blocks is ~3.5 s of CPU a region)
measure() {
	dd if="$LOOP" of="$T_TMP/raw" bs=1M count=32 iflag=direct status=none || fail "read back"
	python3 - "$T_TMP/raw" "$T_TMP/$1.m" "${RATIO:-0}" <<'PY'
import hashlib, json, subprocess, sys, zlib
data = open(sys.argv[1], "rb").read()
ratio = sys.argv[3] == "1"
bs, n = 4096, len(data) // 4096
blocks = [data[i * bs:(i + 1) * bs] for i in range(n)]
nz = [b for b in blocks if b.count(0) != bs]
m = dict(blocks=n, distinct=len({hashlib.sha1(b).digest() for b in blocks}),
         nonzero=len(nz), distinct_nonzero=len({hashlib.sha1(b).digest() for b in nz}))
if ratio:
    z = subprocess.run(["zstd", "-3", "--long=27", "-c", "-q", sys.argv[1]],
                       capture_output=True, check=True).stdout
    m.update(block_ratio=sum(len(zlib.compress(b, 9)) for b in blocks) / len(data),
             stream_ratio=len(z) / len(data))
json.dump(m, open(sys.argv[2], "w"))
print(sys.argv[2].rsplit("/", 1)[1], m)
PY
}
zero_dev() { dd if=/dev/zero of="$LOOP" bs=1M count=32 oflag=direct status=none; }
nvs() { # nvs NAME ARGS...: nvscope writes the region, then measure
	local name=$1; shift
	zero_dev
	"$NVS_BIN" run --target "$LOOP" --bs=4k --iodepth=4 --size=$SZ --output-format=json "$@" \
		>"$T_TMP/$name.json" || fail "nvscope $name exited $?"
	measure "$name"
}
fio_w() { # fio_w NAME ARGS...: fio writes the region, then measure
	local name=$1; shift
	command -v fio >/dev/null || return 1
	zero_dev
	fio --name=w --filename="$LOOP" --ioengine=io_uring --direct=1 --bs=4k --iodepth=4 \
		--size=$SZ "$@" >"$T_TMP/$name.fio" 2>&1 || fail "fio $name: $(tail -3 "$T_TMP/$name.fio")"
	measure "$name"
}
check() { python3 - "$T_TMP" "$@" || fail "$1"; }

RATIO=1 nvs def --rw=write
check "default: every block distinct, incompressible" <<'PY'
import json, sys
m = json.load(open(sys.argv[1] + "/def.m"))
assert m["distinct"] == m["blocks"] == 8192, m
assert m["block_ratio"] > 0.99 and m["stream_ratio"] > 0.98, m
PY
ok "default write: 8192 of 8192 blocks distinct, incompressible"

nvs mixed --rw=rw --rwmixread=50
check "mixed rw writes fresh data" <<'PY'
import json, sys
d = sys.argv[1]
m, w = json.load(open(d + "/mixed.m")), json.load(open(d + "/mixed.json"))["jobs"][0]["write"]
# the device was zeroed: every write is a non-zero block of its own
assert m["nonzero"] == m["distinct_nonzero"] == w["total_ios"] > 3000, (m, w["total_ios"])
PY
ok "rw mix: every written block fresh (none a copy of read data)"

RATIO=1 nvs c50 --rw=write --buffer_compress_percentage=50
RATIO=1 fio_w fc50 --rw=write --buffer_compress_percentage=50 && have_fio=1 || have_fio=0
check "buffer_compress_percentage=50" "$have_fio" <<'PY'
import json, sys
d = sys.argv[1]
m = json.load(open(d + "/c50.m"))
assert m["distinct"] == m["blocks"], m
assert 0.48 < m["block_ratio"] < 0.56, m
if sys.argv[2] == "1":
    f = json.load(open(d + "/fc50.m"))
    for k in ("block_ratio", "stream_ratio"):
        assert abs(m[k] - f[k]) < 0.02, (k, m[k], f[k])
PY
ok "buffer_compress_percentage=50 compresses as fio's does"

RATIO=1 nvs d30 --rw=write --dedupe_percentage=30
check "dedupe_percentage=30" <<'PY'
import json, sys
m = json.load(open(sys.argv[1] + "/d30.m"))
dup = 1 - m["distinct"] / m["blocks"]
assert 0.27 < dup < 0.33 and m["block_ratio"] > 0.99, (dup, m)
PY
ok "dedupe_percentage=30: ~30% duplicate blocks"

# fio's dedupe_mode=working_set: the copies are of the working set, the
# first dedupe_working_set_percentage of the job's size in unique blocks
# (here 25% of 8192 = 2048, written within the first ~2048/0.7 blocks of a
# sequential write); the duplicate share stays dedupe_percentage
nvs dws --rw=write --dedupe_percentage=30 --dedupe_mode=working_set \
	--dedupe_working_set_percentage=25
python3 - "$T_TMP/raw" <<'PY' || fail "dedupe_mode=working_set"
import hashlib, sys
data = open(sys.argv[1], "rb").read()
bs = 4096
hs = [hashlib.sha1(data[i:i + bs]).digest() for i in range(0, len(data), bs)]
first, seen_twice = {}, set()
for i, h in enumerate(hs):
    if h in first:
        seen_twice.add(h)
    else:
        first.setdefault(h, i)
dup = 1 - len(first) / len(hs)
late = max(first[h] for h in seen_twice)
print(f"  working_set: {dup:.3f} duplicate, copied blocks first written by block {late}")
assert 0.28 <= dup <= 0.32, dup
assert len(seen_twice) <= 2048 and late < 2048 / 0.7 * 1.1, (len(seen_twice), late)
PY
ok "dedupe_mode=working_set: ~30% duplicate blocks, all copies of the working set"

nvs zero --rw=randwrite --zero_buffers --io_size=8M
check "zero_buffers" <<'PY'
import json, sys
m = json.load(open(sys.argv[1] + "/zero.m"))
assert m["nonzero"] == 0, m
PY
ok "zero_buffers writes zeros"

nvs pat --rw=write --buffer_pattern=0xdeadbeef --io_size=4M
python3 - "$T_TMP/raw" <<'PY' || fail "buffer_pattern"
import sys
d = open(sys.argv[1], "rb").read(4 << 20)
assert d == bytes.fromhex("deadbeef") * (len(d) // 4), d[:16]
PY
ok "buffer_pattern=0xdeadbeef written as given"

"$NVS_BIN" run --target "$LOOP" --rw=write --buffer_compress_percentage=101 >/dev/null 2>&1 &&
	fail "buffer_compress_percentage=101 accepted"
"$NVS_BIN" run --target "$LOOP" --rw=write --buffer_pattern="'/etc/passwd'" >/dev/null 2>&1 &&
	fail "a file pattern accepted"
ok "bad data options refused"
