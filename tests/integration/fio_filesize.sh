#!/bin/bash
# fio's filesize= on a given device and file (filesetup.c setup_files),
# side by side with Debian's fio on one 64 MiB loop device: the bytes a
# sequential read job moves are the length fio gives the file (filesize
# when the device is outside the range, the device when within it or
# shorter; then offset, size and size=N% on that length); a range draws a
# size in it; a regular file shorter than filesize is refused (fio would
# extend it: nvscope never grows files); bad values are refused at their line.
# test: no-sanitizer it compares the bytes fio and nvscope give a target under filesize=, not memory; the parser and the lengths run under ASan and TSan in test_filesize.c, the parsing in the spec fuzzer
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "fio not installed"
t_loop 64M; dev=$LOOP
M=1048576
bytes() { # $1 = JSON file: the read bytes of each job, space-separated
	python3 -c "
import json; t = open('$1').read(); d = json.loads(t[t.index('{'):])
print(' '.join(str(j['read']['io_bytes']) for j in d['jobs']))"
}
job() { # $1 = target, rest: option lines
	local t=$1
	shift
	{ printf '[j]\nfilename=%s\nrw=read\nbs=4k\ndirect=1\n' "$t"; printf '%s\n' "$@"; } >"$T_TMP/j.fio"
}
both() { # $1 = expected bytes (both tools), rest: options
	local want=$1
	shift
	job "$dev" "$@"
	fio --output-format=json "$T_TMP/j.fio" >"$T_TMP/f.json" 2>"$T_TMP/err" ||
		fail "fio $*: $(cat "$T_TMP/err")"
	"$NVS_BIN" run --output-format=json "$T_TMP/j.fio" >"$T_TMP/n.json" 2>"$T_TMP/err" ||
		fail "nvscope $*: $(cat "$T_TMP/err")"
	f=$(bytes "$T_TMP/f.json")
	n=$(bytes "$T_TMP/n.json")
	[ "$f" = "$want" ] || fail "$*: fio read $f, expected $want (the test's model of fio is wrong)"
	[ "$n" = "$f" ] || fail "$*: nvscope read $n, fio $f"
}
both $((16 * M)) filesize=16m
both $((12 * M)) filesize=16m offset=4m
both $((64 * M)) filesize=128m             # the device is shorter: used whole
both $((64 * M)) filesize=32m-64m          # within the range: used whole
both $((8 * M)) filesize=16m size=8m
both $((8 * M)) filesize=16m size=50%
ok "filesize on a device: 16m, with offset, longer than the device, device in range, with size and size=50% as fio"

# a range: a size in [16m, 32m), whole blocks, per file
job "$dev" filesize=16m-32m
"$NVS_BIN" run --output-format=json "$T_TMP/j.fio" >"$T_TMP/n.json" 2>"$T_TMP/err" || fail "range: $(cat "$T_TMP/err")"
n=$(bytes "$T_TMP/n.json")
[ "$n" -ge $((16 * M)) ] && [ "$n" -lt $((32 * M)) ] && [ $((n % 4096)) = 0 ] ||
	fail "filesize=16m-32m read $n bytes"
ok "filesize=16m-32m: $n bytes (fio draws its own size in the range)"

# a regular file: longer than filesize is cut to it, shorter is refused
truncate -s 8M "$T_TMP/f8"
job "$T_TMP/f8" filesize=4m
"$NVS_BIN" run --output-format=json "$T_TMP/j.fio" >"$T_TMP/n.json" 2>"$T_TMP/err" || fail "file: $(cat "$T_TMP/err")"
[ "$(bytes "$T_TMP/n.json")" = $((4 * M)) ] || fail "8M file, filesize=4m: $(bytes "$T_TMP/n.json")"
job "$T_TMP/f8" filesize=16m
"$NVS_BIN" run "$T_TMP/j.fio" >/dev/null 2>"$T_TMP/err" && fail "a file shorter than filesize accepted"
grep -q "filesize: .*f8 is 8m, shorter than filesize 16m: fio would extend the file, nvscope does not create or grow files" \
	"$T_TMP/err" || fail "short file: $(cat "$T_TMP/err")"
[ "$(stat -c %s "$T_TMP/f8")" = $((8 * M)) ] || fail "the file was changed"
ok "a regular file: cut to filesize, refused (untouched) when shorter"

for bad in 0 nan inf -5 8m-4m 99999999999999999999 4m-x 1e3; do
	job "$dev" "filesize=$bad"
	"$NVS_BIN" run --parse-only "$T_TMP/j.fio" 2>"$T_TMP/err" && fail "filesize=$bad accepted"
	grep -q "j.fio:6: filesize: " "$T_TMP/err" || fail "filesize=$bad: $(cat "$T_TMP/err")"
done
ok "bad filesize values refused at their line"

# allow_file_create=0: a missing file is not created, by either tool; an
# existing one is used as without it
printf '[j]\nfilename=%s\nrw=write\nbs=4k\nsize=1m\nallow_file_create=0\n' "$T_TMP/new" >"$T_TMP/c.fio"
fio "$T_TMP/c.fio" >"$T_TMP/fo" 2>&1
grep -q "file creation disallowed by allow_file_create=0" "$T_TMP/fo" || fail "fio: $(cat "$T_TMP/fo")"
[ -e "$T_TMP/new" ] && fail "fio created the file"
"$NVS_BIN" run "$T_TMP/c.fio" >/dev/null 2>"$T_TMP/err" && fail "nvscope ran with a missing file"
grep -q "c.fio.*no such file, and allow_file_create=0\|new: no such file, and allow_file_create=0" "$T_TMP/err" ||
	fail "allow_file_create=0: $(cat "$T_TMP/err")"
[ -e "$T_TMP/new" ] && fail "nvscope created the file"
truncate -s 1M "$T_TMP/new"
"$NVS_BIN" run "$T_TMP/c.fio" >/dev/null 2>"$T_TMP/err" || fail "existing file, allow_file_create=0: $(cat "$T_TMP/err")"
sed -i '/allow_file_create/d' "$T_TMP/c.fio"
rm -f "$T_TMP/new"
"$NVS_BIN" run "$T_TMP/c.fio" >/dev/null 2>"$T_TMP/err" || fail "default: $(cat "$T_TMP/err")"
[ "$(stat -c %s "$T_TMP/new")" = $((1024 * 1024)) ] || fail "default: the file was not created"
ok "allow_file_create=0: a missing file refused and not created (fio too), an existing one used; by default created"
