#!/bin/bash
# nvscope over ssh (docs/hosts.md), real sshd on three loopback hosts
# (tests/lib/sshd.sh): `list --host ... --json` is one tree with "host" on
# every device and each host reachable; `check` over the three hosts (one
# loop device each, HOST:DEV targets) gives one PASS row per host + drive,
# "host" in each, each host's results directory, exit 0; with one host's
# nvscope missing and another refusing the key, the third is still judged,
# each failed host gets one line naming it and why, its drive is N/A
# (never PASS) and the exit status is 1.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib/sshd.sh"
command -v python3 >/dev/null || skip "no python3"
PY=$(python3 -c 'import sys; print(sys.executable)') && [ -x "$PY" ] || PY=python3

sshd_host h1
sshd_host h2
sshd_host h3
t_loop 16M
A=$LOOP
t_loop 16M
B=$LOOP
t_loop 16M
C=$LOOP
a=$(basename "$A") b=$(basename "$B") c=$(basename "$C")
R=(--remote-nvscope "$NVS_BIN")

# a profile of a second: a 4 MiB read and one 300 ms performance round
cat >"$T_TMP/tiny.ini" <<'EOF'
[check]
description=test: tiny
selftest=none
perf_rounds=1
[thresholds]
[global]
ioengine=io_uring
direct=1
[read-sample]
rw=read
bs=1m
iodepth=4
size=4m
[perf-4k-randread]
rw=randread
bs=4k
iodepth=4
runtime=300ms
time_based
rate_iops=500
EOF

# list: one tree, "host" on every block device, every host reachable
"$NVS_BIN" list --host h1 --host h2 --host h3 "${R[@]}" --json >"$T_TMP/list.json" 2>"$T_TMP/err" ||
	fail "list over 3 hosts exited $?: $(cat "$T_TMP/err")"
"$PY" - "$T_TMP/list.json" "$a" <<'EOF' || fail "list JSON: $(head -c 600 "$T_TMP/list.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert [h["host"] for h in d["hosts"]] == ["h1", "h2", "h3"], d["hosts"]
assert all(h["reachable"] and h["status"] == 0 for h in d["hosts"]), d["hosts"]
for x in d["controllers"] + d["block_devices"]:
    assert x["host"] in ("h1", "h2", "h3"), x
mine = [x["host"] for x in d["block_devices"] if x["name"] == sys.argv[2]]
assert mine == ["h1", "h2", "h3"], mine
EOF
"$NVS_BIN" list --host h1 --host h2 "${R[@]}" >"$T_TMP/list.txt" 2>"$T_TMP/err" || fail "list text: $(cat "$T_TMP/err")"
grep -qx "h1:" "$T_TMP/list.txt" && grep -qx "h2:" "$T_TMP/list.txt" && grep -q "$a" "$T_TMP/list.txt" ||
	fail "list text not grouped by host: $(cat "$T_TMP/list.txt")"
ok "list over 3 hosts: one tree, host on every device; text grouped by host"

# check over 3 hosts: one row per host + drive
start=$SECONDS
"$NVS_BIN" check --target "h1:$A" --target "h2:$B" --target "h3:$C" --profile "$T_TMP/tiny.ini" \
	-o "$T_TMP/r-%h" "${R[@]}" --json >"$T_TMP/c.json" 2>"$T_TMP/err"
rc=$?
[ $rc -eq 0 ] || fail "check over 3 hosts exited $rc: $(cat "$T_TMP/err")"
"$PY" - "$T_TMP/c.json" "$a" "$b" "$c" <<'EOF' || fail "check JSON: $(head -c 800 "$T_TMP/c.json")"
import json, sys
d = json.load(open(sys.argv[1]))
rows = sorted((x["host"], x["serial"], x["verdict"]) for x in d["drives"])
assert rows == [("h1", sys.argv[2], "PASS"), ("h2", sys.argv[3], "PASS"),
                ("h3", sys.argv[4], "PASS")], rows
assert d["counts"] == {"pass": 3, "warn": 0, "fail": 0, "na": 0}, d["counts"]
assert all(h["checked"] and h["status"] == 0 for h in d["hosts"]), d["hosts"]
EOF
for h in h1 h2 h3; do
	[ -s "$T_TMP/r-$h/summary.json" ] || fail "host $h wrote no results directory r-$h"
done
ok "check over 3 hosts: one PASS row per host + drive, exit 0, results per host ($((SECONDS - start)) s)"

# one host without nvscope (h2: a wrapper that execs a path that does not
# exist there), one refusing the key (h3b: h3 with a key it does not know),
# h1 judged all the same
ip_of() { ssh -F "$SSHD_CFG" -G "$1" | awk '$1 == "hostname" {print $2}'; }
ip2=$(ip_of h2)
cat >"$T_TMP/nv-wrap" <<EOF
#!/bin/sh
case "\$SSH_CONNECTION" in
*" $ip2 "*) exec /nonexistent/nvscope "\$@" ;;
esac
exec "$NVS_BIN" "\$@"
EOF
chmod +x "$T_TMP/nv-wrap"
ssh-keygen -q -t ed25519 -N '' -f "$T_TMP/stranger" || fail "ssh-keygen"
cat >>"$SSHD_CFG" <<EOF
Host h3b
	HostName $(ip_of h3)
	Port $(ssh -F "$SSHD_CFG" -G h3 | awk '$1 == "port" {print $2}')
	IdentityFile $T_TMP/stranger
	IdentitiesOnly yes
EOF
start=$SECONDS
"$NVS_BIN" check --target "h1:$A" --target "h2:$B" --target "h3b:$C" --profile "$T_TMP/tiny.ini" \
	-o "$T_TMP/s-%h" --remote-nvscope "$T_TMP/nv-wrap" --json >"$T_TMP/m.json" 2>"$T_TMP/err"
rc=$?
cat "$T_TMP/err"
[ $rc -eq 1 ] || fail "a host without nvscope and one refusing the key: exit $rc, wanted 1"
[ "$(grep -c '^nvscope check: h2: ' "$T_TMP/err")" = 1 ] || fail "not one line for h2"
[ "$(grep -c '^nvscope check: h3b: ' "$T_TMP/err")" = 1 ] || fail "not one line for h3b"
grep -q "^nvscope check: h2: could not check: nvscope is not on the host as '$T_TMP/nv-wrap'" "$T_TMP/err" ||
	grep -q "^nvscope check: h2: could not check: .*exit 127.*--remote-nvscope" "$T_TMP/err" ||
	fail "h2's line does not say nvscope is missing"
grep -q "^nvscope check: h3b: could not check: key refused: Permission denied (publickey)" "$T_TMP/err" ||
	fail "h3b's line does not say the key was refused"
grep -q "stranger" "$T_TMP/err" && fail "a key path in the messages"
"$PY" - "$T_TMP/m.json" "$a" <<'EOF' || fail "mixed JSON: $(head -c 800 "$T_TMP/m.json")"
import json, sys
d = json.load(open(sys.argv[1]))
rows = sorted((x["host"], x["verdict"]) for x in d["drives"])
assert rows == [("h1", "PASS"), ("h2", "N/A"), ("h3b", "N/A")], rows
na = [x for x in d["drives"] if x["verdict"] == "N/A"]
assert all(x["reasons"][0].startswith("could not check: ") for x in na), na
st = {h["host"]: h for h in d["hosts"]}
assert st["h1"]["checked"] and not st["h2"]["checked"] and not st["h3b"]["checked"], st
EOF
ok "missing nvscope (h2) and refused key (h3b): one line each, N/A rows, h1 judged, exit 1 ($((SECONDS - start)) s)"
