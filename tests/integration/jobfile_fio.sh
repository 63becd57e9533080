#!/bin/bash
# fio job files read as fio reads them: for each fixture in tests/jobfiles/,
# the jobs nvscope parses (`run --parse-only`) match the jobs fio parses
# (`fio --showcmd`); malformed files are refused with file:line and exit 2;
# command-line flags never eat the next argument; on a loop device, fio and
# nvscope run a fixture's size-bound jobs with the same I/O counts.
# test: no-sanitizer it compares the jobs nvscope and fio read from the same job files, and their I/O counts, not memory; the job-file reader runs under ASan and UBSan in the preset fuzzer (preset_load_fio) and under ASan and TSan in test_jobfile.c
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "fio not installed"
J=tests/jobfiles
# the interpreter itself: a python3 found through a version manager's shim
# (pyenv's is bash scripts) costs more to start than the checks it runs
PY=$(python3 -c 'import sys; print(sys.executable)') || skip "python3 not installed"
# fio's start is a quarter spent timing its TSC; every fio here only parses,
# or counts I/Os (no latencies compared)
fio() { command fio --aux-path="$T_TMP" --clocksource=clock_gettime "$@"; }

# fio's --showcmd parses a job file as --parse-only does (fio's init.c:
# parse_dryrun() is either flag; the other only prints), so its exit status
# is fio's verdict on the file: one fio start per file, not two

# 1. the same jobs as fio: names, rw, bs, filename
for f in fio-syntax.fio include-main.fio long-bssplit.fio loop-compare.fio groups.fio; do
	fio --showcmd "$J/$f" >"$T_TMP/fio.txt" 2>&1 || fail "fio refuses its own syntax in $f"
	"$NVS_BIN" run --parse-only "$J/$f" >"$T_TMP/nvs.txt" 2>"$T_TMP/e" ||
		fail "nvscope refuses $f: $(cat "$T_TMP/e")"
	$PY - "$T_TMP/fio.txt" "$T_TMP/nvs.txt" "$f" <<'PY' || fail "$f: jobs differ from fio's"
import shlex, sys, re
toks = shlex.split(open(sys.argv[1]).read())[1:]
glob, jobs = {}, []
for t in toks:
    k, _, v = t[2:].partition("=")
    if k == "name":
        jobs.append(dict(glob, name=v))
    elif jobs:
        jobs[-1][k] = v
    else:
        glob[k] = v
ours = [dict(re.findall(r"(\w+)=(\S*)", l), name=l[1:l.index("]")])
        for l in open(sys.argv[2]) if l.startswith("[")]
assert len(ours) == len(jobs), (sys.argv[3], len(ours), len(jobs))
units = {"k": 1 << 10, "m": 1 << 20}
def size(s):
    return int(s[:-1]) * units[s[-1].lower()] if s[-1].lower() in units else int(s)
for f, n in zip(jobs, ours):
    assert f["name"] == n["name"], (f["name"], n["name"])
    assert f.get("rw", "read") == n["rw"], (f, n)
    if "bssplit" not in f:
        assert size(f.get("bs", "4k")) == size(n["bs"]), (f, n)
    assert f.get("filename", "") == n["filename"], (f, n)
print(sys.argv[3], "jobs:", len(ours))
PY
done
ok "fixtures parse into fio's jobs"

