#!/bin/bash
# fio_verify_compat.sh - nvscope's verify blocks are fio's (io/vhdr.h), side by
# side with Debian's fio on a loop device this test makes, for verify=crc32c,
# md5, sha1, sha256, crc64, crc32, crc16, crc7, xxhash, sha512, sha3-224,
# sha3-256, sha3-384, sha3-512, meta and pattern (and verify_interval below a
# block), and
# a rw=randwrite job (each tool writes every block once, in its own order):
# - nvscope writes (rw=write, do_verify=0), fio reads it back with the same
#   job and --verify_only: exit 0, no verify error;
# - fio writes, nvscope's verify_only reads: exit 0, every block good;
# - one block of fio's data corrupted with dd: both fail, and name the same
#   byte offset (with verify_interval: the bad interval's).
. "${NVS_TOP:-.}/tests/lib.sh"
command -v fio >/dev/null || skip "fio is needed (the reference)"
command -v python3 >/dev/null || skip "python3 is needed to read the JSON"
t_loop 32M
job="--bs=64k --size=16M --rw=write"
nvs() { "$NVS_BIN" run --target "$LOOP" $job --iodepth=4 --ramp_time=0 "$@"; }
fio_() { fio --name=compat --filename="$LOOP" $job --direct=1 --ioengine=psync "$@"; }
checked() { # JSON file, blocks wanted
	python3 - "$1" "$2" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))["jobs"][0]["nvscope"]["verify"]
assert v["blocks"] == int(sys.argv[2]) and v["bad"] == 0, v
PY
}

bad=$((5 * 65536)) # the corrupted block: the sixth
for v in crc32c md5 sha1 sha256 crc64 crc32 crc16 crc7 xxhash sha512 sha3-224 sha3-256 sha3-384 \
	sha3-512 meta pattern crc32c:vi; do
	opt="--verify=${v%:*}"
	[ $v = pattern ] && opt="$opt --verify_pattern=0x5a17c0de"
	[ $v = meta ] && opt="$opt --verify_pattern=0x0badf00d"
	[ $v = crc32c:vi ] && opt="$opt --verify_interval=4k"
	# nvscope writes, fio reads
	dd if=/dev/zero of="$LOOP" bs=1M count=16 oflag=direct status=none || fail "dd zero"
	nvs $opt --do_verify=0 -q >"$T_TMP/nw.out" 2>&1 || fail "$v: nvscope write: $(cat "$T_TMP/nw.out")"
	fio_ $opt --verify_only >"$T_TMP/fr.out" 2>&1 ||
		fail "$v: fio --verify_only of nvscope's data: exit $?: $(head -20 "$T_TMP/fr.out")"
	grep -qiE "verify: bad|verify failed|bad pattern" "$T_TMP/fr.out" &&
		fail "$v: fio found errors in nvscope's data: $(head -20 "$T_TMP/fr.out")"
	# fio writes, nvscope reads
	dd if=/dev/zero of="$LOOP" bs=1M count=16 oflag=direct status=none || fail "dd zero"
	fio_ $opt --do_verify=0 >"$T_TMP/fw.out" 2>&1 || fail "$v: fio write: $(cat "$T_TMP/fw.out")"
	nvs $opt --verify_only --output-format=json --output "$T_TMP/nr.json" >"$T_TMP/nr.out" 2>&1 ||
		fail "$v: nvscope verify_only of fio's data: exit $?: $(cat "$T_TMP/nr.out")"
	checked "$T_TMP/nr.json" 256 || fail "$v: nvscope's verify of fio's data: $(cat "$T_TMP/nr.out")"
	# one sector of the sixth block (meta: its header; sha512: its last, as
	# fio's sha512 field holds only the data's tail and first 128 bytes
	# (io/vsum.h); else one in its data)
	sec=3
	[ $v = meta ] && sec=0
	[ $v = sha512 ] && sec=127
	[ $v = crc32c:vi ] && sec=19 # in the third 4k interval
	dd if=/dev/urandom of="$LOOP" bs=512 seek=$((bad / 512 + sec)) count=1 oflag=direct \
		conv=notrunc status=none || fail "dd"
	nvs $opt --verify_only >"$T_TMP/nb.out" 2>&1
	rc=$?
	[ $rc -eq 1 ] || fail "$v: nvscope over a corrupted block: exit $rc: $(cat "$T_TMP/nb.out")"
	fio_ $opt --verify_only >"$T_TMP/fb.out" 2>&1
	rc=$?
	# fio 3.33 names a bad interval that is not a block's last but exits 0
	# (verify_io_u keeps only the last interval's result): the message counts
	[ $rc -ne 0 ] || { [ $v = crc32c:vi ] && grep -q "verify failed" "$T_TMP/fb.out"; } ||
		fail "$v: fio did not catch the corrupted block: $(head -20 "$T_TMP/fb.out")"
	n_off=$(grep -o "bad block at offset [0-9]*" "$T_TMP/nb.out" | head -1 | grep -o "[0-9]*$")
	f_off=$(grep -o "at file [^ ]* offset [0-9]*" "$T_TMP/fb.out" | head -1 | grep -o "[0-9]*$")
	want=$bad
	[ $v = crc32c:vi ] && want=$((bad + 8192)) # fio names the interval
	[ "$n_off" = "$want" ] && [ "$f_off" = "$want" ] ||
		fail "$v: offsets: nvscope '$n_off', fio '$f_off', wanted $want: $(cat "$T_TMP/nb.out"; head -5 "$T_TMP/fb.out")"
	ok "verify=$v: fio reads nvscope's blocks, nvscope reads fio's, both name offset $want"
done

# rw=randwrite (the random map on: every block once, in another order in each
# tool): each tool's verify_only of the same random job reads the other's
job="--bs=16k --size=16M --rw=randwrite"
dd if=/dev/zero of="$LOOP" bs=1M count=16 oflag=direct status=none || fail "dd zero"
nvs --verify=crc32c --do_verify=0 -q >"$T_TMP/nw.out" 2>&1 || fail "randwrite: nvscope write: $(cat "$T_TMP/nw.out")"
fio_ --verify=crc32c --verify_only >"$T_TMP/fr.out" 2>&1 ||
	fail "randwrite: fio --verify_only of nvscope's data: $(head -20 "$T_TMP/fr.out")"
grep -qiE "verify: bad|verify failed" "$T_TMP/fr.out" && fail "randwrite: fio found errors: $(head "$T_TMP/fr.out")"
dd if=/dev/zero of="$LOOP" bs=1M count=16 oflag=direct status=none || fail "dd zero"
fio_ --verify=crc32c --do_verify=0 >"$T_TMP/fw.out" 2>&1 || fail "randwrite: fio write: $(cat "$T_TMP/fw.out")"
nvs --verify=crc32c --verify_only --output-format=json --output "$T_TMP/nr.json" >"$T_TMP/nr.out" 2>&1 ||
	fail "randwrite: nvscope verify_only of fio's data: $(cat "$T_TMP/nr.out")"
checked "$T_TMP/nr.json" 1024 || fail "randwrite: nvscope's verify of fio's data: $(cat "$T_TMP/nr.out")"
ok "rw=randwrite verify=crc32c: each tool's verify_only reads what the other wrote (1024 blocks)"
