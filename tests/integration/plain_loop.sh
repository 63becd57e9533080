#!/bin/bash
# The worker loop's plain copy (io/core/worker.c: a job with none of the
# options it drops runs a copy of the loop compiled without their tests,
# counting a reap's completions of one submission once and folding each
# interval's lat into the result at emit) against the general copy on the
# same job: a random write of a 16 MiB loop device at QD8 writes each of its
# 4,096 blocks once either way (fio's random map), the kernel counts the
# same sectors, and every figure of the JSON agrees with itself (total_ios,
# lat and clat N, the per-second series).  The general copy is forced by
# iodepth_batch_complete_max above the depth, which changes nothing else.
# JSON's nvscope.loop says which copy ran.
. "$(dirname "$0")/../lib.sh"
t_loop 16M
dev=$LOOP
name=${dev#/dev/}

job() { # $1 tag, the rest: extra options
	local tag=$1
	shift
	dd if=/dev/zero of="$dev" bs=1M count=16 oflag=direct status=none || fail "zeroing $dev"
	local w0
	w0=$(awk '{print $7}' "/sys/block/$name/stat")
	"$NVS_BIN" run --target "$dev" --rw=randwrite --bs=4k --size=16m --iodepth=8 "$@" \
		--output-format=json >"$T_TMP/$tag.json" 2>"$T_TMP/$tag.err" ||
		{ cat "$T_TMP/$tag.err"; fail "$tag: nvscope exited"; }
	local w1
	w1=$(awk '{print $7}' "/sys/block/$name/stat")
	echo $((w1 - w0)) >"$T_TMP/$tag.sectors"
	# 4k blocks still all zeros: none once every block was written once
	python3 - "$dev" >"$T_TMP/$tag.zero" <<'PY'
import sys
z = bytes(4096)
with open(sys.argv[1], "rb", buffering=0) as f:
    print(sum(1 for i in range(4096) if f.read(4096) == z))
PY
}
job plain
job general --iodepth_batch_complete_max=64

for tag in plain general; do
	python3 - "$T_TMP/$tag.json" "$tag" "$(cat "$T_TMP/$tag.sectors")" "$(cat "$T_TMP/$tag.zero")" <<'PY' || fail "$tag: the figures"
import json, sys
path, tag, sectors, zero = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
j = json.load(open(path))["jobs"][0]
w, nv = j["write"], j["nvscope"]
want_plain = 1 if tag == "plain" else 0
assert nv["loop"] == {"workers": 1, "plain": want_plain}, nv["loop"]
assert w["total_ios"] == 4096, w["total_ios"]
assert w["io_bytes"] == 16 << 20, w["io_bytes"]
assert w["lat_ns"]["N"] == 4096 and w["clat_ns"]["N"] == 4096, (w["lat_ns"]["N"], w["clat_ns"]["N"])
for k in ("lat_ns", "clat_ns"):
    h = w[k]
    assert 0 < h["min"] <= h["mean"] <= h["max"], (k, h["min"], h["mean"], h["max"])
assert w["clat_ns"]["mean"] <= w["lat_ns"]["mean"], "clat above lat"
assert w["clat_ns"]["max"] <= w["lat_ns"]["max"], "clat's max above lat's"
# the kernel's referee: 16 MiB of 512-byte sectors written (a zeroing pass before each run is outside)
assert sectors == 32768, ("sectors written", sectors)
assert zero == 0, ("4k blocks never written", zero)
series = nv["series"]
assert series, "no series"
print(f"{tag}: 4096 writes, lat mean {w['lat_ns']['mean']:.0f} ns, clat mean {w['clat_ns']['mean']:.0f} ns")
PY
done
ok "a random write of every block once: the plain and the general copies agree with fio's map and the kernel"
