#!/bin/bash
# safety_toctou.sh - no window between the check and the write (issue 8
# item 5): nvscope takes the exclusive claim first and probes through the
# held descriptor.  Another program holds the blank device exclusively,
# writes an ext4 filesystem on it and lets go while nvscope waits for the
# claim: nvscope must see the filesystem and refuse (the old order probed
# once, then waited for the claim and wrote over it).  And while nvscope
# writes, mkfs cannot claim the device.
. "${NVS_TOP:-.}/tests/lib.sh"
command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
command -v python3 >/dev/null || skip "no python3"
command -v blkid >/dev/null || skip "no blkid"
t_loop 32M
dev=$LOOP
fs=$T_TMP/fs.img
truncate -s 32M "$fs"
mkfs.ext4 -q -F "$fs" || fail "mkfs.ext4"
python3 - "$dev" "$fs" "$T_TMP/held" <<'PY' &
import os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_EXCL)
open(sys.argv[3], "w").close()
time.sleep(0.7)
with open(sys.argv[2], "rb") as f:
    data = f.read()
os.pwrite(fd, data, 0)
os.fsync(fd)
time.sleep(0.3)
os.close(fd)
PY
holder=$!
for _ in $(seq 50); do [ -e "$T_TMP/held" ] && break; t_nap 0.1; done
[ -e "$T_TMP/held" ] || fail "the holder did not start"
"$NVS_BIN" run --target "$dev" --rw=write --runtime=1 --time_based -q >/dev/null 2>"$T_TMP/e"
rc=$?
wait $holder || fail "the holder failed"
[ $rc -eq 2 ] || fail "exit $rc, wanted 2 (the filesystem made while waiting was not seen): $(cat "$T_TMP/e")"
grep -q "ext4" "$T_TMP/e" || fail "refusal does not name ext4: $(cat "$T_TMP/e")"
blkid -p "$dev" 2>/dev/null | grep -q 'TYPE="ext4"' || fail "the filesystem was overwritten"
ok "a filesystem made while waiting for the claim is seen and kept"

# the claim is held for the whole run: mkfs cannot take the device
t_loop 32M
"$NVS_BIN" run --target "$LOOP" --rw=randwrite --runtime=4 --time_based -q >/dev/null &
run=$!
sleep 1.5
mkfs.ext4 -q -F "$LOOP" >"$T_TMP/mkfs" 2>&1 && mkfs_rc=0 || mkfs_rc=$?
wait $run || fail "the run failed"
[ $mkfs_rc -ne 0 ] || fail "mkfs.ext4 could claim the device during the run"
ok "the exclusive claim is held while writing (mkfs refused: $(head -c 80 "$T_TMP/mkfs"))"
