#!/bin/bash
# Bad input: one clear line on stderr, exit status 2, never a crash.
. "$(dirname "$0")/../lib.sh"
expect2() { # expect2 PATTERN ARGS...: exit 2 and stderr matching PATTERN
	local pat=$1; shift
	"$NVS_BIN" "$@" >"$T_TMP/o" 2>"$T_TMP/e"
	local rc=$?
	[ $rc -eq 2 ] || fail "exit $rc (want 2) for: $* -- $(cat "$T_TMP/e")"
	grep -qi -- "$pat" "$T_TMP/e" || fail "stderr for '$*' lacks '$pat': $(cat "$T_TMP/e")"
	[ "$(wc -l <"$T_TMP/e")" -le 2 ] || fail "more than a line or two of error for: $*"
}
f=$T_TMP/f.dat
expect2 "bs" run --target "$f" --size=1m --bs=4q
expect2 "unknown option" run --target "$f" --size=1m --frobnicate=1
expect2 "no target" run --rw=randread
expect2 "No such file" run --target /nonexistent/dir/x --rw=read
expect2 "size" run --target /dev/zero --rw=read --direct=0
expect2 "too small" run --target "$f" --size=4k --bs=64k
expect2 "not found" run --target "$f" --size=1m --preset no-such-preset
expect2 "rw" run --target "$f" --size=1m --rw=sideways
expect2 "iodepth" run --target "$f" --size=1m --iodepth=0
expect2 "needs a value" run --target "$f" --bs
expect2 "unknown command" frobnicate
printf '[global]\nbs=4k\n[job]\nrw=randread\nbz=1\n' >"$T_TMP/bad.fio"
expect2 "bad.fio:5:" run --target "$f" --size=1m --job "$T_TMP/bad.fio"
"$NVS_BIN" --version | grep -q '^nvscope [0-9]' || fail "--version"
"$NVS_BIN" run --help | grep -q 'usage: nvscope run' || fail "run --help"
ok "bad input refused with exit 2"
