#!/bin/bash
# purge_trim.sh - `nvscope purge --method=trim` on a loop device this test
# makes: refused without (or with the wrong) confirmation and the data
# stays; with --yes-destroy-data=PATH the data is gone (reads zeros);
# NVMe-only methods and commands are refused on it; refused while mounted
# (when mkfs.ext4 is available).  Also `list` shows the loop device.
. "${NVS_TOP:-.}/tests/lib.sh"

t_loop 16M 4096
DEV=$LOOP
[ "$(cat /sys/block/"${DEV#/dev/}"/queue/discard_max_bytes 2>/dev/null)" != 0 ] ||
	skip "$DEV does not support discard here"

first_mib() { blockdev --flushbufs "$1"; dd if="$1" bs=1M count=1 iflag=direct 2>/dev/null; }
t_pattern "$DEV" 16 || fail "cannot write $DEV"
first_mib "$DEV" >"$T_TMP/before"
cmp -s -n 1048576 "$T_TMP/before" /dev/zero && fail "pattern not written"

"$NVS_BIN" purge "$DEV" --method=trim >"$T_TMP/out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "trim without confirmation: exit $rc, wanted 2"
grep -q -- "--yes-destroy-data=$DEV" "$T_TMP/out" || fail "refusal does not say how to confirm: $(cat "$T_TMP/out")"
"$NVS_BIN" purge "$DEV" --method=trim --yes-destroy-data=/dev/loop999 >/dev/null 2>&1
rc=$?
[ $rc -eq 2 ] || fail "trim with the wrong path: exit $rc, wanted 2"
first_mib "$DEV" | cmp -s - "$T_TMP/before" || fail "a refused trim changed the data"
ok "refused without the right confirmation, data intact"

"$NVS_BIN" purge "$DEV" --method=format --yes-destroy-data="$DEV" >"$T_TMP/out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "format on a loop device: exit $rc, wanted 2"
grep -q "needs an NVMe device" "$T_TMP/out" || fail "format refusal: $(cat "$T_TMP/out")"
"$NVS_BIN" purge "$DEV" --method=bogus --yes-destroy-data="$DEV" >/dev/null 2>&1
[ $? -eq 2 ] || fail "unknown method accepted"
"$NVS_BIN" health "$DEV" >"$T_TMP/out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "health on a loop device: exit $rc, wanted 2"
grep -q "not an NVMe device" "$T_TMP/out" || fail "health message: $(cat "$T_TMP/out")"
first_mib "$DEV" | cmp -s - "$T_TMP/before" || fail "a refused command changed the data"
ok "NVMe-only methods and commands refused on $DEV"

"$NVS_BIN" purge "$DEV" --method=trim --yes-destroy-data="$DEV" >"$T_TMP/out" 2>&1 ||
	fail "trim with confirmation failed: $(cat "$T_TMP/out")"
blockdev --flushbufs "$DEV"
cmp -s -n $((16 << 20)) "$DEV" /dev/zero || fail "$DEV does not read zeros after the trim"
ok "trim with confirmation: the whole device reads zeros"

"$NVS_BIN" list --json >"$T_TMP/list.json" || fail "list --json"
grep -q "\"path\":[[:space:]]*\"$DEV\"" "$T_TMP/list.json" || fail "list does not show $DEV"
"$NVS_BIN" list >"$T_TMP/list.txt" || fail "list"
grep -q "^$DEV .*loop .*16.78 MB .*4096" "$T_TMP/list.txt" || fail "table row for $DEV: $(grep "$DEV" "$T_TMP/list.txt")"
ok "list shows $DEV (16 MiB, LBA 4096)"

# optional: refused while mounted
if command -v mkfs.ext4 >/dev/null; then
	t_loop 16M
	M=$LOOP
	mkfs.ext4 -q "$M" >/dev/null 2>&1 || skip "mkfs.ext4 failed"
	mkdir -p "$T_TMP/mnt"
	mount "$M" "$T_TMP/mnt" 2>/dev/null || { ok "cannot mount here: mounted case not tested"; exit 0; }
	"$NVS_BIN" purge "$M" --method=trim --yes-destroy-data="$M" >"$T_TMP/out" 2>&1
	rc=$?
	umount "$T_TMP/mnt"
	[ $rc -eq 2 ] || fail "trim of a mounted device: exit $rc, wanted 2"
	grep -q "in use" "$T_TMP/out" || fail "mounted refusal: $(cat "$T_TMP/out")"
	ok "refused while mounted"
fi
exit 0
