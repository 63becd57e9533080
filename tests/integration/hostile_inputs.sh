#!/bin/bash
# hostile_inputs.sh - issue 20, cause 8 (docs/safety.md "Rule: hostile
# inputs"): every file nvscope reads from outside is a regular file of a
# stated size, read in bounded memory, its lines whole.
#   - a FIFO (no writer) as job file, include, check profile, plan, steady
#     input and --read_iolog trace, and /dev/zero as steady input and trace:
#     each refused at once (exit 2, the path and what it is named) - every
#     command runs under `timeout 10`, so a reader that blocks or spins
#     fails here instead of hanging;
#   - a 1 MiB job file of `[a]` lines (262144 sections; 6 GB before) is
#     refused at section 1025 with a message, in little memory; a plan of
#     262144 sections at its 67th (it ran for minutes);
#   - a 64 MiB sparse trace whose line 1 is bad is refused having read
#     little of it (memory, and read(2) bytes where strace exists);
#   - a steady input with a 600-byte line gives the verdict of the same
#     series without it (it was cut at 511 bytes into an extra sample), and
#     a huge line is refused with its number.
# The image named as --target is never written (checksum).
. "${NVS_TOP:-.}/tests/lib.sh"
B=$NVS_BIN
d=$T_TMP

truncate -s 4M "$d/img"
sum0=$(md5sum <"$d/img")
mkfifo "$d/fifo" "$d/fifo.ini"

# refused WHAT RE CMD...: exit 2 within 10 s, stderr matching RE
refused() {
	local what=$1 re=$2 rc
	shift 2
	timeout 10 "$@" >"$d/out" 2>"$d/err"
	rc=$?
	[ $rc = 124 ] && fail "$what: still running after 10 s (blocked on its input)"
	[ $rc = 2 ] || fail "$what: exit $rc, want 2: $(head -c 300 "$d/err")"
	grep -Eq -- "$re" "$d/err" || fail "$what: message lacks /$re/: $(head -c 300 "$d/err")"
}

refused "FIFO job file" "fifo: is a FIFO, not a regular file" "$B" run "$d/fifo" --target="$d/img"
printf '[a]\nrw=read\ninclude %s\n' "$d/fifo" >"$d/inc.fio"
refused "FIFO include" "inc.fio:3: include: .*fifo: is a FIFO" "$B" run "$d/inc.fio" --target="$d/img"
refused "FIFO check profile" "fifo.ini: is a FIFO" \
	"$B" check --target "$d/img" --profile "$d/fifo.ini"
refused "FIFO plan" "fifo.ini: is a FIFO" "$B" plan "$d/fifo.ini" --target "$d/img"
refused "FIFO steady input" "fifo: is a FIFO" "$B" steady "$d/fifo"
refused "/dev/zero steady input" "/dev/zero: is a character device" "$B" steady /dev/zero
refused "FIFO --read_iolog" "fifo: is a FIFO" "$B" run --read_iolog="$d/fifo" --target="$d/img"
refused "/dev/zero --read_iolog" "/dev/zero: is a character device" \
	"$B" run --read_iolog=/dev/zero --target="$d/img"
refused "directory job file" "is a directory" "$B" run "$d" --target="$d/img"
ok "FIFOs, /dev/zero and a directory as inputs: refused at once, named"

# 1 MiB of "[a]" lines: refused at the section cap, in little memory
yes '[a]' | head -n 262144 >"$d/many.fio"
/usr/bin/time -f '%M' -o "$d/rss" timeout 10 "$B" run "$d/many.fio" --parse-only \
	--target="$d/img" >"$d/out" 2>"$d/err"
rc=$?
[ $rc = 2 ] || fail "1 MiB of [a]: exit $rc: $(head -c 300 "$d/err")"
grep -q "many.fio:1025: more than 1024 sections" "$d/err" || fail "1 MiB of [a]: $(cat "$d/err")"
rss=$(tail -1 "$d/rss")
# (the bound is the product's: under a sanitizer the allocator copies a
# grown array whole and shadows it, so only the refusal is checked there)
[ -n "${NVS_SANITIZER:-}" ] || [ "$rss" -lt 200000 ] ||
	fail "1 MiB of [a]: $rss KB resident (want < 200 MB)"
# the cap itself is fine: 1024 sections parse
printf '[a]\nrw=read\n%.0s' $(seq 1024) >"$d/cap.fio"
timeout 10 "$B" run "$d/cap.fio" --parse-only --target="$d/img" >"$d/out" 2>"$d/err" ||
	fail "1024 sections: $(head -c 300 "$d/err")"
