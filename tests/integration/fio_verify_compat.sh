#!/bin/bash
# fio_verify_compat.sh - nvscope's verify blocks are fio's (io/feat/vhdr.h), side by
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
# test: no-sanitizer it compares the bytes fio and nvscope write and verify (the verify formats), not memory; the verify paths run under ASan and TSan in fio_verify.sh and test_verify.c
. "${NVS_TOP:-.}/tests/lib.sh"
command -v fio >/dev/null || skip "fio is needed (the reference)"
command -v python3 >/dev/null || skip "python3 is needed to read the JSON"
# The cost is the tools' starts (fio's: ~0.2 s of CPU each, four a variant)
# and fio's hashing, not the I/O: the variants go in two lanes side by side,
# each on a loop device of its own; the region is 4 MiB (64 blocks; the
# corrupted one the sixth), and one python3 reads nvscope's JSON reports at
# the end (a start of python3 is ~0.4 s of CPU here).
t_loop 8M
devA=$LOOP
t_loop 8M
devB=$LOOP
C=$T_TMP/cases
mkdir -p "$C"
job="--bs=64k --size=4M --rw=write"
nvs() { "$NVS_BIN" run --target "$dev" $job --iodepth=4 --ramp_time=0 "$@"; }
# fio's clock: clock_gettime (its own choice, the TSC, is tested at each start
# unless one is given: a quarter of a start's CPU; no part in the data)
fio_() { fio --clocksource=clock_gettime --name=compat --filename="$dev" $job --direct=1 --ioengine=psync "$@"; }
zero() { dd if=/dev/zero of="$dev" bs=1M count=4 oflag=direct status=none || fail "dd zero"; }
# checked JSON BLOCKS WHAT: nvscope's report of its verify_only of fio's data
# (every one of BLOCKS good), checked at the end
checked() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$C/$lane.json.list"; }

bad=$((5 * 65536)) # the corrupted block: the sixth
variant() { # variant V: both directions and a corrupted block, on $dev in $C/$V.*
	local v=$1 opt o=$C/$1 sec rc n_off f_off want
	opt="--verify=${v%:*}"
	[ $v = pattern ] && opt="$opt --verify_pattern=0x5a17c0de"
	[ $v = meta ] && opt="$opt --verify_pattern=0x0badf00d"
	[ $v = crc32c:vi ] && opt="$opt --verify_interval=4k"
	# nvscope writes, fio reads
	zero
	nvs $opt --do_verify=0 -q >"$o.nw.out" 2>&1 || fail "$v: nvscope write: $(cat "$o.nw.out")"
	fio_ $opt --verify_only >"$o.fr.out" 2>&1 ||
		fail "$v: fio --verify_only of nvscope's data: exit $?: $(head -20 "$o.fr.out")"
	grep -qiE "verify: bad|verify failed|bad pattern" "$o.fr.out" &&
		fail "$v: fio found errors in nvscope's data: $(head -20 "$o.fr.out")"
	# fio writes, nvscope reads
	zero
	fio_ $opt --do_verify=0 >"$o.fw.out" 2>&1 || fail "$v: fio write: $(cat "$o.fw.out")"
	nvs $opt --verify_only --output-format=json --output "$o.nr.json" >"$o.nr.out" 2>&1 ||
		fail "$v: nvscope verify_only of fio's data: exit $?: $(cat "$o.nr.out")"
	checked "$o.nr.json" 64 "$v: nvscope's verify of fio's data ($o.nr.out)"
	# one sector of the sixth block (meta: its header; sha512: its last, as
	# fio's sha512 field holds only the data's tail and first 128 bytes
	# (io/feat/vsum.h); else one in its data)
	sec=3
	[ $v = meta ] && sec=0
	[ $v = sha512 ] && sec=127
	[ $v = crc32c:vi ] && sec=19 # in the third 4k interval
	dd if=/dev/urandom of="$dev" bs=512 seek=$((bad / 512 + sec)) count=1 oflag=direct \
		conv=notrunc status=none || fail "dd"
	nvs $opt --verify_only >"$o.nb.out" 2>&1
	rc=$?
	[ $rc -eq 1 ] || fail "$v: nvscope over a corrupted block: exit $rc: $(cat "$o.nb.out")"
	fio_ $opt --verify_only >"$o.fb.out" 2>&1
	rc=$?
	# fio 3.33 names a bad interval that is not a block's last but exits 0
	# (verify_io_u keeps only the last interval's result): the message counts
	[ $rc -ne 0 ] || { [ $v = crc32c:vi ] && grep -q "verify failed" "$o.fb.out"; } ||
		fail "$v: fio did not catch the corrupted block: $(head -20 "$o.fb.out")"
	n_off=$(grep -o "bad block at offset [0-9]*" "$o.nb.out" | head -1 | grep -o "[0-9]*$")
	f_off=$(grep -o "at file [^ ]* offset [0-9]*" "$o.fb.out" | head -1 | grep -o "[0-9]*$")
	want=$bad
	[ $v = crc32c:vi ] && want=$((bad + 8192)) # fio names the interval
	[ "$n_off" = "$want" ] && [ "$f_off" = "$want" ] ||
		fail "$v: offsets: nvscope '$n_off', fio '$f_off', wanted $want: $(cat "$o.nb.out"; head -5 "$o.fb.out")"
	ok "verify=$v: fio reads nvscope's blocks, nvscope reads fio's, both name offset $want"
}

