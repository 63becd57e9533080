#!/bin/bash
# safety_files.sh - regular-file targets under the write-safety rule
# (docs/safety.md, issue 8 item 2): an image file holding a filesystem is
# written (or trimmed) only with --force-destroy; the backing file of an
# attached loop device (also reached through a hard link) is never written
# nor trimmed, not even with --force-destroy; reads stay allowed.  Every
# refusal exits 2 and leaves the file's checksum unchanged.
. "${NVS_TOP:-.}/tests/lib.sh"
command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
[ "$(id -u)" -eq 0 ] || skip "loop devices need root"
sum() { md5sum <"$1" | cut -d' ' -f1; }
# refused RC MSG CMD...: runs CMD, wants exit 2 and MSG (a regex) on stderr
refused() {
	local want=$1
	shift
	"$@" >"$T_TMP/out" 2>&1
	local rc=$?
	[ $rc -eq 2 ] || fail "exit $rc, wanted 2: $* -> $(cat "$T_TMP/out")"
	grep -Eq "$want" "$T_TMP/out" || fail "no '$want' in: $(cat "$T_TMP/out")"
	[ "$(wc -l <"$T_TMP/out")" -eq 1 ] || fail "not one line: $(cat "$T_TMP/out")"
}
W=(--rw=randwrite --runtime=1 --time_based -q)

# an unattached ext4 image file
img=$T_TMP/ext4.img
truncate -s 32M "$img"
mkfs.ext4 -q -F "$img" || fail "mkfs.ext4"
before=$(sum "$img")
refused "holds an ext4 filesystem.*--force-destroy" "$NVS_BIN" run --target "$img" "${W[@]}"
refused "ext4.*--force-destroy" "$NVS_BIN" purge "$img" --method=trim --yes-destroy-data="$img"
[ "$(sum "$img")" = "$before" ] || fail "a refusal changed $img"
"$NVS_BIN" run --target "$img" --rw=randread --runtime=1 --time_based -q >/dev/null ||
	fail "read of the image refused"
ok "ext4 image file: write and trim refused without --force-destroy, read allowed"
# a job file is no override: force_destroy is a command-line option only
printf '[global]\nforce_destroy=1\n[w]\nrw=randwrite\nruntime=1\ntime_based=1\n' >"$T_TMP/f.fio"
refused "force_destroy: only --force-destroy on the command line" \
	"$NVS_BIN" run --job "$T_TMP/f.fio" --target "$img" -q
[ "$(sum "$img")" = "$before" ] || fail "the job file's force_destroy changed $img"
ok "force_destroy in a job file is refused"
"$NVS_BIN" purge "$img" --method=trim --yes-destroy-data="$img" --force-destroy --quiet \
	>"$T_TMP/out" 2>&1 || fail "trim with --force-destroy: $(cat "$T_TMP/out")"
mkfs.ext4 -q -F "$img" || fail "mkfs.ext4"
"$NVS_BIN" run --target "$img" "${W[@]}" --force-destroy >/dev/null 2>"$T_TMP/out" ||
	fail "write with --force-destroy: $(cat "$T_TMP/out")"
[ "$(sum "$img")" != "$before" ] || fail "the forced write did not write"
ok "--force-destroy writes and trims the image file"

# the backing file of an attached loop device: never, even without a
# signature and with --force-destroy, also through a hard link
back=$T_TMP/backing.img
head -c $((16 << 20)) /dev/urandom >"$back"
dev=$(losetup -f --show "$back") || skip "losetup failed"
t_own_loop "$dev"
ln "$back" "$T_TMP/link.img"
before=$(sum "$back")
refused "in use: the backing file of $dev" "$NVS_BIN" run --target "$back" "${W[@]}" --force-destroy
refused "in use: the backing file of $dev" "$NVS_BIN" run --target "$T_TMP/link.img" "${W[@]}"
refused "in use" "$NVS_BIN" purge "$back" --method=trim --yes-destroy-data="$back" --force-destroy
# a read that would extend (lay out) the file changes it too
refused "in use" "$NVS_BIN" run --target "$back" --rw=read --size=32M --runtime=1 -q
[ "$(sum "$back")" = "$before" ] || fail "a refusal changed the backing file"
"$NVS_BIN" run --target "$back" --rw=randread --runtime=1 --time_based -q >/dev/null ||
	fail "read of the backing file refused"
ok "a loop device's backing file is never written or trimmed (also via a hard link)"
t_loop_detach "$dev" # forgotten too: its number may be another test's by the end
# a detach while udev still has the device open only marks it to clear at
# the last close: wait until the kernel no longer maps the file (run F of
# session 10, ASan: the write came first and was refused, rightly)
for _ in $(seq 50); do [ -z "$(losetup -j "$back")" ] && break; t_nap 0.1; done
[ -z "$(losetup -j "$back")" ] || fail "$dev still maps $back 5 s after its detach"
"$NVS_BIN" run --target "$back" "${W[@]}" >/dev/null 2>"$T_TMP/out" ||
	fail "write after the loop device went away: $(cat "$T_TMP/out")"
ok "once detached, the (blank) file is writable again"
