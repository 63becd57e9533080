#!/bin/bash
# test: exclusive it compares the block requests of its devices, as tracefs records them, with the trace it replays: beside other tests, another task's context issues some of them (a queue run from another CPU's softirq) and device scans add reads
# Trace fidelity against the kernel: record a known workload on loop device A
# (nvscope trace record: blktrace, or tracefs block_rq_issue where lockdown
# refuses blktrace), replay it on loop device B at replay_time_scale=100 while
# B is recorded the same way, and compare the two captures:
#  - the (op, offset, length) sequence of A is in B's without a gap: in
#    order, or (I/Os in flight together when the replay fell behind on a
#    loaded machine) each at most iodepth places away; with the tracefs
#    capture B's events are those of the replay's own tasks (other programs
#    probing the device are not compared), else before and after A's
#    sequence B may hold reads only (write-safety and udev probes);
#  - arrival times relative to the first I/O: |B - A| per I/O, p50 within
#    TOL_MS (10 ms; the figures are printed, docs/traces.md has measured ones);
#  - B's capture counts the writes /sys/block/B/stat counts over the same
#    window, and at most the reads it counts (other programs' probes may
#    fall between the stat and capture windows' edges).
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
t_nap 0.7
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
t_nap 0.7
QD=16
"$NVS_BIN" run --read_iolog="$T_TMP/a.log" --target "$b" --iodepth=$QD --replay_time_scale=100 \
	--output-format=json --output "$T_TMP/replay.json" >"$T_TMP/run.txt" 2>&1 ||
	{ cat "$T_TMP/run.txt"; fail "replay exited"; }
wait $rp || { cat "$T_TMP/rb.txt"; fail "record B exited"; }
if [ "${NVS_TRACE_VIA:-}" = blktrace ]; then
	grep -q "via blktrace;" "$T_TMP/rb.txt" || fail "B not recorded by blktrace"
fi
s1=($(cat /sys/block/$name/stat))
grep "^trace:" "$T_TMP/run.txt"

python3 - "$T_TMP/a.log" "$T_TMP/b.log" "$TOL_MS" "$((s1[0] - s0[0]))" "$((s1[4] - s0[4]))" \
	"$T_TMP/replay.json" "$QD" <<'PY' || fail "fidelity"
import glob, json, os, re, sys
def load(p):
    out = []
    for ln in open(p).read().splitlines()[1:]:
        f = ln.split()
        if len(f) == 5 and f[2] in ("read", "write", "trim"):
            out.append((int(f[0]), f[2], int(f[3]), int(f[4])))
    return out
EV = re.compile(r"^\s*(.+?)-(\d+)\s+\[\d+\].*?(\d+)\.(\d{6}): block_rq_issue: \d+,\d+ (\S+) (\d+) .*?\) (\d+) \+ (\d+)")
def load_raw(p, tasks):
    """tracefs capture: the events of the workload's own tasks only (other
    programs on a shared machine probe every block device: not ours)"""
    raw = glob.glob(p + ".blktrace/*.block_rq_issue.txt")
    if not raw:
        return None, 0
    out, other, t0 = [], 0, None
    for ln in open(raw[0]):
        m = EV.match(ln)
        if not m or int(m[8]) == 0:
            continue
        task, rwbs = m[1].strip(), m[5]
        if not re.match(tasks, task):
            other += 1
            continue
        t = int(m[3]) * 1000000 + int(m[4])
        op = "trim" if "D" in rwbs else "write" if "W" in rwbs else "read"
        out.append((t, op, int(m[7]) * 512, int(m[8]) * 512))
    out.sort(key=lambda x: x[0])
    return out, other
A, B = load(sys.argv[1]), load(sys.argv[2])
tol, kr, kw, qd = float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[7])
# the kernel's counts: every task's I/O in the window (B's iolog holds them
# all).  Writes are the replay's alone: exact.  Reads: other programs' probes
# may fall just outside the capture window but inside the stat window, so
# the kernel counts at least the capture's reads (the difference is printed)
nr = sum(1 for x in B if x[1] == "read"); nw = sum(1 for x in B if x[1] == "write")
print("kernel /sys/block stat over the window: %d reads %d writes; capture: %d %d" % (kr, kw, nr, nw))
assert kw == nw and kr >= nr, "capture and kernel counts differ"
# the sequences: A's capture (what the replay replays) against the I/O the
# replay's tasks issued on B (its worker io/N, io_uring's workers, the block
# layer's kworkers); other programs' probes of B are not the replay's
rb, ob = load_raw(sys.argv[2], r"(io/\d+|iou-(wrk|sqp)-\d+|kworker/)")
if rb is not None:
    B = rb
    print("tracefs: %d events of other tasks on B (probes: not compared)" % ob)
assert len(A) >= 100, ("too few I/Os recorded on A", len(A))
sa, sb = [x[1:] for x in A], [x[1:] for x in B]
k = next((k for k in range(len(sb) - len(sa) + 1) if sb[k:k + len(sa)] == sa), None)
order = "identical in order"
match = list(range(len(sa)))
if k is None:
    # several I/Os in flight at once (the replay behind schedule on a loaded
    # machine) may reach the device in another order: the same I/Os, each at
    # most iodepth places from its place in A
    # (the first I/O may itself be one of those moved: the window starts
    # up to iodepth places before or after B's first copy of it; TSan run L)
    k0 = next((k for k in range(len(sb)) if sb[k] == sa[0]), 0)
    ssa = sorted(sa)
    k = next((k for k in range(max(0, k0 - qd), min(len(sb), k0 + qd + 1))
              if sorted(sb[k:k + len(sa)]) == ssa), k0)
    win = sb[k:k + len(sa)]
    if sorted(win) != ssa:
        i = next((i for i in range(len(sa)) if k + i >= len(sb) or sb[k + i] != sa[i]), len(sa))
        sys.exit("sequence differs at I/O %d of %d: A %s, B %s" % (i, len(sa), sa[i:i+3], sb[k+i:k+i+3]))
    pos = {}
    for i, x in enumerate(win):
        pos.setdefault(x, []).append(i)
    match = [pos[x].pop(0) for x in sa]
    disp = [abs(j - i) for i, j in enumerate(match)]
    assert max(disp) <= qd, ("an I/O moved %d places, more than iodepth %d" % (max(disp), qd))
    order = "the same I/Os, %d reordered (at most %d places; iodepth %d)" % (
        sum(1 for x in disp if x), max(disp), qd)
lead, extra = B[:k], B[k + len(A):]
assert all(x[1] == "read" for x in lead + extra), ("B has other I/O than the replay's writes", lead, extra[:5])
B = B[k:k + len(A)]
d = sorted(abs((B[match[i]][0] - B[0][0]) - (a[0] - A[0][0])) / 1000.0 for i, a in enumerate(A))
p = lambda q: d[min(len(d) - 1, int(q * len(d)))]
print("fidelity: %d I/Os, %s (B: %d reads before, %d after); arrival |B-A| ms: "
      "p50 %.3f p99 %.3f max %.3f" % (len(A), order, len(lead), len(extra), p(0.5), p(0.99), d[-1]))
assert p(0.5) <= tol, ("arrival p50 %.3f ms over %.1f ms" % (p(0.5), tol))
t = json.load(open(sys.argv[6]))["nvscope"]["trace"]
print("replay lag us p50 %.1f p99 %.1f, late %.2f%%" % (t["lag_us"]["p50"], t["lag_us"]["p99"], t["late_pct"]))
PY
ok "trace fidelity"
