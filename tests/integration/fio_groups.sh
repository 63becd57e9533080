#!/bin/bash
# fio's grouping and reporting against Debian's fio on one loop device:
# group_reporting (one JSON entry per report group, the jobs' I/Os summed),
# exitall / exit_what (a job's end stops its group, or everything), and
# several job files on one command line (each file behind a stonewall).
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "fio not installed"
t_loop 64M; dev=$LOOP
kios() { awk '{printf "%.0f\n", $1 + $5}' "/sys/block/$(basename "$dev")/stat"; }
# "name groupid ios runtime_ms" per JSON job entry
jobs_of() {
	python3 -c "
import json, sys; t = open('$1').read(); d = json.loads(t[t.index('{'):])
for j in d['jobs']:
    print(j['jobname'], j['groupid'], j['read']['total_ios'] + j['write']['total_ios'], j['job_runtime'])"
}
both() { # $1 = job file(s)...: fio's and nvscope's entries in $T_TMP/f, $T_TMP/n
	fio --output-format=json "$@" >"$T_TMP/f.json" 2>"$T_TMP/err" || fail "fio: $(cat "$T_TMP/err")"
	k0=$(kios)
	"$NVS_BIN" run --output-format=json "$@" >"$T_TMP/n.json" 2>"$T_TMP/err" ||
		fail "nvscope: $(cat "$T_TMP/err")"
	kdelta=$(( $(kios) - k0 ))
	jobs_of "$T_TMP/f.json" >"$T_TMP/f" || fail "fio JSON"
	jobs_of "$T_TMP/n.json" >"$T_TMP/n" || fail "nvscope JSON"
}

# 1. group_reporting: [a] (2 clones) and [b] are one report group, [c] another
cat >"$T_TMP/g.fio" <<JOB
[global]
filename=$dev
direct=1
ioengine=libaio
iodepth=1
runtime=1
time_based
group_reporting
[a]
rw=randread
numjobs=2
[b]
rw=randwrite
[c]
new_group
rw=read
JOB
both "$T_TMP/g.fio"
[ "$(cut -d' ' -f1,2 "$T_TMP/n")" = "$(cut -d' ' -f1,2 "$T_TMP/f")" ] ||
	fail "group_reporting entries: nvscope $(cat "$T_TMP/n" | tr '\n' ';') fio $(cat "$T_TMP/f" | tr '\n' ';')"
sum=$(awk '{s += $3} END {print s}' "$T_TMP/n")
# the kernel also saw the I/Os in flight at the end, the write-safety reads
# and other readers of a shared machine (udev's probes): slack above, none below
ex=$((kdelta - sum))
[ "$ex" -ge 0 ] && [ "$ex" -le $((sum / 10 + 200)) ] || fail "group_reporting totals $sum vs the kernel's $kdelta"
read -r _ _ a_ios _ < "$T_TMP/n"
[ "$a_ios" -gt $((sum / 2)) ] || fail "group a+b should hold most I/Os: $(cat "$T_TMP/n" | tr '\n' ';')"
# fio's group entry: its first job's name, its last job's options (stat.c
# opt_lists): [a]+[b] is named a with b's rw=randwrite
rw_of() {
	python3 -c "
import json; t = open('$1').read(); d = json.loads(t[t.index('{'):])
print(' '.join(j['jobname'] + '=' + j['job options'].get('rw', '?') for j in d['jobs']))"
}
[ "$(rw_of "$T_TMP/n.json")" = "$(rw_of "$T_TMP/f.json")" ] ||
	fail "group entries' options: nvscope $(rw_of "$T_TMP/n.json"), fio $(rw_of "$T_TMP/f.json")"
ok "group_reporting: $(wc -l <"$T_TMP/n") entries as fio ($(cut -d' ' -f1,2 "$T_TMP/n" | tr '\n' ';')), sums match the kernel"

# 2. exitall: [short] ends after 1 MiB and stops [long] (its report group);
# [other] (new_group) runs its 2 s; [after] (stonewall) runs
cat >"$T_TMP/e.fio" <<JOB
[global]
filename=$dev
direct=1
bs=4k
[short]
rw=read
size=1m
exitall
[long]
rw=randread
runtime=5
time_based
[other]
new_group
rw=randread
runtime=2
time_based
[after]
stonewall
rw=read
size=1m
JOB
both "$T_TMP/e.fio"
python3 - "$T_TMP/n" "$T_TMP/f" <<'PY' || fail "exitall: nvscope $(tr '\n' ';' <"$T_TMP/n") fio $(tr '\n' ';' <"$T_TMP/f")"
import sys
n = {l.split()[0]: l.split() for l in open(sys.argv[1])}
assert int(n["long"][3]) < 1500, "long must stop when short ends"
assert int(n["other"][3]) >= 1900, "other (another report group) runs its 2 s"
assert int(n["after"][2]) == 256, "after runs"
PY
ok "exitall stops the report group of the job that ended: $(tr '\n' ';' <"$T_TMP/n")"