[ "$(grep -c '^\[a\]' "$d/out")" = 1024 ] || fail "1024 sections: $(grep -c '^\[a\]' "$d/out") jobs"
# over 4 MiB: refused naming the cap, before it is read
truncate -s 5M "$d/huge.fio"
refused "5 MiB job file" "larger than the 4 MiB a job file may have" \
	"$B" run "$d/huge.fio" --target="$d/img"
# a plan of 262144 distinct sections ([s1] ...): refused at its 67th (64
# steps, [global], [plan]), not after a quadratic check of their names
seq -f '[s%.0f]' 262144 >"$d/many.ini"
refused "262144 plan sections" "many.ini:67: more than 66 sections" \
	"$B" plan "$d/many.ini" --target "$d/img"
ok "1 MiB of [a]: 'more than 1024 sections' in ${rss} KB; 1024 parse; 5 MiB refused by size; a plan: 66 sections"

# a 64 MiB sparse trace, line 1 bad: refused reading one chunk of it
printf 'garbage\n' >"$d/big.log"
truncate -s 64M "$d/big.log"
/usr/bin/time -f '%M' -o "$d/rss" timeout 10 "$B" run --read_iolog="$d/big.log" \
	--target="$d/img" >"$d/out" 2>"$d/err"
rc=$?
[ $rc = 2 ] || fail "bad 64 MiB trace: exit $rc: $(head -c 300 "$d/err")"
grep -q "big.log:1: not a trace" "$d/err" || fail "bad 64 MiB trace: $(cat "$d/err")"
rss=$(tail -1 "$d/rss")
[ "$rss" -lt 40000 ] || fail "bad 64 MiB trace: $rss KB resident: the file was loaded"
how="$rss KB resident"
if command -v strace >/dev/null; then
	timeout 10 strace -f -qq -e trace=read -o "$d/st" "$B" run --read_iolog="$d/big.log" \
		--target="$d/img" >/dev/null 2>&1
	bytes=$(awk '/^[0-9]+ +read\(|^read\(/ { n += $NF } END { print n + 0 }' "$d/st")
	[ "$bytes" -lt $((4 << 20)) ] || fail "bad 64 MiB trace: $bytes bytes read"
	how="$how, $bytes bytes read"
fi
ok "64 MiB trace with a bad line 1: refused ($how)"

# steady: a 600-byte line is one line (it was cut at 511 into an extra sample)
fio_log() { local t=0 v; for v in "$@"; do t=$((t + 1000)); echo "$t, $v, 1, 4096, 0"; done; }
fio_log 100 100 100 100 100 100 >"$d/flat.log"
want=$(timeout 10 "$B" steady --json "$d/flat.log") || fail "steady flat: exit $?"
# 4000's sample, then blanks to byte 511: the tail was read as a sample of 900000
{
	head -3 "$d/flat.log"
	printf '4000, 100, 1, 4096, 0%490s7000, 900000, 1, 4096, 0\n' ''
	tail -2 "$d/flat.log"
} >"$d/long.log"
# a 600-byte comment: its tail was read as a bad line
{ printf '# %0598d\n' 0; cat "$d/flat.log"; } >"$d/comment.log"
for f in long comment; do
	[ "$(awk 'length > 511' "$d/$f.log" | wc -l)" = 1 ] || fail "$f.log: no long line"
	got=$(timeout 10 "$B" steady --json "$d/$f.log" 2>"$d/err") ||
		fail "steady, 600-byte line ($f): $(cat "$d/err")"
	[ "$got" = "$want" ] || fail "steady, 600-byte line ($f): $got; without it $want"
done
{ head -2 "$d/flat.log"; printf '%05000d\n' 0; } >"$d/huge.log"
refused "steady 5000-byte line" "huge.log:3: line longer than 4 KiB" "$B" steady "$d/huge.log"
truncate -s 300M "$d/zeros.log"
refused "steady 300 MiB of NULs" "larger than the 256 MiB" "$B" steady "$d/zeros.log"
truncate -s 10M "$d/nul.log"
refused "steady 10 MiB of NULs" "nul.log:1: line longer than 4 KiB" "$B" steady "$d/nul.log"
ok "steady: 600-byte lines read whole (verdict unchanged), longer ones refused by number"

[ "$(md5sum <"$d/img")" = "$sum0" ] || fail "the target image changed"
ok "the target image is unchanged"
