#!/bin/bash
# console-rss-live.sh - the real console's memory and UI-thread CPU over a
# long many-target run (issue 25): N file targets (sparse, on tmpfs), one
# console running a rate-capped 4k random read on all of them (one worker
# each, --rate_iops, 1-s samples) in a 160x48 tmux pane; the console's RSS
# (VmRSS) and its UI thread's CPU (the main thread: the only one that
# draws) read every STEP seconds.  Prints each reading, the growth from 60 s
# to the end (the issue: <= 2 MiB for 24 targets from 60 s to 600 s), the
# bytes per target, and the UI thread's share of one CPU.
#   bench/console-rss-live.sh [-n TARGETS] [-s SECONDS] [-r IOPS_PER_TARGET] [-e STEP]
# Not a test: figures, no pass/fail (docs/performance.md).
set -u
N=24 SECS=600 RATE=20 STEP=60
while getopts n:s:r:e: o; do
	case $o in
	n) N=$OPTARG ;; s) SECS=$OPTARG ;; r) RATE=$OPTARG ;; e) STEP=$OPTARG ;;
	*) sed -n '2,14p' "$0"; exit 2 ;;
	esac
done
cd "$(dirname "$0")/.." || exit 2
# arithmetic on decimals (awk: in every Debian base, unlike bc)
calc() { awk "BEGIN { print $1 }"; }
BIN=${NVS_BIN:-$PWD/nvscope}
make -s all >/dev/null || exit 1
TMP=$(mktemp -d /dev/shm/nvs-rss.XXXXXX)
SOCK=nvs-rss-$$
cleanup() {
	tmux -L "$SOCK" kill-server 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
T=()
for i in $(seq "$N"); do
	truncate -s 64M "$TMP/t$i"
	T+=(--target "$TMP/t$i")
done
export XDG_CONFIG_HOME=$TMP/config
tmux -L "$SOCK" -f /dev/null new-session -d -s c -x 160 -y 48 \
	"$BIN --no-settings ${T[*]} --rw=randread --bs=4k --iodepth=1 --rate_iops=$RATE \
	--runtime=$((SECS + 30)) --time_based --results $TMP/res; sleep 600"
pid=""
for _ in $(seq 100); do
	pid=$(pgrep -f -- "^$BIN --no-settings --target $TMP/t1 " | head -1)
	[ -n "$pid" ] && break
	sleep 0.1
done
[ -n "$pid" ] || { echo "no console process" >&2; exit 1; }
HZ=$(getconf CLK_TCK)
ui_cpu() { local f; read -ra f <"/proc/$pid/task/$pid/stat"; echo $((f[13] + f[14])); }
rss() { awk '/VmRSS/ {print $2}' "/proc/$pid/status"; }
printf '%6s %10s %12s\n' "t (s)" "RSS (KiB)" "UI CPU (%)"
t=0 c_prev=$(ui_cpu) rss60="" c60="" 
while [ "$t" -lt "$SECS" ]; do
	sleep "$STEP"
	t=$((t + STEP))
	c=$(ui_cpu) r=$(rss)
	printf '%6d %10d %12.2f\n' "$t" "$r" "$(calc "($c - $c_prev) * 100 / $HZ / $STEP")"
	c_prev=$c
	[ "$t" -ge 60 ] && [ -z "$rss60" ] && rss60=$r c60=$c
done
printf 'targets %d, %d IOPS each, %d s\n' "$N" "$RATE" "$SECS"
printf 'RSS at 60 s %d KiB, at %d s %d KiB: growth %d KiB (%.1f bytes per target per second)\n' \
	"$rss60" "$t" "$r" $((r - rss60)) "$(calc "($r - $rss60) * 1024 / $N / ($t - 60)")"
printf 'RSS per target at the end: %.0f KiB\n' "$(calc "$r / $N")"
printf 'UI thread from 60 s: %.2f %% of one CPU\n' "$(calc "($c - $c60) * 100 / $HZ / ($t - 60)")"
tmux -L "$SOCK" send-keys -t c q 2>/dev/null
sleep 0.3
tmux -L "$SOCK" send-keys -t c y 2>/dev/null
