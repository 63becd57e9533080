#!/bin/bash
# safety_ambivalent.sh - an ambivalent libblkid probe counts as data (issue 8
# item 4): a clean vfat with a stale iso9660 magic ("CD001" at 32769) is
# refused without --force-destroy, on a loop device and as an image file,
# with a message naming both signatures; nothing is written (the loop
# device's write counter and the file's checksum stay); `list` marks it
# from the same code; --force-destroy writes.
. "${NVS_TOP:-.}/tests/lib.sh"
command -v mkfs.vfat >/dev/null || skip "no mkfs.vfat (dosfstools)"
writes() { awk '{print $5}' "/sys/block/${1#/dev/}/stat"; }
ambivalent() { # TARGET: vfat + a stale iso9660 primary volume descriptor magic
	mkfs.vfat "$1" >/dev/null || fail "mkfs.vfat $1"
	printf '\001CD001' | dd of="$1" bs=1 seek=32768 conv=notrunc status=none ||
		fail "dd to $1"
	sync
}
t_loop 64M
ambivalent "$LOOP"
blkid -p "$LOOP" 2>&1 | grep -q ambivalent || skip "blkid does not call it ambivalent here"
w0=$(writes "$LOOP")
"$NVS_BIN" run --target "$LOOP" --rw=randwrite --runtime=1 --time_based -q 2>"$T_TMP/e"
rc=$?
[ $rc -eq 2 ] || fail "ambivalent loop: exit $rc: $(cat "$T_TMP/e")"
grep -q "ambivalent signatures (.*vfat" "$T_TMP/e" || fail "message: $(cat "$T_TMP/e")"
grep -q "iso9660" "$T_TMP/e" || fail "message does not name iso9660: $(cat "$T_TMP/e")"
grep -q -- "--force-destroy" "$T_TMP/e" || fail "message does not name the override"
"$NVS_BIN" purge "$LOOP" --method=trim --yes-destroy-data="$LOOP" --quiet 2>"$T_TMP/e"
rc=$?
[ $rc -eq 2 ] || fail "purge of the ambivalent loop: exit $rc: $(cat "$T_TMP/e")"
[ "$(writes "$LOOP")" = "$w0" ] || fail "a refusal wrote to $LOOP"
ok "ambivalent loop device: refused, naming vfat and iso9660, nothing written"

"$NVS_BIN" list --json >"$T_TMP/l.json" || fail "list --json"
python3 - "$T_TMP/l.json" "$LOOP" <<'PY' || fail "list does not mark $LOOP as holding data"
import json, sys
d = json.load(open(sys.argv[1]))
def walk(o):
    if isinstance(o, dict):
        if o.get("path") == sys.argv[2]:
            u = o.get("in_use") or o.get("usage") or {}
            sys.exit(0 if u.get("ambivalent") and u.get("any") else 1)
        for v in o.values(): walk(v)
    elif isinstance(o, list):
        for v in o: walk(v)
walk(d)
sys.exit(1)
PY
ok "list marks it (same code as the refusal)"

img=$T_TMP/amb.img
truncate -s 32M "$img"
ambivalent "$img"
sum=$(md5sum <"$img")
"$NVS_BIN" run --target "$img" --rw=randwrite --runtime=1 --time_based -q 2>"$T_TMP/e"
rc=$?
[ $rc -eq 2 ] || fail "ambivalent image file: exit $rc: $(cat "$T_TMP/e")"
grep -q "ambivalent" "$T_TMP/e" || fail "message: $(cat "$T_TMP/e")"
[ "$(md5sum <"$img")" = "$sum" ] || fail "the refusal changed the image"
ok "ambivalent image file: refused, unchanged"

"$NVS_BIN" run --target "$LOOP" --rw=randwrite --runtime=1 --time_based -q --force-destroy \
	>/dev/null 2>"$T_TMP/e" || fail "--force-destroy: $(cat "$T_TMP/e")"
[ "$(writes "$LOOP")" != "$w0" ] || fail "the forced run wrote nothing"
ok "--force-destroy overrides it"