# the shipped presets are fio job files too: fio reads them, same job count,
# and each multi-job preset is serial (stonewall) for fio as for nvscope.
# Each preset in a subshell of its own, side by side (fio's start waits)
preset_check() { # FILE N: fails (exits its subshell) with what differs
	local f=$1 o=$T_TMP/p$2 a
	fio --showcmd "$f" >"$o.cmd" 2>"$o.e" || fail "fio refuses $f: $(cat "$o.e")"
	a=$(grep -o -- '--name=' "$o.cmd" | wc -l)
	"$NVS_BIN" run --parse-only --preset "$f" >"$o.txt" || fail "nvscope refuses $f"
	[ "$a" = "$(wc -l <"$o.txt")" ] || fail "$f: fio has $a jobs: $(cat "$o.txt")"
	[ "$(grep -o 'run_group=[0-9]*' "$o.txt" | sort -u | wc -l)" = "$a" ] ||
		fail "$f: jobs would run together: $(cat "$o.txt")"
}
pids=() n=0
for f in presets/*.ini; do
	n=$((n + 1))
	preset_check "$f" $n &
	pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || fail "a preset differs from fio's (above)"; done
[ $n -gt 0 ] || fail "no presets"
ok "shipped presets are fio job files, one job after another"

# fio's reporting groups (groupid in fio's JSON) = nvscope's parsed groups
fio --output-format=json --output="$T_TMP/g.json" --filename="$T_TMP/g.dat" "$J/groups.fio" \
	>/dev/null 2>&1 || fail "fio groups.fio"
"$NVS_BIN" run --parse-only "$J/groups.fio" >"$T_TMP/g.txt" || fail "nvscope groups.fio"
$PY - "$T_TMP/g.json" "$T_TMP/g.txt" <<'PY' || fail "reporting groups differ from fio's"
import json, re, sys
f = [(j["jobname"], j["groupid"]) for j in json.load(open(sys.argv[1]))["jobs"]]
n = [(l[1:l.index("]")], int(re.search(r" group=(\d+)", l).group(1))) for l in open(sys.argv[2])]
assert f == n, (f, n)
PY
"$NVS_BIN" run -q --target "$T_TMP/g.dat" --output-format=json --output "$T_TMP/gn.json" \
	"$J/groups.fio" >/dev/null 2>"$T_TMP/e" || fail "nvscope run groups.fio: $(cat "$T_TMP/e")"
$PY - "$T_TMP/g.json" "$T_TMP/gn.json" <<'PY' || fail "JSON groupid differs from fio's"
import json, sys
f, n = ([(j["jobname"], j["groupid"]) for j in json.load(open(p))["jobs"]] for p in sys.argv[1:])
assert f == n, (f, n)
PY
ok "fio's reporting groups"

# 2. malformed files: one line naming file:line, exit 2
expect_refused() { # expect_refused FILE LINE PATTERN
	"$NVS_BIN" run --parse-only "$1" >/dev/null 2>"$T_TMP/e"
	local rc=$?
	[ $rc -eq 2 ] || fail "exit $rc (want 2) for $1: $(cat "$T_TMP/e")"
	grep -q -- "$1:$2: .*$3" "$T_TMP/e" || fail "stderr for $1 lacks '$1:$2: ...$3': $(cat "$T_TMP/e")"
}
printf '[global]\nrw=randwrite\n[j]\nbs=4k\0x\nrw=randread\n' >"$T_TMP/nul.fio"
expect_refused "$T_TMP/nul.fio" 4 NUL
{ printf '[j]\n'; head -c 3000 /dev/zero | tr '\0' a; printf '\n'; } >"$T_TMP/long.fio"
expect_refused "$T_TMP/long.fio" 2 "unknown option"
printf '[j]\nrw=read\ndescription=caf\351\n' >"$T_TMP/latin1.fio"
expect_refused "$T_TMP/latin1.fio" 3 "UTF-8"
printf '[global]\nbs=4k\n[j]\nrw=randread\nbz=1\nqq=2\n' >"$T_TMP/first.fio"
expect_refused "$T_TMP/first.fio" 5 "bz"
printf '[j]\nioengine=rdma\n' >"$T_TMP/rdma.fio"
expect_refused "$T_TMP/rdma.fio" 2 "ioengine=rdma:"
# two job files, as fio takes them (fio_groups.sh runs them): all the jobs
"$NVS_BIN" run --parse-only "$J/groups.fio" "$J/fio-syntax.fio" >"$T_TMP/o2" 2>"$T_TMP/e" ||
	fail "two job files: $(cat "$T_TMP/e")"
n1=$("$NVS_BIN" run --parse-only "$J/groups.fio" | wc -l)
n2=$("$NVS_BIN" run --parse-only "$J/fio-syntax.fio" | wc -l)
[ "$(wc -l <"$T_TMP/o2")" = $((n1 + n2)) ] || fail "two job files: $(cat "$T_TMP/o2")"
ok "malformed job files refused at their line"

# 3. flags on the command line take no value
"$NVS_BIN" run --parse-only --refill_buffers --target "$T_TMP/x" --stonewall --time_based \
	--runtime=1 --size=1m >"$T_TMP/o" 2>"$T_TMP/e" || fail "bare flags: $(cat "$T_TMP/e")"
grep -q "filename=$T_TMP/x" "$T_TMP/o" || fail "--refill_buffers ate --target: $(cat "$T_TMP/o")"
ok "bare flags"

# 4. the same I/O counts as fio on a loop device
t_loop 64m
fio --output-format=json --output="$T_TMP/fio.json" --filename="$LOOP" \
	"$J/loop-compare.fio" >/dev/null 2>"$T_TMP/e" || fail "fio: $(cat "$T_TMP/e")"
"$NVS_BIN" run -q --target "$LOOP" --output-format=json --output "$T_TMP/nvs.json" \
	"$J/loop-compare.fio" >/dev/null 2>"$T_TMP/e" || fail "nvscope: $(cat "$T_TMP/e")"
grep -q "\[defaults\] ioengine=psync (fio's default) runs as io_uring at queue depth 1" \
	"$T_TMP/e" || fail "no engine note: $(cat "$T_TMP/e")"
$PY - "$T_TMP/fio.json" "$T_TMP/nvs.json" <<'PY' || fail "I/O counts differ from fio's"
import json, sys
f, n = (json.load(open(p))["jobs"] for p in sys.argv[1:])
assert [j["jobname"] for j in f] == [j["jobname"] for j in n], (f, n)
for a, b in zip(f, n):
    fa = (a["read"]["total_ios"], a["write"]["total_ios"])
    nb = (b["read"]["total_ios"], b["write"]["total_ios"])
    assert sum(fa) == sum(nb), (a["jobname"], fa, nb)
    assert (fa[0] > 0) == (nb[0] > 0) and (fa[1] > 0) == (nb[1] > 0), (a["jobname"], fa, nb)
    print(a["jobname"], "fio", fa, "nvscope", nb)
notes = [j["nvscope"].get("engine_mapping", "") for j in n]
assert "psync (fio's default)" in notes[0] and "libaio" in notes[1] and "psync" in notes[2], notes
PY
ok "loop device: fio's I/O counts"

# 5. fio's run groups: [a] and [b] (the fixture's 2 s each made 4 s, no
# stonewall) run together, so the three jobs (4 + 4 + 1 s of runtime) end
# in about 5 s, well before the 9 s a serial run needs: the bound, 7 s,
# leaves 2 s either way for a start slowed by a sanitizer or other tests.
# At rate_iops=200 a job sleeps between its I/Os (its speed is not what is
# tested): its length is its runtimes, at little CPU.  Nothing else of this
# test runs meanwhile (its wall clock is the check)
sed 's/^runtime=2$/runtime=4/' "$J/run-groups.fio" >"$T_TMP/run-groups.fio"
grep -q '^runtime=4$' "$T_TMP/run-groups.fio" || fail "run groups: the fixture's runtime=2 not found"
t0=$(date +%s%N)
"$NVS_BIN" run -q --target "$LOOP" --rate_iops=200 --output-format=json --output "$T_TMP/rg.json" \
	"$T_TMP/run-groups.fio" >/dev/null 2>"$T_TMP/rg.e" || fail "run groups: $(cat "$T_TMP/rg.e")"
t1=$(date +%s%N)
$PY - "$T_TMP/rg.json" $(( (t1 - t0) / 1000000 )) <<'PY' || fail "run groups"
import json, sys
jobs = json.load(open(sys.argv[1]))["jobs"]
ms = int(sys.argv[2])
assert [j["jobname"] for j in jobs] == ["a", "b", "c"], jobs
assert all(j["read"]["total_ios"] > 0 for j in jobs)
assert ms < 7000, f"{ms} ms: [a] and [b] did not run together (9 s one after another)"
print("a+b then c:", ms, "ms")
PY
grep -q "one after another" "$T_TMP/rg.e" && fail "run groups: unexpected fallback: $(cat "$T_TMP/rg.e")"
# two writers of one device run together too, as in fio (one claim of the
# device for the group: tests/integration/fio_groups_shared.sh)
printf '[global]\nsize=1m\nrw=write\n[w1]\n[w2]\noffset=1m\n' >"$T_TMP/w.fio"
"$NVS_BIN" run -q --target "$LOOP" --output-format=json --output "$T_TMP/w.json" "$T_TMP/w.fio" \
	>/dev/null 2>"$T_TMP/e" || fail "two writers: $(cat "$T_TMP/e")"
grep -q "one after another" "$T_TMP/e" && fail "two writers of one device serialised: $(cat "$T_TMP/e")"
$PY - "$T_TMP/w.json" <<'PY' || fail "two writers"
import json, sys
jobs = json.load(open(sys.argv[1]))["jobs"]
assert [j["jobname"] for j in jobs] == ["w1", "w2"], jobs
assert all(j["write"]["io_bytes"] == 1 << 20 for j in jobs), [j["write"]["io_bytes"] for j in jobs]
PY
ok "fio's run groups (two writers of one device together)"
