#!/bin/bash
# safety_identity.sh - in use by identity, not by name (issue 20, cause 1;
# docs/safety.md "Rule: in use by identity").  The loop devices' backing is
# what LOOP_GET_STATUS64 says (device, inode, offset, size), never the path
# string sysfs shows.  Each case must be refused with exit 2, also with
# --force-destroy, the device's write counters (/sys/block/X/stat fields
# 5-7) unchanged and the mounted filesystem still clean:
#   1. a backing file whose name holds a newline;
#   2. a backing file whose original name was deleted (a hard link remains);
#   3. two loop devices over one image at overlapping offsets, one mounted:
#      the other is refused; over a non-overlapping range it is written;
#   3b. a loop device over the mounted loop device: refused (what it maps
#      is mounted);
#   4. a loop device over a loop device that is mounted: the devices under
#      it (backing a device in use, two deep) refused.
. "${NVS_TOP:-.}/tests/lib.sh"
command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
[ "$(id -u)" -eq 0 ] || skip "loop devices need root"
MNTS=()
cleanup_mnts() {
	local m
	for m in "${MNTS[@]}"; do umount "$m" 2>/dev/null; done
	t_cleanup
}
trap cleanup_mnts EXIT
sum() { md5sum <"$1" | cut -d' ' -f1; }
# writes DEV: fields 5-7 of its stat (writes, merged, sectors)
writes() { awk '{print $5, $6, $7}' "/sys/block/${1#/dev/}/stat"; }
# attach FILE [losetup options]: a loop device of the test's own into LD
attach() {
	LD=$(losetup -f --show "$@") || fail "losetup $*"
	t_own_loop "$LD"
}
# mnt DEV NAME: mounts DEV on $T_TMP/NAME, unmounted on exit.  Read-only
# (and no journal replay): mounted is mounted for the rule, and the
# filesystem's own writes (ext4 commits every 5 s) would move the write
# counters this test reads as its referee (seen under TSan)
mnt() {
	mkdir -p "$T_TMP/$2"
	mount -o ro,noload "$1" "$T_TMP/$2" || fail "mount $1"
	MNTS+=("$T_TMP/$2")
}
# refused TARGET MSG: a write to TARGET, plain and forced, exits 2 with MSG
# and writes nothing (by sum of a file or the device's write counter)
refused() {
	local t=$1 want=$2 f before rc
	for f in "" --force-destroy; do
		if [ -b "$t" ]; then before=$(writes "$t"); else before=$(sum "$t"); fi
		"$NVS_BIN" run --target "$t" --rw=write --bs=4k --size=1m --runtime=200ms \
			--direct=0 -q $f >"$T_TMP/out" 2>&1
		rc=$?
		[ $rc -eq 2 ] || fail "write to $t ${f:-unforced}: exit $rc, wanted 2: $(cat "$T_TMP/out")"
		grep -Eq "$want" "$T_TMP/out" || fail "no '$want' in: $(cat "$T_TMP/out")"
		if [ -b "$t" ]; then
			[ "$(writes "$t")" = "$before" ] || fail "$t was written ${f:-unforced}"
		else
			[ "$(sum "$t")" = "$before" ] || fail "$t was written ${f:-unforced}"
		fi
	done
}
mkext4() { mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$@" >/dev/null || fail "mkfs.ext4 $*"; }

# 1. a newline in the backing file's name: sysfs shows a string that names
# another file (or none); the inode is the kernel's
nl=$T_TMP/$'img\nx'
truncate -s 8M "$nl"
attach "$nl"
: >"$T_TMP/img"   # what the first line of the sysfs string names
refused "$nl" "in use: the backing file of $LD"
ok "1. a backing file with a newline in its name is in use"

# 2. the original name deleted, a hard link left: sysfs says "(deleted)"
orig=$T_TMP/orig.img
truncate -s 8M "$orig"
attach "$orig"
ln "$orig" "$T_TMP/link.img"
rm "$orig"
grep -q deleted "/sys/block/${LD#/dev/}/loop/backing_file" || fail "sysfs does not say deleted"
refused "$T_TMP/link.img" "in use: the backing file of $LD"
ok "2. the hard link of a deleted backing file is in use"

# 3. one image, two loop devices: A maps [0, 16M) and is mounted, B maps
# [8M, 24M) (overlapping A), C maps [16M, 32M) (not overlapping)
img=$T_TMP/two.img
truncate -s 32M "$img"
attach --sizelimit 16M "$img"
A=$LD
mkext4 "$A"
mnt "$A" a
attach --offset 8M --sizelimit 16M "$img"
B=$LD
attach --offset 16M "$img"
C=$LD
refused "$B" "in use: $A maps the same bytes of its backing file and is mounted"
"$NVS_BIN" run --target "$C" --rw=write --bs=4k --size=1m --runtime=200ms --direct=0 -q \
	>"$T_TMP/out" 2>&1 || fail "the non-overlapping $C refused: $(cat "$T_TMP/out")"
ok "3. overlapping a mounted loop device's range: refused; another range: written"
# 3b. a loop device over the mounted one: it maps a device in use
attach "$A"
refused "$LD" "in use: $LD maps device [0-9]+:[0-9]+, which is mounted"
ok "3b. a loop device over a mounted loop device is in use"

# 4. a loop device over a loop device: L2 over L1, L2 mounted; L1 backs a
# device in use, so writing L1 (or L0 under it) writes L2's filesystem
truncate -s 16M "$T_TMP/stack.img"
attach "$T_TMP/stack.img"
L0=$LD
attach "$L0"
L1=$LD
attach "$L1"
L2=$LD
mkext4 "$L2"
mnt "$L2" l2
refused "$L1" "in use: the backing device of $L2, which is mounted"
refused "$L0" "in use: the backing device of $L1, which is the backing device of $L2"
ok "4. the devices under a mounted loop device are in use (stacked two deep)"

# the mounted filesystems are untouched
for m in "${MNTS[@]}"; do umount "$m" || fail "umount $m"; done
MNTS=()
fsck.ext4 -n -f "$A" >"$T_TMP/fsck" 2>&1 || fail "fsck $A: $(cat "$T_TMP/fsck")"
fsck.ext4 -n -f "$L2" >"$T_TMP/fsck" 2>&1 || fail "fsck $L2: $(cat "$T_TMP/fsck")"
ok "the mounted filesystems check clean"
