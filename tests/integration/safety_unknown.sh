#!/bin/bash
# safety_unknown.sh - a device whose use cannot be checked is "unknown", and
# unknown counts as in use (issue 22 item 9: it showed "-", free, for a
# mounted disk whose node could not be opened).  In a mount namespace of
# its own (nothing outside it changes) the test mounts its own loop device,
# then hides /dev behind an empty tmpfs: `list` can open no node.
#   - `list --json`: the loop device is "unknown" with the reason, and still
#     "mounted" (mounts, holders and swap need no open: the device number
#     comes from sysfs);
#   - `list`: its In-use column says unknown, never "-";
#   - the Devices pane's reading (dev_usage_in_use) takes unknown for in
#     use: the JSON's "any" is true;
#   - a write to it is refused (exit 2), nothing written.
. "$(dirname "$0")/../lib.sh"
command -v unshare >/dev/null || skip "no unshare"
command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
t_loop 32M
dev=$LOOP name=${LOOP#/dev/}
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$dev" || fail "mkfs"
mkdir -p "$T_TMP/mnt"
unshare -m sh -c '
	mount --make-rprivate / 2>/dev/null
	mount "$1" "$2/mnt" || exit 77
	mount -t tmpfs none /dev || exit 77
	"$3" list --json >"$2/list.json" 2>"$2/list.err"
	"$3" list >"$2/list.txt" 2>>"$2/list.err"
	sync
	cat "/sys/block/$4/stat" >"$2/w0"
	"$3" run --target "$1" --rw=write --bs=4k --runtime=200ms --force-destroy \
		>"$2/run.out" 2>"$2/run.err"
	echo $? >"$2/run.rc"
	cat "/sys/block/$4/stat" >"$2/w1"
	umount "$2/mnt"
' _ "$dev" "$T_TMP" "$NVS_BIN" "$name"
rc=$?
[ $rc = 77 ] && skip "cannot mount in a namespace of its own"
[ $rc = 0 ] || fail "the namespace's commands failed ($rc): $(cat "$T_TMP/list.err")"
python3 - "$T_TMP/list.json" "$name" <<'PY' || fail "list --json: $(cat "$T_TMP/list.json" | head -c 2000)"
import json, sys
j = json.load(open(sys.argv[1]))
b = [x for x in j["block_devices"] if x["name"] == sys.argv[2]]
assert b, "the loop device is not listed"
u = b[0]["in_use"]
assert u["unknown"] is True, u
assert u.get("unknown_reason"), u
assert u["mounted"] is True, ("mounts need no open", u)
assert u["any"] is True, u
PY
ok "list --json: unknown with its reason, still mounted (from sysfs), counted as in use"
line=$(grep -E "^/dev/$name " "$T_TMP/list.txt")
[ -n "$line" ] || fail "list: no row for $dev: $(cat "$T_TMP/list.txt")"
echo "$line" | grep -Eq 'mounted|unknown' || fail "list: in-use column neither mounted nor unknown: $line"
echo "$line" | grep -Eq ' -$' && fail "list: the device shows as free: $line"
ok "list: the row says it is not free ($line)"
[ "$(cat "$T_TMP/run.rc")" = 2 ] || fail "a write to the hidden device exited $(cat "$T_TMP/run.rc"), not 2"
# the mounted filesystem's own writes (its journal) are not the run's: the
# write counter is compared across the refused run only
[ "$(awk '{print $5}' "$T_TMP/w1")" = "$(awk '{print $5}' "$T_TMP/w0")" ] || fail "the device was written"
ok "a write to it refused (exit 2: $(head -1 "$T_TMP/run.err")), nothing written"
