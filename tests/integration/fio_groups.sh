#!/bin/bash
# fio's grouping and reporting against Debian's fio on one loop device:
# group_reporting (one JSON entry per report group, the jobs' I/Os summed),
# exitall / exit_what (a job's end stops its group, or everything), and
# several job files on one command line (each file behind a stonewall).
#
# Each case runs fio, then nvscope, on a loop device; the cases are
# independent, so three lanes (each its own loop device and files) run side
# by side.  The time_based jobs are rate-capped (rate_iops=2000 each; the
# size-bound ones not, so [short] ends as soon as it did before): the
# cases are about which jobs run, stop and are reported together, not about
# speed, and a capped job costs little CPU.
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "fio not installed"
# the interpreter itself, resolved once (a version manager's shim, such as
# pyenv's, costs ~0.6 s of CPU per start)
PY=$(python3 -c 'import sys; print(sys.executable)') && [ -x "$PY" ] || PY=python3
t_loop 64M; devA=$LOOP
t_loop 64M; devB=$LOOP
t_loop 64M; devC=$LOOP
kios() { awk '{printf "%.0f\n", $1 + $5}' "/sys/block/$(basename "$1")/stat"; }
# parse P: for each of P.f.json (fio's) and P.n.json (nvscope's), one python
# run writing P.f / P.n: "name groupid ios runtime_ms" per JSON job entry;
# P.f.rw / P.n.rw: "name=rw ..." of the entries' options; P.f.errs /
# P.n.errs: "name groupid error" per entry
parse() {
	"$PY" - "$T_TMP/$1" <<'PY'
import json, sys
p = sys.argv[1]
for k, who in (("f", "fio"), ("n", "nvscope")):
    try:
        t = open(p + "." + k + ".json").read(); d = json.loads(t[t.index("{"):])
        jobs = d["jobs"]
        with open(p + "." + k, "w") as o:
            for j in jobs:
                print(j["jobname"], j["groupid"], j["read"]["total_ios"] + j["write"]["total_ios"], j["job_runtime"], file=o)
        with open(p + "." + k + ".rw", "w") as o:
            print(" ".join(j["jobname"] + "=" + j["job options"].get("rw", "?") for j in jobs), file=o)
        with open(p + "." + k + ".errs", "w") as o:
            for j in jobs:
                print(j["jobname"], j["groupid"], j["error"], file=o)
    except Exception as e:
        print(who, "JSON:", repr(e))
        sys.exit(1)
PY
}
# both P DEV JOBFILE...: fio's and nvscope's entries in $T_TMP/P.f, $T_TMP/P.n
# (JSON in P.f.json, P.n.json; see parse), the kernel's I/O count of DEV
# over nvscope's run in $kdelta
both() {
	local p=$T_TMP/$1 dev=$2 k0 m
	shift 2
	fio --output-format=json "$@" >"$p.f.json" 2>"$p.err" || fail "fio: $(cat "$p.err")"
	k0=$(kios "$dev")
	"$NVS_BIN" run --output-format=json "$@" >"$p.n.json" 2>"$p.err" ||
		fail "nvscope: $(cat "$p.err")"
	kdelta=$(( $(kios "$dev") - k0 ))
	m=$(parse "${p##*/}") || fail "$m"
}

