#!/bin/bash
# fio's wait_for=NAME (backend.c waitee_running, init.c wait_for_ok): a job
# starts only once the named earlier job has ended; the others of its run
# group start at once.  Checked by data, not by time: [w] writes the region
# with verify headers, [r] (wait_for=w) verifies it read-only, which only
# passes when every write completed before [r] began; [x] (no wait_for) runs
# alongside.  The JSON lists the jobs and groups as fio's does.  An unknown,
# later, duplicate or own name is refused at its line, as fio refuses it.
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "fio not installed"
t_loop 64M; dev=$LOOP
cat >"$T_TMP/w.fio" <<JOB
[global]
filename=$dev
direct=1
ioengine=libaio
iodepth=4
bs=4k
size=8m
[w]
rw=write
verify=crc32c
do_verify=0
[x]
rw=randread
runtime=1
time_based
[r]
new_group
wait_for=w
rw=read
verify=crc32c
verify_only=1
verify_fatal=1
JOB
"$NVS_BIN" run --force-destroy --output-format=json "$T_TMP/w.fio" >"$T_TMP/n.json" 2>"$T_TMP/err" ||
	fail "nvscope: $(cat "$T_TMP/err")"
python3 - "$T_TMP/n.json" <<'PY' || fail "nvscope's JSON: $(head -c 400 "$T_TMP/n.json")"
import json, sys
d = json.load(open(sys.argv[1]))
j = {x["jobname"]: x for x in d["jobs"]}
assert sorted(j) == ["r", "w", "x"], sorted(j)
assert j["w"]["groupid"] == j["x"]["groupid"] != j["r"]["groupid"], [(k, v["groupid"]) for k, v in j.items()]
v = j["r"]["nvscope"]["verify"]
assert v["blocks"] == 2048 and v["bad"] == 0, v   # 8 MiB of 4k blocks, all written first
assert j["w"]["write"]["io_bytes"] == 8 << 20, j["w"]["write"]["io_bytes"]
assert j["x"]["read"]["total_ios"] > 0
PY
ok "wait_for: [r] verified all 2048 blocks [w] wrote before it started, [x] ran alongside"
fio --output-format=json "$T_TMP/w.fio" >"$T_TMP/f.json" 2>"$T_TMP/err" || fail "fio: $(cat "$T_TMP/err")"
python3 - "$T_TMP/f.json" "$T_TMP/n.json" <<'PY' || fail "groups differ from fio's"
import json, sys
def g(p):
    t = open(p).read(); d = json.loads(t[t.index("{"):])
    return sorted((x["jobname"], x["groupid"]) for x in d["jobs"])
assert g(sys.argv[1]) == g(sys.argv[2]), (g(sys.argv[1]), g(sys.argv[2]))
PY
ok "jobs and groups as fio's"

# a chain: [c] waits for [b] which waits for [a]: each runs, one after another
printf '[global]\nfilename=%s\nrw=read\nbs=4k\nsize=1m\n[a]\n[b]\nwait_for=a\n[c]\nwait_for=b\n' \
	"$dev" >"$T_TMP/c.fio"
"$NVS_BIN" run --output-format=json "$T_TMP/c.fio" >"$T_TMP/c.json" 2>"$T_TMP/err" ||
	fail "chain: $(cat "$T_TMP/err")"
python3 -c "
import json; d = json.load(open('$T_TMP/c.json'))
assert [x['read']['io_bytes'] for x in d['jobs']] == [1 << 20] * 3, d['jobs']" || fail "chain a<-b<-c"
ok "a chain of wait_for runs every job"

for bad in "zz:no job 'zz' before this one" "c:no job 'c' before this one" \
	"b:a job cannot wait for itself"; do
	name=${bad%%:*}
	printf '[global]\nfilename=%s\n[a]\n[b]\nwait_for=%s\n[c]\nsize=1m\n' "$dev" "$name" >"$T_TMP/b.fio"
	"$NVS_BIN" run --parse-only "$T_TMP/b.fio" 2>"$T_TMP/err" && fail "wait_for=$name accepted"
	grep -q "b.fio:5: wait_for: ${bad#*:}" "$T_TMP/err" || fail "wait_for=$name: $(cat "$T_TMP/err")"
	# fio refuses them when it sets the jobs up (--parse-only does not check)
	fio --output-format=json "$T_TMP/b.fio" >/dev/null 2>&1 && fail "fio accepts wait_for=$name"
done
printf '[global]\nfilename=%s\n[a]\n[a]\n[b]\nwait_for=a\n' "$dev" >"$T_TMP/d.fio"
"$NVS_BIN" run --parse-only "$T_TMP/d.fio" 2>"$T_TMP/err" && fail "duplicate waitee accepted"
grep -q "d.fio:6: wait_for: more than one job 'a'" "$T_TMP/err" || fail "duplicate: $(cat "$T_TMP/err")"
printf '[global]\nfilename=%s\nwait_for=a\n[a]\n' "$dev" >"$T_TMP/g.fio"
"$NVS_BIN" run --parse-only "$T_TMP/g.fio" 2>"$T_TMP/err" && fail "global wait_for accepted"
grep -q "g.fio:3: wait_for: in \[global\]" "$T_TMP/err" || fail "global: $(cat "$T_TMP/err")"
ok "unknown, later, duplicate, own and global waitees refused at their line"
