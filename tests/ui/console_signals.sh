#!/bin/bash
# console_signals.sh - the terminal is restored on every exit path: Ctrl-C
# (SIGINT), SIGTERM, SIGHUP and a crash (SIGSEGV), each while a workload
# runs; the interrupted runs still leave their results, and events.log says
# which signal stopped each (issue 22 item 10).
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
t_loop 128M

nvs_pid() {
	local sh
	sh=$(u_tmux display -p -t ui '#{pane_pid}')
	pgrep -P "$sh" -x nvscope || pgrep -P "$sh" | head -1
}

run_until_running() {
	u_start 100 30 "$NVS_BIN" --target "$LOOP" --preset 4k-randread --numjobs=1 \
		--results "$T_TMP/$1"
	u_wait 'RUNNING 4k-randread' 10
	u_wait 'IOPS \(linear\) +now [1-9]' 10
}

run_until_running int
u_keys C-c
u_restored
u_screen | grep -q 'NVS-EXIT 130' || fail "Ctrl-C: exit status not 130"
[ -s "$T_TMP/int/summary.json" ] || fail "Ctrl-C: no summary.json"
grep -q 'stopped by Ctrl-C (SIGINT)' "$T_TMP/int/events.log" ||
	fail "Ctrl-C: events.log does not say what stopped it: $(cat "$T_TMP/int/events.log")"
ok "Ctrl-C"

run_until_running term
pid=$(nvs_pid)
[ -n "$pid" ] || fail "no nvscope process"
kill -TERM "$pid"
u_restored
u_screen | grep -q 'NVS-EXIT 143' || fail "SIGTERM: exit status not 143"
[ -s "$T_TMP/term/summary.json" ] || fail "SIGTERM: no summary.json"
grep -q 'stopped by SIGTERM' "$T_TMP/term/events.log" ||
	fail "SIGTERM: events.log does not say what stopped it: $(cat "$T_TMP/term/events.log")"
ok "SIGTERM"

# SIGHUP (an SSH session or serial line dropped): its own line in
# events.log, not 'stopped by the user' (issue 22 item 10)
run_until_running hup
pid=$(nvs_pid)
[ -n "$pid" ] || fail "no nvscope process"
kill -HUP "$pid"
u_restored
u_screen | grep -q 'NVS-EXIT 129' || fail "SIGHUP: exit status not 129"
grep -q 'stopped by SIGHUP' "$T_TMP/hup/events.log" ||
	fail "SIGHUP: events.log does not say what stopped it: $(cat "$T_TMP/hup/events.log")"
ok "SIGHUP"

[ "${NVS_SANITIZER:-}" = asan ] && { ok "SIGSEGV skipped under ASan"; exit 0; }
run_until_running segv
pid=$(nvs_pid)
kill -SEGV "$pid"
u_restored
if [ -n "${NVS_SANITIZER:-}" ]; then # the sanitizer reports the signal itself
	u_screen | grep -Eq 'NVS-EXIT [1-9]' || fail "SIGSEGV: exit status 0"
else
	u_screen | grep -q 'NVS-EXIT 139' || fail "SIGSEGV: exit status not 139"
fi
[ -s "$T_TMP/segv/samples.csv" ] || fail "SIGSEGV: samples.csv lost"
ok "crash (SIGSEGV): terminal restored"
