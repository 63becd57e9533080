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
# the console's settings.ini: each test its own, never the user's
export XDG_CONFIG_HOME=$T_TMP/config
T_LOOPS=()
T_TMUX=()
t_cleanup() {
	local l s
	for s in "${T_TMUX[@]}"; do tmux kill-session -t "$s" 2>/dev/null; done
	for l in "${T_LOOPS[@]}"; do losetup -d "$l" 2>/dev/null; done
	[ "$T_TMP" = "${NVS_SCRATCH:-}" ] || rm -rf "$T_TMP"
}
trap t_cleanup EXIT
trap 'exit 130' INT TERM

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }
ok() { echo "ok: $*"; }

# t_loop SIZE [LBS]: makes a loop device with direct I/O over a new file (on
# tmpfs when /dev/shm allows) and sets LOOP to it; removed on exit.  Call it
# directly, not in $(...): the cleanup list lives in this shell.
t_loop() {
	local size=$1 lbs=${2:-512} dir=$T_TMP f dev
	[ "$(id -u)" -eq 0 ] || skip "loop devices need root"
	if [ -d /dev/shm ] && [ -w /dev/shm ]; then dir=$(mktemp -d /dev/shm/nvscope-test.XXXXXX); fi
	f=$dir/loop.img
	truncate -s "$size" "$f" || fail "truncate"
	dev=$(losetup --direct-io=on --sector-size "$lbs" -f --show "$f") || skip "losetup failed"
	T_LOOPS+=("$dev")
	[ "$dir" != "$T_TMP" ] && rm -rf "$dir"   # the loop device keeps the file open
	LOOP=$dev
}
