# sshd.sh - real OpenSSH servers on loopback addresses for the remote tests
# (issue 24; docs/testing.md, "The sshd harness").  Source it after
# tests/lib.sh, in the test's own shell (not in $(...)):
#
#   sshd_host NAME [--forced-command CMD] [--refuse-key] [--delayable] [--setenv K=V]...
#       starts Debian's sshd (`sshd -D -f CONFIG`) on a loopback address of
#       its own (127.0.0.2-254, taken from a machine-wide registry) and a
#       free port, with its own host key and a test-only authorized_keys
#       holding the test key; adds `Host NAME` to the client config.
#       --forced-command CMD: the key's line is command="CMD",restrict
#       (SSH_ORIGINAL_COMMAND holds what the client asked for);
#       --refuse-key: authorized_keys is empty (the host refuses the key);
#       --delayable: a relay (tests/lib/sshrelay.py) in front of sshd, so
#       that sshd_delay can slow the link, also mid-connection;
#       --setenv K=V: in the environment of the host's sessions (which also
#       get TMPDIR=$T_TMP and the sanitizers' *SAN_OPTIONS of the run).
#   sshd_kill NAME       kill -9 of the host's sshd, its relay and every
#                        process of its sessions (the host dies)
#   sshd_restart NAME    the host again, same address, key (and port when free)
#   sshd_blackhole NAME  drop every packet to and from its address (iptables)
#   sshd_unblackhole NAME
#   sshd_delay NAME MS   hold each chunk MS ms in each direction (--delayable;
#                        0 ends it).  This kernel has no netem
#                        (CONFIG_NET_SCH_NETEM), so no `tc netem`.
#   sshd_addr NAME, sshd_port NAME   print the host's address, port
#   SSHD_CFG             the client config (exported), for `ssh -F`
#   NVSCOPE_SSH          "ssh -F $SSHD_CFG" (exported)
#
# Nothing touches /etc/ssh or ~/.ssh: the client config sets the identity,
# a known_hosts of the test's own (filled with each host's key,
# StrictHostKeyChecking yes), BatchMode and no agent.  On exit, also on
# failure or SIGTERM, every host is killed with its sessions, every rule
# removed and every address given back (tests/lib.sh's T_CLEANUP runs
# first, before the loop devices a remote agent may hold are detached).
# An address whose owner died without its cleanup (kill -9) is reclaimed by
# the next test that meets it: its sshd killed, its rules removed.
# shellcheck shell=bash
[ -n "${SSHD_LIB:-}" ] && return 0
SSHD_LIB=1
SSHD_REG=${SSHD_REG:-/run/nvscope-loaddr}
SSHD_BIN=${SSHD_BIN:-/usr/sbin/sshd}
SSHD_PY=/usr/bin/python3
[ -x "$SSHD_PY" ] || SSHD_PY=python3
SSHD_TAG_RULE=nvscope-sshd
declare -A SSHD_ADDR=() SSHD_PORT=() SSHD_PID=() SSHD_RELAY=() SSHD_SPORT=() SSHD_DIRS=()
SSHD_NAMES=()
SSHD_OWNED=()
SSHD_DIR=
SSHD_CFG=

