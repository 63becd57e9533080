#!/bin/bash
# nvscope over ssh, faults (docs/hosts.md), real sshd on loopback hosts
# (tests/lib/sshd.sh): an agent speaking another protocol version is named
# with both versions; a key whose authorized_keys line forces `nvscope
# agent --allow DEV` lists only that device and has another refused by name
# before it is opened; an agent killed (kill -9) in the middle of a check
# is named lost at once and a host blackholed in the middle of it within
# the 5 s heartbeat deadline, while the third host's check completes and
# is judged; exit 1; a host that never answers fails at --connect-timeout.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib/sshd.sh"
command -v python3 >/dev/null || skip "no python3"
PY=$(python3 -c 'import sys; print(sys.executable)') && [ -x "$PY" ] || PY=python3

# the hosts' sessions find the tree's presets (a sanitizer's binary is not
# beside them)
host() { sshd_host "$@" --setenv "NVSCOPE_PRESETS=$NVS_TOP/presets"; }
# a sanitizer's report of the far agent comes back as one of its log lines
nv() {
	"$NVS_BIN" "$@" 2>"$T_TMP/err"
	local rc=$?
	! grep -q "Sanitizer\|runtime error:" "$T_TMP/err" || fail "a sanitizer report: $(cat "$T_TMP/err")"
	return $rc
}
t_loop 16M
A=$LOOP
t_loop 16M
B=$LOOP
t_loop 16M
C=$LOOP
a=$(basename "$A")
host h1
host h2
host h3
# ha: the test key may only run `nvscope agent --allow $A` there (a forced
# command in authorized_keys, as docs/hosts.md sets it up)
host ha --forced-command "$NVS_BIN agent --allow $A"

# the binary on the hosts, through a wrapper that saves each agent's pid
# (for the kill) and starts h1's with another protocol version
# (NVSCOPE_TEST_PROTO: tests only) while the test's mode file says so (ssh
# passes no environment; the harness tags each host's sessions with its
# address, NVS_SSHD_TAG)
cat >"$T_TMP/nv-wrap" <<EOF
#!/bin/sh
echo \$\$ >"$T_TMP/pid-\$NVS_SSHD_TAG"
[ "\$NVS_SSHD_TAG:\$(cat "$T_TMP/mode" 2>/dev/null)" = "$(sshd_addr h1):version" ] &&
	export NVSCOPE_TEST_PROTO=2
exec "$NVS_BIN" "\$@"
EOF
chmod +x "$T_TMP/nv-wrap"
R=(--remote-nvscope "$T_TMP/nv-wrap")

# another protocol version: both named
echo version >"$T_TMP/mode"
nv list --host h1 "${R[@]}" >/dev/null
rc=$?
[ $rc -eq 1 ] || fail "another protocol version: exit $rc, wanted 1: $(cat "$T_TMP/err")"
grep -q "^nvscope list: h1: nvscope 0.1.0 speaks protocol 2, this nvscope 0.1.0 speaks 1: install the same version (--remote-nvscope PATH)$" "$T_TMP/err" ||
	fail "the version line: $(cat "$T_TMP/err")"
ok "another protocol version: one line naming both versions, exit 1"

# --allow: list shows only $A; a check of $B is refused by name before
# anything is opened (the reply: no serial, not checked)
rm "$T_TMP/mode"
nv list --host ha "${R[@]}" --json >"$T_TMP/l.json" || fail "allow list: $(cat "$T_TMP/err")"
"$PY" - "$T_TMP/l.json" "$a" <<'EOF' || fail "allow list JSON: $(head -c 600 "$T_TMP/l.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert [x["name"] for x in d["block_devices"]] == [sys.argv[2]], d["block_devices"]
assert d["controllers"] == [], d["controllers"]
EOF
nv check --target "ha:$B" --profile quick "${R[@]}" --json >"$T_TMP/al.json"
rc=$?
[ $rc -eq 2 ] || fail "a device not allowed: exit $rc, wanted 2: $(cat "$T_TMP/err")"
grep -q "^nvscope check: ha: refusing $B: not allowed on this host" "$T_TMP/err" ||
	fail "the refusal: $(cat "$T_TMP/err")"
