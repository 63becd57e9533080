#!/usr/bin/env python3
"""fio_examples.py - fio's own examples/ job files, run by Debian's fio and by
nvscope on the same loop device, compared (tests/integration/fio_examples.sh).

Usage: fio_examples.py NVSCOPE FIXTURES_DIR DEVICE WORKDIR [TABLE.md]
(NVS_FIO_EXAMPLE=text: only the examples whose name holds it)

Each example is rewritten only where it names its target or its length: the
lines of filename, directory, filename_format, runtime, time_based and
ramp_time become comments (so every line keeps its number), and both tools
get --runtime=1 --time_based and the device on the command line.  Then:

- nvscope refuses it: the message must be ONE line "file:line: option..."
  whose line holds that option (or section); the outcome is "refused", with
  the reason and whether fio accepts the file (fio --parse-only);
- nvscope runs it: both run it (one second per run group) with
  --output-format=json and the workload is compared job by job: jobs, report
  groups, rw, rwmixread, block sizes (bs/bssplit/bsrange), queue depth
  (sync engines: 1), numjobs, size, direct; and, measured, the read share of
  the I/Os, the mean block size of each direction, the depth each job ran
  at (iodepth_level: depth_check; fio's buffered libaio: DEPTH_SAID) and
  each flow job's share of its flow's I/Os (FLOW_TOL).

Prints a table (example, outcome, reason) and writes it as Markdown with
counts; exits 1 when an example has an unexpected outcome (a refusal that
names the wrong line or more than one line, a workload that differs, a
crash) unless the example is in KNOWN (a gap listed with its reason).
"""
import concurrent.futures
import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading

REWRITE = ("filename", "directory", "filename_format", "runtime", "timeout", "time_based",
           "ramp_time")

# How long each run group of each tool runs (--runtime=, with
# --time_based): the figures compared are shares and means of thousands of
# I/Os drawn from fio's own random streams (the same directions and sizes,
# I/O for I/O), decided in a fraction of a second.  NVS_FIO_EXAMPLES_RUNTIME
# sets it (tests/integration/fio_examples.sh: 1 when it writes the docs'
# table, whose IOPS column is 1 s runs).  500 ms: at 300 ms on a loaded
# machine (load 11-15 on 2 CPUs) the examples below (LONG) were measured;
# the rest did 3 to 50 times the I/Os their checks need there, and a tool
# slow to start under load (nvscope's 4 jobs of fio-rand-RW: 835 I/Os in
# 300 ms beside fio's 10554) loses less of a 500 ms run.
RUNTIME = "500ms"

# Examples that run 1 s whatever RUNTIME says, with why.  A count set by
# time (a rate, a think time) is compared with a tolerance relative to the
# count (a Poisson count of mean m has sd sqrt(m)): a shorter run would
# loosen it; these sleep more than they run.  A read share or a mean block
# size drawn from a mix or a size distribution is noise that shrinks with
# the I/Os (sd of a share sqrt(p(1-p)/N), of a mean CV/sqrt(N)): where 300 ms
# on a loaded machine (load 11 on 2 CPUs, measured) left a tolerance under
# 5 sd, 1 s (5 to 10 times the I/Os) keeps it where it was.  And some are
# slow per I/O (large blocks, flow control, verify): in 300 ms under load a
# job did under twice the I/Os its checks need (200 per job for the share
# and means, 100 per direction), where 1 s decides them.
SLOW_IO = "at 300 ms under load under twice the I/Os a check needs"
NOISY = "at 300 ms under load its tolerance was under 5 sd of the noise"
LONG = {
    "fixed-rate-submission.fio": "rate_iops=1000: the I/Os in the run compared",
    "poisson-rate-submission.fio": "rate_iops=50 (Poisson): the I/Os in the run compared",
    "exitwhat.fio": "rate=300 B/s and thinktime=2ms jobs: each must do some I/O in both tools",
    "fio-rand-RW.fio": NOISY + " (randrw, nvscope's 835 I/Os: the read share 0.018 apart, "
    "sd 0.016)",
    "fsx.fio": NOISY + " (randrw, fio's 888 I/Os: the read share 0.017 apart, sd 0.016)",
    "fio-seq-RW.fio": NOISY + " (rw, 1194 I/Os: the read share 0.012 apart, sd 0.011)",
    "iometer-file-access-server.fio": NOISY + " (its bssplit, CV 1.7, on 2248 reads: "
    "sd of the mean 3%, tolerance 10%)",
    "jesd219.fio": NOISY + " (its bssplit, CV 1.6: the mean read size 2.2% apart, sd 2.6%)",
    "cmdprio-bssplit.fio": SLOW_IO + " (64k-2M blocks: 136)",
    "aio-read.fio": SLOW_IO + " (128k, iodepth=4: 146)",
    "butterfly.fio": SLOW_IO + " (flow=2: 71)",
    "flow.fio": SLOW_IO + " (flow=1 writer: 55)",
    "fio-seq-write.fio": SLOW_IO + " (buffered 256k: 246)",
    "ssd-steadystate.fio": SLOW_IO + " (its 1M fill: 244)",
    "surface-scan.fio": SLOW_IO + " (its verify phase: 183)",
    "zbd-rand-write.fio": SLOW_IO + " (512k, 16 jobs: 249)",
    "zbd-rand-write-trim-gc.fio": SLOW_IO + " (2M: 145)",
    "zbd-rand-write-zone-reset-gc.fio": "32M writes: 38 in 1 s, 3 in 300 ms (a job's I/Os "
    "must be none in both tools or some in both)",
}

# Examples that write the whole device once and read it back (fill_device
# then a verify phase: the read-back verifies only what the write phase
# reached in its run): a small device (NVS_FIO_FILLDEV, 4 MiB), which the
# write phase fills in a few milliseconds whatever the machine's load.  On
# the 64 MiB device a slowed write phase left blocks the verify phase read.
FILL = {"surface-scan.fio"}

# Examples run only through the parse comparison, with why.
SLOW = {
    "1mbs_clients.fio": "32 jobs with startdelay up to 124 s",
}

# Examples Debian's fio 3.33 cannot run as written: with
# io_submit_mode=offload it never ends its job ("hasn't exited in 300
# seconds", then a double free).  fio runs a copy with io_submit_mode=inline
# (nvscope's issue loop submits at a rate's issue times whatever the
# completions do, which is what offload is for; at these rates fio's inline
# loop keeps them too), and the workload is compared, its rate included.
FIO_INLINE = {
    "fixed-rate-submission.fio": "fio 3.33 hangs with io_submit_mode=offload: fio ran "
    "io_submit_mode=inline",
    "poisson-rate-submission.fio": "fio 3.33 hangs with io_submit_mode=offload: fio ran "
    "io_submit_mode=inline",
}

# Examples that need environment variables (fio's ${VAR} in job files).
ENV = {"sprandom.fio": {"FIO_BS": "4096"},
       # its [override] section reads these (its header: FIO_BS="512"
       # FIO_RW="verify" FIO_IODEPTH=16 ...); the values of its [default]
       "xnvme-zoned.fio": {"FIO_BS": "4k", "FIO_RW": "write", "FIO_IODEPTH": "1"},
       "xnvme-compare.fio": {"FIO_BS": "4k", "FIO_RW": "randread", "FIO_IODEPTH": "1"}}

