#!/bin/bash
# Writes are refused on a device with a filesystem (unless --force-destroy)
# and always refused on a mounted one; reads are always allowed.
. "$(dirname "$0")/../lib.sh"
command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
t_loop 64M
dev=$LOOP
mkfs.ext4 -q -F "$dev" || fail "mkfs"
"$NVS_BIN" run --target "$dev" --rw=randwrite --runtime=1 --time_based 2>"$T_TMP/e"
rc=$?
[ $rc -eq 2 ] || fail "write over ext4 exited $rc: $(cat "$T_TMP/e")"
grep -q "ext4" "$T_TMP/e" || fail "refusal does not name the filesystem: $(cat "$T_TMP/e")"
grep -q "force-destroy" "$T_TMP/e" || fail "refusal does not name the override"
ok "refused over ext4"
"$NVS_BIN" run --target "$dev" --rw=randread --runtime=1 --time_based -q >/dev/null ||
	fail "read refused"
ok "read allowed"
mkdir -p "$T_TMP/mnt"
if mount "$dev" "$T_TMP/mnt" 2>/dev/null; then
	"$NVS_BIN" run --target "$dev" --rw=randwrite --runtime=1 --time_based --force-destroy \
		2>"$T_TMP/e"
	rc=$?
	umount "$T_TMP/mnt"
	[ $rc -eq 2 ] || fail "write to mounted device exited $rc"
	grep -q "mounted" "$T_TMP/e" || fail "no 'mounted' in: $(cat "$T_TMP/e")"
	ok "refused while mounted, even with --force-destroy"
fi
"$NVS_BIN" run --target "$dev" --rw=randwrite --runtime=1 --time_based --force-destroy -q \
	>/dev/null || fail "--force-destroy did not allow the write"
ok "--force-destroy overrides the signature check"
# two writers on one device: the second is refused (O_EXCL, after waiting up
# to 3 s for a claim to go away), the first runs
t_loop 32M
"$NVS_BIN" run --target "$LOOP" --rw=randwrite --runtime=7 --time_based -q >/dev/null &
first=$!
sleep 1
"$NVS_BIN" run --target "$LOOP" --rw=randwrite --runtime=1 --time_based -q 2>"$T_TMP/e" >/dev/null
rc=$?
wait $first || fail "first writer failed"
[ $rc -eq 2 ] || fail "second writer exited $rc: $(cat "$T_TMP/e")"
grep -q "exclusively" "$T_TMP/e" || fail "no reason given: $(cat "$T_TMP/e")"
ok "a second writer on the same device is refused"
