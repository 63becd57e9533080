#!/bin/bash
# fio's verify with zonemode=zbd (emulated zones on a loop device, fio
# 3.33's ZBD_NONE), side by side with Debian's fio: a write job with
# verify=crc32c writes at the write pointers, then reads back and checks
# exactly the blocks it wrote.  Both tools pass; nvscope issues the same
# writes as fio, in the same order, and reads back the same blocks (fio in
# the order written, nvscope zone by zone in offset order: the same set,
# each once).  fio's semantics: the job's zones are reset before it writes
# (a job after one that left data starts at the zone starts), no zone is
# written twice (with max_open_zones too), every bs divides the zone size.
# A block corrupted after the write run is found by a verify_only run.  The
# cases not implemented are refused (exit 2, at the job file's line).
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "no fio"
t_loop 64M
dev=$LOOP
CHK="$(dirname "$0")/zbd_check.py"
Z="--zonemode=zbd --zonesize=4M --bs=64k --offset=4M --size=32M --verify=crc32c"

ops() { awk -v o="$2" '$3 == o {print $4, $5}' "$1"; }
# both [options...]: the same job in both tools (iodepth=1), both pass
both() {
	rm -f "$T_TMP/n.log" "$T_TMP/f.log"
	"$NVS_BIN" run --target "$dev" $Z "$@" --write_iolog="$T_TMP/n.log" >"$T_TMP/n.txt" 2>&1 ||
		{ cat "$T_TMP/n.txt"; fail "nvscope $*: verify failed"; }
	fio --name=j --filename="$dev" --direct=1 --ioengine=psync $Z "$@" \
		--write_iolog="$T_TMP/f.log" >"$T_TMP/f.txt" 2>&1 || { cat "$T_TMP/f.txt"; fail "fio $* exited"; }
	grep -q "err= 0" "$T_TMP/f.txt" || { cat "$T_TMP/f.txt"; fail "fio $*: verify failed"; }
}
# same NAME [sort]: the writes equal fio's in order (with sort: the same
# set), the read-back's blocks equal fio's (sorted), every block written
# once and read back once
same() {
	local w r s=cat
	[ "${2:-}" = sort ] && s="sort -n"
	cmp -s <(ops "$T_TMP/n.log" write | $s) <(ops "$T_TMP/f.log" write | $s) ||
		{ diff <(ops "$T_TMP/n.log" write | $s) <(ops "$T_TMP/f.log" write | $s) | head; fail "$1: writes differ from fio's"; }
	cmp -s <(ops "$T_TMP/n.log" read | sort -n) <(ops "$T_TMP/f.log" read | sort -n) ||
		fail "$1: the read-back differs from fio's (nvscope $(ops "$T_TMP/n.log" read | wc -l) reads, fio $(ops "$T_TMP/f.log" read | wc -l))"
	w=$(ops "$T_TMP/n.log" write | sort -u | wc -l) r=$(ops "$T_TMP/n.log" read | sort -u | wc -l)
	[ "$w" = "$(ops "$T_TMP/n.log" write | wc -l)" ] || fail "$1: a block written twice"
	[ "$w" = "$r" ] && [ "$r" = "$(ops "$T_TMP/n.log" read | wc -l)" ] || fail "$1: $w blocks written, $r read back"
	grep -q "verify: $w blocks checked, 0 bad" "$T_TMP/n.txt" || { cat "$T_TMP/n.txt"; fail "$1: not $w blocks checked"; }
	echo "$w"
}

# 1. rw=write and rw=randwrite over 8 zones of 4M: 512 blocks each
for rw in write randwrite; do
	both --rw=$rw
	n=$(same "rw=$rw") || exit 1
	[ "$n" = 512 ] || fail "rw=$rw: $n blocks"
	ok "rw=$rw verify=crc32c: both pass, fio's $n writes in fio's order, the same $n blocks read back and checked"
done

