#!/bin/bash
# fio_offset_loops.sh - where a sequential job's I/Os go, side by side with
# Debian's fio on a loop device this test makes (both tools' write_iolog):
# - offset= not a multiple of bs (fio's cross-stripe-verify.fio: offset=120k,
#   bs=16k, rw=write:112k): fio's I/Os start there and step by bs + the
#   hole (offset + n x 128k), each crossing a 128k stripe; nvscope's are the
#   same offsets (it refused the offset before: "not aligned to 16384");
# - loops=2 with io_size: fio repeats io_size, going on from where the first
#   loop ended (32 I/Os of 16k for io_size=256k; nvscope wrote 16 before);
#   a random job's second loop goes on through the same random map and
#   stream while blocks are left, and starts over once the map is full;
# - an offset not a multiple of the logical block size is still refused.
. "${NVS_TOP:-.}/tests/lib.sh"
command -v fio >/dev/null || skip "fio is needed (the reference)"
t_loop 64M
offs() { awk '$3 == "write" || $3 == "read" { print $4 }' "$1" | tr '\n' ' '; }
both() { # name, options...: the offsets each tool issued, compared
	local n=$1; shift
	rm -f "$T_TMP/f.log" "$T_TMP/n.log"
	fio --name=j --filename="$LOOP" --direct=1 --write_iolog="$T_TMP/f.log" "$@" \
		--output-format=terse >/dev/null 2>"$T_TMP/f.err" || fail "$n: fio: $(cat "$T_TMP/f.err")"
	"$NVS_BIN" run --target "$LOOP" --write_iolog="$T_TMP/n.log" "$@" -q >"$T_TMP/n.out" 2>&1 ||
		fail "$n: nvscope exit $?: $(cat "$T_TMP/n.out")"
	f=$(offs "$T_TMP/f.log") v=$(offs "$T_TMP/n.log")
	[ -n "$f" ] && [ "$f" = "$v" ] || fail "$n: fio's offsets: $f
nvscope's: $v"
	ok "$n: the same $(echo $f | wc -w) offsets as fio"
}
both "offset=120k bs=16k rw=write:112k" --bs=16k --rw=write:112k --offset=120k --io_size=256k
both "offset=120k bs=16k rw=write" --bs=16k --rw=write --offset=120k --size=512k
both "loops=2 io_size=256k" --bs=16k --rw=write --loops=2 --io_size=256k
both "loops=3 io_size=64k rw=write:16k" --bs=16k --rw=write:16k --loops=3 --io_size=64k
# a random job's loops: fio's second loop goes on through the same random
# map and stream while blocks are left (io_size < size: 0 5 6 3, then 4 7 1
# 2), and starts over (map emptied, stream re-seeded) once the map is full;
# the same (offset, length) sequence, I/O for I/O
for a in "--size=128k --io_size=64k --loops=3" "--size=128k --loops=3" \
	"--size=256k --io_size=80k --loops=4 --bssplit=16k/50:32k/50"; do
	rm -f "$T_TMP/f.log" "$T_TMP/n.log"
	fio --name=j --filename="$LOOP" --direct=1 --write_iolog="$T_TMP/f.log" --bs=16k --rw=randwrite \
		$a --output-format=terse >/dev/null || fail "fio randwrite $a"
	"$NVS_BIN" run --target "$LOOP" --write_iolog="$T_TMP/n.log" --bs=16k --rw=randwrite $a -q \
		>/dev/null 2>&1 || fail "nvscope randwrite $a"
	f=$(awk '$3 == "write" {print $4 ":" $5}' "$T_TMP/f.log" | tr '\n' ' ')
	v=$(awk '$3 == "write" {print $4 ":" $5}' "$T_TMP/n.log" | tr '\n' ' ')
	[ -n "$f" ] && [ "$f" = "$v" ] || fail "randwrite $a: fio wrote $f
nvscope wrote $v"
	ok "randwrite $a: fio's $(echo $f | wc -w) I/Os, in fio's order"
done

"$NVS_BIN" run --target "$LOOP" --bs=16k --rw=write --offset=1000 --size=64k -q >"$T_TMP/u.out" 2>&1
rc=$?
[ $rc = 2 ] && grep -q "not aligned to 512" "$T_TMP/u.out" || fail "offset=1000: exit $rc: $(cat "$T_TMP/u.out")"
ok "offset=1000 (not a multiple of the 512-byte logical block) refused"
