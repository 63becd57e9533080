#!/bin/bash
# console-overhead.sh - does drawing slow the I/O?  Runs the same workload
# headless (`nvscope run`) and in the console (in a tmux pane, live strips
# drawn at ~10 Hz), alternating A B / B A over rounds, and prints the median
# IOPS of each and the ratio console/headless.  Goal: under 2% difference.
# Not a test: these machines are shared and noisy; read the ratio, not a
# single run.
#   bench/console-overhead.sh [-r ROUNDS] [-s SECONDS] [-t TARGET]
# TARGET defaults to a loop device (direct I/O) over a file on tmpfs, made
# and removed here.
set -u
cd "$(dirname "$0")/.." || exit 1
ROUNDS=4 SECS=8 TARGET=""
while getopts "r:s:t:h" o; do
	case $o in
	r) ROUNDS=$OPTARG ;; s) SECS=$OPTARG ;; t) TARGET=$OPTARG ;;
	*) sed -n '2,12p' "$0"; exit 0 ;;
	esac
done
BIN=${NVS_BIN:-./nvscope}
[ -x "$BIN" ] || make -s || exit 1
command -v tmux >/dev/null || tools/deps.sh tmux
TMP=$(mktemp -d /tmp/nvs-bench.XXXXXX)
SOCK=nvs-bench-$$
LOOPDEV=""
cleanup() {
	tmux -L "$SOCK" kill-server 2>/dev/null
	[ -n "$LOOPDEV" ] && losetup -d "$LOOPDEV"
	rm -rf "$TMP" /dev/shm/nvs-bench-$$.img
}
trap cleanup EXIT
if [ -z "$TARGET" ]; then
	truncate -s 512M /dev/shm/nvs-bench-$$.img
	LOOPDEV=$(losetup --direct-io=on -f --show /dev/shm/nvs-bench-$$.img) || exit 1
	TARGET=$LOOPDEV
fi
WL=(--target "$TARGET" --rw=randread --bs=4k --iodepth=32 --numjobs=1 --runtime="$SECS"
	--ramp_time=1 --time_based)

headless() {
	"$BIN" run "${WL[@]}" --preset 4k-randread --output-format=json --output "$TMP/h.json" -q \
		>/dev/null &&
		python3 -c "import json; print(json.load(open('$TMP/h.json'))['jobs'][0]['read']['iops'])"
}
console() {
	local dir=$TMP/c$RANDOM
	tmux -L "$SOCK" new-session -d -s c -x 160 -y 48 "$BIN ${WL[*]} --preset 4k-randread --results $dir"
	for _ in $(seq $((SECS * 10 + 200))); do
		[ -s "$dir/summary.json" ] && break
		sleep 0.1
	done
	tmux -L "$SOCK" send-keys -t c q 2>/dev/null
	sleep 0.3
	tmux -L "$SOCK" kill-server 2>/dev/null
	python3 -c "import json; print(json.load(open('$dir/summary.json'))['jobs'][0]['read']['iops'])"
}
H=() C=()
for r in $(seq "$ROUNDS"); do
	if [ $((r % 2)) -eq 1 ]; then H+=("$(headless)"); C+=("$(console)")
	else C+=("$(console)"); H+=("$(headless)"); fi
	echo "round $r: headless ${H[-1]} console ${C[-1]}"
done
python3 - "${H[*]}" "${C[*]}" <<'PY'
import statistics, sys
h = [float(x) for x in sys.argv[1].split()]; c = [float(x) for x in sys.argv[2].split()]
ratios = [b / a for a, b in zip(h, c)]
print(f"median IOPS headless {statistics.median(h):.0f}  console {statistics.median(c):.0f}")
print(f"median per-round ratio console/headless {statistics.median(ratios):.3f} "
      f"(goal >= 0.98)")
PY
