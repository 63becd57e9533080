#!/bin/bash
# nvscope over ssh (docs/hosts.md), real sshd on three loopback hosts
# (tests/lib/sshd.sh): `list --hosts FILE --json` is one tree with "host" on
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
# h1 finds nvscope on its PATH, h2 does not (its PATH is sshd's default),
# h4 refuses the test key
bindir=$(dirname "$NVS_BIN")
[ "$(basename "$NVS_BIN")" = nvscope ] || skip "the binary is not named nvscope: $NVS_BIN"
host h1 --setenv "PATH=$bindir:/usr/sbin:/usr/bin:/sbin:/bin"
host h2
host h3
host h4 --refuse-key
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
printf '# the rack\nh1\nh2 # a comment\n\nh3\n' >"$T_TMP/rack.txt"
nv list --hosts "$T_TMP/rack.txt" "${R[@]}" --json >"$T_TMP/list.json" ||
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
nv list --host h1 "${R[@]}" >"$T_TMP/list.txt" || fail "list text: $(cat "$T_TMP/err")"
grep -qx "h1:" "$T_TMP/list.txt" && grep -q "^/dev/$a " "$T_TMP/list.txt" ||
	fail "list text not grouped by host: $(cat "$T_TMP/list.txt")"
ok "list over the 3 hosts of a hosts file: one tree, host on every device; text under the host"

# check over 3 hosts: one row per host + drive
start=$SECONDS
nv check --target "h1:$A" --target "h2:$B" --target "h3:$C" --profile "$T_TMP/tiny.ini" \
	-o "$T_TMP/r-%h" "${R[@]}" --json --csv "$T_TMP/c.csv" >"$T_TMP/c.json"
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

# one host without nvscope on its PATH (h2: `nvscope: command not found`,
# exit 127), one refusing the key (h4), h1 judged all the same
start=$SECONDS
nv check --target "h1:$A" --target "h2:$B" --target "h4:$C" --profile "$T_TMP/tiny.ini" \
	-o "$T_TMP/s-%h" --remote-nvscope nvscope --json --csv "$T_TMP/m.csv" >"$T_TMP/m.json"
rc=$?
cat "$T_TMP/err"
[ $rc -eq 1 ] || fail "a host without nvscope and one refusing the key: exit $rc, wanted 1"
[ "$(grep -c '^nvscope check: h2: ' "$T_TMP/err")" = 1 ] || fail "not one line for h2"
[ "$(grep -c '^nvscope check: h4: ' "$T_TMP/err")" = 1 ] || fail "not one line for h4"
grep -q "^nvscope check: h2: could not check: nvscope is not on the host as 'nvscope' (exit 127): install it there or name it with --remote-nvscope PATH$" "$T_TMP/err" ||
	fail "h2's line does not say nvscope is missing"
grep -q "^nvscope check: h4: could not check: key refused: Permission denied (publickey)" "$T_TMP/err" ||
	fail "h4's line does not say the key was refused"
grep -q "id_ed25519\|$T_TMP/sshd" "$T_TMP/err" && fail "a key path in the messages"
"$PY" - "$T_TMP/m.json" <<'EOF' || fail "mixed JSON: $(head -c 800 "$T_TMP/m.json")"
import json, sys
d = json.load(open(sys.argv[1]))
rows = sorted((x["host"], x["verdict"]) for x in d["drives"])
assert rows == [("h1", "PASS"), ("h2", "N/A"), ("h4", "N/A")], rows
na = [x for x in d["drives"] if x["verdict"] == "N/A"]
assert all(x["reasons"][0].startswith("could not check: ") for x in na), na
st = {h["host"]: h for h in d["hosts"]}
assert st["h1"]["checked"] and not st["h2"]["checked"] and not st["h4"]["checked"], st
assert d["counts"] == {"pass": 1, "warn": 0, "fail": 0, "na": 2}, d["counts"]
EOF
ok "nvscope missing (h2) and key refused (h4): one line each, N/A rows, h1 judged, exit 1 ($((SECONDS - start)) s)"

