#!/bin/bash
# qd1_syscalls.sh - one io_uring_enter per I/O at QD1, one per batch above,
# and slat only when asked (issue 25).
#
# On a loop device this test makes (direct I/O: completions come back
# asynchronously, as a drive's), strace counts the io_uring_enter calls of
# `nvscope run` (only that call is traced: --seccomp-bpf), the I/O count is
# the JSON's:
# 1. QD1 4k randread at default settings: enters <= 1.01 per I/O (the
#    submission rides on the enter that waits, as bench/uring-floor.c); slat
#    not measured and the JSON says so as fio's disable_slat=1 does (slat_ns
#    all zeros, N 0) plus nvscope.not_measured ["slat"]; clat and lat have
#    every I/O, clat (from the enter's start) <= lat; write_lat_log writes
#    _lat and _clat but no _slat (fio leaves it out with disable_slat=1).
# 2. QD1 with --disable_slat=0 (asked, as a fio job file asks by default):
#    slat_ns has every I/O, lat = slat + clat, the _slat log is written, and
#    the run pays for it: >= 1.5 enters per I/O (submit, then wait).
# 3. QD16 at default settings: one enter per batch - every enter submits
#    I/Os (refills what the last one reaped) and waits, as the floor's,
#    but for a few (the end's cancel, a wait cut short at an interval's
#    end): no submit-only enter followed by a wait-only one.
# Fails on the code before issue 25 (2.0 enters per I/O at QD1).
. "$(dirname "$0")/../lib.sh"
command -v strace >/dev/null || skip "strace is not installed"
command -v python3 >/dev/null || skip "python3 is needed to read the JSON"
PY=$(python3 -c 'import sys; print(sys.executable)') || fail "python3"
strace -f -qq --seccomp-bpf -e trace=io_uring_enter -o /dev/null true 2>/dev/null ||
	skip "strace cannot trace here (--seccomp-bpf, ptrace)"
t_loop 64M
cd "$T_TMP" || fail "cd"

# traced NAME ARGS...: nvscope run under strace: NAME.json, NAME.trace
traced() {
	local n=$1
	shift
	# (LeakSanitizer cannot run under ptrace: leaks are other tests' to find)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq --seccomp-bpf -e trace=io_uring_enter -o "$n.trace" \
		"$NVS_BIN" run --target "$LOOP" --rw=randread --bs=4k --time_based \
		--output-format=json -q "$@" >"$n.json" 2>"$n.err" ||
		fail "$n: $(cat "$n.err")"
}
traced qd1 --iodepth=1 --runtime=700ms --write_lat_log=d --log_avg_msec=500
traced slat --iodepth=1 --runtime=400ms --disable_slat=0 --write_lat_log=s --log_avg_msec=500
traced qd16 --iodepth=16 --runtime=400ms

$PY - <<'EOT' || fail "io_uring_enter counts or slat (see above)"
import json, os, re
call = re.compile(r"io_uring_enter\(\d+, (\d+), (\d+), ")
def run(n):
    j = json.load(open(n + ".json"))["jobs"][0]
    calls = [call.search(l) for l in open(n + ".trace") if "io_uring_enter(" in l]
    assert calls and all(calls), (n, open(n + ".trace").read()[:400])
    subs = [int(c.group(1)) for c in calls]
    ios = j["read"]["total_ios"]
    print(f"  {n}: {ios} I/Os, {len(subs)} io_uring_enter ({len(subs) / ios:.3f} per I/O), "
          f"{sum(1 for s in subs if s == 0)} without a submission")
    assert ios > 200, (n, ios)
    return j, j["read"], subs, ios

# 1. QD1, default: one enter per I/O, slat not measured (fio's disable_slat)
j, r, subs, ios = run("qd1")
assert len(subs) <= 1.01 * ios, ("QD1: more than 1.01 io_uring_enter per I/O", len(subs), ios)
assert r["slat_ns"] == {"min": 0, "max": 0, "mean": 0.0, "stddev": 0.0, "N": 0}, r["slat_ns"]
assert j["nvscope"]["not_measured"] == ["slat"], j["nvscope"]
c, l = r["clat_ns"], r["lat_ns"]
assert c["N"] == l["N"] == ios and 0 < c["min"] <= l["min"] and c["mean"] <= l["mean"], (c, l)
assert "percentile" in c, c
logs = sorted(f for f in os.listdir(".") if f.startswith("d_"))
assert logs == ["d_clat.1.log", "d_lat.1.log"], logs

# 2. slat asked: measured for every I/O, lat = slat + clat; two enters per I/O
j, r, subs, ios = run("slat")
s, c, l = r["slat_ns"], r["clat_ns"], r["lat_ns"]
assert s["N"] == c["N"] == l["N"] == ios and 0 < s["min"] <= s["mean"], s
assert abs(l["mean"] - (s["mean"] + c["mean"])) <= 1e-6 * l["mean"] + 1, (s, c, l)
assert "percentile" not in s, s  # fio's default slat_percentiles=0
assert j["nvscope"]["not_measured"] == [], j["nvscope"]
assert len(subs) >= 1.5 * ios, ("slat asked: the submission's own enter is missing", len(subs), ios)
logs = sorted(f for f in os.listdir(".") if f.startswith("s_"))
assert logs == ["s_clat.1.log", "s_lat.1.log", "s_slat.1.log"], logs

# 3. QD16: every enter submits (one per batch, as the floor), but a few
j, r, subs, ios = run("qd16")
empty = sum(1 for x in subs if x == 0)
# (the end: the cancel's drain may wait once per I/O in flight)
assert empty <= 24 + len(subs) // 200, ("QD16: enters that only wait", empty, len(subs))
assert len(subs) <= ios + 8, (len(subs), ios)
EOT
ok "QD1: <= 1.01 io_uring_enter per I/O, slat not measured (fio's disable_slat layout, no _slat log)"
ok "--disable_slat=0: slat for every I/O, lat = slat + clat, its own enter (>= 1.5 per I/O)"
ok "QD16: one io_uring_enter per batch (each submits and waits)"
