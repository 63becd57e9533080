#!/bin/bash
# fio_verify_null.sh - fio's verify=null ("pretend to verify", verify.c:
# populate_verify_io_u and verify_io_u return at once), side by side with
# Debian's fio on a loop device this test makes:
# - rw=write and rw=randwrite (bs=64k, size=16M): both tools write every
#   block once, then read every block back (do_verify), the reads counted as
#   the job's reads: the JSON's write.total_ios and read.total_ios equal
#   fio's (256 and 256), and the kernel read the 16 MiB back;
# - nothing is checked: the blocks carry no verify header (no 0xacca magic at
#   any block start), and nvscope's are distinct (fresh data; fio 3.33 repeats
#   its buffers here, see below: a documented difference); a block overwritten between a do_verify=0 write and a
#   verify_only read still passes (exit 0 in both tools);
# - do_verify=0: no read-back in either tool.
. "${NVS_TOP:-.}/tests/lib.sh"
command -v fio >/dev/null || skip "fio is needed (the reference)"
command -v python3 >/dev/null || skip "python3 is needed to read the JSON"
t_loop 32M
name=${LOOP#/dev/}
command -v udevadm >/dev/null && udevadm settle -t 5 2>/dev/null
reads() { awk '{print $3}' "/sys/block/$name/stat"; } # sectors read
job="--bs=64k --size=16M --verify=null"
nvs() { "$NVS_BIN" run --target "$LOOP" $job --iodepth=4 --ramp_time=0 --output-format=json "$@"; }
fio_() { fio --name=vnull --filename="$LOOP" $job --direct=1 --ioengine=psync --output-format=json "$@"; }
counts() { # JSON file -> "writes reads"
	python3 - "$1" <<'PY'
import json, sys
t = open(sys.argv[1]).read()
j = json.loads(t[t.index("{"):])["jobs"][0]
print(j["write"]["total_ios"], j["read"]["total_ios"])
PY
}
# the 16 MiB written: no fio verify header at a block start, all distinct
blocks() { # read with O_DIRECT: the page cache may hold older blocks
	dd if="$LOOP" bs=1M count=16 iflag=direct status=none >"$T_TMP/dev.bin" || return 1
	python3 - "$T_TMP/dev.bin" <<'PY'
import sys
with open(sys.argv[1], "rb") as f:
    data = f.read(16 << 20)
blks = [data[i:i + 65536] for i in range(0, len(data), 65536)]
magic = sum(b[:2] == b"\xca\xac" for b in blks)
print(len(set(blks)), magic)
PY
}

for rw in write randwrite; do
	dd if=/dev/zero of="$LOOP" bs=1M count=16 oflag=direct status=none || fail "dd zero"
	r0=$(reads)
	nvs --rw=$rw --output "$T_TMP/n.json" >"$T_TMP/n.out" 2>&1 ||
		fail "nvscope $rw verify=null: exit $?: $(cat "$T_TMP/n.out")"
	r1=$(reads)
	nc=$(counts "$T_TMP/n.json") || fail "nvscope JSON"
	nb=$(blocks)
	dd if=/dev/zero of="$LOOP" bs=1M count=16 oflag=direct status=none || fail "dd zero"
	fio_ --rw=$rw >"$T_TMP/f.json" 2>"$T_TMP/f.err" || fail "fio $rw verify=null: $(cat "$T_TMP/f.err")"
	fc=$(counts "$T_TMP/f.json") || fail "fio JSON"
	fb=$(blocks)
	echo "  $rw: writes reads: fio $fc, nvscope $nc; distinct blocks, headers: fio $fb, nvscope $nb"
	[ "$nc" = "$fc" ] || fail "$rw: nvscope's counts $nc, fio's $fc"
	[ "$nc" = "256 256" ] || fail "$rw: counts $nc, wanted 256 writes and 256 reads back"
	[ $(((r1 - r0) * 512)) -ge $((16 << 20)) ] || fail "$rw: the read-back did not reach the device"
	[ "$nb" = "256 0" ] || fail "$rw: nvscope wrote $nb (distinct blocks, verify headers)"
	# fio 3.33 writes no header either, but repeats its buffers: verify turns
	# its scrambling off and the refill_buffers it implies is set after its
	# flags (init.c: init_flags() before fixup_options()), so each buffer
	# keeps its first contents; nvscope's data stays fresh (docs/cli.md)
	[ "${fb#* }" = 0 ] || fail "$rw: fio wrote verify headers: $fb"
done
ok "verify=null write/randwrite: fio's counts (256 writes, 256 reads back), no header, fresh data"

# do_verify=0: no read-back in either tool
nvs --rw=write --do_verify=0 --output "$T_TMP/n0.json" >"$T_TMP/n0.out" 2>&1 ||
	fail "nvscope do_verify=0: $(cat "$T_TMP/n0.out")"
fio_ --rw=write --do_verify=0 >"$T_TMP/f0.json" 2>"$T_TMP/f0.err" || fail "fio do_verify=0"
nc=$(counts "$T_TMP/n0.json") fc=$(counts "$T_TMP/f0.json")
[ "$nc" = "$fc" ] && [ "$nc" = "256 0" ] || fail "do_verify=0: nvscope $nc, fio $fc"
ok "verify=null do_verify=0: no read-back (fio: $fc)"

# nothing checked: a corrupted block passes verify_only in both tools
dd if=/dev/urandom of="$LOOP" bs=64k seek=5 count=1 oflag=direct status=none || fail "dd"
"$NVS_BIN" run --target "$LOOP" $job --rw=read --verify_only --ramp_time=0 >"$T_TMP/nv.out" 2>&1 ||
	fail "nvscope verify_only verify=null: exit $?: $(cat "$T_TMP/nv.out")"
grep -q "verify: null (fio's pretend verify): read back, nothing checked" "$T_TMP/nv.out" ||
	fail "no verify=null line: $(cat "$T_TMP/nv.out")"
fio --name=vnull --filename="$LOOP" $job --rw=read --verify_only --direct=1 >"$T_TMP/fv.out" 2>&1 ||
	fail "fio verify_only verify=null: exit $?"
ok "verify=null verify_only: a changed block passes in both tools (nothing is checked)"

# the JSON names the type; nothing is counted as checked
python3 - "$T_TMP/n.json" <<'PY' || fail "JSON nvscope.verify"
import json, sys
v = json.load(open(sys.argv[1]))["jobs"][0]["nvscope"]["verify"]
assert v["type"] == "null" and v["blocks"] == 0 and v["bad"] == 0, v
j = json.load(open(sys.argv[1]))["jobs"][0]["job options"]
assert j["verify"] == "null", j
PY
ok "JSON: verify type null, 0 blocks checked"