"$PY" - "$T_TMP/al.json" "$B" <<'EOF' || fail "allow check JSON: $(cat "$T_TMP/al.json")"
import json, sys
d = json.load(open(sys.argv[1]))
(x,) = d["drives"]
assert x["host"] == "ha" and x["device"] == sys.argv[2] and x["verdict"] == "N/A", x
assert "not allowed on this host" in x["reasons"][0], x
assert d["hosts"][0]["status"] == 2 and not d["hosts"][0]["checked"], d["hosts"]
EOF
nv check --target "ha:$A" --profile "$T_TMP/x.ini" "${R[@]}" >/dev/null
grep -q "refusing profile $T_TMP/x.ini: this agent runs with --allow" "$T_TMP/err" ||
	fail "a profile path under --allow: $(cat "$T_TMP/err")"
ok "--allow: lists only its device, refuses another by name before anything is opened (the reply: no serial, not checked), exit 2"

# killed and blackholed mid-check: h1 killed (kill -9 of the far nvscope),
# h3 blackholed, h2 completes
cat >"$T_TMP/slow.ini" <<'EOF'
[check]
description=test: four seconds
selftest=none
perf_rounds=1
[thresholds]
[global]
ioengine=io_uring
direct=1
[read-sample]
rw=read
bs=1m
size=1m
[perf-4k-randread]
rw=randread
bs=4k
iodepth=4
runtime=4
time_based
rate_iops=200
EOF
rm -f "$T_TMP"/pid-*
start=$SECONDS
"$NVS_BIN" check --target "h1:$A" --target "h2:$B" --target "h3:$C" --profile "$T_TMP/slow.ini" \
	-o "$T_TMP/k-%h" "${R[@]}" --json >"$T_TMP/k.json" 2>"$T_TMP/err" &
CPID=$!
ip1=$(sshd_addr h1)
for i in $(seq 300); do
	[ -s "$T_TMP/pid-$ip1" ] && break
	t_nap 0.05
done
sleep 1.5 # its check is running (4 s)
kill -9 "$(cat "$T_TMP/pid-$ip1")" || fail "no agent of h1 to kill"
sshd_blackhole h3
wait $CPID
rc=$?
took=$((SECONDS - start))
cat "$T_TMP/err"
grep -q "Sanitizer\|runtime error:" "$T_TMP/err" && fail "a sanitizer report"
[ $rc -eq 1 ] || fail "killed + blackholed hosts: exit $rc, wanted 1"
grep -q "^nvscope check: h1: could not check: lost: " "$T_TMP/err" || fail "h1 not named lost"
grep -q "^nvscope check: h3: could not check: lost: no answer for 5 s" "$T_TMP/err" || fail "h3 not named lost"
[ $took -le 14 ] || fail "took $took s (runtime 4 s + the 5 s deadline)"
"$PY" - "$T_TMP/k.json" <<'EOF' || fail "killed JSON"
import json, sys
d = json.load(open(sys.argv[1]))
rows = sorted((x["host"], x["verdict"]) for x in d["drives"])
assert rows == [("h1", "N/A"), ("h2", "PASS"), ("h3", "N/A")], [
    (x["host"], x["verdict"], x["reasons"]) for x in d["drives"]]
EOF
ok "agent killed mid-check and host blackholed: both named lost, h2 judged, exit 1 ($took s)"

# a host that does not answer at all (blackholed before the command):
# timeout at --connect-timeout, named
start=$SECONDS
nv list --host h3 --host h2 "${R[@]}" --connect-timeout 1s --json >"$T_TMP/t.json"
rc=$?
[ $rc -eq 1 ] || fail "a blackholed host: list exit $rc, wanted 1: $(cat "$T_TMP/err")"
grep -q "^nvscope list: h3: timeout: no answer from the agent within 1 s" "$T_TMP/err" ||
	fail "the timeout line: $(cat "$T_TMP/err")"
[ $((SECONDS - start)) -le 4 ] || fail "the timeout took $((SECONDS - start)) s"
grep -q '"host":	"h2"' "$T_TMP/t.json" || fail "h2 not listed beside the dead host"
ok "a host that never answers: timeout at --connect-timeout, the other listed"
