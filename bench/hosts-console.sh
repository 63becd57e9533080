#!/bin/bash
# hosts-console.sh - the console watching a rack (issue 24's scale: 16 hosts
# x 4 drives): N real sshd hosts on loopback addresses (tests/lib/sshd.sh),
# each listing the same D loop devices this bench makes, one console with
# --hosts FILE in a 200x60 tmux pane (hosts folded, `o`, so every line
# shows).  Prints the time until every host is up with its drives, the
# console's CPU (all its threads: % of one CPU) and RSS over S seconds of
# watching, the ssh clients' CPU, and the time a blackholed host takes to
# show LOST while the others stay up.  Root (sshd, iptables, losetup).
#   bench/hosts-console.sh [-n HOSTS] [-d DRIVES] [-s SECONDS]
# Not a test: figures, no pass/fail (docs/hosts.md, "Scale").
NH=16 ND=4 SECS=60
while getopts n:d:s: o; do
	case $o in
	n) NH=$OPTARG ;; d) ND=$OPTARG ;; s) SECS=$OPTARG ;;
	*) exit 2 ;;
	esac
done
cd "$(dirname "$0")/.." || exit 2
# arithmetic on decimals (awk: in every Debian base, unlike bc)
calc() { awk "BEGIN { print $1 }"; }
export NVS_TOP=$PWD NVS_BIN=${NVS_BIN:-$PWD/nvscope}
make -s all >/dev/null || exit 1
. tests/lib.sh
fail() { echo "hosts-console: $*" >&2; exit 1; }
skip() { fail "$*"; }
. tests/ui/tmux.inc
. tests/lib/sshd.sh
for _ in $(seq "$ND"); do t_loop 16M; done
: >"$T_TMP/hosts"
for i in $(seq "$NH"); do
	sshd_host "r$i" --setenv "NVSCOPE_PRESETS=$NVS_TOP/presets"
	echo "r$i" >>"$T_TMP/hosts"
done
cpu_of() { # PID...: their utime+stime, clock ticks
	local p t=0 f
	for p in "$@"; do
		read -ra f 2>/dev/null <"/proc/$p/stat" || continue
		t=$((t + f[13] + f[14]))
	done
	echo $t
}
rss_of() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }
HZ=$(getconf CLK_TCK)
t0=$(date +%s.%N)
u_start 200 60 "$NVS_BIN" --no-settings --hosts "$T_TMP/hosts" --remote-nvscope "$NVS_BIN" \
	--results "$T_TMP/res"
u_wait 'Devices' 10
u_keys o
for _ in $(seq 600); do
	u_cap
	n=$(printf '%s\n' "${U_LINES[@]}" | grep -cE "^ +r[0-9]+ +up, $ND drives")
	[ "$n" = "$NH" ] && break
	t_nap 0.1
done
[ "$n" = "$NH" ] || fail "only $n of $NH hosts up: $(u_screen)"
up=$(calc "$(date +%s.%N) - $t0")
pid=$(pgrep -f -- "^$NVS_BIN --no-settings --hosts $T_TMP/hosts" | head -1)
[ -n "$pid" ] || fail "no console process"
sshs=$(pgrep -f -- "-F $SSHD_CFG" | tr '\n' ' ')
rss0=$(rss_of "$pid")
c0=$(cpu_of "$pid")
s0=$(cpu_of $sshs)
t_nap "$SECS"
c1=$(cpu_of "$pid")
s1=$(cpu_of $sshs)
rss1=$(rss_of "$pid")
sshd_blackhole r2
b0=$(date +%s.%N)
u_wait '^ +r2 +LOST' 10
lost=$(calc "$(date +%s.%N) - $b0")
u_cap
n=$(printf '%s\n' "${U_LINES[@]}" | grep -cE "^ +r[0-9]+ +up, $ND drives")
sshd_unblackhole r2
printf 'hosts x drives            %d x %d\n' "$NH" "$ND"
printf 'all up after              %.1f s (console start to every host listed)\n' "$up"
printf 'console CPU, watching     %.2f %% of one CPU over %d s\n' \
	"$(calc "($c1 - $c0) * 100 / $HZ / $SECS")" "$SECS"
printf 'ssh clients CPU           %.2f %% of one CPU (%d processes)\n' \
	"$(calc "($s1 - $s0) * 100 / $HZ / $SECS")" "$(echo "$sshs" | wc -w)"
printf 'console RSS               %d KiB -> %d KiB over %d s\n' "$rss0" "$rss1" "$SECS"
printf 'blackholed host LOST in   %.1f s (%d of %d others still up)\n' "$lost" "$n" $((NH - 1))
u_keys q