# 3. exit_what=all: everything stops, [after] never starts
sed 's/^exitall$/exitall\nexit_what=all/' "$T_TMP/e.fio" >"$T_TMP/e2.fio"
both "$T_TMP/e2.fio"
python3 - "$T_TMP/n" <<'PY' || fail "exit_what=all: $(tr '\n' ';' <"$T_TMP/n")"
import sys
n = {l.split()[0]: l.split() for l in open(sys.argv[1])}
assert int(n["long"][3]) < 1500 and int(n["other"][3]) < 1500, "all stop"
assert int(n["after"][2]) == 0 and int(n["after"][3]) == 0, "after never starts"
PY
# fio lists the job that never started, with zero figures: so does nvscope
[ "$(cut -d' ' -f1,2 "$T_TMP/n")" = "$(cut -d' ' -f1,2 "$T_TMP/f")" ] ||
	fail "exit_what=all entries: nvscope $(tr '\n' ';' <"$T_TMP/n") fio $(tr '\n' ';' <"$T_TMP/f")"
ok "exit_what=all: $(tr '\n' ';' <"$T_TMP/n") (fio: $(tr '\n' ';' <"$T_TMP/f"))"

# 4. two job files: fio runs the second behind a stonewall (its own group)
printf '[global]\nfilename=%s\ndirect=1\nruntime=1\ntime_based\n[x]\nrw=randread\n[y]\nrw=read\n' "$dev" >"$T_TMP/1.fio"
printf '[global]\nfilename=%s\ndirect=1\nsize=1m\n[z]\nrw=read\n[w]\nrw=randread\n' "$dev" >"$T_TMP/2.fio"
both "$T_TMP/1.fio" "$T_TMP/2.fio"
[ "$(cut -d' ' -f1,2 "$T_TMP/n")" = "$(cut -d' ' -f1,2 "$T_TMP/f")" ] ||
	fail "two job files: nvscope $(tr '\n' ';' <"$T_TMP/n") fio $(tr '\n' ';' <"$T_TMP/f")"
grep -q "^z 1 256 " "$T_TMP/n" || fail "2.fio's [z]: $(tr '\n' ';' <"$T_TMP/n")"
ok "nvscope run a.fio b.fio: $(cut -d' ' -f1,2 "$T_TMP/n" | tr '\n' ';') as fio"

# 5. a run group where one job fails: fio lists every job of the group, the
# failed one with its errno in "error" (verify_fatal: EILSEQ), exit status 1
cat >"$T_TMP/v.fio" <<JOB
[global]
filename=$dev
direct=1
bs=4k
size=1m
[bad]
rw=read
verify=crc32c
verify_only
verify_fatal=1
[good]
rw=read
JOB
errs_of() {
	python3 -c "
import json; t = open('$1').read(); d = json.loads(t[t.index('{'):])
for j in d['jobs']: print(j['jobname'], j['groupid'], j['error'])"
}
fio --output-format=json "$T_TMP/v.fio" >"$T_TMP/f.json" 2>/dev/null
[ $? -eq 1 ] || fail "fio should fail the verify_fatal job"
"$NVS_BIN" run --output-format=json "$T_TMP/v.fio" >"$T_TMP/n.json" 2>"$T_TMP/err"
rc=$?
[ "$rc" -eq 1 ] || fail "nvscope exit $rc, not 1: $(cat "$T_TMP/err")"
errs_of "$T_TMP/f.json" >"$T_TMP/f" || fail "fio JSON"
errs_of "$T_TMP/n.json" >"$T_TMP/n" || fail "nvscope JSON"
[ "$(cat "$T_TMP/n")" = "$(cat "$T_TMP/f")" ] ||
	fail "failed group: nvscope $(tr '\n' ';' <"$T_TMP/n") fio $(tr '\n' ';' <"$T_TMP/f")"
"$NVS_BIN" run "$T_TMP/v.fio" >"$T_TMP/n.txt" 2>/dev/null
rc=$?
[ "$rc" -eq 1 ] || fail "nvscope (text) exit $rc, not 1"
grep -q "^good: " "$T_TMP/n.txt" && grep -q "^bad: " "$T_TMP/n.txt" && grep -q "err=84 " "$T_TMP/n.txt" ||
	fail "text: every job, the failed one with err=: $(cat "$T_TMP/n.txt")"
ok "a failed job in a run group: $(tr '\n' ';' <"$T_TMP/n") as fio, exit 1"
