#!/bin/bash
# safety_plan.sh - plans follow the one write-safety rule (issue 8 items 9
# and 10): `plan --resume DIR` applies the checks of a fresh start (a
# read-only plan, killed, DIR/plan.ini edited to write: refused without the
# confirmation; DIR/state.json's force_destroy is not an override); a
# [purge] on a device holding a filesystem needs --force-destroy besides
# --yes-destroy-data, like a fill; so does `nvscope purge`.  Every refusal
# exits 2 and writes nothing (the loop device's write counter stays).
. "${NVS_TOP:-.}/tests/lib.sh"
command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
writes() { awk '{print $5}' "/sys/block/${1#/dev/}/stat"; }
B=$NVS_BIN

# ---- item 9: resume re-checks
t_loop 32M
dev=$LOOP
cat >"$T_TMP/ro.ini" <<'INI'
[plan]
description = read-only, long enough to be killed
runtime = 1s

[measure 4k-randread]
rw = randread
bs = 4k
iodepth = 1,2,4,8,16,32
INI
R=$T_TMP/res
"$B" plan "$T_TMP/ro.ini" --target "$dev" --results "$R" --quiet >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 200); do
	[ -f "$R/state.json" ] && grep -Eq '"sub":[[:space:]]*[1-9]' "$R/state.json" && break
	kill -0 $pid 2>/dev/null || break
	t_nap 0.05
done
kill -KILL $pid 2>/dev/null || fail "the read-only plan ended before it could be killed"
wait $pid 2>/dev/null
sed -i 's/^rw = randread/rw = randwrite/' "$R/plan.ini"
sed -i 's/"force_destroy":[[:space:]]*false/"force_destroy": true/' "$R/state.json"
w0=$(writes "$dev")
"$B" plan --resume "$R" --quiet >"$T_TMP/out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "resume of an edited plan: exit $rc, wanted 2: $(cat "$T_TMP/out")"
grep -q -- "--yes-destroy-data=$dev" "$T_TMP/out" || fail "resume refusal: $(cat "$T_TMP/out")"
[ "$(writes "$dev")" = "$w0" ] || fail "the refused resume wrote"
ok "resume of a plan edited to write is refused without the confirmation"

mkfs.ext4 -q -F "$dev" || fail "mkfs.ext4"
w0=$(writes "$dev")
"$B" plan --resume "$R" --yes-destroy-data="$dev" --quiet >"$T_TMP/out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "resume over ext4: exit $rc, wanted 2: $(cat "$T_TMP/out")"
grep -q "ext4.*--force-destroy" "$T_TMP/out" || fail "resume refusal: $(cat "$T_TMP/out")"
[ "$(writes "$dev")" = "$w0" ] || fail "the refused resume wrote"
ok "state.json's force_destroy is no override: the filesystem is kept"

# ---- item 10: one rule for [purge] and for writes
cat >"$T_TMP/purge.ini" <<'INI'
[plan]
description = purge only

[purge]
method = trim
INI
cat >"$T_TMP/fill.ini" <<'INI'
[plan]
description = fill only

[fill]
passes = 0.05
INI
for p in purge fill; do
	"$B" plan "$T_TMP/$p.ini" --target "$dev" --yes-destroy-data="$dev" \
		--results "$T_TMP/r-$p" --quiet >"$T_TMP/out" 2>&1
	rc=$?
	[ $rc -eq 2 ] || fail "$p plan over ext4: exit $rc, wanted 2: $(cat "$T_TMP/out")"
	grep -q "ext4.*--force-destroy" "$T_TMP/out" || fail "$p refusal: $(cat "$T_TMP/out")"
	[ ! -e "$T_TMP/r-$p" ] || fail "the refused $p plan made its results directory"
done
"$B" purge "$dev" --method=trim --yes-destroy-data="$dev" --quiet >"$T_TMP/out" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "purge over ext4: exit $rc, wanted 2: $(cat "$T_TMP/out")"
grep -q "ext4.*--force-destroy" "$T_TMP/out" || fail "purge refusal: $(cat "$T_TMP/out")"
[ "$(writes "$dev")" = "$w0" ] || fail "a refusal wrote"
blkid -p "$dev" 2>/dev/null | grep -q 'TYPE="ext4"' || fail "the filesystem is gone"
ok "[purge], fill and purge alike need --force-destroy over a filesystem"

if [ "$(cat "/sys/block/${dev#/dev/}/queue/discard_max_bytes")" != 0 ]; then
	"$B" plan "$T_TMP/purge.ini" --target "$dev" --yes-destroy-data="$dev" --force-destroy \
		--results "$T_TMP/r-forced" --quiet >"$T_TMP/out" 2>&1 ||
		fail "forced purge plan: $(cat "$T_TMP/out")"
	blkid -p "$dev" 2>/dev/null | grep -q 'TYPE="ext4"' && fail "the forced purge kept ext4"
	ok "with --force-destroy the [purge] runs"
fi
exit 0