# 2. max_open_zones=2: never more than 2 zones partly written, no zone
# reset (zbd_check.py: every write at its zone's write pointer); the same
# blocks as fio's, not in its order (fio's open set is a list that closes
# up when a zone leaves it, nvscope's slots stay: the next write's choice
# between the two open zones differs)
both --rw=randwrite --max_open_zones=2
n=$(same "max_open_zones=2" sort) || exit 1
c=$(python3 "$CHK" "$T_TMP/n.log" $((4 * 1048576)) --minbs 65536 --max-open 2) || fail "max_open_zones=2: $c"
case $c in *resets=0*maxopen=2* | *maxopen=2*resets=0*) ;; *) fail "max_open_zones=2: $c" ;; esac
ok "randwrite max_open_zones=2: fio's $n blocks, once each, no reset, 2 zones open at most ($c)"

# 3. a job that leaves data in the zones, then (stonewall) a verify job: its
# zones are reset first (in memory, as fio's ZBD_NONE), so it writes from
# the zone starts: the same I/Os as fio's
for t in n f; do
	cat >"$T_TMP/$t.fio" <<EOF
[global]
zonemode=zbd
zonesize=4M
direct=1
ioengine=psync
bs=64k
offset=4M
size=32M
[pre]
rw=randwrite
number_ios=100
[v]
stonewall
rw=randwrite
verify=crc32c
write_iolog=$T_TMP/$t.log
EOF
done
rm -f "$T_TMP/n.log" "$T_TMP/f.log"
"$NVS_BIN" run --target "$dev" "$T_TMP/n.fio" >"$T_TMP/n.txt" 2>&1 || { cat "$T_TMP/n.txt"; fail "job file: nvscope"; }
fio --filename="$dev" "$T_TMP/f.fio" >"$T_TMP/f.txt" 2>&1 || { cat "$T_TMP/f.txt"; fail "job file: fio"; }
n=$(same "job file") || exit 1
[ "$n" = 512 ] || fail "job file: $n blocks"
ok "a verify job after one that left data: its zones reset first, fio's $n writes and read-back"

# 4. deeper queue (nvscope's io_uring): still every block once, all good
"$NVS_BIN" run --target "$dev" $Z --rw=randwrite --iodepth=8 --write_iolog="$T_TMP/n.log" \
	>"$T_TMP/n.txt" 2>&1 || { cat "$T_TMP/n.txt"; fail "iodepth=8"; }
w=$(ops "$T_TMP/n.log" write | sort -u | wc -l)
[ "$w" = 512 ] && [ "$(ops "$T_TMP/n.log" write | wc -l)" = 512 ] && grep -q "512 blocks checked, 0 bad" "$T_TMP/n.txt" ||
	fail "iodepth=8: $w distinct writes: $(tail -3 "$T_TMP/n.txt")"
ok "randwrite iodepth=8: 512 blocks written once each and checked"

# 5. a block corrupted after the write run: verify_only finds and names it
"$NVS_BIN" run --target "$dev" $Z --rw=randwrite -q >"$T_TMP/w.txt" 2>&1 || fail "write: $(cat "$T_TMP/w.txt")"
"$NVS_BIN" run --target "$dev" $Z --rw=randwrite --verify_only >"$T_TMP/v.txt" 2>&1 ||
	fail "verify_only of good data: $(cat "$T_TMP/v.txt")"
bad=$((12 * 1048576 + 5 * 65536))
dd if=/dev/urandom of="$dev" bs=512 seek=$((bad / 512 + 3)) count=1 oflag=direct conv=notrunc status=none || fail "dd"
"$NVS_BIN" run --target "$dev" $Z --rw=randwrite --verify_only >"$T_TMP/v.txt" 2>&1
rc=$?
[ $rc = 1 ] || fail "verify_only over a corrupted block: exit $rc: $(cat "$T_TMP/v.txt")"
grep -q "1 of 512 blocks bad, the first at offset $bad" "$T_TMP/v.txt" || fail "bad block not named: $(cat "$T_TMP/v.txt")"
ok "a corrupted block: verify_only exits 1 naming offset $bad"

# 6. refusals: not implemented, or fio refuses (a bs not dividing the zone)
for o in "--verify_backlog=4" "--loops=2" "--time_based --runtime=1 --zonecapacity=3M" \
	"--zone_reset_frequency=0.5" "--bs=48k"; do
	"$NVS_BIN" run --target "$dev" $Z --rw=write $o >"$T_TMP/r.txt" 2>&1
	rc=$?
	[ $rc = 2 ] || { cat "$T_TMP/r.txt"; fail "verify + zbd + $o: exit $rc, not 2"; }
