#!/bin/bash
# sshd_harness.sh - the remote tests' hosts (tests/lib/sshd.sh, issue 24):
# real sshds on loopback addresses of their own, reached with the test's
# client config only; the forced command and the refused key; a blackholed
# host times out while another answers, and answers again once restored; a
# delayed link is slow; a killed host takes its sessions with it; and
# nothing is left behind (no sshd, no session, no iptables rule, no
# registry entry) when a test ends, fails, is stopped by SIGTERM, or is
# killed outright (its addresses reclaimed by the next test).  The
# assertions can fail: a host alias with a planted wrong port is refused.
. "${NVS_TOP:-.}/tests/lib.sh"
. "$NVS_TOP/tests/lib/sshd.sh"
command -v iptables >/dev/null || skip "no iptables (make deps-test)"

s() { ssh -F "$SSHD_CFG" "$@" </dev/null; }
# elapsed_ms CMD...: runs CMD, sets MS to its wall time and RC to its status
elapsed_ms() {
	local t0=$EPOCHREALTIME
	"$@" >"$T_TMP/out" 2>&1
	RC=$?
	MS=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%d", (b - a) * 1000 }')
}
home_ssh=$( [ -e ~/.ssh ] && echo yes)

sshd_host h1
sshd_host h2 --forced-command 'echo "forced:$SSH_ORIGINAL_COMMAND"'
sshd_host h3 --refuse-key --delayable
a1=$(sshd_addr h1) a2=$(sshd_addr h2)
[ "$a1" != "$a2" ] || fail "h1 and h2 share $a1"
[ "$NVSCOPE_SSH" = "ssh -F $SSHD_CFG" ] || fail "NVSCOPE_SSH is '$NVSCOPE_SSH'"
for a in "$a1" "$a2"; do
	[ "$(cut -d' ' -f1 "$SSHD_REG/$a/owner")" = $$ ] || fail "$a is not registered to this test"
done
out=$(s h1 'echo "$SSH_CONNECTION"') || fail "ssh h1 failed: $out"
[ "$(echo "$out" | cut -d' ' -f3-4)" = "$a1 $(sshd_port h1)" ] || fail "h1 reached '$out', not $a1"
ok "two hosts on $a1 and $a2, each its own port, key and known_hosts entry"

out=$($NVSCOPE_SSH h2 'rm -rf /' </dev/null) || fail "forced command (NVSCOPE_SSH): $out"
[ "$out" = "forced:rm -rf /" ] || fail "the forced command did not run in its place: '$out'"
ok "a forced command runs in place of the one asked for"

out=$(s h3 true 2>&1) && fail "h3 accepted a key it does not list"
case $out in *"Permission denied (publickey)"*) ;; *) fail "h3 refused for another reason: $out" ;; esac
ok "a host without the key refuses it"

# the assertions can fail: a wrong port is refused, not reached
sed "/^Host h1\$/,/^Host /s/^\tPort .*/\tPort $(( $(sshd_port h1) ^ 1 ))/" "$SSHD_CFG" >"$T_TMP/bad_config"
s -F "$T_TMP/bad_config" -o ConnectTimeout=2 h1 true 2>/dev/null && fail "a planted wrong port reached h1"
ok "a planted wrong port is refused"

# blackhole: h1 times out (SYNs dropped: a timeout, not a refusal), h2 answers
sshd_blackhole h1
iptables -w -S INPUT | grep -q -- "-d $a1/32 .*nvscope-sshd" || fail "no rule for $a1"
elapsed_ms s -o ConnectTimeout=1 h1 true
[ $RC != 0 ] || fail "ssh h1 worked through its blackhole"
[ "$MS" -ge 900 ] || fail "ssh h1 failed in ${MS} ms, not by its 1-s timeout: $(cat "$T_TMP/out")"
s h2 x >/dev/null || fail "h2 did not answer while h1 was blackholed"
sshd_unblackhole h1
iptables -w -S INPUT | grep -q -- "$a1/32" && fail "a rule for $a1 is left"
s h1 true || fail "h1 did not answer once restored"
ok "a blackholed host times out (${MS} ms) while another answers; restored, it answers"

