#!/bin/bash
# nvscope run over hosts (docs/hosts.md), real sshd on two loopback hosts
# (tests/lib/sshd.sh), one loop device each (HOST:PATH targets), the
# kernel as referee (/sys/block/loopN/stat, as kernel_referee.sh):
#  1. a randwrite (with --yes-destroy-data) over the 2 hosts: each host's
#     I/O count in the gathered fio JSON ("client_stats", one "hostname" per
#     job) equals the kernel's write count of its own device (field 5,
#     within the queue depth in flight), and "All clients" equals the
#     hosts' sum; a randread the same, except that the kernel may count
#     more (another test's device scan reads every block device: the read
#     counters are not this test's alone, the write counters are);
#  2. kill -9 of h1's agent mid-write: h1 named lost, h2's results complete
#     and refereed, exit 1, within runtime + 10 s;
#  3. a write without --yes-destroy-data: refused by the agents (the line
#     names the token), exit 2, the kernel's write counters unchanged;
#  4. a plain PATH with --host h1 --host h2: run on both hosts.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib/sshd.sh"
command -v python3 >/dev/null || skip "no python3"
PY=$(python3 -c 'import sys; print(sys.executable)') && [ -x "$PY" ] || PY=python3

nv() {
	"$NVS_BIN" "$@" 2>"$T_TMP/err"
	local rc=$?
	! grep -q "Sanitizer\|runtime error:" "$T_TMP/err" || fail "a sanitizer report: $(cat "$T_TMP/err")"
	return $rc
}
sshd_host h1
sshd_host h2
t_loop 16M
A=$LOOP
t_loop 16M
B=$LOOP
a=$(basename "$A") b=$(basename "$B")
for d in $a $b; do
	echo 2 >"/sys/block/$d/queue/nomerges" 2>/dev/null # one bio = one request
	[ -r "/sys/block/$d/stat" ] || skip "no /sys/block/$d/stat"
done
# the binary on the hosts through a wrapper saving each agent's pid (for
# the kill; the harness tags each host's sessions with its address)
cat >"$T_TMP/nv-wrap" <<EOF
#!/bin/sh
echo \$\$ >"$T_TMP/pid-\$NVS_SSHD_TAG"
exec "$NVS_BIN" "\$@"
EOF
chmod +x "$T_TMP/nv-wrap"
R=(--remote-nvscope "$T_TMP/nv-wrap")
W=(--bs=4k --iodepth=4 --ramp_time=0 --time_based --output-format=json)

# referee JSON FIELD0 HOSTS...: each listed host's count equals the kernel's
# delta of its device ($T_TMP/before-X, after-X) within the queue depth,
# "All clients" the sum over the listed hosts when all are; for reads
# (FIELD0 0) the kernel may count more (other tests' scans), never fewer
referee() {
	"$PY" - "$T_TMP" "$@" <<'EOF'
import json, sys
tmp, path, f0, hosts = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
dev = {"h1": open(tmp + "/dev-h1").read().strip(), "h2": open(tmp + "/dev-h2").read().strip()}
d = json.load(open(path))
dirn = "read" if f0 == 0 else "write"
jobs = d["client_stats"]
agg = [j for j in jobs if j["jobname"] == "All clients"]
assert len(agg) == 1 and jobs[-1] is agg[0], "no single 'All clients' last"
st = {h["host"]: h for h in d["hosts"]}
total, bad = 0, []
for h in hosts:
    assert st[h]["complete"] and st[h]["status"] == 0, st[h]
    mine = [j for j in jobs if j.get("hostname") == h and j["jobname"] != "All clients"]
    assert mine, f"no job of {h}"
    n = sum(j[dirn]["total_ios"] for j in mine)
    b = [int(x) for x in open(f"{tmp}/before-{h}").read().split()]
    a = [int(x) for x in open(f"{tmp}/after-{h}").read().split()]
    k = (a[f0] - b[f0]) + (a[f0 + 1] - b[f0 + 1])
    print(f"{h} {dev[h]} {dirn}: nvscope {n} I/Os, kernel {k}")
    if n < 100:
        bad.append(f"{h}: only {n} I/Os")
    # the queue depth: in flight at the end
    if (abs(n - k) if f0 else n - k) > 4:
        bad.append(f"{h}: nvscope {n} vs kernel {k}")
    total += n
if len(hosts) == len(st) and agg[0][dirn]["total_ios"] != total:
    bad.append(f"All clients {agg[0][dirn]['total_ios']} != sum {total}")
if bad:
    print("MISMATCH " + "; ".join(bad))
    sys.exit(1)
EOF
}
echo "$A" >"$T_TMP/dev-h1"
echo "$B" >"$T_TMP/dev-h2"
stats() { cat "/sys/block/$a/stat" >"$T_TMP/$1-h1"; cat "/sys/block/$b/stat" >"$T_TMP/$1-h2"; }

# 1. randwrite with the tokens, then randread, over both hosts
for rw in randwrite randread; do
	f0=0 extra=()
	[ $rw = randwrite ] && f0=4 extra=(--yes-destroy-data="$A,$B")
	stats before
	nv run --target "h1:$A" --target "h2:$B" --rw=$rw "${W[@]}" --runtime=500ms "${extra[@]}" \
		"${R[@]}" >"$T_TMP/$rw.json"
	rc=$?
	stats after
	[ $rc -eq 0 ] || fail "$rw over 2 hosts: exit $rc: $(cat "$T_TMP/err")"
	referee "$T_TMP/$rw.json" $f0 h1 h2 || fail "$rw: the hosts' counts disagree with the kernel (above)"
	grep -q "^run: start skew [0-9.]* ms over 2 hosts" "$T_TMP/err" || fail "no start skew: $(cat "$T_TMP/err")"
	ok "$rw over 2 hosts: each host's I/Os = its device's kernel count, All clients = the sum ($(grep -o 'skew [0-9.]* ms' "$T_TMP/err"))"