done
printf '[global]\nzonemode=zbd\nzonesize=4M\nbs=64k\nsize=8M\n[j]\nrw=write\nverify=crc32c\nverify_backlog=4\n' \
	>"$T_TMP/r.fio"
"$NVS_BIN" run --target "$dev" "$T_TMP/r.fio" >"$T_TMP/r.txt" 2>&1
rc=$?
[ $rc = 2 ] && grep -q "r.fio:9: verify_backlog with zonemode=zbd is not implemented" "$T_TMP/r.txt" ||
	fail "job file verify_backlog: exit $rc: $(cat "$T_TMP/r.txt")"
ok "refused: verify_backlog (at its line), loops, time_based with zonecapacity, zone_reset_frequency, bs not dividing the zone"

# 7. fio's examples/uring-cmd-zoned.fio (io_uring_cmd on a ZNS generic
# device; fio_examples.py: the loop device lacks one) on the loop device:
# its three stonewalled verify jobs through psync on 4M emulated zones of
# 16M: both pass, each job writing and reading back the same blocks
sed -E -e '/^(ioengine|cmd_type|registerfiles|sqthread_poll|sqthread_poll_cpu|nonvectored)=/d' \
	-e "s|^filename=.*|filename=$dev|" -e 's/^size=1G/size=16M\nzonesize=4M\ndirect=1/' \
	"$NVS_TOP/tests/fixtures/fio-examples/uring-cmd-zoned.fio" >"$T_TMP/ex.fio"
grep -q '^verify=crc32c' "$T_TMP/ex.fio" && grep -q '^zonemode=zbd' "$T_TMP/ex.fio" || fail "example rewrite"
counts() {
	python3 - "$1" <<'PY'
import json, sys
t = open(sys.argv[1]).read()
d = json.loads(t[t.index("{"):])
print(" ".join("%s:%d:%d" % (j["jobname"], j["read"]["total_ios"], j["write"]["total_ios"]) for j in d["jobs"]))
PY
}
"$NVS_BIN" run "$T_TMP/ex.fio" --output-format=json --output "$T_TMP/n.json" >"$T_TMP/n.txt" 2>&1 ||
	{ cat "$T_TMP/n.txt"; fail "uring-cmd-zoned.fio (psync): nvscope"; }
fio "$T_TMP/ex.fio" --output-format=json --output "$T_TMP/f.json" >"$T_TMP/f.txt" 2>&1 ||
	{ cat "$T_TMP/f.txt"; fail "uring-cmd-zoned.fio (psync): fio"; }
n=$(counts "$T_TMP/n.json") f=$(counts "$T_TMP/f.json")
[ "$n" = "$f" ] && [ "$n" = "rand-write:64:64 write-opts:64:64 randwrite-opts:64:64" ] ||
	fail "uring-cmd-zoned.fio (psync): nvscope $n, fio $f (job:reads:writes)"
ok "fio's uring-cmd-zoned.fio through psync on emulated zones: $n in both (job:reads:writes)"

# 8. time_based: a pass of the region, its read-back, the zones reset, the
# next pass (fio's loop: do_io, do_verify, fio_file_reset); each pass's
# writes at the write pointers, every block read back good (the runtime
# may cut the last read-back short)
"$NVS_BIN" run --target "$dev" ${Z/--size=32M/--size=8M} --rw=randwrite --time_based --runtime=2 \
	--write_iolog="$T_TMP/t.log" >"$T_TMP/t.txt" 2>&1 || { cat "$T_TMP/t.txt"; fail "time_based"; }
c=$(python3 "$CHK" "$T_TMP/t.log" $((4 * 1048576)) --minbs 65536) || fail "time_based: $c"
w=$(ops "$T_TMP/t.log" write | wc -l) r=$(ops "$T_TMP/t.log" read | wc -l)
[ "$w" -ge 256 ] && [ "$r" -ge 128 ] && [ $((w - r)) -lt 256 ] && grep -q "verify: $r blocks checked, 0 bad" "$T_TMP/t.txt" ||
	fail "time_based: $w writes, $r read back: $(grep verify "$T_TMP/t.txt")"
ok "time_based: $w writes in passes of 128, $r read back and good ($c)"
