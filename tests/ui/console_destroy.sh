#!/bin/bash
# console_destroy.sh - the write-safety confirmation: a workload that writes
# to a device holding a filesystem asks for the device path to be typed;
# Esc or a wrong path writes nothing, the right path starts the run.
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
command -v blkid >/dev/null || skip "no blkid"
t_loop 64M
mkfs.ext4 -q -F "$LOOP" || skip "mkfs.ext4 failed"
has_fs() { blkid -p "$LOOP" 2>/dev/null | grep -q 'TYPE="ext4"'; }
has_fs || fail "no ext4 signature after mkfs"

# options on the command line start at once: the confirmation comes first
u_start 120 40 "$NVS_BIN" --target "$LOOP" --rw=randwrite --runtime=30 --time_based \
	--results "$T_TMP/res"
u_wait "Type $LOOP to DESTROY" 10
u_keys Escape
u_wait 'not confirmed: nothing written' 5
has_fs || fail "Esc: the filesystem was touched"
ok "Esc cancels"

# a wrong path is not a confirmation
u_keys Tab 4 4   # presets: 4k-randread, then 4k-randwrite
u_keys Enter
u_wait "Type $LOOP to DESTROY" 10
u_text "/dev/loopX"
u_keys Enter
u_wait 'not confirmed: nothing written' 5
has_fs || fail "wrong path: the filesystem was touched"
ok "a wrong path is refused"

# the right path runs it
u_keys Enter
u_wait "Type $LOOP to DESTROY" 10
u_text "$LOOP"
u_keys Enter
u_wait 'RUNNING 4k-randwrite' 10
u_wait 'IOPS \(linear\) +now [1-9]' 10
u_screen | grep -Eq ' W +[1-9][0-9.]*k? ' || fail "no write IOPS shown"
u_keys s
u_wait 'DONE 4k-randwrite' 15
has_fs && fail "confirmed run did not write"
u_keys q
u_restored
ok "typed path confirms"