# a slow link: the refused handshake of h3 takes several round trips
sshd_delay h3 100
elapsed_ms s h3 true
[ "$MS" -ge 600 ] || fail "the delayed handshake took ${MS} ms (4 round trips at 100 ms each way are 800)"
slow=$MS
sshd_delay h3 0
elapsed_ms s h3 true
[ "$MS" -lt "$slow" ] || fail "h3 was no faster undelayed (${MS} ms, ${slow} ms delayed)"
ok "a delayed link is slow (${slow} ms against ${MS} ms)"

# a killed host takes its sessions with it; restarted it answers again
s h1 'echo $$; exec sleep 60' >"$T_TMP/sess" 2>&1 &
cpid=$!
_sshd_until 10 test -s "$T_TMP/sess"
read -r rpid <"$T_TMP/sess"
[ -e "/proc/$rpid" ] || fail "no remote session process ($rpid)"
sshd_kill h1
_sshd_gone "$rpid" || fail "the session's process $rpid outlived its host"
wait "$cpid" && fail "the client of a killed host exited 0"
s -o ConnectTimeout=2 h1 true 2>/dev/null && fail "a killed host answered"
sshd_restart h1
s h1 true || fail "h1 did not answer after its restart"
ok "a killed host takes its session with it, and restarts"

# nothing is left behind, by a test that fails, one stopped by SIGTERM (as
# the runner stops a test over its time: its whole process group) and one
# whose shell alone is killed outright (its sshd, relay and session live on
# until the next test that meets the address reclaims it); each with a host
# behind a relay, a session open to it, then the host blackholed
cat >"$T_TMP/inner.sh" <<'EOF'
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/lib/sshd.sh"
sshd_host x1 --delayable
ssh -F "$SSHD_CFG" x1 'echo up; exec sleep 60' </dev/null >"$1.session" &
_sshd_until 10 test -s "$1.session"
sshd_blackhole x1
[ "$2" = fail ] || sleep 60 &
# ready once every process is there (a SIGTERM sent while bash forks a
# foreground child misses that child, and bash runs its trap after it)
echo "$(sshd_addr x1) ${SSHD_PID[x1]} ${SSHD_RELAY[x1]}" >"$1"
[ "$2" = fail ] && fail "planted failure"
wait $!
EOF
# left_behind FILE: what a finished inner test left, if anything
left_behind() {
	local x p1 pr p
	read -r x p1 pr <"$1"
	for p in $p1 $pr; do _sshd_gone "$p" || echo "process $p"; done
	iptables -w -S INPUT | grep -F -- "$x/32"
	grep -lzxF "NVS_SSHD_TAG=$x" /proc/[0-9]*/environ 2>/dev/null
	[ -e "$SSHD_REG/$x" ] && echo "registry $SSHD_REG/$x"
}
for how in fail TERM KILL; do
	f=$T_TMP/inner.$how
	if [ $how = fail ]; then
		bash "$T_TMP/inner.sh" "$f" fail >"$f.log" 2>&1 && fail "the planted failure passed"
	else
		setsid bash "$T_TMP/inner.sh" "$f" wait >"$f.log" 2>&1 &
		ipid=$!
		_sshd_until 20 test -s "$f" || fail "inner test ($how) did not start: $(cat "$f.log")"
		if [ $how = TERM ]; then kill -TERM -- "-$ipid"; else kill -KILL "$ipid"; fi
		wait "$ipid" 2>/dev/null
	fi
	[ -s "$f" ] || fail "inner test ($how) did not start: $(cat "$f.log")"
	if [ $how = KILL ]; then
		left=$(left_behind "$f")
		case $left in *process*registry*) ;; *) fail "a killed test left, to reclaim: '$left'" ;; esac
		read -r x _ <"$f"
		_sshd_locked _sshd_reclaim_locked "$x" || fail "$x not reclaimed"
		kill -KILL -- "-$ipid" 2>/dev/null # its local sleep and ssh client
	fi
	left=$(left_behind "$f")
	[ -z "$left" ] || fail "a test ending by $how left behind: $left"
done
ok "nothing is left behind by a failed, a stopped (TERM) or a killed test (reclaimed)"
[ -n "$home_ssh" ] || [ ! -e ~/.ssh ] || fail "$HOME/.ssh was made"
