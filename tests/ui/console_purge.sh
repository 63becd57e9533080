#!/bin/bash
# console_purge.sh - purge from the console (issue 9): `P` on a Devices row
# opens the menu; on a loop device Format and Sanitize are greyed "not NVMe"
# and only Trim can be chosen; it asks for the typed token (the path) in the
# destroy dialog, a wrong token erases nothing, a device holding a
# filesystem is refused however the token is typed unless the console was
# started with --force-destroy, and the right token trims the whole device
# (the kernel's discard count, /sys/block/loopN/stat field 12, grows); the
# result is an event and the Devices pane is rescanned.
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
command -v mkfs.ext2 >/dev/null || skip "no mkfs.ext2"
command -v blkid >/dev/null || skip "no blkid"
discards() { awk '{print $12}' "/sys/block/${1#/dev/}/stat"; }
has_fs() { blkid -p "$1" 2>/dev/null | grep -q 'TYPE="ext2"'; }

t_loop 64M
L=$LOOP
[ "$(cat "/sys/block/${L#/dev/}/queue/discard_max_bytes")" -gt 0 ] || skip "$L has no discard"
d0=$(discards "$L")

# 1. the menu: Format / Sanitize greyed "not NVMe", Trim chosen, the token asked
u_start 170 40 "$NVS_BIN" --no-settings --target "$L" --results "$T_TMP/res1"
u_scanned 10
u_keys P
u_wait "Purge $L: DESTROYS DATA" 5
for m in 'Format NVM, no secure erase' 'Format NVM, user-data erase' \
	'Format NVM, cryptographic erase' 'Sanitize, block erase' 'Sanitize, crypto erase' \
	'Sanitize, overwrite'; do
	u_screen | grep -Eq -- "$m +- not NVMe" || { u_screen >&2; fail "'$m' not greyed as not NVMe"; }
done
u_screen | grep -q '> Trim (deallocate every LBA)' || fail "Trim is not the choice"
u_keys k # up: the greyed ones cannot be selected
u_screen | grep -q '> Trim (deallocate every LBA)' || fail "the cursor moved onto a greyed method"
ok "the menu greys Format and Sanitize on a loop device with the reason, Trim selectable"
u_keys Escape
u_wait 'Space mark' 5
u_keys P
u_wait "Purge $L" 5
u_keys Enter
u_wait "Type $L to DESTROY the data on $L" 5
u_screen | grep -q 'THIS PURGE DESTROYS DATA' || fail "no purge dialog"
u_text "/dev/loopX"
u_keys Enter
u_wait "purge not confirmed: nothing erased on $L" 5
sleep 0.5
[ "$(discards "$L")" = "$d0" ] || fail "a wrong token discarded"
ok "the typed path is asked; a wrong one erases nothing"

# 2. the right token: trimmed, an event, the kernel counted discards
u_keys P
u_wait "Purge $L" 5
u_keys Enter
u_wait "Type $L to DESTROY" 5
u_text "$L"
u_keys Enter
u_wait "purge: trim of $L done" 20
d1=$(discards "$L")
[ "$d1" -gt "$d0" ] || fail "no discard counted ($d0 -> $d1)"
u_keys E
u_wait "override: typed confirmation $L for $L" 5
u_keys E
ok "the right token trims: discards $d0 -> $d1, the event shown"

# 3. a filesystem: refused before any dialog, nothing discarded
mkfs.ext2 -q -F "$L" || fail "mkfs.ext2"
has_fs "$L" || fail "no ext2 signature"
u_keys r
u_wait "$(basename "$L") .*ext2" 10
d2=$(discards "$L")
u_keys P
u_wait "holds data .*--force-destroy" 5
u_keys Enter
u_wait "purge refused: $L holds an ext2 filesystem: the typed confirmation does not override" 5
u_screen | grep -q "Type .* to DESTROY" && fail "a dialog was opened over a filesystem"
sleep 0.5
[ "$(discards "$L")" = "$d2" ] || fail "a refused purge discarded"
has_fs "$L" || fail "the filesystem was touched"
u_keys q
u_restored
u_screen | grep -q 'NVS-EXIT 0' || fail "exit status not 0 (a sanitizer report?)"
ok "a filesystem is refused without --force-destroy, no dialog"

# 4. --force-destroy: after the token the filesystem is trimmed away, the
# override shown as an event, the Devices pane rescanned
u_start 170 40 "$NVS_BIN" --no-settings --target "$L" --force-destroy --results "$T_TMP/res4"
u_wait "$(basename "$L") .*ext2" 10
u_keys P
u_wait "Purge $L" 5
u_keys Enter
u_wait "Type $L to DESTROY" 5
u_text "$L"
u_keys Enter
u_wait "purge: trim of $L done" 20
has_fs "$L" && fail "the forced trim left the filesystem"
u_gone "$(basename "$L") .*ext2" 10 # the rescan runs on its own thread
u_keys E
u_wait "override: --force-destroy: $L holds an ext2 filesystem" 5
u_keys E q
u_restored
u_screen | grep -q 'NVS-EXIT 0' || fail "exit status not 0 (a sanitizer report?)"
ok "--force-destroy: trimmed after the token, override shown, devices rescanned"

# 5. the key is in the help (generated from the key table)
u_start 170 40 "$NVS_BIN" --no-settings
u_wait 'Devices' 10
u_keys '?'
u_wait 'P +Devices: purge' 5
u_keys x
sleep 0.3
u_keys q
u_restored
u_screen | grep -q 'NVS-EXIT 0' || fail "exit status not 0 (a sanitizer report?)"
ok "the purge key is in the help"
