#!/bin/bash
# `nvscope check --resume DIR` of a profile that writes takes the write
# confirmation and --force-destroy from its own command line, never from
# DIR/state.json (which only records what the first run was given): a state
# file edited to say force_destroy=true, or a confirmation recorded there,
# cannot make a resumed check write over a drive that holds data.
. "$(dirname "$0")/../lib.sh"
t_loop 64M
A=$LOOP
P=$T_TMP/w.ini
cat >"$P" <<'INI'
[check]
description=write/verify only (test)
[thresholds]
critical_warning=1
[global]
ioengine=io_uring
direct=1
[verify-surface]
rw=write
bs=1m
INI
"$NVS_BIN" check --target "$A" --profile "$P" -o "$T_TMP/r" --yes-destroy-data="$A" \
	>"$T_TMP/out1" 2>"$T_TMP/err1" || fail "first check: $(cat "$T_TMP/err1")"
grep -q '"confirm":' "$T_TMP/r/state.json" || fail "state.json has no confirmation field"

# back to before the write phase, as if interrupted; the drive now holds a
# file system; the state claims --force-destroy
mkfs.ext2 -q -F "$A" >/dev/null 2>&1 || skip "mkfs.ext2"
sed -i -e 's/"next_step":[[:space:]]*[0-9]*/"next_step":\t1/' \
	-e 's/"force_destroy":[[:space:]]*false/"force_destroy":\ttrue/' "$T_TMP/r/state.json"
grep -q '"force_destroy":[[:space:]]*true' "$T_TMP/r/state.json" || fail "could not plant force_destroy"
sync
w0=$(awk '{print $5}' "/sys/block/$(basename "$A")/stat")

"$NVS_BIN" check --resume "$T_TMP/r" >/dev/null 2>"$T_TMP/err2"
rc=$?
[ $rc -eq 2 ] || fail "resume without the confirmation exited $rc: $(cat "$T_TMP/err2")"
grep -q "yes-destroy-data" "$T_TMP/err2" || fail "refusal does not ask for the confirmation: $(cat "$T_TMP/err2")"
ok "resume of a writing check without --yes-destroy-data on its command line: refused"

"$NVS_BIN" check --resume "$T_TMP/r" --yes-destroy-data="$A" >/dev/null 2>"$T_TMP/err3"
rc=$?
[ $rc -eq 2 ] || fail "resume over a file system without --force-destroy exited $rc: $(cat "$T_TMP/err3")"
w1=$(awk '{print $5}' "/sys/block/$(basename "$A")/stat")
[ "$w0" = "$w1" ] || fail "sectors written during refused resumes: $w0 -> $w1"
[ "$(blkid -o value -s TYPE "$A")" = ext2 ] || fail "the file system was overwritten"
ok "state.json's force_destroy=true is not an override: refused, nothing written (kernel stat)"

"$NVS_BIN" check --resume "$T_TMP/r" --yes-destroy-data="$A" --force-destroy >/dev/null 2>"$T_TMP/err4" ||
	fail "resume with both overrides given: $(cat "$T_TMP/err4")"
w2=$(awk '{print $5}' "/sys/block/$(basename "$A")/stat")
[ "$w2" -gt "$w1" ] || fail "resume with the overrides wrote nothing"
ok "resume with --yes-destroy-data and --force-destroy on its command line writes"
