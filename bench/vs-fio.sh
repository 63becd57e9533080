#!/bin/bash
# vs-fio.sh - nvscope against fio (io_uring engine) and a minimal liburing loop.
#
# Same workload for every tool: 4k random reads, QD32 (-d), one worker, time
# based.
# Tools: fio at defaults (fio-def), fio tuned (iodepth_batch_submit=16
# iodepth_batch_complete_max=32 fixedbufs registerfiles: fio-tun), the floor
# loop bench/uring-floor.c (floor; floor-fx is the same loop with registered
# buffers and file, as nvscope uses by default) and `nvscope run` at default
# settings (nvscope).  Every round runs all five, alternating the order
# (A B C D E, then E D C B A) because these machines drift; the summary quotes
# the median of the absolute figures and the median of the per-round ratios
# nvscope/other.
# Targets:
#   zero  /dev/zero, --size=1g, buffered: pure engine cost (CPU-bound);
#   loop  a loop device (losetup --direct-io=on) over a file on tmpfs
#         (/dev/shm), created here and always removed (trap): the real block
#         layer.  Here the kernel is the referee: its time per I/O and the
#         largest per-run difference between the I/Os a tool issued
#         (nvscope: total_ios plus nvscope.late, the I/Os its window left
#         in flight) and the kernel's completed count
#         (/sys/block/loopN/stat fields 1+2: ios plus merges) are printed
#         beside each tool's figures (an outside reader, such as a libblkid
#         scan of all block devices, adds ~48 reads to the kernel's count;
#         kernel us/IO = read ticks / read ios).
# Figures: IOPS; IOPS per CPU-second = IOPS / ((usr_cpu+sys_cpu)/100) of the
# I/O thread(s) as each tool reports them (floor: getrusage of its thread);
# proc = I/Os per CPU-second of the whole process from the shell's `time`
# (includes set-up and any helper threads); latency p50/p99 of the total
# latency (fio: lat_ns with --lat_percentiles=1, not clat_ns, which leaves
# out submission time).
#
# Usage: bench/vs-fio.sh [-r ROUNDS] [-t SECONDS] [-q] [-T zero,loop]
#                        [-s LOOPSIZE] [-d QD] [-o DIR]
#   -r rounds (default 5)   -t seconds per run (default 5)   -d queue depth (32)
#   -q quick: 2 rounds of 2 s      -T targets (default zero,loop)
#   -s loop device size (default 1g)   -o keep raw outputs in DIR
# `make bench` runs it with the defaults.  Needs root for the loop target
# (skipped otherwise); installs fio with apt-get if it is missing.
set -u
cd "$(dirname "$0")/.." || exit 1
TOP=$PWD

ROUNDS=5 SECS=5 TARGETS=zero,loop LOOPSIZE=1g OUT= QD=32
while getopts "r:t:qT:s:d:o:h" o; do
	case $o in
	r) ROUNDS=$OPTARG ;;
	t) SECS=$OPTARG ;;
	q) ROUNDS=2 SECS=2 ;;
	T) TARGETS=$OPTARG ;;
	s) LOOPSIZE=$OPTARG ;;
	d) QD=$OPTARG ;;
	o) OUT=$OPTARG ;;
	*) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
	esac
done
case $ROUNDS$SECS$QD in *[!0-9]*) echo "vs-fio.sh: -r, -t and -d take whole numbers" >&2; exit 2 ;; esac
[ "$QD" -ge 1 ] && [ "$QD" -le 1024 ] || { echo "vs-fio.sh: -d must be 1..1024" >&2; exit 2; }
[ "$ROUNDS" -ge 1 ] && [ "$SECS" -ge 1 ] || { echo "vs-fio.sh: -r and -t must be >= 1" >&2; exit 2; }

NVS=${NVS_BIN:-$TOP/nvscope}
FLOOR=$TOP/build/uring-floor
LOOPDEV= LOOPDIR=
WORK=$(mktemp -d "${TMPDIR:-/tmp}/nvscope-bench.XXXXXX")
cleanup() {
	[ -n "$LOOPDEV" ] && losetup -d "$LOOPDEV" 2>/dev/null
	[ -n "$LOOPDIR" ] && rm -rf "$LOOPDIR"
	if [ -n "$OUT" ]; then mkdir -p "$OUT" && cp -r "$WORK"/. "$OUT"/; fi
	rm -rf "$WORK"
}
# Each tool runs as a background job that the script waits for: a tool
# that catches SIGINT itself (fio does) and exits normally would otherwise
# make bash skip its INT trap and go on with the next tool.
CHILD=
on_signal() {
	trap - INT TERM
	if [ -n "$CHILD" ]; then
		pkill -TERM -P "$CHILD" 2>/dev/null
		wait "$CHILD" 2>/dev/null
	fi
	echo "vs-fio.sh: interrupted" >&2
	exit 130
}
trap cleanup EXIT
trap on_signal INT TERM

say() { echo "$*" >&2; }
die() { echo "vs-fio.sh: $*" >&2; exit 1; }

