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

# issue 8 item 6: NaN, infinities, negatives and overflow are refused by every
# number parser.  A file size limit keeps a binary that accepts them (today's
# main laid out an 8 EiB file for --size=nan) from filling the disk.
expect2n() { (ulimit -f 4096; expect2 "$@") || exit 1; }
expect2n "size" run --target "$f" --rw=write --size=nan
expect2n "size" run --target "$f" --rw=write --size=nan%
expect2n "size" run --target "$f" --rw=write --size=inf
expect2n "size" run --target "$f" --rw=write --size=18446744073709551616
expect2n "io_size" run --target "$f" --rw=write --size=1m --io_size=nan
expect2n "offset" run --target "$f" --rw=write --size=1m --offset=nan
expect2n "offset" run --target "$f" --rw=write --size=1m --offset=-nan%
expect2n "runtime" run --target "$f" --rw=write --size=1m --runtime=nan
expect2n "runtime" run --target "$f" --rw=write --size=1m --runtime=1e400
expect2n "cpus_allowed" run --target "$f" --rw=read --size=1m --cpus_allowed=0-99999999999999999999
expect2n "0, 1 or 2" purge --ses=4294967297 --method=format "$T_TMP/nonexistent"
printf '[plan]\nruntime = nan\n[measure m]\nrw = randread\n' >"$T_TMP/nan.ini"
expect2n "runtime" plan "$T_TMP/nan.ini" --target "$f" --dry-run
printf '[precondition p]\nrw = randwrite\nround = nan\n' >"$T_TMP/nanr.ini"
expect2n "round" plan "$T_TMP/nanr.ini" --target "$f" --dry-run
printf '[measure m]\nrw = randread\n' >"$T_TMP/ok.ini"
expect2n "runtime" plan "$T_TMP/ok.ini" --target "$f" --dry-run --runtime=inf
expect2n "round" plan "$T_TMP/ok.ini" --target "$f" --dry-run --round=nan
printf '[measure m]\nrw = randread\nsize = nan%%\n' >"$T_TMP/nanp.ini"
expect2n "size" plan "$T_TMP/nanp.ini" --target "$f" --dry-run
for i in 1 2 3 4 5 6; do echo "$((i * 1000)), 1, 0, 4096"; done >"$T_TMP/s.log"
expect2n "round" steady "$T_TMP/s.log" --round=1e-300
expect2n "ss" steady "$T_TMP/s.log" --ss=iops:0x10
ok "NaN, inf, overflow and junk refused"

# item 14: steady --json is valid JSON when the series overflows (null, not inf/nan)
for i in 1 2 3 4 5 6; do echo "$((i * 1000)), 1e308, 0, 4096"; done >"$T_TMP/big.log"
"$NVS_BIN" steady --json "$T_TMP/big.log" >"$T_TMP/big.json" || fail "steady big: exit $?"
python3 -m json.tool "$T_TMP/big.json" >/dev/null || fail "steady --json: $(cat "$T_TMP/big.json")"
grep -q '"window_avg": null' "$T_TMP/big.json" || fail "steady --json: $(cat "$T_TMP/big.json")"
ok "steady --json: null for values that are not finite"

# item 3: a --target longer than 255 bytes is refused, never cut to a prefix
# that names another, existing file (which stays untouched)
long_dir=$T_TMP/$(printf 'a%.0s' $(seq 200))
mkdir -p "$long_dir" || fail "mkdir"
long=$long_dir/$(printf 'b%.0s' $(seq 120))
prefix=${long:0:255}
head -c 65536 /dev/urandom >"$prefix" || fail "prefix file"
sum=$(md5sum <"$prefix")
expect2n "longer than 255" run --target "$long" --rw=write --size=64k --runtime=1
expect2n "longer than 255" run --target "$f,$long" --rw=write --size=64k --runtime=1
printf '[measure m]\nrw = randwrite\nsize = 64k\nruntime = 1\n' >"$T_TMP/w.ini"
expect2n "longer than 255" plan "$T_TMP/w.ini" --target "$long" --results "$T_TMP/pr" \
	--yes-destroy-data="$long" --quiet
printf '[job]\nfilename=%s\nrw=write\nsize=64k\n' "$long" >"$T_TMP/long.fio"
expect2n "long.fio:2:" run --job "$T_TMP/long.fio"
# a plan target is the path checked, confirmed and written: never split on fio's ':'
expect2n "separate targets" plan "$T_TMP/ok.ini" --target "$f:x" --dry-run
[ "$(md5sum <"$prefix")" = "$sum" ] || fail "the 255-byte prefix file was written"
[ ! -e "$long" ] || fail "the long path was created"
ok "over-long target refused, the prefix file untouched"

# item 8: JSON output is valid UTF-8 whatever bytes a target path holds
bad=$T_TMP/$'t\xff\xfe-\xc3.dat'
"$NVS_BIN" run --target "$bad" --rw=write --size=64k --runtime=1 --output-format=json \
	--output "$T_TMP/u.json" \
	>/dev/null 2>"$T_TMP/e" || fail "run on a non-UTF-8 path: $(cat "$T_TMP/e")"
iconv -f UTF-8 -t UTF-8 "$T_TMP/u.json" >/dev/null || fail "results JSON is not UTF-8"
python3 -m json.tool "$T_TMP/u.json" >/dev/null || fail "results JSON does not parse"
grep -q $'t\xef\xbf\xbd\xef\xbf\xbd-\xef\xbf\xbd.dat' "$T_TMP/u.json" ||
	fail "invalid bytes not shown as U+FFFD"
ok "JSON output valid UTF-8 for a non-UTF-8 target name"

# an empty shell variable before an option: `--target --rw=randrw` takes no
# option as a path (it created and wrote a file named "--rw=randrw")
bin=$(realpath "$NVS_BIN")
(cd "$T_TMP" && "$bin" run --target --rw=randrw --size=1M --runtime=1 >/dev/null 2>"$T_TMP/e")
rc=$?
[ $rc -eq 2 ] || fail "--target followed by an option exited $rc"
grep -q "needs a value" "$T_TMP/e" || fail "message: $(cat "$T_TMP/e")"
[ ! -e "$T_TMP/--rw=randrw" ] || fail "a file named --rw=randrw was created"
ok "an option is never taken as --target's value"

"$NVS_BIN" --version | grep -q '^nvscope [0-9]' || fail "--version"
"$NVS_BIN" run --help | grep -q 'usage: nvscope run' || fail "run --help"
ok "bad input refused with exit 2"