# --csv over hosts: the local columns with the host first, one row per host
# + drive, the same as the JSON's rows (the N/A ones too)
"$PY" - "$T_TMP" <<'EOF' || fail "--csv over hosts (above)"
import csv, json, sys
tmp = sys.argv[1]
for name in ("c", "m"):
    rows = list(csv.reader(open(f"{tmp}/{name}.csv")))
    assert rows[0] == ["host", "serial", "model", "firmware", "capacity_bytes", "device",
                       "profile", "verdict", "reasons"], rows[0]
    d = json.load(open(f"{tmp}/{name}.json"))
    want = sorted((x["host"], x["serial"] or "", x["verdict"], "; ".join(x["reasons"]))
                  for x in d["drives"])
    got = sorted((r[0], r[1], r[7], r[8]) for r in rows[1:])
    assert got == want, (name, got, want)
    print(f"{name}.csv: {len(rows) - 1} rows as the JSON's")
EOF
# a --csv the output rule refuses (a block device): exit 2, no host asked
nv check --target "h1:$A" --profile "$T_TMP/tiny.ini" "${R[@]}" --csv "$A" >/dev/null
rc=$?
[ $rc -eq 2 ] || fail "--csv on a block device over hosts: exit $rc, wanted 2: $(cat "$T_TMP/err")"
grep -q "^nvscope check: --csv " "$T_TMP/err" || fail "the --csv refusal: $(cat "$T_TMP/err")"
ok "--csv over hosts: the JSON's rows with the host first; a block device refused before any host"

# --resume over hosts: a check over h1 and h2 interrupted (SIGINT) after
# each host's state reached its perf phase, then resumed on both hosts from
# each one's own directory (%h): one PASS row per host + drive, exit 0
sed 's/^perf_rounds=1$/perf_rounds=3/; s/^runtime=300ms$/runtime=1s/' "$T_TMP/tiny.ini" >"$T_TMP/slow.ini"
step() { sed -n 's/^[[:space:]]*"next_step":[[:space:]]*\([0-9]*\),.*/\1/p' "$T_TMP/q-$1/state.json" 2>/dev/null; }
"$NVS_BIN" check --target "h1:$A" --target "h2:$B" --profile "$T_TMP/slow.ini" -o "$T_TMP/q-%h" \
	"${R[@]}" -q >/dev/null 2>"$T_TMP/err-q" &
pid=$!
for _ in $(seq 300); do [ "$(step h1)" = 2 ] && [ "$(step h2)" = 2 ] && break; t_nap 0.1; done
[ "$(step h1)" = 2 ] && [ "$(step h2)" = 2 ] ||
	{ kill $pid; fail "the hosts' states never reached their perf phase: $(cat "$T_TMP/err-q")"; }
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 1 ] || fail "interrupted check over hosts exited $rc, wanted 1: $(cat "$T_TMP/err-q")"
nv check --host h1 --host h2 --resume "$T_TMP/q-%h" "${R[@]}" --json >"$T_TMP/q.json"
rc=$?
[ $rc -eq 0 ] || fail "--resume over hosts exited $rc: $(cat "$T_TMP/err")"
"$PY" - "$T_TMP/q.json" "$a" "$b" <<'EOF' || fail "resumed JSON: $(head -c 800 "$T_TMP/q.json")"
import json, sys
d = json.load(open(sys.argv[1]))
rows = sorted((x["host"], x["serial"], x["verdict"]) for x in d["drives"])
assert rows == [("h1", sys.argv[2], "PASS"), ("h2", sys.argv[3], "PASS")], rows
assert not d.get("interrupted"), d
EOF
ok "--resume over hosts: an interrupted check over h1 and h2 resumed on both from their own directories, PASS, exit 0"

# purge over hosts: without the tokens each agent refuses and nothing is
# touched; with them each host trims its own device (reads zeros after)
for d in "$A" "$B"; do
	t_pattern "$d" 1 || fail "pattern onto $d"
	dd if="$d" of="$T_TMP/pat-$(basename "$d")" bs=1M count=1 iflag=direct status=none