# 1. group_reporting: [a] (2 clones) and [b] are one report group, [c] another
case1() {
	local dev=$devA p=$T_TMP/g
	cat >"$p.fio" <<JOB
[global]
filename=$dev
direct=1
ioengine=libaio
iodepth=1
runtime=1
time_based
rate_iops=2000
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
	both g "$dev" "$p.fio"
	[ "$(cut -d' ' -f1,2 "$p.n")" = "$(cut -d' ' -f1,2 "$p.f")" ] ||
		fail "group_reporting entries: nvscope $(cat "$p.n" | tr '\n' ';') fio $(cat "$p.f" | tr '\n' ';')"
	local sum ex
	sum=$(awk '{s += $3} END {print s}' "$p.n")
	# the kernel also saw the I/Os in flight at the end, the write-safety reads
	# and other readers of a shared machine (udev's probes): slack above, none below
	ex=$((kdelta - sum))
	[ "$ex" -ge 0 ] && [ "$ex" -le $((sum / 10 + 200)) ] || fail "group_reporting totals $sum vs the kernel's $kdelta"
	# group 0 sums [a]'s two clones and [b]: reads and writes, the three jobs'
	# runtimes (fio: 3000 ms); [c] alone reads.  Not its share of the I/Os:
	# on a device a busy machine slows, the random QD1 jobs fall far below
	# their rate and the sequential one less (run H: a 294 I/Os, c 617)
	local g
	g=$("$PY" -c '
import json, sys
t = open(sys.argv[1]).read(); d = json.loads(t[t.index("{"):])
print(" ".join("%s:%d:%d:%d" % (j["jobname"], j["read"]["total_ios"] > 0, j["write"]["total_ios"] > 0,
    j["job_runtime"]) for j in d["jobs"]))' "$p.n.json") || fail "group entries: $g"
	[[ $g =~ ^a:1:1:([0-9]+)\ c:1:0:([0-9]+)$ ]] && [ "${BASH_REMATCH[1]}" -ge $((BASH_REMATCH[2] * 5 / 2)) ] ||
		fail "group a should sum [a]'s clones and [b] (reads, writes, 3 runtimes), c read alone: $g"
	# fio's group entry: its first job's name, its last job's options (stat.c
	# opt_lists): [a]+[b] is named a with b's rw=randwrite
	[ "$(cat "$p.n.rw")" = "$(cat "$p.f.rw")" ] ||
		fail "group entries' options: nvscope $(cat "$p.n.rw"), fio $(cat "$p.f.rw")"
	ok "group_reporting: $(wc -l <"$p.n") entries as fio ($(cut -d' ' -f1,2 "$p.n" | tr '\n' ';')), sums match the kernel"
}

# 2. exitall: [short] ends after 1 MiB and stops [long] (its report group);
# [other] (new_group) runs its 2 s; [after] (stonewall) runs
exitall_file() { # DEV
	cat <<JOB
[global]
filename=$1
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
rate_iops=2000
[other]
new_group
rw=randread
runtime=2
time_based
rate_iops=2000
[after]
stonewall
rw=read
size=1m
JOB
}
case2() {
	local p=$T_TMP/e
	exitall_file "$devB" >"$p.fio"
	both e "$devB" "$p.fio"
	"$PY" - "$p.n" "$p.f" <<'PY' || fail "exitall: nvscope $(tr '\n' ';' <"$p.n") fio $(tr '\n' ';' <"$p.f")"
import sys
n = {l.split()[0]: l.split() for l in open(sys.argv[1])}
assert int(n["long"][3]) < 1500, "long must stop when short ends"
assert int(n["other"][3]) >= 1900, "other (another report group) runs its 2 s"
assert int(n["after"][2]) == 256, "after runs"
PY
	ok "exitall stops the report group of the job that ended: $(tr '\n' ';' <"$p.n")"
}

# 3. exit_what=all: everything stops, [after] never starts
case3() {
	local p=$T_TMP/e2
	exitall_file "$devC" | sed 's/^exitall$/exitall\nexit_what=all/' >"$p.fio"
	grep -q '^exit_what=all$' "$p.fio" || fail "could not derive e2.fio"
	both e2 "$devC" "$p.fio"
	"$PY" - "$p.n" <<'PY' || fail "exit_what=all: $(tr '\n' ';' <"$p.n")"
import sys
n = {l.split()[0]: l.split() for l in open(sys.argv[1])}
assert int(n["long"][3]) < 1500 and int(n["other"][3]) < 1500, "all stop"
assert int(n["after"][2]) == 0 and int(n["after"][3]) == 0, "after never starts"
PY
	# fio lists the job that never started, with zero figures: so does nvscope
	[ "$(cut -d' ' -f1,2 "$p.n")" = "$(cut -d' ' -f1,2 "$p.f")" ] ||
		fail "exit_what=all entries: nvscope $(tr '\n' ';' <"$p.n") fio $(tr '\n' ';' <"$p.f")"
	ok "exit_what=all: $(tr '\n' ';' <"$p.n") (fio: $(tr '\n' ';' <"$p.f"))"
}

# 4. two job files: fio runs the second behind a stonewall (its own group)
case4() {
	local dev=$devC p=$T_TMP/two
	printf '[global]\nfilename=%s\ndirect=1\nruntime=1\ntime_based\nrate_iops=2000\n[x]\nrw=randread\n[y]\nrw=read\n' "$dev" >"$T_TMP/1.fio"
	printf '[global]\nfilename=%s\ndirect=1\nsize=1m\n[z]\nrw=read\n[w]\nrw=randread\n' "$dev" >"$T_TMP/2.fio"
	both two "$dev" "$T_TMP/1.fio" "$T_TMP/2.fio"
	[ "$(cut -d' ' -f1,2 "$p.n")" = "$(cut -d' ' -f1,2 "$p.f")" ] ||
		fail "two job files: nvscope $(tr '\n' ';' <"$p.n") fio $(tr '\n' ';' <"$p.f")"
	grep -q "^z 1 256 " "$p.n" || fail "2.fio's [z]: $(tr '\n' ';' <"$p.n")"
	ok "nvscope run a.fio b.fio: $(cut -d' ' -f1,2 "$p.n" | tr '\n' ';') as fio"
}

# 5. a run group where one job fails: fio lists every job of the group, the
# failed one with its errno in "error" (verify_fatal: EILSEQ), exit status 1
case5() {
	local dev=$devA p=$T_TMP/v rc m
	cat >"$p.fio" <<JOB
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
	fio --output-format=json "$p.fio" >"$p.f.json" 2>/dev/null
	[ $? -eq 1 ] || fail "fio should fail the verify_fatal job"
	"$NVS_BIN" run --output-format=json "$p.fio" >"$p.n.json" 2>"$p.err"
	rc=$?
	[ "$rc" -eq 1 ] || fail "nvscope exit $rc, not 1: $(cat "$p.err")"
	m=$(parse v) || fail "$m"
	[ "$(cat "$p.n.errs")" = "$(cat "$p.f.errs")" ] ||
		fail "failed group: nvscope $(tr '\n' ';' <"$p.n.errs") fio $(tr '\n' ';' <"$p.f.errs")"
	"$NVS_BIN" run "$p.fio" >"$p.n.txt" 2>/dev/null
	rc=$?
	[ "$rc" -eq 1 ] || fail "nvscope (text) exit $rc, not 1"
	grep -q "^good: " "$p.n.txt" && grep -q "^bad: " "$p.n.txt" && grep -q "err=84 " "$p.n.txt" ||
		fail "text: every job, the failed one with err=: $(cat "$p.n.txt")"
	ok "a failed job in a run group: $(tr '\n' ';' <"$p.n.errs") as fio, exit 1"
}

# the lanes: each its own device; a failure's message is in its log
( case1 && case5 ) >"$T_TMP/laneA" 2>&1 & pA=$!
( case2 ) >"$T_TMP/laneB" 2>&1 & pB=$!
( case3 && case4 ) >"$T_TMP/laneC" 2>&1 & pC=$!
rc=0
for l in A B C; do
	p=pA; [ $l = B ] && p=pB; [ $l = C ] && p=pC
	wait "${!p}" || rc=1
	cat "$T_TMP/lane$l"
done
[ $rc -eq 0 ] || fail "a case failed (above)"
