#!/bin/bash
# check_enospc.sh - issue 20, cause 9: a check stopped by a full results
# filesystem resumes once there is room.  state.json is replaced atomically
# (a failed save leaves the last one whole), and the state saved before the
# first phase (the only one when every later save failed; its drives not
# yet set up) is accepted by --resume, which then runs the whole batch.
# The results directory is a 32 KiB tmpfs: profile, VERSION, meta.json and
# the first state.json fit, the next state.json does not.  Then a 12 KiB
# one, where the first state.json does not fit: the check never began, and
# the same -o starts it again once there is room (not "not empty").
. "$(dirname "$0")/../lib.sh"
t_loop 16M
mnt=$T_TMP/mnt
mkdir "$mnt"
mount -t tmpfs -o size=32k,mode=0755 tmpfs "$mnt" || skip "cannot mount a tmpfs"
trap 'umount "$mnt" 2>/dev/null; t_cleanup' EXIT
cat >"$T_TMP/p.ini" <<'INI'
[check]
description=enospc
selftest=none
[global]
ioengine=io_uring
direct=1
[read-sample]
rw=read
bs=1m
iodepth=8
size=16m
[perf-randread]
rw=randread
bs=4k
iodepth=8
runtime=200ms
time_based
INI
"$NVS_BIN" check --target "$LOOP" --profile "$T_TMP/p.ini" -o "$mnt/r" >"$T_TMP/o1" 2>"$T_TMP/e1"
rc=$?
[ "$rc" -ne 0 ] || fail "a check on a full filesystem exited 0"
grep -q "No space left on device" "$T_TMP/e1" || fail "the results filesystem never filled: $(cat "$T_TMP/e1")"
python3 -m json.tool "$mnt/r/state.json" >/dev/null || fail "state.json is not whole after ENOSPC"
ls -a "$mnt/r" | grep -q '\.tmp$' && fail "a temporary file left: $(ls -a "$mnt/r")"
ok "full results filesystem: check exits $rc, state.json whole, no temporary file"

mount -o remount,size=1m "$mnt" || fail "remount"
"$NVS_BIN" check --resume "$mnt/r" >"$T_TMP/o2" 2>"$T_TMP/e2"
rc=$?
[ "$rc" -eq 0 ] || fail "resume after ENOSPC exited $rc: $(cat "$T_TMP/e2")"
grep -q "1 drive: 1 PASS" "$T_TMP/o2" || fail "no verdict after resume: $(cat "$T_TMP/o2")"
python3 - "$mnt/r/state.json" <<'PY' || fail "state after resume"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["next_step"] == s["nsteps"], (s["next_step"], s["nsteps"])
PY
ok "resume after room was made: the batch completes (PASS)"

# a filesystem too full for the first state.json: the check never began;
# the same -o starts it again once there is room
umount "$mnt"
mount -t tmpfs -o size=12k,mode=0755 tmpfs "$mnt" || fail "mount 12k"
"$NVS_BIN" check --target "$LOOP" --profile "$T_TMP/p.ini" -o "$mnt/r" >/dev/null 2>"$T_TMP/e3"
rc=$?
[ "$rc" -ne 0 ] || fail "a check that could not save its state exited 0"
[ -e "$mnt/r/state.json" ] && fail "state.json on a filesystem without room for it (test premise)"
grep -q "No space left on device" "$T_TMP/e3" || fail "no ENOSPC: $(cat "$T_TMP/e3")"
"$NVS_BIN" check --resume "$mnt/r" >/dev/null 2>"$T_TMP/e4"
grep -q "never began: start it again" "$T_TMP/e4" || fail "resume of nothing: $(cat "$T_TMP/e4")"
mount -o remount,size=1m "$mnt" || fail "remount"
"$NVS_BIN" check --target "$LOOP" --profile "$T_TMP/p.ini" -o "$mnt/r" >"$T_TMP/o5" 2>"$T_TMP/e5" ||
	fail "the check again in its directory exited $?: $(cat "$T_TMP/e5")"
grep -q "1 drive: 1 PASS" "$T_TMP/o5" || fail "no verdict: $(cat "$T_TMP/o5")"
ok "no room for the first state: the same -o starts the check again"
