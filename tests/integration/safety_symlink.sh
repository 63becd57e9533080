#!/bin/bash
# safety_symlink.sh - a write target follows no other user's symlink
# (issue 20, cause 5; docs/safety.md "Rule: targets follow no other user's
# link").  Root must not write or create a file through a link planted by
# another user, nor create a target in a directory another user controls:
#   - a link in a directory of `nobody` pointing at root's file: refused;
#   - a link owned by `nobody` in root's directory: refused;
#   - a dangling link of `nobody`: nothing created through it;
#   - a new file in a world-writable (not sticky) directory: not created;
# each exit 2 with one line, the victim's checksum unchanged; still working:
#   - root's own symlink to a loop device (as /dev/disk/by-id/* are), and a
#     relative one to an image file: written (the write counter moves).
. "${NVS_TOP:-.}/tests/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root (chown)"
id nobody >/dev/null 2>&1 || skip "no user nobody"
sum() { md5sum <"$1" | cut -d' ' -f1; }
W=(--rw=write --bs=4k --size=1m --runtime=200ms --direct=0 -q)
# refused TARGET MSG: exit 2, MSG on the one line of stderr
refused() {
	"$NVS_BIN" run --target "$1" "${W[@]}" --force-destroy >"$T_TMP/out" 2>"$T_TMP/err"
	local rc=$?
	[ $rc -eq 2 ] || fail "write through $1: exit $rc, wanted 2: $(cat "$T_TMP/err")"
	grep -Eq "$2" "$T_TMP/err" || fail "no '$2' in: $(cat "$T_TMP/err")"
	[ "$(wc -l <"$T_TMP/err")" -eq 1 ] || fail "not one line: $(cat "$T_TMP/err")"
}
victim=$T_TMP/victim
head -c 1M /dev/urandom >"$victim"
before=$(sum "$victim")
u=$T_TMP/user
mkdir "$u"
ln -s "$victim" "$u/link"
chown -h nobody "$u" "$u/link"
refused "$u/link" "belongs to uid $(id -u nobody)"
ln -s "$victim" "$T_TMP/nlink"
chown -h nobody "$T_TMP/nlink"
refused "$T_TMP/nlink" "symbolic link nlink belongs to uid $(id -u nobody): not followed"
[ "$(sum "$victim")" = "$before" ] || fail "the victim was written"
ok "another user's link (in their directory or in root's) is not followed"

ln -s "$T_TMP/created" "$T_TMP/dangle"
chown -h nobody "$T_TMP/dangle"
refused "$T_TMP/dangle" "not followed"
[ -e "$T_TMP/created" ] && fail "a file was created through the dangling link"
mkdir "$T_TMP/ww"
chmod 0777 "$T_TMP/ww"
refused "$T_TMP/ww/new.img" "writable by everyone"
[ -e "$T_TMP/ww/new.img" ] && fail "a file was created in the world-writable directory"
ok "nothing created through a dangling link or in a world-writable directory"

t_loop 8M
ln -s "$LOOP" "$T_TMP/by-id-link"
w0=$(awk '{print $5}' "/sys/block/${LOOP#/dev/}/stat")
# direct: a buffered write reaches the device only when the page cache is
# flushed, and the last close flushes only if no one else (udev's probe after
# the close, another test's scan) holds the device open (run of stop 29)
"$NVS_BIN" run --target "$T_TMP/by-id-link" "${W[@]}" --direct=1 >"$T_TMP/out" 2>&1 ||
	fail "root's link to $LOOP refused: $(cat "$T_TMP/out")"
[ "$(awk '{print $5}' "/sys/block/${LOOP#/dev/}/stat")" != "$w0" ] || fail "$LOOP not written"
truncate -s 2M "$T_TMP/img"
ln -s img "$T_TMP/rel"
"$NVS_BIN" run --target "$T_TMP/rel" "${W[@]}" >"$T_TMP/out" 2>&1 ||
	fail "root's relative link refused: $(cat "$T_TMP/out")"
[ -L "$T_TMP/rel" ] || fail "the link was replaced"
ok "root's own links (to a loop device, relative to an image) are written through"