# rw=randwrite (the random map on: every block once, in another order in each
# tool): each tool's verify_only of the same random job reads the other's
randwrite() {
	local job="--bs=16k --size=4M --rw=randwrite" o=$C/randwrite
	zero
	nvs --verify=crc32c --do_verify=0 -q >"$o.nw.out" 2>&1 || fail "randwrite: nvscope write: $(cat "$o.nw.out")"
	fio_ --verify=crc32c --verify_only >"$o.fr.out" 2>&1 ||
		fail "randwrite: fio --verify_only of nvscope's data: $(head -20 "$o.fr.out")"
	grep -qiE "verify: bad|verify failed" "$o.fr.out" && fail "randwrite: fio found errors: $(head "$o.fr.out")"
	zero
	fio_ --verify=crc32c --do_verify=0 >"$o.fw.out" 2>&1 || fail "randwrite: fio write: $(cat "$o.fw.out")"
	nvs --verify=crc32c --verify_only --output-format=json --output "$o.nr.json" >"$o.nr.out" 2>&1 ||
		fail "randwrite: nvscope verify_only of fio's data: $(cat "$o.nr.out")"
	checked "$o.nr.json" 256 "randwrite: nvscope's verify of fio's data ($o.nr.out)"
	ok "rw=randwrite verify=crc32c: each tool's verify_only reads what the other wrote (256 blocks, once each)"
}

# the lanes: about the same hashing each (sha3 and sha512 are fio's slowest)
(lane=A dev=$devA
	for v in crc32c sha1 crc64 crc16 xxhash sha3-224 sha3-384 meta crc32c:vi; do variant $v; done) &
pa=$!
(lane=B dev=$devB
	for v in md5 sha256 crc32 crc7 sha512 sha3-256 sha3-512 pattern; do variant $v; done
	randwrite) &
pb=$!
wait $pa
ra=$?
wait $pb
rb=$?
[ $ra = 0 ] && [ $rb = 0 ] || fail "a variant failed (lane A exit $ra, lane B exit $rb)"
python3 - "$C/A.json.list" "$C/B.json.list" <<'PY' || fail "nvscope's verify of fio's data (above)"
import json, sys
bad = 0
for lst in sys.argv[1:]:
    for l in open(lst):
        path, blocks, what = l.rstrip("\n").split("\t")
        v = json.load(open(path))["jobs"][0]["nvscope"]["verify"]
        if not (v["blocks"] == int(blocks) and v["bad"] == 0):
            print("FAIL: %s: %s (wanted %s blocks, none bad)" % (what, v, blocks), file=sys.stderr)
            bad += 1
sys.exit(1 if bad else 0)
PY
ok "nvscope's verify_only of fio's data: every block good, in all 18"