# --- prerequisites ---------------------------------------------------------
if ! command -v fio >/dev/null; then
	say "installing fio"
	apt-get install -y fio >/dev/null 2>&1 ||
		{ apt-get update >/dev/null 2>&1 && apt-get install -y fio >/dev/null 2>&1; } ||
		die "fio is missing and apt-get could not install it"
fi
command -v python3 >/dev/null || apt-get install -y python3-minimal >/dev/null 2>&1 ||
	die "python3 is needed to read the JSON results"
[ -x "$NVS" ] || make -s all || die "cannot build nvscope"
mkdir -p "$TOP/build"
if [ ! -x "$FLOOR" ] || [ "$TOP/bench/uring-floor.c" -nt "$FLOOR" ]; then
	cc -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -o "$FLOOR" "$TOP/bench/uring-floor.c" -luring ||
		die "cannot build bench/uring-floor.c (liburing-dev installed?)"
fi

# --- one run ---------------------------------------------------------------
# run_tool TOOL TARGETNAME DEV SIZE DIRECT ROUND: runs, then appends one
# record line to $WORK/records.
bytes() { numfmt --from=iec "${1^^}"; }
run_tool() {
	local tool=$1 tname=$2 dev=$3 size=$4 direct=$5 round=$6 out t0 rc
	local raw=$WORK/$tname-$tool-$round
	local common=(--size="$size" --direct="$direct" --rw=randread --bs=4k --iodepth="$QD"
		--runtime="$SECS" --time_based --output-format=json)
	local cmd
	case $tool in
	fio-def) cmd=(fio --name=bench --filename="$dev" --ioengine=io_uring --lat_percentiles=1 "${common[@]}") ;;
	fio-tun) cmd=(fio --name=bench --filename="$dev" --ioengine=io_uring --lat_percentiles=1
		--iodepth_batch_submit=16 --iodepth_batch_complete_max=32 --fixedbufs --registerfiles
		"${common[@]}") ;;
	nvscope) cmd=("$NVS" run --target "$dev" "${common[@]}") ;;
	floor | floor-fx) cmd=("$FLOOR" -f "$dev" -s "$(bytes "$size")" -q "$QD" -t "$SECS")
		[ "$direct" = 1 ] && cmd+=(-d)
		[ "$tool" = floor-fx ] && cmd+=(-F) ;;
	esac
	echo "${cmd[*]}" >"$raw.cmd"
	local st0=
	[ -n "$LOOPDEV" ] && [ "$dev" = "$LOOPDEV" ] && st0=$(cat "/sys/block/${dev#/dev/}/stat")
	TIMEFORMAT='%U %S %R'
	{ time "${cmd[@]}" >"$raw.out" 2>"$raw.err"; } 2>"$raw.time" &
	CHILD=$!
	wait "$CHILD"
	rc=$?
	CHILD=
	local st1=
	[ -n "$st0" ] && st1=$(cat "/sys/block/${dev#/dev/}/stat") &&
		printf 'before %s\nafter  %s\n' "$st0" "$st1" >"$raw.stat"
	if [ $rc -ne 0 ]; then
		say "  $tool failed (exit $rc): $(head -c 300 "$raw.err")"
		return 1
	fi
	python3 - "$tool" "$tname" "$round" "$raw.out" "$raw.time" "$st0" "$st1" >>"$WORK/records" <<'EOF' ||
import json, sys
tool, tname, rnd, outf, timef, st0, st1 = sys.argv[1:8]
u, s, r = (float(x) for x in open(timef).read().split()[-3:])
txt = open(outf).read()
if tool.startswith("floor"):
    kv = dict(x.split("=") for x in txt.split())
    iops, ipc = float(kv["iops"]), float(kv["iops_per_cpu_s"])
    ios, mean = float(kv["ios"]), float(kv["mean_ns"])
    iss = ios
    p50, p99 = float(kv["p50_ns"]), float(kv["p99_ns"])
else:
    # fio may print notes before the JSON object
    j = json.loads(txt[txt.index("{"):])["jobs"][0]
    rd = j["read"]
    iops = rd["iops"]
    cpu = (j["usr_cpu"] + j["sys_cpu"]) / 100.0
    ipc = iops / cpu if cpu > 0 else 0.0
    ios = float(rd["total_ios"])
    # the I/Os in flight when nvscope's window closed complete in its grace,
    # outside the figures (docs/cli.md "How a run ends"): the kernel counts them
    iss = ios + float(j.get("nvscope", {}).get("late", 0))
    lat = rd["lat_ns"]
    mean = lat["mean"]
    p50 = lat["percentile"]["50.000000"]
    p99 = lat["percentile"]["99.000000"]
proc = ios / (u + s) if u + s > 0 else 0.0
kios = kms = -1
if st0 and st1:
    a, b = [int(x) for x in st0.split()], [int(x) for x in st1.split()]
    # completed requests + bios merged into them = the I/Os a tool submitted
    kios, kms = b[0] + b[1] - a[0] - a[1], b[3] - a[3]