done

# 4. a plain PATH with --host: that path on every host named (both hosts
#    read $A here: each host one job, "All clients" their sum, the
#    kernel's read count of $A at least that sum)
stats before
nv run --host h1 --host h2 --target "$A" --rw=randread "${W[@]}" --runtime=300ms "${R[@]}" \
	>"$T_TMP/every.json" || fail "--host h1 --host h2 --target $A: exit $?: $(cat "$T_TMP/err")"
stats after
"$PY" - "$T_TMP" <<'EOF' || fail "a PATH on every --host (above)"
import json, sys
tmp = sys.argv[1]
d = json.load(open(tmp + "/every.json"))
st = {h["host"]: h for h in d["hosts"]}
assert set(st) == {"h1", "h2"} and all(h["complete"] for h in st.values()), st
jobs = [j for j in d["client_stats"] if j["jobname"] != "All clients"]
per = {h: sum(j["read"]["total_ios"] for j in jobs if j.get("hostname") == h) for h in st}
agg = [j for j in d["client_stats"] if j["jobname"] == "All clients"][0]["read"]["total_ios"]
b = [int(x) for x in open(tmp + "/before-h1").read().split()]
a = [int(x) for x in open(tmp + "/after-h1").read().split()]
k = a[0] - b[0]
print(f"per host {per}, All clients {agg}, kernel reads of the device {k}")
assert all(n >= 100 for n in per.values()), per
assert agg == sum(per.values()), (agg, per)
assert k >= agg, (k, agg)
EOF
ok "a PATH with --host h1 --host h2: run on both hosts, All clients = the sum, <= the kernel's count"

# 3. a write without the tokens: refused by each agent, nothing written
stats before
nv run --target "h1:$A" --target "h2:$B" --rw=randwrite "${W[@]}" --runtime=500ms "${R[@]}" >/dev/null
rc=$?
stats after
for h in h1 h2; do
	read -ra x <"$T_TMP/before-$h"
	read -ra y <"$T_TMP/after-$h"
	[ "${x[4]}" = "${y[4]}" ] || fail "$h: the kernel counted $((y[4] - x[4])) writes after a refusal"
done
[ $rc -eq 2 ] || fail "a write without --yes-destroy-data: exit $rc, wanted 2: $(cat "$T_TMP/err")"
grep -q "^nvscope run: h1: refusing: the run writes to $A and destroys its data; confirm with --yes-destroy-data=$A$" "$T_TMP/err" ||
	fail "h1's refusal: $(cat "$T_TMP/err")"
ok "a write without --yes-destroy-data: refused by the agents, exit 2, no write reached either device"

# 2. h1's agent killed mid-write (1.5 s): h1 lost, h2 complete, exit 1
rm -f "$T_TMP"/pid-*
stats before
start=${EPOCHREALTIME/./}
"$NVS_BIN" run --target "h1:$A" --target "h2:$B" --rw=randwrite "${W[@]}" --runtime=1500ms \
	--yes-destroy-data="$A,$B" "${R[@]}" >"$T_TMP/k.json" 2>"$T_TMP/err" &
CPID=$!
ip1=$(sshd_addr h1)
# the run has started when h2's device is written (the gate holds every I/O
# until the one GO)
read -ra r0 <"/sys/block/$b/stat"
for i in $(seq 400); do
	read -ra r1 <"/sys/block/$b/stat"
	[ "${r1[4]}" -gt "$((r0[4] + 50))" ] && break
	t_nap 0.02
done
[ "${r1[4]}" -gt "$((r0[4] + 50))" ] || fail "the run never started on h2"
t_nap 0.2
kill -9 "$(cat "$T_TMP/pid-$ip1")" || fail "no agent of h1 to kill"
wait $CPID
rc=$?
took=$(((${EPOCHREALTIME/./} - start) / 1000))
stats after
cat "$T_TMP/err"
grep -q "Sanitizer\|runtime error:" "$T_TMP/err" && fail "a sanitizer report"
[ $rc -eq 1 ] || fail "h1's agent killed: exit $rc, wanted 1"
grep -q "^nvscope run: h1: lost: " "$T_TMP/err" || fail "h1 not named lost"
[ $took -le 11500 ] || fail "took $took ms (runtime 1.5 s + 10 s)"
referee "$T_TMP/k.json" 4 h2 || fail "h2's results after h1 was lost (above)"
"$PY" - "$T_TMP/k.json" <<'EOF' || fail "the lost host in the JSON"
import json, sys
d = json.load(open(sys.argv[1]))
st = {h["host"]: h for h in d["hosts"]}
assert not st["h1"]["complete"] and st["h1"]["status"] is None, st["h1"]
assert st["h1"]["error"].startswith("lost: "), st["h1"]
assert not [j for j in d["client_stats"] if j.get("hostname") == "h1"], "jobs of the lost host"
EOF
ok "h1's agent killed mid-run: h1 named lost, h2 complete and refereed, exit 1 in $took ms"
