#!/bin/bash
# fio's error_dump against Debian's fio on a loop device.  The error every
# I/O gets: polled completions (hipri) on a loop device, which has no poll
# queues: EOPNOTSUPP (as fio_ignore_error.sh).  Each tool's stderr lines
# "io_u error on file F: ERROR: DIR offset=N, buflen=N" (fio's words) must
# be the same set:
# - ignore_error=95 and error_dump=1: one line per I/O (16), every offset;
# - ignore_error=95 alone (fio's default error_dump=0): none;
# - no ignore_error: the one error that fails the job, error_dump or not.
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "fio not installed"
t_loop 16M
dev=$LOOP
lines() { # lines fio|nvscope OPTION-LINES: the sorted io_u error lines, prefix cut
	printf '[j]\nfilename=%s\ndirect=1\nbs=4k\nsize=64k\nrw=read\nioengine=io_uring\nhipri\n%s\n' \
		"$dev" "$2" >"$T_TMP/j.fio"
	if [ "$1" = fio ]; then
		fio "$T_TMP/j.fio" 2>&1 >/dev/null
	else
		"$NVS_BIN" run "$T_TMP/j.fio" 2>&1 >/dev/null
	fi | sed -n 's/^[a-z]*: \(io_u error on file .*\)$/\1/p' | sort
}
f=$(lines fio "ignore_error=95")
[ -z "$f" ] && [ "$(lines fio "ignore_error=95
error_dump=1" | wc -l)" = 16 ] || skip "hipri on a loop device does not fail with EOPNOTSUPP here"
for opt in "ignore_error=95
error_dump=1" "ignore_error=95" "error_dump=1" "error_dump=0"; do
	f=$(lines fio "$opt")
	n=$(lines nvscope "$opt")
	[ "$n" = "$f" ] || fail "$(paste -sd' ' <<<"$opt"): nvscope's lines differ from fio's:
nvscope:
$n
fio:
$f"
	ok "$(paste -sd' ' <<<"$opt"): $(grep -c . <<<"$n") io_u error line(s), as fio's"
done
"$NVS_BIN" run --target "$dev" --rw=read --error_dump=2 >/dev/null 2>&1 && fail "error_dump=2 accepted"
ok "error_dump=2 refused"