print(tname, rnd, tool, f"{iops:.0f} {ipc:.0f} {proc:.0f} {mean:.0f} {p50:.0f} {p99:.0f} {ios:.0f} {kios} {kms} {iss:.0f}")
EOF
		{ say "  $tool: cannot parse $raw.out"; return 1; }
	say "  $(tail -n1 "$WORK/records" | awk '{printf "%-8s IOPS %8.0f  IOPS/CPU-s %8.0f  p50 %6.1f us  p99 %6.1f us", $3, $4, $5, $8/1000, $9/1000}')"
}

make_loop() {
	[ "$(id -u)" -eq 0 ] || { say "loop target skipped: needs root"; return 1; }
	LOOPDIR=$(mktemp -d /dev/shm/nvscope-bench.XXXXXX) || return 1
	truncate -s "$LOOPSIZE" "$LOOPDIR/loop.img" || return 1
	LOOPDEV=$(losetup --direct-io=on -f --show "$LOOPDIR/loop.img") || { LOOPDEV=; return 1; }
	local dio
	dio=$(cat "/sys/block/${LOOPDEV#/dev/}/loop/dio" 2>/dev/null)
	say "loop target: $LOOPDEV over $LOOPDIR/loop.img ($LOOPSIZE, tmpfs, dio=${dio:-?})"
}

TOOLS=(nvscope fio-def fio-tun floor floor-fx)
: >"$WORK/records"
say "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), kernel $(uname -r), $(fio --version)"
say "rounds $ROUNDS x ${SECS}s, targets $TARGETS, QD $QD"
for tname in ${TARGETS//,/ }; do
	case $tname in
	zero) dev=/dev/zero size=1g direct=0 ;;
	loop) make_loop || continue
		dev=$LOOPDEV size=$LOOPSIZE direct=1 ;;
	*) die "unknown target '$tname' (zero, loop)" ;;
	esac
	for ((r = 1; r <= ROUNDS; r++)); do
		order=("${TOOLS[@]}")
		[ $((r % 2)) -eq 0 ] && order=(floor-fx floor fio-tun fio-def nvscope)
		say "[$tname] round $r/$ROUNDS: ${order[*]}"
		for tool in "${order[@]}"; do
			run_tool "$tool" "$tname" "$dev" "$size" "$direct" "$r"
		done
	done
	if [ "$tname" = loop ]; then
		losetup -d "$LOOPDEV" && LOOPDEV=
		rm -rf "$LOOPDIR" && LOOPDIR=
	fi
done

# --- summary ---------------------------------------------------------------
python3 - "$WORK/records" <<'EOF'
import sys, statistics as S
recs = {}
for line in open(sys.argv[1]):
    f = line.split()
    t, rnd, tool = f[0], int(f[1]), f[2]
    v = dict(zip(["iops", "ipc", "proc", "mean", "p50", "p99", "ios", "kios", "kms", "iss"], map(float, f[3:])))
    recs.setdefault(t, {}).setdefault(rnd, {})[tool] = v
tools = ["nvscope", "fio-def", "fio-tun", "floor", "floor-fx"]
for t, rounds in recs.items():
    print(f"\n== target {t}: medians over {len(rounds)} rounds")
    print(f"{'tool':8} {'IOPS':>10} {'IOPS/CPU-s':>11} {'proc/CPU-s':>11} {'mean us':>8} {'p50 us':>7} {'p99 us':>7}", end="")
    ref = any(v.get("kios", -1) >= 0 for r in rounds.values() for v in r.values())
    print(f" {'kern us/IO':>10} {'IOs-kernel':>10}" if ref else "")
    for tool in tools:
        vs = [r[tool] for r in rounds.values() if tool in r]
        if not vs:
            continue
        m = lambda k: S.median(v[k] for v in vs)
        print(f"{tool:8} {m('iops'):10.0f} {m('ipc'):11.0f} {m('proc'):11.0f} {m('mean')/1e3:8.1f} {m('p50')/1e3:7.1f} {m('p99')/1e3:7.1f}", end="")
        if ref:
            kus = S.median(v["kms"] * 1e3 / v["kios"] for v in vs if v["kios"] > 0)
            worst = max((v["iss"] - v["kios"] for v in vs), key=abs)
            print(f" {kus:10.1f} {worst:10.0f}")
        else:
            print()
    print(f"ratios nvscope/X, median of per-round ratios (latency: < 1 is better for nvscope)")
    print(f"{'X':8} {'IOPS':>7} {'IOPS/CPU-s':>11} {'proc/CPU-s':>11} {'p50':>7} {'p99':>7}")
    for other in tools[1:]:
        pairs = [(r["nvscope"], r[other]) for r in rounds.values() if "nvscope" in r and other in r]
        if not pairs:
            continue
        q = lambda k: S.median(a[k] / b[k] for a, b in pairs if b[k] > 0)
        print(f"{other:8} {q('iops'):7.2f} {q('ipc'):11.2f} {q('proc'):11.2f} {q('p50'):7.2f} {q('p99'):7.2f}")
EOF
