#!/bin/bash
# fio's fdp=1 and atomic=1 on the host (issue 13): what a loop device can
# show.  It has no atomic write unit (queue/atomic_write_unit_max_bytes 0)
# and no NVMe: atomic=1 is refused naming the unit, fdp=1 naming the engine
# or the device, before any I/O -- and the safety rule comes first: over a
# file system nothing is written, with or without these options.  (The
# device side, QEMU's FDP and atomic write unit, is make check-vm's fdp
# boot, tests/vm/guest-fdp.sh.)
. "$(dirname "$0")/../lib.sh"
command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
t_loop 64M
dev=$LOOP
max=/sys/class/block/${dev#/dev/}/queue/atomic_write_unit_max_bytes
[ -e "$max" ] || skip "this kernel reports no atomic write unit (Linux 6.11+)"
[ "$(cat "$max")" = 0 ] || skip "this loop device has an atomic write unit ($(cat "$max"))"
mkfs.ext4 -q -F "$dev" || fail "mkfs"
sum0=$(md5sum <"$dev")
same() { [ "$(md5sum <"$dev")" = "$sum0" ] || fail "$1: $dev changed"; }
run() { "$NVS_BIN" run --target "$dev" --runtime=1 --time_based "$@" >"$T_TMP/o" 2>"$T_TMP/e"; }

# SAFETY first: a write with atomic=1 over the file system is refused by
# the safety rule, and nothing is written
run --rw=randwrite --bs=4k --direct=1 --atomic=1
[ $? = 2 ] && grep -q "ext4" "$T_TMP/e" || fail "atomic write over ext4: $(cat "$T_TMP/e")"
same "refused atomic write"
ok "atomic=1 over ext4: refused by the safety rule, nothing written"
run --rw=randwrite --bs=4k --fdp=1 --ioengine=io_uring_cmd
[ $? = 2 ] || fail "fdp write over ext4: $(cat "$T_TMP/e")"
same "refused fdp write"
ok "fdp=1 over ext4 refused, nothing written: $(head -1 "$T_TMP/e")"
# past the safety rule (--force-destroy): no atomic write unit, refused
# before any I/O, the file system intact
run --rw=randwrite --bs=4k --direct=1 --atomic=1 --force-destroy
[ $? = 2 ] || fail "atomic=1 on a device without atomic writes: exit $?"
grep -q "atomic=1: refused: the device has no atomic write support (atomic_write_unit_max_bytes is 0); nothing was written" "$T_TMP/e" ||
	fail "refusal: $(cat "$T_TMP/e")"
same "atomic=1 without a unit"
ok "atomic=1 refused: $(cat "$T_TMP/e")"
run --rw=randwrite --bs=4k --direct=0 --atomic=1 --force-destroy
[ $? = 2 ] && grep -q "need direct=1" "$T_TMP/e" || fail "buffered atomic: $(cat "$T_TMP/e")"
run --rw=randwrite --bs=4k --atomic=1 --ioengine=io_uring_cmd --force-destroy
[ $? = 2 ] && grep -q "io_uring_cmd does not support atomic writes" "$T_TMP/e" ||
	fail "passthrough atomic: $(cat "$T_TMP/e")"
run --rw=randread --bs=4k --direct=1 --atomic=1 -q
[ $? = 0 ] || fail "atomic=1 on a read job (fio: off): $(cat "$T_TMP/e")"
ok "atomic=1: buffered and passthrough refused as fio does, ignored without writes"
run --rw=randwrite --bs=4k --fdp=1 --force-destroy
[ $? = 2 ] && grep -q "needs ioengine=io_uring_cmd" "$T_TMP/e" || fail "fdp on io_uring: $(cat "$T_TMP/e")"
run --rw=randwrite --bs=4k --fdp=1 --ioengine=io_uring_cmd --force-destroy
[ $? = 2 ] && grep -q "needs an NVMe generic device" "$T_TMP/e" || fail "fdp on a loop device: $(cat "$T_TMP/e")"
same "refused fdp"
ok "fdp=1 refused on io_uring and on a device that is not NVMe"
# a fio job file: fdp=1 with fio's default engine is refused at its line
printf '[global]\nrw=randwrite\nsize=2M\nbs=4K\nfdp=1\nfdp_pli=4,5\n\n[default]\n' >"$T_TMP/x.fio"
"$NVS_BIN" run "$T_TMP/x.fio" --target "$dev" --force-destroy >/dev/null 2>"$T_TMP/e"
[ $? = 2 ] && grep -q "x.fio:5: fdp: an option of ioengine=io_uring_cmd" "$T_TMP/e" ||
	fail "job file fdp: $(cat "$T_TMP/e")"
ok "job file: $(cat "$T_TMP/e")"
# atomic=1 on a regular file: refused, the file unchanged
head -c 1M /dev/urandom >"$T_TMP/f"
f0=$(md5sum <"$T_TMP/f")
"$NVS_BIN" run --target "$T_TMP/f" --rw=write --bs=4k --direct=1 --atomic=1 --force-destroy \
	>/dev/null 2>"$T_TMP/e"
[ $? = 2 ] && [ "$(md5sum <"$T_TMP/f")" = "$f0" ] || fail "atomic on a file: $(cat "$T_TMP/e")"
ok "atomic=1 on a file refused, unchanged"
