#!/bin/bash
# console_destroy.sh - the console's write-safety rule (docs/safety.md,
# issue 8 item 16): a write on a block device asks for its typed token (the
# path; an NVMe device's serial) in one dialog, Esc or a wrong token writes
# nothing; a device holding a filesystem is refused however the token is
# typed, unless the console was started with --force-destroy; every
# override is written to the run's events.log; the Custom form needs an
# explicitly marked target.
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
command -v blkid >/dev/null || skip "no blkid"
writes() { awk '{print $5}' "/sys/block/${1#/dev/}/stat"; }

# 1. a filesystem: refused, no dialog, the typed token is no override
t_loop 64M
F=$LOOP
mkfs.ext4 -q -F "$F" || skip "mkfs.ext4 failed"
has_fs() { blkid -p "$1" 2>/dev/null | grep -q 'TYPE="ext4"'; }
has_fs "$F" || fail "no ext4 signature after mkfs"
u_start 170 40 "$NVS_BIN" --target "$F" --rw=randwrite --runtime=30 --time_based \
	--results "$T_TMP/res1"
u_wait "refused: $F holds an ext4 filesystem: the typed confirmation does not override" 10
u_screen | grep -q "Type .* to DESTROY" && fail "a dialog was opened over a filesystem"
u_keys q
u_restored
has_fs "$F" || fail "the filesystem was touched"
[ -e "$T_TMP/res1" ] && fail "a refused run made its results directory"
ok "a filesystem is refused, the message names the override"

# 2. a blank block device: the typed token, one dialog
t_loop 64M
B=$LOOP
w0=$(writes "$B")
u_start 170 40 "$NVS_BIN" --target "$B" --rw=randwrite --runtime=30 --time_based \
	--results "$T_TMP/res2"
u_wait "Type $B to DESTROY the data on $B" 10
u_keys Escape
u_wait 'not confirmed: nothing written' 5
u_scanned 10     # a writing preset waits for its target's probe
u_keys Tab 4 4   # presets: 4k-randread, then 4k-randwrite
u_keys Enter
u_wait "Type $B to DESTROY the data on $B" 10
u_text "/dev/loopX"
u_keys Enter
u_wait 'not confirmed: nothing written' 5
[ "$(writes "$B")" = "$w0" ] || fail "Esc or a wrong token wrote to $B"
ok "a write preset on a blank device asks for the token; Esc and a wrong one write nothing"
u_keys Enter
u_wait "Type $B to DESTROY" 10
u_text "$B"
u_keys Enter
u_wait 'RUNNING 4k-randwrite' 10
u_wait 'IOPS \(linear\) +now [1-9]' 10
u_keys s
u_wait 'STOPPED 4k-randwrite' 15 # stopped before its end: not DONE
u_keys q
u_restored
[ "$(writes "$B")" != "$w0" ] || fail "the confirmed run did not write"
grep -q "override: typed confirmation $B for $B" "$T_TMP/res2/events.log" ||
	fail "events.log does not record the confirmation: $(cat "$T_TMP/res2/events.log")"
ok "the typed token starts it and is logged"

# 3. --force-destroy on the command line: the filesystem is overwritten
# after the token, and both overrides are logged
mkfs.ext4 -q -F "$B" || fail "mkfs.ext4"
# sequential from offset 0: its first write covers the superblock, whatever
# the machine's speed (random writes hit it only by chance)
u_start 170 40 "$NVS_BIN" --target "$B" --rw=write --runtime=2 --time_based \
	--force-destroy --results "$T_TMP/res3"
u_wait "Type $B to DESTROY the data on $B" 10
u_text "$B"
u_keys Enter
u_wait 'DONE' 20
u_keys q
u_restored
has_fs "$B" && fail "the forced run did not write"
grep -q "override: --force-destroy: $B holds an ext4 filesystem" "$T_TMP/res3/events.log" ||
	fail "events.log: $(cat "$T_TMP/res3/events.log")"
grep -q "override: typed confirmation $B" "$T_TMP/res3/events.log" || fail "no confirmation logged"
ok "--force-destroy: written after the token, both overrides logged"

# 4. the Custom form runs only on a marked target, never under the cursor
u_start 170 40 "$NVS_BIN" --no-settings --results "$T_TMP/res4" # not the targets marked last time
u_wait 'Custom workload' 10
u_keys Tab Tab
u_wait '\[Custom workload\]' 5
u_keys r
u_wait 'mark a target first' 5
u_screen | grep -q 'RUNNING custom' && fail "the form ran without a marked target"
u_keys q
u_restored
ok "the Custom form needs a marked target"
