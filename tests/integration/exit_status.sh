#!/bin/bash
# exit_status.sh - exit statuses as docs/cli.md and nvscope(1) say (issue 8
# item 15): 2 for every refusal (a plan whose purge meets a mounted device
# included), 128+signal when a run or a plan is stopped by a signal (130
# SIGINT, 143 SIGTERM).
. "$(dirname "$0")/../lib.sh"
B=$NVS_BIN
tgt=$T_TMP/target.img
truncate -s 16M "$tgt"

# a signal ends a run with 128+signal (and its partial results)
for sig in TERM INT; do
	"$B" run --target "$tgt" --rw=randread --bs=4k --runtime=60 --time_based -q \
		>/dev/null 2>"$T_TMP/e" &
	pid=$!
	t_wait_caught "$pid" "$sig" || fail "no handler for SIG$sig: $(cat "$T_TMP/e")"
	t_nap 0.3
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	want=$((128 + $(kill -l "$sig")))
	[ "$rc" -eq "$want" ] || fail "run stopped by SIG$sig exited $rc, not $want: $(cat "$T_TMP/e")"
done
ok "run: SIGTERM 143, SIGINT 130"

plan=$T_TMP/read.ini
printf '[plan]\ndescription = read only\nruntime = 60s\n\n[measure 4k-randread]\nrw = randread\nbs = 4k\niodepth = 1\n' >"$plan"
for sig in TERM INT; do
	"$B" plan "$plan" --target "$tgt" --results "$T_TMP/p-$sig" --quiet >/dev/null 2>"$T_TMP/e" &
	pid=$!
	t_wait_caught "$pid" "$sig" || fail "no handler for SIG$sig: $(cat "$T_TMP/e")"
	for _ in $(seq 300); do [ -s "$T_TMP/p-$sig/meta.json" ] && break; t_nap 0.05; done
	t_nap 0.3
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	want=$((128 + $(kill -l "$sig")))
	[ "$rc" -eq "$want" ] || fail "plan stopped by SIG$sig exited $rc, not $want: $(cat "$T_TMP/e")"
	grep -q '"interrupted"' "$T_TMP/p-$sig/meta.json" || fail "meta.json does not say interrupted"
done
ok "plan: SIGTERM 143, SIGINT 130"

# a plan refused for safety exits 2: its purge meets a mounted device
[ "$(id -u)" -eq 0 ] || skip "the rest needs root (loop devices, mount)"
command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
t_loop 32M
mkfs.ext4 -q -F "$LOOP" || fail "mkfs"
mkdir -p "$T_TMP/mnt"
mount "$LOOP" "$T_TMP/mnt" || skip "cannot mount ext4"
printf '[plan]\ndescription = purge\n\n[purge]\nmethod = trim\n' >"$T_TMP/purge.ini"
"$B" plan "$T_TMP/purge.ini" --target "$LOOP" --yes-destroy-data="$LOOP" --force-destroy \
	--results "$T_TMP/pp" --quiet >/dev/null 2>"$T_TMP/e"
rc=$?
umount "$T_TMP/mnt"
[ "$rc" -eq 2 ] || fail "plan refused (mounted) exited $rc, not 2: $(cat "$T_TMP/e")"
grep -q "mounted" "$T_TMP/e" || fail "refusal does not say why: $(cat "$T_TMP/e")"
ok "plan refused for safety: exit 2"
