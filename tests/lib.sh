# lib.sh - helpers for the shell tests (source it).  Every resource a test
# makes is registered and removed on exit, also when the test fails.
set -u
NVS_BIN=${NVS_BIN:-./nvscope}
# absolute, so a test may cd (to a scratch directory, say) and still run it
case $NVS_BIN in /*) ;; */*) NVS_BIN=$PWD/$NVS_BIN ;; esac
NVS_TOP=${NVS_TOP:-$PWD}
# tests/run.sh gives each test a scratch directory of its own (NVS_SCRATCH,
# also its TMPDIR), kept when the test fails; run alone, a test makes one
if [ -n "${NVS_SCRATCH:-}" ] && [ -d "$NVS_SCRATCH" ]; then
	T_TMP=$NVS_SCRATCH
else
	T_TMP=$(mktemp -d "${TMPDIR:-/tmp}/nvscope-test.XXXXXX")
fi
# fio's state files (local-JOB-N-verify.state) in the test's scratch, not
# in the working directory tests share (the checkout's top)
fio() { command fio --aux-path="$T_TMP" "$@"; }
# the console's settings.ini: each test its own, never the user's
export XDG_CONFIG_HOME=$T_TMP/config
T_LOOPS=()
T_TMUX=()
# functions t_cleanup runs first, in order (a helper library's own cleanup,
# e.g. tests/lib/sshd.sh's: its remote sessions may hold the loop devices)
T_CLEANUP=()
# t_loop_id DEV: its backing file's device and inode ("" when unbound).
t_loop_id() { losetup -l -n -O BACK-MAJ:MIN,BACK-INO "$1" 2>/dev/null | tr -s ' ' | sed 's/^ //; s/ $//'; }
# t_own_loop DEV: a loop device the test attached itself, removed on exit.
# Kept with its backing file's identity: on exit it is detached only while
# it is still that file's (tests run side by side; a number the test gave
# back may be another test's device by then).
t_own_loop() { T_LOOPS+=("$1=$(t_loop_id "$1")"); t_scope_add "$1"; }
# Every nvscope a test runs lists and probes only the test's own devices
# (NVSCOPE_DEVICES, docs/cli.md): a test never opens another test's device
# (nor the machine's disk) in a device scan, so no test's kernel counters
# move by another's console or `list`, and no probe of a device being torn
# down elsewhere is left behind in a test (stop 24's CI).  Before the test
# makes one, the scope names none.
export NVSCOPE_DEVICES=nvscope-test-has-no-device
# t_scope_add DEV: DEV (a block device the test made) into the scope
t_scope_add() { NVSCOPE_DEVICES=$NVSCOPE_DEVICES,${1#/dev/}; }
# t_loop_detach DEV: detaches the test's own DEV now and forgets it.
t_loop_detach() {
	local i
	for i in "${!T_LOOPS[@]}"; do [ "${T_LOOPS[$i]%%=*}" = "$1" ] && unset "T_LOOPS[$i]"; done
	losetup -d "$1"
}
t_cleanup() {
	local l s
	for s in "${T_CLEANUP[@]}"; do "$s"; done
	for s in "${T_TMUX[@]}"; do tmux kill-session -t "$s" 2>/dev/null; done
	for l in "${T_LOOPS[@]}"; do
		[ -n "${l#*=}" ] && [ "$(t_loop_id "${l%%=*}")" = "${l#*=}" ] && losetup -d "${l%%=*}" 2>/dev/null
	done
	[ "$T_TMP" = "${NVS_SCRATCH:-}" ] || rm -rf "$T_TMP"
}
trap t_cleanup EXIT
trap 'exit 130' INT TERM

# t_wait_caught PID SIG: waits (up to 30 s) until PID has a handler for SIG
# (its SigCgt in /proc).  A job started with & by a script has SIGINT
# ignored until it installs its own handler: a SIGINT sent before that is
# lost (a start slowed by a sanitizer took more than 1 s), so wait for the
# handler, not for a fixed time.
t_wait_caught() {
	local pid=$1 bit=$(( 1 << ($(kill -l "$2") - 1) )) i m
	for i in $(seq 600); do
		m=$(awk '/^SigCgt:/ {print $2}' "/proc/$pid/status" 2>/dev/null) || return 1
		[ -n "$m" ] || return 1
		(( 0x$m & bit )) && return 0
		t_nap 0.05
	done
	return 1
}

# t_nap SECONDS: a sleep that starts no process: `read -t` on a descriptor
# that never has data.  A program costs 10-25 ms of CPU to start on the CI
# machine kind (a fork ~9 ms, sleep ~19 ms: measured in session 13): a
# loop that polls every 50 ms with sleep spent most of a CPU starting it.
exec {T_NAP}<> <(:)
t_nap() { read -rt "$1" -u "$T_NAP" _; return 0; }

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }
ok() { echo "ok: $*"; }

# t_loop SIZE [LBS]: makes a loop device with direct I/O over a new file (on
# tmpfs when /dev/shm allows) and sets LOOP to it; removed on exit.  Call it
# directly, not in $(...): the cleanup list lives in this shell.
# t_pattern DEV MIB: MIB MiB of a text pattern onto DEV (direct I/O): data
# that no signature probe takes for a filesystem.  Random bytes may look
# like one: libblkid found "hfsplus" in /dev/urandom's data once (its magic
# is two bytes at 1 KiB) and the write-safety rule then rightly refused
# the test's purge (session 14).
t_pattern() {
	yes "nvscope test pattern $$ $RANDOM" | head -c "$(($2 * 1048576))" |
		dd of="$1" bs=1M iflag=fullblock oflag=direct status=none
}
t_loop() {
	local size=$1 lbs=${2:-512} dir=$T_TMP f dev
	[ "$(id -u)" -eq 0 ] || skip "loop devices need root"
	if [ -d /dev/shm ] && [ -w /dev/shm ]; then dir=$(mktemp -d /dev/shm/nvscope-test.XXXXXX); fi
	f=$dir/loop.img
	truncate -s "$size" "$f" || fail "truncate"
	dev=$(losetup --direct-io=on --sector-size "$lbs" -f --show "$f") || skip "losetup failed"
	t_own_loop "$dev"
	[ "$dir" != "$T_TMP" ] && rm -rf "$dir"   # the loop device keeps the file open
	LOOP=$dev
}