# Examples only fio master (newer than Debian's 3.33) runs: 3.33 refuses
# them; nvscope's run is checked alone, the comparison was made by hand.
FIO_NEWER = {
    "sprandom.fio": "sprandom is fio master's (3.33: unknown option); compared by hand "
    "with fio master on a loop device: the same plan, write counts and per-region "
    "validity within the noise (tests/integration/fio_sprandom.sh)",
    "example_latency_steadystate.fio": "steadystate=lat:5% and steadystate_check_interval=10 "
    "are fio master's (3.33 refuses both); the maths is fio master's steadystate.c "
    "(tests/unit/test_fioss.c); nvscope's JSON steadystate has fio master's lat_mean and "
    "lat[] (ns), 30 intervals of 10 s in 300 s",
}
# What nvscope's JSON (its first job) must show for a FIO_NEWER example.
FIO_NEWER_CHECK = {
    "example_latency_steadystate.fio": lambda j: j["steadystate"]["ss"] == "lat:5.000000%"
    and len(j["steadystate"]["data"]["lat"]) == 30,
}

# Examples that need what the loop device lacks (fio 3.33 refuses them
# too: a newer fio's options): nvscope parses them, and its run must be
# refused before any I/O with a message matching the pattern; they run in
# make check-vm's fdp boot (tests/vm/guest-fdp.sh) on QEMU 10's emulated
# NVMe.  example -> (pattern, why)
DEVICE_REFUSED = {
    "atomic-verify.fio": (r"atomic=1: refused: the device has no atomic write support "
                          r"\(atomic_write_unit_max_bytes is 0\); nothing was written",
                          "the loop device has no atomic write unit; with one (check-vm's "
                          "AWUPF 15 namespace) its RWF_ATOMIC writes run and verify"),
    "uring-cmd-fdp.fio": (r"passthrough \(ioengine=io_uring_cmd\) needs an NVMe generic device",
                          "FDP needs an NVMe namespace with flexible data placement: "
                          "check-vm's fdp boot runs it, each job's writes on its "
                          "placement ids (nvme-cli's reclaim unit handle status)"),
    "uring-cmd-zoned.fio": (r"passthrough \(ioengine=io_uring_cmd\) needs an NVMe generic device",
                            "verify with zonemode=zbd on a zoned namespace's generic device "
                            "(/dev/ngXnY); on a loop device (emulated zones) "
                            "tests/integration/fio_zbd_verify.sh runs its jobs beside fio"),
}

# Known differences (the test does not fail on them): example -> why.
KNOWN = {
    # iometer-file-access-server and cmdprio-bssplit left this list: nvscope
    # draws fio's own random streams (io/core/frand.h), so their pass restarts
    # fall where fio's do (tests/integration/fio_rng.sh: iologs equal)
}

# Examples written for zones larger than the 64 MiB test device: they get a
# sparse device of NVS_FIO_BIGDEV (tests/integration/fio_examples.sh: 140 GiB,
# in memory; only the blocks written take space, and they are discarded
# before each of these examples).
BIG = {"zbd-rand-write.fio", "zbd-seq-read.fio", "zbd-rand-write-zone-reset-gc.fio",
       "cross-stripe-verify.fio", "zbd-rand-write-trim-gc.fio"}

# Sizes that fit no test device, rewritten (the line keeps its number, the
# old value in a comment after it): example -> {option: new value, why}.
SIZES = {
    # 30 jobs 124 GiB apart need a 3.6 TiB drive (fio and nvscope both
    # refuse the offsets past the end); 4 GiB apart they fit the 140 GiB
    # device.  In 1 s each job writes ~50 MiB of its stripe, far from the
    # next job's, as on the drive the file was written for (io_size=120g
    # is never reached in 1 s by either tool).
    "cross-stripe-verify.fio": {"offset_increment": "4g"},
}


def stripe_heads(dev):
    """cross-stripe-verify.fio after a run: each of its 30 jobs wrote its
    first block at offset=120k + N x offset_increment (4g here), and that
    block carries fio's verify header naming the offset and the job that
    wrote it: 30 different jobs (thread numbers 1..30; fio 3.33 gives clone
    N thread 31-N, nvscope N+1: the field only names the writer).  '' or
    what differs."""
    threads = []
    with open(dev, "rb") as f:
        for n in range(30):
            off = (120 << 10) + n * (4 << 30)
            f.seek(off)
            h = f.read(40)
            magic = int.from_bytes(h[0:2], "little")
            hoff = int.from_bytes(h[16:24], "little")
            threads.append(int.from_bytes(h[32:34], "little"))
            if magic != 0xacca or hoff != off:
                return "job %d: block at %d: magic %#x offset %d" % (n, off, magic, hoff)
    if sorted(threads) != list(range(1, 31)):
        return "the 30 stripes' first blocks were written by jobs %s" % threads
    return ""


SIZES_WHY = {
    "cross-stripe-verify.fio": "its 30 jobs 124 GiB apart need a 3.6 TiB drive; each job's "
    "first block checked on the device after each tool: at 120k + N x 4g for N 0..29, "
    "fio's verify header naming that offset, written by 30 different jobs",
}

# Checks of the device after each tool's run: example -> function(dev).
AFTER = {"cross-stripe-verify.fio": stripe_heads}

# Examples that need an NVMe generic character device (/dev/ngXnY): both
# tools refuse a loop device; they run in `make check-vm` on emulated NVMe.
NEEDS_NG = {
    "uring-cmd-ng.fio": "needs an NVMe generic device (/dev/ngXnY: io_uring_cmd passthrough), "
    "which a loop device is not: both tools say so; it runs in `make check-vm` on an emulated "
    "NVMe namespace (tests/vm/guest.sh: its 3 jobs, only filename and size changed)",
}

# Examples whose read share is set by time, not by the job file: both tools
# follow the same rules, and how the runtime splits between them depends on
# each one's speed on the device (the other checks still apply).
TIMED = {
    "basic-verify.fio":
        "a time_based write with do_verify: fio writes one pass of its size, reads "
        "it back in the order written, and loops until its runtime, which also ends "
        "a read-back; nvscope does the same (tests/integration/fio_verify.sh compares "
        "both tools' passes).  In 1 s the read share depends on how far each tool's "
        "first pass and read-back get, so it is not compared",
}

# The examples that run the same workload as fio today: one that stops
# doing so fails the test (a regression), as does any FAIL row.
SAME = {
    "zbd-rand-write.fio", "zbd-rand-write-zone-reset-gc.fio", "zbd-seq-read.fio",
    "aio-read.fio", "basic-verify.fio", "backwards-read.fio", "cmdprio-percentage.fio", "fio-rand-RW.fio", "fio-rand-read.fio",
    "fio-rand-write.fio", "fio-seq-RW.fio", "fio-seq-read.fio", "fio-seq-write.fio",
    "fsx.fio", "jesd219.fio",
    "latency-profile.fio", "waitfor.fio",
    "rand-zones.fio", "ssd-steadystate.fio", "ssd-test.fio", "tiobench-example.fio",
    "surface-scan.fio", "steadystate.fio",
    "disk-zone-profile.fio",
    "dedupe-global.fio",
    "fixed-rate-submission.fio", "poisson-rate-submission.fio",  # fio: inline
    "exitwhat.fio",  # writers of one device in one run group, together as in fio
    "cross-stripe-verify.fio",  # offset_increment rewritten to fit (SIZES)
    "zbd-rand-write-trim-gc.fio",  # 256M trims: zone resets (fio_trim_bigbs.sh per job)
    # fio's random streams (io/core/frand.h): the map's restarts where fio's fall
    "iometer-file-access-server.fio", "cmdprio-bssplit.fio",
    # issue 26: its flow=8 reader refills 16-18 after each quiesce in both
    # tools; it reached 64+ while its jobs started and ended apart (pools
    # started one after another, a job's flow left by the worker itself):
    # jobs of a group now start at one t0 and leave when reaped, as fio's
    "flow.fio",
}


