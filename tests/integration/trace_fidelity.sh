#!/bin/bash
# Trace fidelity against the kernel: record a known workload on loop device A
# (nvscope trace record: blktrace, or tracefs block_rq_issue where lockdown
# refuses blktrace), replay it on loop device B at replay_time_scale=100 while
# B is recorded the same way, and compare the two captures:
#  - the (op, offset, length) sequence of A, exactly and in order, is in B's
#    without a gap; before it B may hold reads only (the write-safety probe
#    reading the device's signatures), after it reads only (udev's probe);
#  - arrival times relative to the first I/O: |B - A| per I/O, p50 within
#    TOL_MS (10 ms; the figures are printed, docs/traces.md has measured ones);
#  - B's capture counts what /sys/block/B/stat counts over the same window.
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "no fio"
TOL_MS=${TOL_MS:-10}
t_loop 64M
a=$LOOP
t_loop 64M
b=$LOOP
command -v udevadm >/dev/null && udevadm settle -t 5 2>/dev/null

# A: fio, one stream, 4k-64k random reads and writes at 200 IOPS for ~1.5 s
"$NVS_BIN" trace record --target "$a" --duration 4s -o "$T_TMP/a.log" 2>"$T_TMP/ra.txt" &
rp=$!
sleep 0.7
fio --name=known --filename="$a" --rw=randrw --bssplit=4k/50:16k/30:64k/20 --direct=1 \
	--ioengine=psync --rate_iops=200 --number_ios=300 --size=48m --randseed=7 \
	>/dev/null || fail "fio on A"
wait $rp || { cat "$T_TMP/ra.txt"; fail "record A exited"; }
cat "$T_TMP/ra.txt"
# NVS_TRACE_VIA=blktrace (trace_blktrace.sh): both captures by blktrace itself
if [ "${NVS_TRACE_VIA:-}" = blktrace ]; then
	grep -q "via blktrace;" "$T_TMP/ra.txt" || fail "A not recorded by blktrace"
fi

# B: the replay, recorded
command -v udevadm >/dev/null && udevadm settle -t 5 2>/dev/null
name=${b##*/}
s0=($(cat /sys/block/$name/stat))
"$NVS_BIN" trace record --target "$b" --duration 5s -o "$T_TMP/b.log" 2>"$T_TMP/rb.txt" &
rp=$!
sleep 0.7
"$NVS_BIN" run --read_iolog="$T_TMP/a.log" --target "$b" --iodepth=16 --replay_time_scale=100 \
	--output-format=json --output "$T_TMP/replay.json" >"$T_TMP/run.txt" 2>&1 ||
	{ cat "$T_TMP/run.txt"; fail "replay exited"; }
wait $rp || { cat "$T_TMP/rb.txt"; fail "record B exited"; }
if [ "${NVS_TRACE_VIA:-}" = blktrace ]; then
	grep -q "via blktrace;" "$T_TMP/rb.txt" || fail "B not recorded by blktrace"
fi
s1=($(cat /sys/block/$name/stat))
grep "^trace:" "$T_TMP/run.txt"

python3 - "$T_TMP/a.log" "$T_TMP/b.log" "$TOL_MS" "$((s1[0] - s0[0]))" "$((s1[4] - s0[4]))" \
	"$T_TMP/replay.json" <<'PY' || fail "fidelity"
import json, sys
def load(p):
    out = []
    for ln in open(p).read().splitlines()[1:]:
        f = ln.split()
        if len(f) == 5 and f[2] in ("read", "write", "trim"):
            out.append((int(f[0]), f[2], int(f[3]), int(f[4])))
    return out
A, B = load(sys.argv[1]), load(sys.argv[2])
tol, kr, kw = float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
assert len(A) >= 100, ("too few I/Os recorded on A", len(A))
sa, sb = [x[1:] for x in A], [x[1:] for x in B]
k = next((k for k in range(len(sb) - len(sa) + 1) if sb[k:k + len(sa)] == sa), None)
if k is None:
    # say where the best start diverges
    k0 = next((k for k in range(len(sb)) if sb[k] == sa[0]), 0)
    i = next((i for i in range(len(sa)) if k0 + i >= len(sb) or sb[k0 + i] != sa[i]), len(sa))
    sys.exit("sequence differs at I/O %d of %d: A %s, B %s" % (i, len(sa), sa[i:i+3], sb[k0+i:k0+i+3]))
lead, extra = B[:k], B[k + len(A):]
assert all(x[1] == "read" for x in lead + extra), ("B has other I/O than the replay's writes", lead, extra[:5])
B = B[k:]
d = sorted(abs((b[0] - B[0][0]) - (a[0] - A[0][0])) / 1000.0 for a, b in zip(A, B))
p = lambda q: d[min(len(d) - 1, int(q * len(d)))]
print("fidelity: %d I/Os identical in order (B: %d reads before, %d after); arrival |B-A| ms: "
      "p50 %.3f p99 %.3f max %.3f" % (len(A), len(lead), len(extra), p(0.5), p(0.99), d[-1]))
assert p(0.5) <= tol, ("arrival p50 %.3f ms over %.1f ms" % (p(0.5), tol))
nr = sum(1 for x in lead + B if x[1] == "read"); nw = sum(1 for x in lead + B if x[1] == "write")
print("kernel /sys/block stat over the window: %d reads %d writes; capture: %d %d" % (kr, kw, nr, nw))
assert (kr, kw) == (nr, nw), "capture and kernel counts differ"
t = json.load(open(sys.argv[6]))["nvscope"]["trace"]
print("replay lag us p50 %.1f p99 %.1f, late %.2f%%" % (t["lag_us"]["p50"], t["lag_us"]["p99"], t["late_pct"]))
PY
ok "trace fidelity"