# _sshd_start_time PID: the process's start time (field 22 of its stat),
# which tells a live owner from a later process with a reused pid
_sshd_start_time() {
	local l f
	read -r l 2>/dev/null <"/proc/$1/stat" || return 0
	read -ra f <<<"${l##*) }"
	echo "${f[19]}"
}
# _sshd_live "PID START": the process is still that one
_sshd_live() {
	local pid=${1%% *} st=${1#* }
	[ -n "$pid" ] && [ -n "$st" ] && [ "$(_sshd_start_time "$pid")" = "$st" ]
}
_sshd_me() { echo "$1 $(_sshd_start_time "$1")"; }
# _sshd_nap SECONDS: sleeps without a process (a read that times out on a
# FIFO nobody writes): polling by `sleep` costs a fork and an exec per
# look, seconds of CPU on a loaded machine
_sshd_nap() {
	if [ -z "${SSHD_NAPFD:-}" ]; then
		local f
		f=$(mktemp -u "$T_TMP/.nap.XXXXXX") && mkfifo "$f" && exec {SSHD_NAPFD}<>"$f" && rm -f "$f" ||
			{ sleep "$1"; return 0; }
	fi
	read -r -t "$1" -u "$SSHD_NAPFD" _ || true
}
# _sshd_until SECONDS CMD... [--or-dead PID]: polls CMD (a shell function or
# builtin: no process per look) every 10 ms until it succeeds, PID ends or
# SECONDS pass; its status is CMD's last
_sshd_until() {
	local end=$((${EPOCHREALTIME//[!0-9]/} + $1 * 1000000)) cmd=() dead=
	shift
	while [ $# -gt 0 ]; do
		case $1 in --or-dead) dead=$2; shift 2 ;; *) cmd+=("$1"); shift ;; esac
	done
	while :; do
		"${cmd[@]}" && return 0
		[ -n "$dead" ] && ! kill -0 "$dead" 2>/dev/null && { "${cmd[@]}"; return; }
		[ "${EPOCHREALTIME//[!0-9]/}" -lt "$end" ] || return 1
		_sshd_nap 0.01
	done
}
# _sshd_log_has FILE LINE: FILE holds LINE (read by the shell itself; sshd
# ends its lines with CR LF)
_sshd_log_has() {
	local l
	while IFS= read -r l; do [ "${l%$'\r'}" = "$2" ] && return 0; done <"$1"
	return 1
}
# _sshd_gone PID: no such process, or a zombie (its parent died: nothing reaps it)
_sshd_gone() {
	local l
	read -r l 2>/dev/null <"/proc/$1/stat" || return 0
	l=${l##*) }
	[ "${l:0:1}" = Z ]
}

_sshd_setup() {
	[ -n "$SSHD_DIR" ] && return 0
	[ "$(id -u)" -eq 0 ] || skip "the sshd harness needs root (sshd, /run/sshd, iptables)"
	[ -x "$SSHD_BIN" ] || skip "no $SSHD_BIN: openssh-server is not installed (make deps-test)"
	command -v ssh >/dev/null || skip "no ssh client (openssh-client)"
	SSHD_DIR=$(mktemp -d "$T_TMP/sshd.XXXXXX") || fail "sshd: mktemp"
	SSHD_CFG=$SSHD_DIR/ssh_config
	SSHD_USER=$(id -un)
	mkdir "$SSHD_DIR/home" || fail "sshd: mkdir"
	export SSHD_CFG NVSCOPE_SSH="ssh -F $SSHD_CFG"
	# sshd's privilege-separation directory (what the package's service
	# would make; nothing else of the system's sshd is used)
	mkdir -p /run/sshd && chmod 755 /run/sshd || fail "sshd: /run/sshd"
	mkdir -p "$SSHD_REG" || fail "sshd: cannot make $SSHD_REG"
	ssh-keygen -q -t ed25519 -N '' -C nvscope-test -f "$SSHD_DIR/id_ed25519" </dev/null ||
		fail "sshd: ssh-keygen"
	_sshd_nap 0 # opens its FIFO (closed in sshd's and the relay's fds)
	T_CLEANUP+=(_sshd_cleanup)
}

# ---- the address registry: $SSHD_REG/127.0.0.N/owner = "PID START" of the
# test's shell; made, read and reclaimed under one lock (flock)
_sshd_locked() { # CMD...: runs CMD with the registry's lock held
	local fd rc
	exec {fd}>>"$SSHD_REG/.lock" || return 1
	flock -x "$fd"
	"$@"
	rc=$?
	exec {fd}>&-
	return $rc
}

# _sshd_scrub ADDR: removes every rule of this harness on ADDR
_sshd_scrub() {
	local a=$1 r args
	command -v iptables >/dev/null || return 0
	iptables -w -S INPUT 2>/dev/null | grep -F -- "$SSHD_TAG_RULE" |
		grep -E -- "-[sd] ${a//./\\.}/32( |\$)" | sed 's/^-A /-D /' | while read -r r; do
		read -ra args <<<"$r"
		iptables -w "${args[@]}"
	done
}

# _sshd_reclaim_locked ADDR: frees ADDR's entry when its owner is dead: kills
# the sshd and relay it left, removes its rules.  0 when ADDR is free now.
_sshd_reclaim_locked() {
	local a=$1 d=$SSHD_REG/$1 f owner
	[ -e "$d" ] || return 0
	owner=$(cat "$d/owner" 2>/dev/null)
	_sshd_live "$owner" && return 1
	for f in "$d"/sshd "$d"/relay; do
		[ -e "$f" ] && _sshd_live "$(cat "$f")" && kill -9 "$(cut -d' ' -f1 "$f")" 2>/dev/null
	done
	_sshd_kill_tagged "$a"
	_sshd_scrub "$a"
	rm -rf "$d"
}

# _sshd_foreign ADDR: a socket outside the registry listens on ADDR (say
# systemd-resolved on 127.0.0.53): a blackhole there would reach it
_sshd_foreign() {
	local hex
	hex=$(printf '%02X00007F' "${1##*.}")
	awk -v h="$hex" 'FILENAME ~ /tcp/ && $4 != "0A" { next }
		{ split($2, a, ":"); if (a[1] == h) found = 1 } END { exit !found }' \
		/proc/net/tcp /proc/net/udp 2>/dev/null
}

_sshd_take_locked() { # ADDR: 0 when taken for this test
	_sshd_reclaim_locked "$1" || return 1
	_sshd_foreign "$1" && return 1
	_sshd_scrub "$1" # rules nobody owns (a cleanup that never ran)
	mkdir "$SSHD_REG/$1" && _sshd_me $$ >"$SSHD_REG/$1/owner"
}

_sshd_take_addr() { # sets REPLY to a free loopback address, registered as ours
	local i n start=$(((RANDOM + $$) % 253))
	for ((i = 0; i < 253; i++)); do
		n=$(((start + i) % 253 + 2))
		if _sshd_locked _sshd_take_locked "127.0.0.$n"; then
			SSHD_OWNED+=("127.0.0.$n")
			REPLY=127.0.0.$n
			return 0
		fi
	done
	fail "sshd: no free loopback address in 127.0.0.2-254 (registry $SSHD_REG)"
}

_sshd_give_back_locked() { # ADDR: removes our entry (only while it is ours)
	local d=$SSHD_REG/$1
	[ "$(cat "$d/owner" 2>/dev/null)" = "$(_sshd_me $$)" ] && rm -rf "$d"
	return 0
}

# ---- hosts
_sshd_free_port() { # ADDR: prints a port free on ADDR now (bind to port 0)
	"$SSHD_PY" -c 'import socket, sys
s = socket.socket()
s.bind((sys.argv[1], 0))
print(s.getsockname()[1])' "$1"
}

# _sshd_write_cfg: the client config and known_hosts, from every host so far.
# Key exchange curve25519 first: the default's first choice
# (sntrup761x25519) took ~0.1 s of CPU a side per connection, half of all
# a test's ssh cost
_sshd_write_cfg() {
	local n t key f=$SSHD_CFG.new k=$SSHD_DIR/known_hosts.new
	{
		echo "# written by tests/lib/sshd.sh for this test only"
		for n in "${SSHD_NAMES[@]}"; do
			printf 'Host %s\n\tHostName %s\n\tPort %s\n' "$n" "${SSHD_ADDR[$n]}" "${SSHD_PORT[$n]}"
		done
		printf 'Host *\n'
		printf '\t%s\n' "User $SSHD_USER" "IdentityFile $SSHD_DIR/id_ed25519" "IdentitiesOnly yes" \
			"IdentityAgent none" "UserKnownHostsFile $SSHD_DIR/known_hosts" \
			"GlobalKnownHostsFile /dev/null" "StrictHostKeyChecking yes" "CheckHostIP no" \
			"UpdateHostKeys no" "BatchMode yes" "ConnectTimeout 5" "ControlMaster no" \
			"ControlPath none" "ForwardAgent no" "ForwardX11 no" "LogLevel ERROR" \
			"SendEnv NVSCOPE_DEVICES" \
			"KexAlgorithms curve25519-sha256,sntrup761x25519-sha512@openssh.com"
	} >"$f" && mv "$f" "$SSHD_CFG"
	for n in "${SSHD_NAMES[@]}"; do
		read -r t key _ <"${SSHD_DIRS[$n]}/host_ed25519.pub"
		printf '[%s]:%s %s %s\n' "${SSHD_ADDR[$n]}" "${SSHD_PORT[$n]}" "$t" "$key"
	done >"$k" && mv "$k" "$SSHD_DIR/known_hosts"
}

# _sshd_write_sshd_config NAME: the host's sshd_config (its port in SSHD_SPORT)
_sshd_write_sshd_config() {
	local n=$1 d=${SSHD_DIRS[$1]}
	cat >"$d/sshd_config" <<EOF
# written by tests/lib/sshd.sh: test host $n, nothing of /etc/ssh
ListenAddress ${SSHD_ADDR[$n]}:${SSHD_SPORT[$n]}
HostKey $d/host_ed25519
PidFile none
AuthorizedKeysFile $d/authorized_keys
StrictModes no
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
PermitRootLogin prohibit-password
PermitUserRC no
UseDNS no
PrintMotd no
PrintLastLog no
X11Forwarding no
AllowTcpForwarding no
AllowAgentForwarding no
MaxStartups 100:30:200
MaxSessions 50
LoginGraceTime 30
SetEnv $(_sshd_setenv "$n")
AcceptEnv NVSCOPE_DEVICES
LogLevel INFO
EOF
}

# _sshd_setenv NAME: the environment of the host's sessions, quoted for
# sshd_config: the tag, HOME (an empty directory of the test's: the login
# shell reads no ~/.bashrc of the machine's; Debian's bash reads it for
# commands over ssh, and a version manager's init there took 60 s on a lock),
# TMPDIR (the test's scratch), the sanitizers' options of a `make asan`/`make
# tsan` run, the host's --setenv K=V
_sshd_setenv() {
	local v out="\"NVS_SSHD_TAG=${SSHD_ADDR[$1]}\" \"HOME=$SSHD_DIR/home\" \"TMPDIR=$T_TMP\""
	for v in ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS TSAN_OPTIONS; do
		[ -n "${!v:-}" ] && out+=" \"$v=${!v}\""
	done
	[ -s "${SSHD_DIRS[$1]}/setenv" ] && out+=" $(cat "${SSHD_DIRS[$1]}/setenv")"
	echo "$out"
}

# _sshd_run NAME: starts the host's sshd (and relay) and waits until it
# listens; a port lost to a race is taken again (the client config follows)
_sshd_run() {
	local n=$1 d=${SSHD_DIRS[$1]} a=${SSHD_ADDR[$1]} try pid port want
	for try in 1 2 3 4 5; do
		[ -n "${SSHD_SPORT[$n]:-}" ] && [ "$try" = 1 ] || SSHD_SPORT[$n]=$(_sshd_free_port "$a") ||
			fail "sshd: no free port on $a"
		_sshd_write_sshd_config "$n"
		: >"$d/sshd.log"
		"$SSHD_BIN" -D -f "$d/sshd_config" -E "$d/sshd.log" </dev/null >>"$d/sshd.log" 2>&1 \
			{SSHD_NAPFD}<&- &
		pid=$!
		want="Server listening on $a port ${SSHD_SPORT[$n]}."
		_sshd_until 20 _sshd_log_has "$d/sshd.log" "$want" --or-dead "$pid"
		if _sshd_log_has "$d/sshd.log" "$want"; then
			SSHD_PID[$n]=$pid
			_sshd_me "$pid" >"$SSHD_REG/$a/sshd"
			break
		fi
		{ kill -9 "$pid" && wait "$pid"; } 2>/dev/null
		grep -q "Address already in use" "$d/sshd.log" && continue
		fail "sshd: the sshd of $n did not start (log $d/sshd.log):
$(tail -n 5 "$d/sshd.log")"
	done
	[ -n "${SSHD_PID[$n]:-}" ] || fail "sshd: no port for $n on $a after 5 tries"
	port=${SSHD_SPORT[$n]}
	if [ -e "$d/delayable" ]; then
		rm -f "$d/relay.port"
		"$SSHD_PY" "$NVS_TOP/tests/lib/sshrelay.py" "$a" "$port" "$d/relay.port" "$d/delay_ms" \
			</dev/null >>"$d/relay.log" 2>&1 {SSHD_NAPFD}<&- &
		SSHD_RELAY[$n]=$!
		_sshd_me "$!" >"$SSHD_REG/$a/relay"
		_sshd_until 20 test -s "$d/relay.port" --or-dead "${SSHD_RELAY[$n]}"
		port=
		[ -s "$d/relay.port" ] && read -r port <"$d/relay.port"
		[ -n "$port" ] || fail "sshd: the relay of $n did not start"
	fi
	SSHD_PORT[$n]=$port
	_sshd_write_cfg
}

sshd_host() {
	local n=${1:-} forced='' refuse='' delayable='' setenv='' d key
	shift || true
	[[ $n =~ ^[A-Za-z][A-Za-z0-9_-]*$ ]] || fail "sshd_host: bad name '$n'"
	[ -z "${SSHD_ADDR[$n]:-}" ] || fail "sshd_host: $n already exists"
	while [ $# -gt 0 ]; do
		case $1 in
		--forced-command) forced=$2; shift 2 ;;
		--refuse-key) refuse=1; shift ;;
		--delayable) delayable=1; shift ;;
		--setenv)
			[[ ${2:-} =~ ^[A-Za-z_][A-Za-z0-9_]*=[^\"]*$ ]] || fail "sshd_host: --setenv K=V, not '${2:-}'"
			setenv+="\"$2\" "
			shift 2 ;;
		*) fail "sshd_host: unknown option $1" ;;
		esac
	done
	_sshd_setup
	_sshd_take_addr
	SSHD_ADDR[$n]=$REPLY
	d=$SSHD_DIR/$n
	SSHD_DIRS[$n]=$d
	mkdir "$d" || fail "sshd: mkdir $d"
	ssh-keygen -q -t ed25519 -N '' -C "host-$n" -f "$d/host_ed25519" </dev/null || fail "sshd: host key"
	key=$(cat "$SSHD_DIR/id_ed25519.pub")
	if [ -n "$refuse" ]; then
		: >"$d/authorized_keys"
	elif [ -n "$forced" ]; then
		printf 'command="%s",restrict %s\n' "${forced//\"/\\\"}" "$key" >"$d/authorized_keys"
	else
		printf '%s\n' "$key" >"$d/authorized_keys"
	fi
	[ -n "$delayable" ] && : >"$d/delayable"
	printf '%s' "$setenv" >"$d/setenv"
	SSHD_NAMES+=("$n")
	_sshd_run "$n"
}

_sshd_need() { # NAME: fails unless NAME is a host of this test
	[ -n "${SSHD_ADDR[${1:-}]:-}" ] || fail "sshd: no host '${1:-}' (sshd_host first)"
}
sshd_addr() { _sshd_need "$1" && echo "${SSHD_ADDR[$1]}"; }
sshd_port() { _sshd_need "$1" && echo "${SSHD_PORT[$1]}"; }

# _sshd_kill_tagged ADDR: kill -9 of every process of ADDR's sessions (their
# environment holds NVS_SSHD_TAG=ADDR: sshd_config's SetEnv), and waits
# (up to 2 s) until they are gone
_sshd_kill_tagged() {
	local a=$1 f pids=()
	for f in $(grep -lzxF "NVS_SSHD_TAG=$a" /proc/[0-9]*/environ 2>/dev/null); do
		f=${f#/proc/}
		pids+=("${f%/environ}")
	done
	[ ${#pids[@]} -gt 0 ] || return 0
	kill -9 "${pids[@]}" 2>/dev/null
	_sshd_until 5 _sshd_all_gone "${pids[@]}"
}
_sshd_all_gone() {
	local p
	for p in "$@"; do _sshd_gone "$p" || return 1; done
}

# _sshd_tree PID: PID's descendants
_sshd_tree() {
	ps -e -o pid=,ppid= | awk -v root="$1" '
		{ kids[$2] = kids[$2] " " $1 }
		END { q = root; while (q != "") { split(q, a, " "); q = "";
			for (i in a) { n = split(kids[a[i]], k, " ");
				for (j = 1; j <= n; j++) { print k[j]; q = q " " k[j] } } } }'
}

sshd_kill() {
	local n=$1 p tree
	_sshd_need "$n"
	p=${SSHD_PID[$n]:-}
	if [ -n "$p" ]; then
		tree=$(_sshd_tree "$p")
		# shellcheck disable=SC2086
		kill -9 "$p" $tree 2>/dev/null
		wait "$p" 2>/dev/null
	fi
	p=${SSHD_RELAY[$n]:-}
	[ -n "$p" ] && { kill -9 "$p" 2>/dev/null; wait "$p" 2>/dev/null; }
	SSHD_PID[$n]='' SSHD_RELAY[$n]=''
	_sshd_kill_tagged "${SSHD_ADDR[$n]}"
	return 0
}

sshd_restart() {
	_sshd_need "$1"
	[ -z "${SSHD_PID[$1]:-}" ] || sshd_kill "$1"
	_sshd_run "$1"
}

_sshd_rules() { # -I|-D ADDR
	local op=$1 a=$2
	command -v iptables >/dev/null || skip "sshd_blackhole: no iptables (make deps-test)"
	iptables -w "$op" INPUT -d "$a" -m comment --comment "$SSHD_TAG_RULE" -j DROP &&
		iptables -w "$op" INPUT -s "$a" -m comment --comment "$SSHD_TAG_RULE" -j DROP
}
# inserted first in INPUT, so that no earlier ACCEPT (say, of lo) passes them
sshd_blackhole() {
	_sshd_need "$1"
	: >"$SSHD_REG/${SSHD_ADDR[$1]}/rules" # for a reclaim, and for our cleanup
	_sshd_rules -I "${SSHD_ADDR[$1]}" || fail "sshd_blackhole $1: iptables failed"
}
sshd_unblackhole() { _sshd_need "$1" && _sshd_scrub "${SSHD_ADDR[$1]}"; }

sshd_delay() {
	local n=$1 ms=${2:-}
	_sshd_need "$n"
	[[ $ms =~ ^[0-9]+$ ]] || fail "sshd_delay: MS must be whole milliseconds, not '$ms'"
	[ -e "${SSHD_DIRS[$n]}/delayable" ] || fail "sshd_delay: start $n with sshd_host $n --delayable"
	echo "$ms" >"${SSHD_DIRS[$n]}/delay_ms.new" && mv "${SSHD_DIRS[$n]}/delay_ms.new" "${SSHD_DIRS[$n]}/delay_ms"
}

_sshd_cleanup() {
	local n a
	for n in "${SSHD_NAMES[@]}"; do sshd_kill "$n"; done
	for a in "${SSHD_OWNED[@]}"; do
		[ -e "$SSHD_REG/$a/rules" ] && _sshd_scrub "$a"
		_sshd_locked _sshd_give_back_locked "$a"
	done
	SSHD_OWNED=()
}
