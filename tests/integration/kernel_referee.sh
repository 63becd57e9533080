#!/bin/bash
# Not exclusive since session 13: its loop device's read count must be
# nvscope's alone: another test's device scan (the console, list, check
# --all-nvme) reads every block device; now every test's scans see only its
# own devices (NVSCOPE_DEVICES, tests/lib.sh)
# kernel_referee.sh - the kernel referees nvscope's counts and latency.
#
# On a loop device this test creates (direct I/O over a tmpfs file, merges
# switched off so one bio is one request), `nvscope run` does randread and
# then randwrite for ~2 s each (ramp_time=0: nothing excluded), and the block
# layer's own counters in /sys/block/loopN/stat are read before and after:
#   fields 1,2,3,4 = read  ios, merges, sectors, ticks (ms)
#   fields 5,6,7,8 = write ios, merges, sectors, ticks (ms)
# Asserted, per direction:
#   - I/Os: nvscope's total_ios equals the kernel's completed ios (+ merges,
#     0 with nomerges=2) within iodepth*numjobs (the I/Os in flight at the
#     end; nvscope drains them, so the difference is normally 0);
#   - bytes: nvscope's io_bytes equals sectors*512 within the same slack;
#   - latency: nvscope's mean latency (submit to reap) is not below the
#     kernel's time per I/O (ticks / ios), which only covers the request's
#     life inside the block layer, less 1 ms of tick rounding spread over
#     the I/Os and 1% for the ms truncation of each counter.
# Reads run first: a write may make udev probe the device afterwards, which
# adds reads (the write fields are unaffected).
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to read the JSON"
t_loop 128M
name=${LOOP#/dev/}
command -v udevadm >/dev/null && udevadm settle -t 5 2>/dev/null
# one bio = one request, so the kernel's ios count nvscope's I/Os one for one
echo 2 >"/sys/block/$name/queue/nomerges" 2>/dev/null
[ -r "/sys/block/$name/stat" ] || skip "no /sys/block/$name/stat"

# attempt RW FIELD0 QD NUMJOBS: one run and its assertions; exit status 0
# agree, 3 the kernel counted more I/Os than nvscope plus the slack (another
# process, e.g. a libblkid scan of all block devices, read the device: only
# the kernel's count can grow that way), anything else a plain failure.
attempt() {
	local rw=$1 f0=$2 qd=$3 nj=$4 before after rc
	before=$(cat "/sys/block/$name/stat")
	"$NVS_BIN" run --target "$LOOP" --rw="$rw" --bs=4k --iodepth="$qd" --numjobs="$nj" \
		--ramp_time=0 --runtime=2 --time_based --output-format=json >"$T_TMP/$rw.json" \
		2>"$T_TMP/$rw.err"
	rc=$?
	after=$(cat "/sys/block/$name/stat")
	[ $rc -eq 0 ] || fail "$rw: nvscope exited $rc: $(cat "$T_TMP/$rw.err")"
	python3 - "$T_TMP/$rw.json" "$rw" "$f0" "$qd" "$nj" "$before" "$after" <<'PY'
import json, sys
path, rw, f0, qd, nj, before, after = sys.argv[1:8]
f0, slack = int(f0), int(qd) * int(nj)
a, b = [int(x) for x in before.split()], [int(x) for x in after.split()]
d = [y - x for x, y in zip(a, b)]
k_ios, k_merges, k_sect, k_ticks = d[f0], d[f0 + 1], d[f0 + 2], d[f0 + 3]
k_total = k_ios + k_merges
j = json.load(open(path))["jobs"]
dirn = "read" if f0 == 0 else "write"
n_ios = sum(x[dirn]["total_ios"] for x in j)
n_bytes = sum(x[dirn]["io_bytes"] for x in j)
lat_sum = sum(x[dirn]["lat_ns"]["mean"] * x[dirn]["total_ios"] for x in j)
n_mean = lat_sum / n_ios if n_ios else 0.0
k_mean = k_ticks * 1e6 / k_ios if k_ios else 0.0
floor_ns = k_mean * 0.99 - 1e6 / max(k_ios, 1)
print(f"{rw}: nvscope ios={n_ios} bytes={n_bytes} mean={n_mean / 1e3:.1f}us | "
      f"kernel ios={k_ios} merges={k_merges} bytes={k_sect * 512} ticks={k_ticks}ms "
      f"-> {k_mean / 1e3:.1f}us/IO | slack {slack} I/Os")
bad = []
if n_ios < 1000:
    bad.append(f"only {n_ios} I/Os in 2 s: the run did nothing useful")
if abs(n_ios - k_total) > slack:
    bad.append(f"I/O count: nvscope {n_ios} vs kernel {k_total} (ios {k_ios} + merges "
               f"{k_merges}), differ by {n_ios - k_total}, allowed {slack}")
if abs(n_bytes - k_sect * 512) > slack * 4096:
    bad.append(f"bytes: nvscope {n_bytes} vs kernel {k_sect * 512}")
if n_mean < floor_ns:
    bad.append(f"mean latency: nvscope {n_mean:.0f} ns is below the kernel's own "
               f"{k_mean:.0f} ns per I/O ({k_ticks} ms / {k_ios})")
if bad:
    print("\n".join("MISMATCH " + x for x in bad))
    outside = k_total - n_ios > slack and len(bad) <= 2 and n_mean >= floor_ns
    sys.exit(3 if outside else 1)
PY
}

# referee RW FIELD0 QD NUMJOBS: up to 3 attempts when an outside reader
# inflated the kernel's count; any other disagreement fails at once.
referee() {
	local i rc
	for i in 1 2 3; do
		attempt "$@"
		rc=$?
		[ $rc -eq 0 ] && { ok "$1: counts, bytes and mean latency agree with /sys/block/$name/stat"; return; }
		[ $rc -eq 3 ] || fail "$1: nvscope disagrees with the block layer (numbers above)"
		echo "note: the kernel saw more I/Os than nvscope issued: another process read $LOOP? retrying"
		sleep 1
	done
	fail "$1: the kernel's count exceeded nvscope's in 3 attempts (numbers above)"
}

referee randread 0 16 1
referee randwrite 4 8 2