def clat_counted(nj):
    """'' when every I/O nvscope counts has its clat (fio's clat_ns: the
    figure fio's users read; do_verify's read-back once had lat only)."""
    for j in nj["jobs"]:
        for d in ("read", "write"):
            n, c = j[d]["total_ios"], j[d]["clat_ns"].get("N", 0)
            if n != c:
                return "[%s] %s: %d I/Os, clat_ns N %d" % (j["jobname"], d, n, c)
    return ""


# The IOPS ratio (nvscope/fio, 1 s each, printed not asserted: speed
# belongs in bench/) where the cause is known and is not the workload.
IOPS_NOTE = {
    "butterfly.fio": "fio's flow spins while a job is ahead (flow_sleep=0: backend.c "
    "continues its loop), nvscope's waits 20 us: on a loaded 2-core machine fio's two "
    "spinning jobs take the CPU from their own I/O",
    "fio-rand-read.fio": "buffered libaio: both one I/O at a time, every read a miss "
    "(tests/integration/fio_pagecache.sh counts them); fio's libaio path costs more CPU per I/O",
}

# Refusals for features with no meaning on nvscope's engine (a local block
# device through io_uring); every other refusal is a feature not implemented.
NO_MEANING = {
    "ioengine", "nfs_url", "cmd_type", "create_on_open", "nrfiles", "directory",
    "exec_prerun", "exec_postrun",
    # io_uring_cmd's PI options in a job on another engine (xnvme-pi.fio:
    # written for --ioengine=xnvme, fio's default psync has no such option)
    "md_per_io_size", "pi_act", "pi_chk", "apptag", "apptag_mask",
    # fdp=1 in a job on another engine (xnvme-fdp.fio: written for
    # --ioengine=xnvme; fio's default psync lacks fetch ruhs, fio refuses it)
    "fdp",
}

SYNC = {"psync", "sync", "pvsync", "pvsync2", "vsync"}

# fio as both tools' runs and parses call it: its clock read with
# clock_gettime (its TSC calibration is a quarter of its start; no latency
# is compared here)
FIO = ["fio", "--clocksource=clock_gettime"]


def size(v):
    """fio's size strings (kb_base=1024): '4k' -> 4096; None if not one."""
    m = re.fullmatch(r"\s*(\d+)\s*([kmgtp]?)(i?b)?\s*", str(v).lower())
    if not m:
        return None
    return int(m.group(1)) * 1024 ** "_kmgtp".index(m.group(2) or "_")


