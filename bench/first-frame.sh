#!/bin/bash
# first-frame.sh - how long the console takes from launch to its first
# drawn screen, beside a trivial program's first output in the same
# terminal (issue 25: within 30 ms of it).  A tmux server of its own
# (-L), one pane respawned with each command; the pane's screen is polled
# (capture-pane, every ~5 ms) until the program's marker is on it: the
# trivial program's line, the console's Devices, Presets and Custom
# workload panes (drawn by one doupdate).  Two set-ups, each N rounds with
# the programs in alternating order: 8 file targets (--target x8) and 4
# loop devices made here (plain `nvscope`: its scan finds them); for the
# latter also when the scan has filled them in ("filled": the Devices pane
# no longer "scanning", our loop devices' rows free).
# Prints each program's median, min and max, and the median minus the
# trivial program's.  Not a test: the machine may be shared; read medians.
#   bench/first-frame.sh [-n ROUNDS] [-b OTHER_NVSCOPE]
# -b: a second binary (the build before a change) measured in the same
# rounds, alternating, for before/after figures.
set -u
cd "$(dirname "$0")/.." || exit 1
N=10 OTHER=""
while getopts "n:b:h" o; do
	case $o in
	n) N=$OPTARG ;; b) OTHER=$(realpath "$OPTARG") ;;
	*) sed -n '2,18p' "$0"; exit 0 ;;
	esac
done
BIN=$(realpath "${NVS_BIN:-./nvscope}")
[ -x "$BIN" ] || make -s || exit 1
command -v tmux >/dev/null || { echo "first-frame.sh: needs tmux" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "first-frame.sh: needs root (loop devices)" >&2; exit 1; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/nvs-ff.XXXXXX")
SOCK=nvs-ff-$$
LOOPS=()
cleanup() {
	tmux -L "$SOCK" kill-server 2>/dev/null
	sleep 0.3 # the last console's helpers gone before the devices
	for l in "${LOOPS[@]}"; do losetup -d "$l" 2>/dev/null; done
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
export XDG_CONFIG_HOME=$TMP/config LANG=C.UTF-8 LC_ALL=C.UTF-8

tm() { tmux -L "$SOCK" "$@"; }
tm -f /dev/null new-session -d -s ff -x 160 -y 40 "exec sleep 100000" || exit 1
shot() { tm capture-pane -p -t ff; }
now() { date +%s%N; }

# run CMD MARK [FILLED]: the ms from respawning the pane with CMD to MARK
# (an ERE) on its screen, and, with FILLED, to FILLED matching and
# 'scanning' gone; prints "FIRST FILLED" (FILLED "-" when not asked)
run() {
	local cmd=$1 mark=$2 filled=${3:-} t0 t1 t2="" i
	tm respawn-pane -k -t ff "printf '\\033[?1049l\\033[H\\033[2J'; exec sleep 100000"
	for i in $(seq 200); do shot | grep -Eq "$mark" || break; sleep 0.01; done
	sleep 0.3 # the last program's end is not this one's start
	t0=$(now)
	tm respawn-pane -k -t ff "$cmd"
	for i in $(seq 2000); do shot | grep -Eq "$mark" && break; sleep 0.005; done
	t1=$(now)
	if [ -n "$filled" ]; then
		for i in $(seq 1000); do
			s=$(shot)
			echo "$s" | grep -Eq "$filled" && ! echo "$s" | grep -q 'scanning' && break
			sleep 0.005
		done
		t2=$(now)
	fi
	echo "$(( (t1 - t0) / 100000 )) ${t2:+$(( (t2 - t0) / 100000 ))}"
}

declare -A FIRST FILLED
# progs: label=command
measure() { # SETUP FILLED-REGEX LABEL=CMD...
	local setup=$1 filled=$2 r k p lab out f2
	shift 2
	local progs=("$@")
	for ((r = 0; r < N; r++)); do
		for ((k = 0; k < ${#progs[@]}; k++)); do
			if ((r % 2)); then p=${progs[${#progs[@]} - 1 - k]}; else p=${progs[$k]}; fi
			lab=${p%%=*}
			if [ "$lab" = trivial ]; then
				out=$(run "${p#*=}" "FF-READY")
			else
				out=$(run "${p#*=}" "Presets" "$filled")
				shot | grep -q 'Custom workload' || echo "warning: $lab: screen without its panes" >&2
			fi
			FIRST[$setup/$lab]+="${out%% *} "
			read -r _ f2 <<<"$out"
			[ -n "$f2" ] && FILLED[$setup/$lab]+="$f2 "
		done
	done
}

# median, min, max of tenths of ms
stats() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {
	m = NR % 2 ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2
	printf "%7.1f %7.1f %7.1f", m/10, a[1]/10, a[NR]/10 }'; }

for i in $(seq 8); do truncate -s 64M "$TMP/f$i.img"; done
TARGETS=""
for i in $(seq 8); do TARGETS+=" --target $TMP/f$i.img"; done
TRIV="trivial=echo FF-READY; exec sleep 100000"
NEW="nvscope=exec $BIN --no-settings$TARGETS"
set -- "$TRIV" "$NEW"
[ -n "$OTHER" ] && set -- "$@" "other=exec $OTHER --no-settings$TARGETS"
echo "8 file targets: $N rounds..." >&2
measure files "" "$@"

for i in $(seq 4); do
	truncate -s 64M "$TMP/l$i.img"
	l=$(losetup --direct-io=on -f --show "$TMP/l$i.img") || exit 1
	LOOPS+=("$l")
done
# filled: a row of one of our loop devices with its marks in ("-": free)
FILLRE=$(printf '%s\n' "${LOOPS[@]}" | sed 's|/dev/||' | paste -sd'|')
NEW="nvscope=exec $BIN --no-settings"
set -- "$TRIV" "$NEW"
[ -n "$OTHER" ] && set -- "$@" "other=exec $OTHER --no-settings"
echo "4 loop devices (${LOOPS[*]}): $N rounds..." >&2
measure loops " ($FILLRE) .* - *\$" "$@"

echo "first frame, ms from launch (tmux respawn-pane) to the drawn screen;"
echo "median of $N, alternating order; $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %-8s %7s %7s %7s %9s %7s\n' setup program median min max "-trivial" filled
for setup in files loops; do
	tmed=$(echo "${FIRST[$setup/trivial]}" | stats | awk '{print $1}')
	for lab in trivial nvscope other; do
		[ -n "${FIRST[$setup/$lab]:-}" ] || continue
		read -r m lo hi <<<"$(echo "${FIRST[$setup/$lab]}" | stats)"
		fm="-"
		[ -n "${FILLED[$setup/$lab]:-}" ] && fm=$(echo "${FILLED[$setup/$lab]}" | stats | awk '{print $1}')
		printf '%-8s %-8s %7s %7s %7s %9.1f %7s\n' "$setup" "$lab" "$m" "$lo" "$hi" \
			"$(awk -v a="$m" -v b="$tmed" 'BEGIN {print a - b}')" "$fm"
	done
done
[ -n "$OTHER" ] && echo "other: $OTHER"
