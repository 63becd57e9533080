#!/bin/bash
# nvscope run on a loop device with direct I/O: several targets at once with
# per-target results, a stripe set, ramp_time excluded, rate limiting.
. "$(dirname "$0")/../lib.sh"
t_loop 64M; a=$LOOP
t_loop 64M 4096; b=$LOOP
"$NVS_BIN" run --target "$a" --target "$b" --rw=randread --bs=4k --iodepth=4 --runtime=2 \
	--time_based --output-format=json >"$T_TMP/m.json" || fail "two targets exited $?"
python3 - "$T_TMP/m.json" "$a" "$b" <<'PY' || fail "multi-target JSON"
import json, sys
d = json.load(open(sys.argv[1]))
j = d["jobs"][0]
ts = j["nvscope"]["targets"]
assert [t["target"] for t in ts] == sys.argv[2:4], ts
s = sum(t["read"]["total_ios"] for t in ts)
assert s == j["read"]["total_ios"] and all(t["read"]["total_ios"] > 0 for t in ts)
PY
ok "two targets, per-target results add up"

"$NVS_BIN" run --target "$a,$b" --stripe=64k --rw=randwrite --bs=16k --iodepth=8 --runtime=1 \
	--time_based --output-format=json >"$T_TMP/s.json" || fail "stripe exited $?"
python3 - "$T_TMP/s.json" <<'PY' || fail "stripe set results"
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
ms = j["nvscope"]["members"]
assert len(ms) == 2 and j["write"]["iops"] > 0
tot = j["write"]["total_ios"]
assert sum(m["total_ios"] for m in ms) == tot, (ms, tot)
# uniform random over the set: each member gets about half
assert all(0.4 < m["total_ios"] / tot < 0.6 for m in ms), ms
PY
ok "stripe set: members share the I/O and add up"

# An I/O larger than the stripe, or over a chunk's end, is split as md's
# RAID 0 splits it (issue 23: TweakTown's 512K I/Os on a 128K stripe were
# refused), and the kernel is the referee: each member's sectors moved are
# the bytes nvscope's JSON gives it, and the set's add up to the job's.
# 512k on 128k: every I/O two chunks on each member, half the bytes each.
# 48k on a 64k stripe: I/Os over a chunk's end split.  Writes only: the
# read counters move when udev probes a device after a write's close, or
# another test scans every block device.
sectors() { awk '{print $7}' "/sys/block/${1#/dev/}/stat"; }
split_run() { # NAME ARGS...: the run's JSON in $T_TMP/NAME.json, kernel deltas in NAME.k
	local n=$1 a0 b0 a1 b1
	shift
	a0=$(sectors "$a"); b0=$(sectors "$b")
	"$NVS_BIN" run --target "$a,$b" "$@" --output-format=json >"$T_TMP/$n.json" ||
		fail "$n: exit $?"
	a1=$(sectors "$a"); b1=$(sectors "$b")
	echo "$a0 $a1 $b0 $b1" >"$T_TMP/$n.k"
}
split_run big --stripe=128k --rw=randwrite --bs=512k --iodepth=4 --size=8m
split_run cross --stripe=64k --rw=randwrite --bs=48k --iodepth=8 --size=6m \
	--write_iolog="$T_TMP/cross.iolog"
python3 - "$T_TMP" <<'PY' || fail "split I/Os: the kernel's sectors differ from nvscope's bytes"
import json, sys
for n in ("big", "cross"):
    j = json.load(open(f"{sys.argv[1]}/{n}.json"))["jobs"][0]
    k = [int(x) for x in open(f"{sys.argv[1]}/{n}.k").read().split()]
    # write sectors of a before, after, b before, after
    kb = [(k[1] - k[0]) * 512, (k[3] - k[2]) * 512]
    ms = [m["io_bytes"] for m in j["nvscope"]["members"]]
    tot = j["write"]["io_bytes"]
    assert ms == kb, (n, "members", ms, "kernel", kb)
    assert sum(kb) == tot, (n, "kernel", kb, "job", tot)
    if n == "big":
        assert j["write"]["total_ios"] == 16 and kb == [4 << 20, 4 << 20], (j["write"], kb)
    print(n, "members", ms, "job", tot)
# the iolog has each part on its member, at the member's offsets
by = {}
for ln in open(f"{sys.argv[1]}/cross.iolog"):
    f = ln.split()
    if len(f) == 5 and f[2] == "write":
        by[f[1]] = by.get(f[1], 0) + int(f[4])
        assert int(f[3]) % 65536 + int(f[4]) <= 65536, ln  # within one chunk
assert sorted(by.values()) == sorted(ms), (by, ms)
PY
ok "I/Os over a chunk's end split across members: the kernel's sectors per member equal nvscope's"

"$NVS_BIN" run --target "$a" --rw=randread --bs=4k --iodepth=1 --rate_iops=200 --runtime=2 \
	--time_based --output-format=json >"$T_TMP/r.json" || fail "rate exited $?"
python3 -c "
import json; d=json.load(open('$T_TMP/r.json')); i=d['jobs'][0]['read']['iops']
assert 170 < i < 230, i; print('rate-limited IOPS', i)" || fail "rate_iops=200 not held"
ok "rate limit"

"$NVS_BIN" run --target "$a" --rw=randread --bs=4k --iodepth=2 --ramp_time=1 --runtime=1 \
	--time_based --output-format=json --csv "$T_TMP/ramp.csv" >"$T_TMP/ramp.json" ||
	fail "ramp exited $?"
python3 - "$T_TMP/ramp.json" "$T_TMP/ramp.csv" <<'PY' || fail "ramp accounting"
import json, csv, sys
d = json.load(open(sys.argv[1])); j = d["jobs"][0]
assert 0.9 < j["read"]["runtime"] / 1000 < 1.3, j["read"]["runtime"]
rows = list(csv.DictReader(open(sys.argv[2])))
assert rows[0]["ramp"] == "1" and rows[-1]["ramp"] == "0", rows
PY
ok "ramp_time excluded"
"$NVS_BIN" run --target "$b" --rw=randread --bs=512 --runtime=1 2>"$T_TMP/e" >/dev/null
[ $? -eq 2 ] && grep -q "logical block size 4096" "$T_TMP/e" || fail "bs < lbs not refused"
ok "block size below the logical block size refused"