def bs_dist(o, d):
    """The block-size distribution of direction d (0 read, 1 write) of
    resolved options o: a sorted tuple of (size, weight) or ('range', a, b)."""
    def pick(v):
        parts = v.split(",")
        return parts[d] if d < len(parts) and parts[d] != "" else parts[0]
    if o.get("bssplit"):
        items = []
        for it in pick(o["bssplit"]).split(":"):
            sz, _, w = it.partition("/")
            items.append((size(sz), int(w) if w else None))
        given = sum(w for _, w in items if w is not None)
        blank = [i for i, (_, w) in enumerate(items) if w is None]
        for i in blank:
            items[i] = (items[i][0], (100 - given) // len(blank))
        return tuple(sorted((s, w) for s, w in items if w))
    if o.get("bsrange") or o.get("blocksize_range"):
        a, _, b = pick(o.get("bsrange") or o.get("blocksize_range")).partition("-")
        if size(a) == size(b):
            return ((size(a), 100),)
        return ("range", size(a), size(b))
    return ((size(pick(o.get("bs") or o.get("blocksize") or "4k")), 100),)


def resolve(opts):
    """fio's defaults for what a job file leaves out."""
    o = dict(opts)
    rw = o.get("rw") or o.get("readwrite") or "read"
    rw = rw.split(":")[0]
    rw = {"readwrite": "rw", "randrw": "randrw"}.get(rw, rw)
    mix = o.get("rwmixread")
    if mix is None and o.get("rwmixwrite") is not None:
        mix = 100 - int(o["rwmixwrite"])
    eng = o.get("ioengine", "psync")
    direct = int(o.get("direct", "0")) or (1 if o.get("buffered") == "0" else 0)
    # Linux runs these one I/O at a time: posixaio (glibc serves a
    # descriptor in order) and libaio without O_DIRECT (io_submit returns
    # after the buffered I/O); measured with fio 3.33 in tests/integration/
    # fio_pagecache.sh
    serial = eng in SYNC or eng == "posixaio" or (eng == "libaio" and not direct)
    qd = 1 if serial else int(o.get("iodepth", "1"))
    # and where fio's iodepth_level says more than 1 (DEPTH_SAID)
    buffered_aio = eng == "libaio" and not direct and int(o.get("iodepth", "1")) > 1
    return {
        "rw": rw,
        "rwmixread": int(mix) if mix is not None and rw in ("rw", "randrw") else
        (50 if rw in ("rw", "randrw") else None),
        "bs_read": bs_dist(o, 0),
        "bs_write": bs_dist(o, 1),
        "iodepth": qd,
        "numjobs": int(o.get("numjobs", "1")),
        "size": size(o["size"]) if o.get("size") and size(o["size"]) else o.get("size"),
        "direct": direct,
        "rate_iops": o.get("rate_iops"),
        "buffered_aio": buffered_aio,
        "rated": bool(o.get("rate_iops") or o.get("rate")),
        "flow": int(o.get("flow") or 0),
        "flow_id": int(o.get("flow_id") or 0),
    }


def run(cmd, timeout=60, env=None, cwd=None):
    """Runs cmd in its own process group (fio forks its jobs): on a timeout
    the whole group is killed, so nothing keeps the device open."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True, cwd=cwd,
                         env=dict(os.environ, **env) if env else None)
    try:
        out, err = p.communicate(timeout=timeout)
        return p.returncode, out, err
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return -1, "", "timed out after %d s" % timeout


def rewrite(src, dst, sizes=None):
    out = []
    for line in open(src, encoding="utf-8", errors="replace"):
        key = line.strip().split("=", 1)[0].strip().replace("-", "_")
        if sizes and key in sizes:
            line = "%s=%s ; rewritten: %s\n" % (key, sizes[key], line.strip())
        out.append(("# rewritten: " + line) if key in REWRITE else line)
    with open(dst, "w") as f:
        f.writelines(out)
    return out


def check_refusal(name, lines, err):
    """'' when err is one line 'nvscope run: NAME:LINE: KEY...' and that line
    of the file holds KEY (or is that section); else what is wrong."""
    msgs = [l for l in err.splitlines() if l.strip()]
    if len(msgs) != 1:
        return "%d message lines, not one: %r" % (len(msgs), err[:300])
    m = re.match(r"nvscope run: (?:.*/)?%s:(\d+): (.*)" % re.escape(name), msgs[0])
    if not m:
        return "not 'file:line: option': " + msgs[0][:200]
    n, why = int(m.group(1)), m.group(2)
    if n < 1 or n > len(lines):
        return "line %d is not in the file" % n
    text = lines[n - 1].strip()
    key = text.split("=", 1)[0].strip()
    if text.startswith("["):
        key = text
    if not (why.startswith(key) or why.startswith(key.replace("-", "_"))):
        return "names line %d ('%s') but says: %s" % (n, text[:60], why[:100])
    return ""


# The depth a job ran at: fio's iodepth_level (the I/Os by the number in
# flight just after the commit that sent them, in the buckets 1, 2-3, 4-7,
# 8-15, 16-31, 32-63, >=64: fio 3.33 io_u.c io_u_mark_depth), a job's
# entries (its numjobs clones) summed by their I/Os.  Compared: the deepest
# bucket that holds at least DEPTH_SHARE of the I/Os, the depth the job
# kept, which must be the same bucket in both tools (a factor of 2 apart
# is another bucket).  Not the mean: fio commits one I/O at a time and
# nvscope a batch, so a refill from empty (a pass restart, flow's quiesce)
# counts 1, 2, ..., 16 in fio and all 16 at 16 in nvscope, the same device
# depth microseconds later (cmdprio-bssplit.fio, measured: fio 47.7% in "16" and the
# rest in 1-8, nvscope 100% in "16"; the loop device's in-flight requests,
# sampled, mean 24.6 and 26.0 over its 4 jobs); a refill of 16 in fio puts
# 1/16 (6.25%) in "16": above DEPTH_SHARE.  The start-up fill counts in
# lower buckets only, so it never sets the deepest.
DEPTH_KEYS = ("1", "2", "4", "8", "16", "32", ">=64")
DEPTH_SHARE = 3.0  # percent
# a share of fewer I/Os is not a depth (a job that did a handful)
DEPTH_MIN_IOS = 100
# fio's buffered libaio (ioengine=libaio without direct=1, iodepth > 1):
# Linux's io_submit does a buffered read or write before it returns, so
# fio's job keeps one I/O at the kernel at a time, as nvscope's does (the
# device's in-flight count, sampled, says so: docs/fio-examples.md, "The
# depth fio reports for buffered libaio"); fio counts the I/Os io_submit
# has finished and it has not reaped yet as in flight, up to its iodepth.
# nvscope reports the depth the kernel saw (1) and must say why in its
# JSON: jobs[].nvscope.engine_mapping holds DEPTH_SAID.
DEPTH_SAID = "fio's iodepth_level counts"
# A job held by rate_iops or rate keeps in flight its rate times the
# device's latency (Little's law), which is the loaded machine's, not the
# job's: fixed-rate-submission.fio (rate_iops=1000, iodepth=32) measured,
# load 37 on 2 CPUs: fio's clat 2.5 ms, 45% of its I/Os at depth 4-15;
# nvscope's 1.0 ms, 24% there; Little says 2.5 and 1.0 in flight.  Not
# compared; the rate is (compare: the number of I/Os at rate_iops).


def levels(j):
    """A JSON job's iodepth_level as 7 shares (percent), fio's key order."""
    lv = j.get("iodepth_level", {})
    return [float(lv.get(k, 0)) for k in DEPTH_KEYS]


def depth_top(lv):
    """The deepest bucket (0 for depth 1 .. 6 for >=64) holding at least
    DEPTH_SHARE of the summed shares lv."""
    t = sum(lv) or 1
    return max([k for k in range(7) if 100 * lv[k] / t >= DEPTH_SHARE] or [0])


def depth_text(lv):
    """'16 (93%)': the deepest bucket with DEPTH_SHARE, and its share."""
    t = sum(lv) or 1
    k = depth_top(lv)
    return "%s (%.0f%%)" % (DEPTH_KEYS[k], 100 * lv[k] / t)


def depth_check(name, flv, fios, nlv, nios, fo, note, info):
    """'' when job name ran at fio's depth (depth_top), or where fio's figure
    is not the depth the kernel saw (fo buffered_aio) nvscope's is 1 and its
    JSON says why; what was compared goes to info (a dict, or None)."""
    if fios < DEPTH_MIN_IOS or nios < DEPTH_MIN_IOS:
        if info is not None:
            info.setdefault("few", []).append(name)
        return ""
    if fo["rated"]:
        if info is not None:
            info.setdefault("rated", []).append(name)
        return ""
    if info is not None:
        info.setdefault("depth", []).append((name, depth_text(flv), depth_text(nlv)))
    if depth_top(flv) == depth_top(nlv):
        return ""
    levels_txt = "fio %s, nvscope %s" % (
        " ".join("%s:%.1f" % (k, 100 * v / (sum(flv) or 1)) for k, v in zip(DEPTH_KEYS, flv) if v),
        " ".join("%s:%.1f" % (k, 100 * v / (sum(nlv) or 1)) for k, v in zip(DEPTH_KEYS, nlv) if v))
    if not fo["buffered_aio"]:
        return "[%s] depth (iodepth_level): %s" % (name, levels_txt)
    if depth_top(nlv) != 0 or DEPTH_SAID not in note:
        return ("[%s] buffered libaio: %s, its engine_mapping %r" % (name, levels_txt, note[:120]))
    if info is not None:
        info.setdefault("said", []).append(name)
    return ""


# fio's flow (flow=, flow_id): the jobs of one flow running together issue
# I/Os in the ratio of their weights (fio's flow.c, held I/O by I/O), each
# job's share of the flow's I/Os its weight's share within FLOW_TOL
# (relative; flow.fio measured: 0.1108 and 0.1111 for its flow=1 writer in
# both tools, 1 s).  A job that outlives the rest of its flow runs free at
# its end, so its share and its depth grow: nvscope's jobs start at one
# instant and leave their flow when reaped, as fio's (where nvscope's
# flow=8 reader ran free 36-79 ms it reached depth 256: 31-69% of its I/Os
# at >=64, 23 reads per write).  fio's own run can do that too (its jobs
# set up after their release, then end apart, and are reaped every 10 ms:
# once seen under load, its writer 60% at >=64): then fio's depth is not
# the flow's and is not compared, and the row says so.
FLOW_TOL = 0.10
FLOW_MIN_IOS = 100  # per job of the flow: fewer is not a share


def flow_shares(fn, ios_of):
    """{job: (its share of its flow's I/Os, its weights' share, the flow)}:
    the jobs (fio's resolved options fn) of each flow with 2 or more jobs in
    one report group, where each did FLOW_MIN_IOS; ios_of: job -> (r, w)."""
    flows = {}
    for name, e in fn.items():
        if e["o"]["flow"]:
            flows.setdefault((e["o"]["flow_id"], e["gid"]), []).append(name)
    out = {}
    for key, names in flows.items():
        if len(names) < 2 or any(sum(ios_of[n]) < FLOW_MIN_IOS for n in names):
            continue
        tio = sum(sum(ios_of[n]) for n in names)
        tw = sum(fn[n]["count"] * fn[n]["o"]["flow"] for n in names)
        for n in names:
            out[n] = (sum(ios_of[n]) / tio, fn[n]["count"] * fn[n]["o"]["flow"] / tw, key)
    return out


def flow_off(shares):
    """The jobs of flow_shares whose share is off their weights', each
    with every other job of its flow (one ran free: the flow's shares and
    depths are not its rule's): job -> (share, weight's share)."""
    off = {v[2] for v in shares.values() if abs(v[0] / v[1] - 1) > FLOW_TOL}
    return {n: v[:2] for n, v in shares.items() if v[2] in off}


def fio_jobs(d):
    """fio's JSON jobs as (name, groupid, resolved options, ios, bytes)."""
    g = d.get("global options", {})
    out = []
    for j in d["jobs"]:
        o = dict(g)
        o.update(j.get("job options", {}))
        out.append((j["jobname"], j["groupid"], resolve(o),
                    (j["read"]["total_ios"], j["write"]["total_ios"]),
                    (j["read"]["io_bytes"], j["write"]["io_bytes"]), levels(j), ""))
    return out


def nvs_jobs(d):
    out = []
    for j in d["jobs"]:
        o = dict(j.get("job options", {}))
        o["ioengine"] = "io_uring"  # resolved already: its iodepth is the QD
        out.append((j["jobname"], j["groupid"], resolve(o),
                    (j["read"]["total_ios"], j["write"]["total_ios"]),
                    (j["read"]["io_bytes"], j["write"]["io_bytes"]), levels(j),
                    j.get("nvscope", {}).get("engine_mapping", "")))
    return out


def compare(f, n, share=True, info=None):
    """'' when fio's jobs f and nvscope's jobs n are the same workload; the
    depths compared go to info (depth_check)."""
    fn = {}
    for name, gid, o, ios, by, lv, _ in f:
        e = fn.setdefault(name, {"count": 0, "gid": gid, "o": o, "ios": [0, 0], "by": [0, 0],
                                 "lv": [0.0] * 7})
        e["count"] += 1
        for d in (0, 1):
            e["ios"][d] += ios[d]
            e["by"][d] += by[d]
        e["lv"] = [a + b * sum(ios) for a, b in zip(e["lv"], lv)]
    # both list each numjobs clone (fio without group_reporting): summed
    nn, ncount, nlv = {}, {}, {}
    for name, gid, o, ios, by, lv, note in n:
        ncount[name] = ncount.get(name, 0) + 1
        wlv = [b * sum(ios) for b in lv]
        if name in nn:
            wlv = [a + b for a, b in zip(nlv[name], wlv)]
            ios = tuple(a + b for a, b in zip(nn[name][2], ios))
            by = tuple(a + b for a, b in zip(nn[name][3], by))
        nn[name], nlv[name] = (gid, o, ios, by, note), wlv
    if set(fn) != set(nn):
        return "jobs: fio %s, nvscope %s" % (sorted(fn), sorted(nn))
    # report groups: the same partition of the jobs
    fg = sorted(sorted(k for k in fn if fn[k]["gid"] == g) for g in {e["gid"] for e in fn.values()})
    ng = sorted(sorted(k for k in nn if nn[k][0] == g) for g in {v[0] for v in nn.values()})
    if fg != ng:
        return "groups: fio %s, nvscope %s" % (fg, ng)
    nsh = flow_shares(fn, {k: v[2] for k, v in nn.items()})
    for name in sorted(nsh, key=lambda k: -abs(nsh[k][0] / nsh[k][1] - 1))[:1]:
        sh, w = nsh[name][:2]
        if abs(sh / w - 1) > FLOW_TOL:
            return "[%s] flow: nvscope's share of its flow's I/Os %.3f, its weight's %.3f" % (
                name, sh, w)
    fio_off = flow_off(flow_shares(fn, {k: e["ios"] for k, e in fn.items()}))
    for name, e in fn.items():
        gid, o, ios, by, note = nn[name]
        fo = e["o"]
        grouped = e["count"] == 1 and fo["numjobs"] > 1  # fio's group_reporting
        for k in ("rw", "rwmixread", "iodepth", "numjobs", "size", "direct"):
            if fo[k] != o[k]:
                return "[%s] %s: fio %s, nvscope %s" % (name, k, fo[k], o[k])
        if not grouped and e["count"] != o["numjobs"]:
            return "[%s] fio ran %d clones, nvscope numjobs=%d" % (name, e["count"], o["numjobs"])
        if e["count"] != ncount[name]:
            return "[%s] fio lists %d entries, nvscope %d" % (name, e["count"], ncount[name])
        for d, k in ((0, "bs_read"), (1, "bs_write")):
            if (ios[d] or e["ios"][d]) and fo[k] != o[k]:
                return "[%s] %s: fio %s, nvscope %s" % (name, k, fo[k], o[k])
        ft, nt = sum(e["ios"]), sum(ios)
        if ft >= 200 and nt >= 200:
            fr, nr = e["ios"][0] / ft, ios[0] / nt
            if share and abs(fr - nr) > 0.05:
                return "[%s] read share: fio %.3f, nvscope %.3f" % (name, fr, nr)
            for d in (0, 1):
                if e["ios"][d] >= 100 and ios[d] >= 100:
                    fm, nm = e["by"][d] / e["ios"][d], by[d] / ios[d]
                    if abs(fm - nm) > 0.1 * fm:
                        return "[%s] mean %s size: fio %.0f, nvscope %.0f" % (
                            name, "read" if d == 0 else "write", fm, nm)
        elif (ft == 0) != (nt == 0):
            return "[%s] I/Os: fio %d, nvscope %d" % (name, ft, nt)
        if name in fio_off:  # fio's flow ran off its weights: its depth is not the flow's
            if info is not None:
                info.setdefault("fio_flow_off", []).append(
                    "%s %.3f of its flow's I/Os, weight %.3f" % ((name,) + fio_off[name]))
            why = ""
        else:
            why = depth_check(name, e["lv"], ft, nlv[name], nt, fo, note, info)
        if why:
            return why
        if fo["rate_iops"] and (ft or nt):
            # a rate limit: both issue the same number of I/Os in the same
            # time (a Poisson count of mean m has sd sqrt(m): 4 sd, or 5%)
            if abs(ft - nt) > max(0.05 * ft, 4 * ft ** 0.5):
                return "[%s] I/Os at rate_iops=%s: fio %d, nvscope %d" % (
                    name, fo["rate_iops"], ft, nt)
    return ""


def iops_ratio(fj, nj):
    """nvscope's IOPS over fio's, both summed over jobs (each job's I/Os
    over its own runtime), as text."""
    def iops(d):
        return sum(j[k]["iops"] for j in d["jobs"] for k in ("read", "write", "trim") if k in j)
    f, n = iops(fj), iops(nj)
    return "%.2f" % (n / f) if f > 0 else "- (fio 0)"


def example(name, ctx):
    """(outcome, reason) of one example, run on ctx's devices: dev (this
    worker's own), or the big one (ctx.big, under ctx.big_lock) for BIG."""
    nvs, fixtures, work, dev, rt = ctx["nvs"], ctx["fixtures"], ctx["work"], ctx["dev"], ctx["rt"]
    common = ["--runtime=" + ("1" if name in LONG else rt), "--time_based"]
    path = os.path.join(work, name)
    # its own working directory: an example's log files (write_bw_log=...,
    # verify state) land there, apart from the examples run beside it
    cwd = os.path.join(work, name + ".d")
    os.makedirs(cwd, exist_ok=True)
    lines = rewrite(os.path.join(fixtures, name), path, SIZES.get(name))
    env = ENV.get(name)
    tdev = dev
    big = ctx["big"]
    if name in FILL and ctx["fill"]:
        tdev = ctx["fill"]
    if name in BIG and big:
        # its zones need a larger device: a sparse one, emptied first
        # (discard frees what the example before wrote)
        tdev = big
        subprocess.run(["blkdiscard", big], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def go(cmd):
        return run(cmd, env=env, cwd=cwd)

    def fio_parse():
        """fio's verdict on the file: (accepted, its stderr)"""
        frc, _, ferr = go(FIO + ["--parse-only", "--filename=" + tdev] + common + [path])
        return frc == 0, ferr
    rc, out, err = go([nvs, "run", "--parse-only", "--target", tdev] + common + [path])
    if rc == 2:
        why = check_refusal(name, lines, err)
        m = re.search(r":\d+: ([A-Za-z0-9_-]+)", err)
        key = m.group(1) if m else "?"
        cls = "no meaning here" if key in NO_MEANING else "not implemented"
        if "does not exist on this machine" in err:
            cls = "no meaning here"  # e.g. a NUMA node this machine lacks
        msg = err.strip().split(": ", 1)[-1].replace(work.rstrip("/") + "/", "")
        if why:
            return "FAIL", why
        # whether fio accepts it only annotates the docs' row: asked there
        if ctx["docs"] and not fio_parse()[0]:
            msg += " [fio refuses it too]"
        return "refused (%s)" % cls, msg
    if rc != 0:
        return "FAIL", "nvscope --parse-only exit %d: %s" % (rc, err.strip()[:200])
    if name in DEVICE_REFUSED:
        nrc, nout, nerr = go([nvs, "run", "--output-format=json", "--target", tdev] + common + [path])
        pat, why = DEVICE_REFUSED[name]
        if nrc == 2 and re.search(pat, nerr):
            msg = nerr.strip().splitlines()[-1].replace(tdev, "the loop device")
            msg += "; " + why
            if ctx["docs"] and not fio_parse()[0]:  # the docs' row only, as above
                msg += " [fio 3.33 refuses it too]"
            return "refused (the device lacks it)", msg
        return "FAIL", "nvscope exit %d: %s" % (nrc, nerr.strip()[-200:])
    # fio's run parses the file as --parse-only does (both stop at a parse
    # error before any I/O), so a run that succeeds is fio's yes; fio is
    # asked first only where the answer decides what runs, and after a
    # failed run to tell a refusal from a failure
    asked = name in FIO_NEWER or name in SLOW or name in FIO_INLINE
    fio_ok, ferr = fio_parse() if asked else (True, "")
    if not fio_ok and name in FIO_NEWER:
        nrc, nout, nerr = go([nvs, "run", "--output-format=json", "--target", tdev] + common + [path])
        check = FIO_NEWER_CHECK.get(name)
        try:
            ok = nrc == 0 and json.loads(nout)["jobs"] and (
                check is None or check(json.loads(nout)["jobs"][0]))
        except (ValueError, KeyError, IndexError):
            ok = False
        if ok:
            return "fio refuses", ("fio 3.33: " + (ferr.strip().splitlines() or ["?"])[0][:80] +
                                   "; nvscope runs it; " + FIO_NEWER[name])
        return "FAIL", "nvscope exit %d: %s" % (nrc, nerr.strip()[-200:] or "its JSON lacks the feature")
    if not fio_ok:
        if ferr.strip():
            return "fio refuses", "nvscope parses it; fio: " + ferr.strip().splitlines()[0][:150]
        return "fio refuses", "fio refuses"
    if name in SLOW:
        return "parsed only", SLOW[name]
    fpath = path
    if name in FIO_INLINE:
        fpath = path + ".inline.fio"
        with open(fpath, "w") as fw:
            fw.writelines(re.sub(r"^(\s*io_submit_mode\s*=\s*)offload", r"\1inline", l)
                          for l in lines)
    frc, fout, ferr = go(FIO + ["--output-format=json", "--filename=" + tdev] + common + [fpath])
    if frc != 0 and not asked:
        fio_ok, perr = fio_parse()
        if not fio_ok:
            return "fio refuses", ("nvscope parses it; fio: " + perr.strip().splitlines()[0][:150]
                                   if perr.strip() else "fio refuses")
    after = AFTER.get(name)
    fafter = after(tdev) if after and frc == 0 else ""
    if name in BIG and big:  # fio's blocks freed: the device's memory halves
        subprocess.run(["blkdiscard", big], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    nrc, nout, nerr = go([nvs, "run", "--output-format=json", "--target", tdev] + common + [path])
    nafter = after(tdev) if after and nrc == 0 else ""
    for tool, text in (("fio", fout), ("nvscope", nout)):  # kept with a failed test's scratch
        with open(os.path.join(cwd, tool + ".json"), "w") as fw:
            fw.write(text)
    try:
        fj = json.loads(fout[fout.index("{"):]) if frc == 0 else None
    except ValueError:
        fj = None
    try:
        nj = json.loads(nout) if nrc == 0 else None
    except ValueError:
        nj = None
    if fj is None and nj is None and name in NEEDS_NG and "ngXnY" in ferr and \
            "NVMe generic device" in nerr:
        return "both fail", NEEDS_NG[name]
    if fj is None and nj is None:
        last = lambda e: (e.strip().splitlines() or ["?"])[-1][:150]
        return "both fail", "fio: %s / nvscope: %s" % (last(ferr), last(nerr))
    if fafter or nafter:
        return "FAIL", "after fio: %s / after nvscope: %s" % (fafter or "ok", nafter or "ok")
    if nj is None:
        return "FAIL", "nvscope exit %d: %s" % (nrc, nerr.strip()[-200:])
    if fj is None:
        return "FAIL", "fio exit %d: %s" % (frc, ferr.strip()[-200:])
    info = {}
    diff = compare(fio_jobs(fj), nvs_jobs(nj), name not in TIMED, info)
    if not diff:
        diff = clat_counted(nj)
    if diff:
        return "FAIL", diff
    reason = "%d job(s), %d group(s)" % (len(nj["jobs"]), len({j["groupid"] for j in nj["jobs"]}))
    reason += "; " + depth_row(info)
    if info.get("fio_flow_off"):
        reason += ("; fio's own run let a job of its flow run free (its jobs end apart: %s): "
                   "that depth not compared" % ", ".join(info["fio_flow_off"]))
    reason += "; IOPS nvscope/fio %s" % iops_ratio(fj, nj)
    if name in IOPS_NOTE:
        reason += " (" + IOPS_NOTE[name] + ")"
    if name in TIMED:
        reason += "; the read share is not compared: " + TIMED[name]
    if name in SIZES:
        reason += "; rewritten to fit: %s (%s)" % (", ".join(
            "%s=%s" % kv for kv in SIZES[name].items()), SIZES_WHY[name])
    if name in FIO_INLINE:
        reason += "; " + FIO_INLINE[name]
    if info.get("said"):
        return "same (fio's depth figure differs, said)", reason
    return "same", reason


def depth_row(info):
    """The depths compared, for a row: 'depth 16' when every job's deepest
    bucket (depth_top) is 16 in both tools, else job by job, fio's/nvscope's."""
    d = sorted(info.get("depth", []))
    if not d and info.get("rated"):
        return "depth not compared (rate-limited: rate x the device's latency)"
    if not d:
        return "depth not compared (under %d I/Os)" % DEPTH_MIN_IOS
    if info.get("said"):
        f = ", ".join(sorted({x[1] for x in d}))
        return ("depth: fio's iodepth_level %s, nvscope's %s: fio counts the I/Os its "
                "io_submit has done (buffered) and it has not reaped; each job had one I/O "
                "at the kernel at a time in both tools (nvscope's JSON says so; below)"
                % (f, ", ".join(sorted({x[2] for x in d}))))
    if all(x[1].split()[0] == x[2].split()[0] for x in d) and len({x[1].split()[0] for x in d}) == 1:
        return "depth %s" % d[0][1].split()[0]
    return "depth fio/nvscope " + ", ".join("[%s] %s/%s" % x for x in d)


def main():
    nvs, fixtures, devs, work = sys.argv[1:5]
    # both tools run inside the scratch directory (each example in a
    # directory of its own): an example's log files land there, never in
    # the tree
    nvs, fixtures, work = (os.path.abspath(x) if os.path.exists(x) else x
                           for x in (nvs, fixtures, work))
    table_path = os.path.abspath(sys.argv[5]) if len(sys.argv) > 5 else None
    devs = devs.split(",")
    # the docs' table: 1 s runs one example at a time (its IOPS column), and
    # fio asked about every file nvscope refuses (its rows' annotations)
    docs = os.environ.get("NVS_FIO_EXAMPLES_DOCS", "") == "1"
    rt = os.environ.get("NVS_FIO_EXAMPLES_RUNTIME", "1" if docs else RUNTIME)
    nworkers = 1 if docs else len(devs)
    names = [n for n in sorted(os.listdir(fixtures))
             if n.endswith(".fio") and os.environ.get("NVS_FIO_EXAMPLE", "") in n]
    free = queue.Queue()
    for d in devs[:nworkers]:
        free.put(d)
    big_lock, print_lock = threading.Lock(), threading.Lock()
    base = {"nvs": nvs, "fixtures": fixtures, "work": work, "rt": rt, "docs": docs,
            "big": os.environ.get("NVS_FIO_BIGDEV", ""), "fill": os.environ.get("NVS_FIO_FILLDEV", "")}

    def task(name):
        dev = free.get()
        try:
            ctx = dict(base, dev=dev)
            if name in BIG and ctx["big"]:
                with big_lock:  # one device for them all: one at a time
                    outcome, reason = example(name, ctx)
            else:
                outcome, reason = example(name, ctx)
        finally:
            free.put(dev)
        if outcome == "FAIL" and name in KNOWN:
            outcome, reason = "known gap", KNOWN[name] + " (" + reason + ")"
        if name in SAME and not outcome.startswith("same") and outcome != "FAIL":
            outcome, reason = "FAIL", "ran the same workload before: " + reason
        with print_lock:
            print("%-40s %-28s %s" % (name, outcome, reason[:160]), flush=True)
        return name, outcome, reason.replace("|", "\\|").replace("\n", " ")

    # the examples with the most run groups first, so that none starts last
    order = sorted(names, key=lambda n: -cost(os.path.join(fixtures, n)))
    with concurrent.futures.ThreadPoolExecutor(nworkers) as pool:
        rows = sorted(pool.map(task, order))
    bad = sum(1 for _, o, _ in rows if o == "FAIL")
    counts = {}
    for _, o, _ in rows:
        counts[o] = counts.get(o, 0) + 1
    print("counts: " + ", ".join("%s %d" % kv for kv in sorted(counts.items())))
    if table_path:
        with open(table_path, "w") as f:
            f.write(TABLE_HEAD.replace("@RT@", rt).replace("@RTS@", "1 s" if rt == "1" else rt))
            f.write("Counts (%d examples): %s.\n\n" % (len(rows), ", ".join(
                "%s: %d" % kv for kv in sorted(counts.items()))))
            f.write("| example | outcome | reason |\n|---|---|---|\n")
            for r in rows:
                f.write("| %s | %s | %s |\n" % r)
            f.write(TABLE_TAIL)
    return 1 if bad else 0


def cost(path):
    """A guess at an example's run time, to start the long ones first: its
    run groups, 1 s or RUNTIME each (SAME examples only: the others are
    refused or only parsed)."""
    name = os.path.basename(path)
    if name not in SAME:
        return 0
    text = open(path, encoding="utf-8", errors="replace").read()
    groups = 1 + len(re.findall(r"^\s*(stonewall|wait_for_previous|wait_for)\b", text, re.M))
    return groups * (3 if name in LONG else 1)


TABLE_HEAD = """# fio's examples/ run by nvscope

Generated by `tests/integration/fio_examples.sh` (tests/fio_examples.py): each
of fio's own example job files (tests/fixtures/fio-examples/, from fio's
source, GPL-2.0, see COPYING there) with only its target and length rewritten
(filename/directory/runtime/timeout/time_based/ramp_time lines commented out; both
tools get `--runtime=@RT@ --time_based` and the same loop device; a size no test
device holds is rewritten on its line, said in the row), run by Debian's
fio 3.33 and by nvscope with `--output-format=json`, compared job by job:
jobs, report groups, rw, rwmixread, block-size distribution per direction,
queue depth (fio's sync engines, posixaio and buffered libaio: 1), numjobs,
size, direct, and measured the read share of the I/Os, the mean block size
per direction, the depth each job ran at, each flow job's share of its
flow's I/Os (its weight's, within 10%) and, with rate_iops, the number of
I/Os; nvscope's IOPS over fio's is printed for each "same" row (@RTS@ each:
not asserted).

The depth a job ran at is each tool's `iodepth_level` (the I/Os by the
number in flight just after their submission, in fio's buckets 1, 2-3,
4-7, ..., >=64; docs/cli.md, "The queue depth a job ran at"), a job's
numjobs entries summed by their I/Os: the deepest bucket holding at least
3% of its I/Os (the depth the job kept) must be the same in both tools,
where both did at least 100 I/Os.  Not the mean: fio commits one I/O at a
time and nvscope a batch, so a refill from empty (a pass restart, flow's
quiesce) counts 1, 2, ..., 16 in fio and all 16 at 16 in nvscope, the
same depth at the device microseconds later (cmdprio-bssplit: fio 48%
in `"16"`, nvscope 100%; the loop device's in-flight requests, sampled,
24.6 and 26.0 on average).  A row says that bucket (`depth 16`), or each job's, fio's then
nvscope's.  Jobs held by `rate_iops`/`rate` are not compared: they keep
their rate times the device's latency in flight (Little's law), the loaded
machine's, not the job's (their number of I/Os is compared).  One case
differs and is said: fio's buffered libaio (**same (fio's depth figure
differs, said)**, below).

Outcomes: **same** (the workload matched, its depth too), **same (fio's
depth figure differs, said)** (the workload matched; fio's `iodepth_level`
counts I/Os the kernel had already done, nvscope's the ones in flight, and
nvscope's JSON and stderr say so: below), **refused (no meaning here)** (a
feature with no meaning on a local block device through io_uring: network or
object-store engines, file-system metadata engines, files fio creates),
**refused (not implemented)** (a feature nvscope does not have yet, e.g.
Zone Append), both
with ONE message naming the file, the line and the option (checked: that line
holds that option); **fio refuses** (Debian's fio 3.33 cannot parse it
either, e.g. an engine not built in, or a newer fio's feature nvscope has
as fio master has it: then nvscope runs it, its JSON checked, with nothing
to compare); **parsed only** (too slow to run in
CI, reason given); **both fail** (both parse
it, neither can run it on a loop device, e.g. NVMe passthrough); **known
gap** (differs, reason given); **refused (the device lacks it)** (nvscope
parses it and refuses its run before any I/O because the loop device lacks
what it needs, e.g. an atomic write unit or NVMe; `make check-vm` runs it on
emulated NVMe).

"""

TABLE_TAIL = """
## The depth fio reports for buffered libaio

fio-rand-read, fio-rand-write, fio-rand-RW, fio-seq-write, fio-seq-RW and
dedupe-global use `ioengine=libaio` without `direct=1`.  Linux's
io_submit does a buffered read or write before it returns, so each job has
one I/O at the kernel at a time; fio then holds the finished I/O until it
reaps, and it reaps only once its iodepth is taken, so its `iodepth_level`
counts finished I/Os as in flight.  Measured side by side on one 64 MiB
loop device (2 s each, the device's `/sys/block/loopN/inflight` sampled
every ~0.2 ms while the tool ran; 2 CPUs, load 10-14):

| example | tool | `iodepth_level` | the device's in-flight requests |
|---|---|---|---|
| fio-rand-read (1 job, reads) | fio 3.33 | 99.9% in `"16"` | 985 busy samples, every one at 1 (max 1) |
| fio-rand-read | nvscope | 100% in `"1"` | 1437 busy samples, every one at 1 (max 1) |
| fio-rand-RW (4 jobs, 60% reads) | fio 3.33 | 99.9% in `"16"` | 749 of 886 busy samples at 1-4 (one read per job), the rest write-back bursts up to 96 |
| fio-rand-RW | nvscope | 100% in `"1"` | 1836 of 1993 at 1-4, the rest write-back bursts up to 96 |
| fio-seq-read (libaio, direct=1: the control) | fio 3.33 | 94% in `"16"` | mean 14.2, max 16 |
| fio-seq-read | nvscope | 100% in `"16"` | mean 15.0, max 16 |

And fio's own runs of fio-rand-read with its iodepth=16 line set to 1
(alternated, 2 s each): 2421, 11781, 17601 IOPS at 1 against 3872, 9861,
8330 at 16 (the machine's load moves them; depth 16 gains nothing), with a
clat of 2-3 us at 1 (the read was done inside io_submit, before fio's clat
starts) and 1.5-3.8 ms at 16 (the time a finished I/O waits to be reaped).
The buffered writes reach the device as the page cache writes them back
(bursts up to the loop device's 96 requests), in both tools alike.

So the workload fio runs there is one I/O at a time per job, what
nvscope runs and reports: its `iodepth_level` is 100% in `"1"`, and its
stderr and JSON (`jobs[].nvscope.engine_mapping`) say that fio's
`iodepth_level` counts up to the file's iodepth there and why.  These rows
are **same (fio's depth figure differs, said)**: the test checks that
nvscope's depth is 1 and that its JSON says so.

## What is left

- `flow.fio` (issue 26) runs at fio's depths: its flow=8 reader refills
  16 after each quiesce and sleep (fio one I/O at a time: 1, 2, ..., 16,
  so 6-8% of its I/Os in `"16"`; nvscope the 16 in one submit), its flow=1
  writer 2, 8 reads per write in both.  By fio's rule (a job ahead of its
  weight quiesces, then sleeps flow_sleep) a refill is at most 18 reads
  while the jobs take turns (about 34 when the writer's turn falls inside
  the reader's refill: 0.1-0.5% of the reads in `"32"`, in both tools),
  so a deeper queue means a job ran outside its flow: nvscope started the jobs of a run group one after
  another (each job's rings and buffers set up while the earlier ones
  ran: 36-79 ms apart, measured) and a job left its flow the moment it
  ended, so the reader ran free for its last 36-79 ms at iodepth=256
  (31-69% of its I/Os at >=64, 23 reads per write).  Now, as fio's
  run_threads, every job of a group is set up first and all start at one
  instant, and a job that ended leaves its flow when it is reaped (fio's
  flow_exit_job in reap_threads; nvscope's run loop looks every 100 ms,
  fio's every 10 ms).  The test also checks each job's share of its
  flow's I/Os against its weight's (10%); where fio's own run breaks it
  (its jobs set up after their release, so they can end apart: seen once
  under load) fio's depth is not the flow's, and the row says so.
- Done since the first run of this table (issue 13): verify (fio's
  on-disk headers, read by fio's verify_only and vice versa, every fio
  3.33 checksum and `null` (fio's pretend verify), fio's do_io/do_verify
  loop for time_based jobs), verify_interval, verify_dump, dedupe_mode, dedupe_global, trims,
  in-job steady state (also fio master's `lat` criteria), latency_target,
  wait_for, filesize on given files, number_ios, I/O priorities (prio,
  cmdprio*), nice, thinktime_spin/iotime, iodepth_low, NUMA, flow,
  offset_align, serialize_overlap, ignore_error, error_dump, slat and
  fio's three latency logs, one JSON entry per numjobs copy, writers of
  one device in one run group running together, fio's random map with its
  per-direction units and re-seeded restarts, fio's own random streams
  (tausworthe/tausworthe64 seeded per thread as fio: the same offsets,
  sizes and directions, I/O for I/O), zonemode=zbd (emulated
  zones; zoned devices in `make check-vm`), fio master's sprandom, and on io_uring_cmd: write_mode, deac,
  num_range, and protection information (`pi_act`, `pi_chk`,
  `md_per_io_size`, `apptag`).
- Examples that newer fio has and Debian's fio 3.33 refuses ("fio
  refuses": nvscope runs them alone, its JSON checked): sprandom.fio,
  example_latency_steadystate.fio; the io_uring_cmd ones
  (uring-cmd-write-mode, -trim-multi-range, -pi-sb, -pi-ext) need an NVMe
  generic device and run in `make check-vm` on emulated NVMe, as does
  uring-cmd-ng.fio ("both fail" on a loop device).
- fio's zbd examples name 256 MiB zones from zone 524 on: they run on a
  sparse 140 GiB device (only written blocks take space), with
  `zbd-rand-write-trim-gc`'s whole-zone 256 MiB trims (trims take block
  sizes up to 2g, no buffer).  Zoned block devices and zoned namespaces
  through io_uring_cmd run in `make check-vm` (emulated ZNS); the loop
  device here is not zoned (its zones are emulated, as fio does).
- `cross-stripe-verify.fio` spaces its 30 jobs 124 GiB apart (a 3.6 TiB
  drive): it runs on the 140 GiB device with `offset_increment=4g`, the
  only line changed, each job's first block checked on the device.
- NVMe flexible data placement (`fdp`, uring-cmd-fdp.fio, xnvme-fdp.fio
  with io_uring_cmd as its engine) and `atomic=1` (atomic-verify.fio) run
  in `make check-vm`'s fdp boot (bookworm-backports' QEMU 10 and kernel
  6.12); on the loop device they are refused before any I/O (no NVMe, no
  atomic write unit); xnvme-fdp.fio as given (fio's default psync) is
  refused at its `fdp=` line, as fio refuses it.
- verify with zonemode=zbd runs as fio's (the job's zones reset first, no
  zone written twice, every block read back; tests/integration/
  fio_zbd_verify.sh runs uring-cmd-zoned.fio's jobs beside fio on
  emulated zones, `make check-vm` on a zoned namespace).  Not
  implemented: Zone Append (`write_mode=zone_append`, which fio 3.33
  does not know either): uring-cmd-zoned-append.fio is refused at that
  line.  Writes to a zoned device at iodepth > 1, or from several
  workers or jobs at once, are refused (fio serializes them with its
  zone locks).
- Protection information: the 16- and 64-bit guard formats (the 64-bit
  one in `make check-vm`); the 32-bit guard and storage tags are refused,
  as fio refuses them.
- Buffered jobs (fio's default in a job file) reach the device as fio's
  do: invalidate and fadvise_hint, the cache dropped again at each pass,
  and posixaio and buffered libaio one I/O at a time, as Linux runs them
  (tests/integration/fio_pagecache.sh counts the kernel's I/Os beside
  fio's).  The IOPS column (nvscope/fio, 1 s each on a shared machine) is
  printed, not asserted.
- iometer (size=4g on the smaller device) and cmdprio-bssplit follow
  fio's rules (an I/O that would pass the end of the device, or a write
  whose next free map bit lies past its last block, ends the pass, which
  starts over re-seeded) with fio's own random streams, so the loop of
  I/Os both tools repeat is the same one (tests/integration/fio_rng.sh).
- `numa.fio` asks for NUMA node 1, which a one-node machine lacks: refused
  there (fio fails to run it too).
- `1mbs_clients.fio` is only parsed in CI (its start delays reach 124 s).
- `fixed-rate-submission.fio` and `poisson-rate-submission.fio`: Debian's
  fio 3.33 hangs with their io_submit_mode=offload, so fio runs a copy with
  io_submit_mode=inline; the workload and the number of I/Os at the rate
  limit are compared (same).
"""

if __name__ == "__main__":
    sys.exit(main())