done
same() { cmp -s -n 1048576 "$1" "$2"; }
nv purge "h1:$A" "h2:$B" --method=trim "${R[@]}" >"$T_TMP/p1.out"
rc=$?
[ $rc -eq 2 ] || fail "purge over hosts without tokens: exit $rc, wanted 2: $(cat "$T_TMP/err")"
for d in "$A" "$B"; do
	grep -q "refusing to destroy data without confirmation" "$T_TMP/p1.out" ||
		fail "no refusal line: $(cat "$T_TMP/p1.out" "$T_TMP/err")"
	same "$d" "$T_TMP/pat-$(basename "$d")" || fail "$d changed after a refused purge"
done
# one token wrong (h2's is C's): h1 trimmed, h2 refused and untouched
nv purge "h1:$A" "h2:$B" --method=trim --yes-destroy-data="$A,$C" "${R[@]}" >"$T_TMP/p2.out"
rc=$?
[ $rc -eq 2 ] || fail "purge with h2's token wrong: exit $rc, wanted 2: $(cat "$T_TMP/p2.out" "$T_TMP/err")"
grep -q "purge: trim done on $A" "$T_TMP/p2.out" || fail "h1 not trimmed: $(cat "$T_TMP/p2.out")"
same "$B" "$T_TMP/pat-$b" || fail "$B changed with a wrong token"
cmp -s -n 1048576 "$A" /dev/zero || fail "$A does not read zeros after its trim"
nv purge "h1:$A" "h2:$B" --method=trim --yes-destroy-data="$A,$B" "${R[@]}" >"$T_TMP/p3.out" ||
	fail "purge over hosts with the tokens: exit $?: $(cat "$T_TMP/p3.out" "$T_TMP/err")"
grep -q "^h2:$" "$T_TMP/p3.out" && grep -q "purge: trim done on $B" "$T_TMP/p3.out" ||
	fail "h2's lines: $(cat "$T_TMP/p3.out")"
cmp -s -n 1048576 "$B" /dev/zero || fail "$B does not read zeros after its trim"
ok "purge over hosts: refused without the tokens (nothing touched), a wrong token refused on its host only, trimmed with them"

# the issue's own command, check --hosts FILE --all-nvme --profile quick
# --json: these hosts have no NVMe drive (loop devices only), so each says
# so and the exit status is the local command's (2); the verdict rows of
# drives are checked above with HOST:DEV targets, and a plain DEV on every
# host of --hosts (below)
printf 'h1\nh2\nh3\n' >"$T_TMP/rack3.txt"
"$NVS_BIN" check --all-nvme --profile quick --json >/dev/null 2>"$T_TMP/err-l"
lrc=$?
nv check --hosts "$T_TMP/rack3.txt" --all-nvme --profile quick --json "${R[@]}" >/dev/null
rc=$?
[ $rc -eq $lrc ] || fail "--all-nvme over hosts: exit $rc, locally $lrc: $(cat "$T_TMP/err")"
for h in h1 h2 h3; do
	grep -q "^nvscope check: $h: no drive to check$" "$T_TMP/err" || fail "$h not named: $(cat "$T_TMP/err")"
done
nv check --hosts "$T_TMP/rack3.txt" --target "$A" --profile "$T_TMP/tiny.ini" -o "$T_TMP/e-%h" "${R[@]}" --json >"$T_TMP/every.json" ||
	fail "a plain DEV on every host of --hosts: exit $?: $(cat "$T_TMP/err")"
"$PY" - "$T_TMP/every.json" "$a" <<'EOF' || fail "--hosts with a plain DEV: $(head -c 600 "$T_TMP/every.json")"
import json, sys
d = json.load(open(sys.argv[1]))
rows = sorted((x["host"], x["serial"], x["verdict"]) for x in d["drives"])
assert rows == [(h, sys.argv[2], "PASS") for h in ("h1", "h2", "h3")], rows
EOF
ok "check --hosts FILE: --all-nvme on hosts without NVMe exits as locally ($lrc) naming each; a plain DEV on every host gives one verdict per host + drive"
