#!/bin/bash
# fio_iolog_jobs.sh - --write_iolog=FILE given with a job file of several
# jobs (fio applies a command-line option to every job), side by side with
# Debian's fio on a loop device this test makes.  fio 3.33 (iolog.c
# init_iolog_write: fopen(file, "a")) has every job append its own log to
# the file: two "fio version 3 iolog" headers here, both jobs' I/Os.
# nvscope does the same: each job's version line, add/open, its I/Os and
# close lines, appended; checked:
# - two jobs one after the other (stonewall): two sections, each of one
#   job's 1024 I/Os, the counts the JSON's; every line whole (fio's jobs cut lines where their
#   8 KiB buffers interleave: not checked on fio's file);
# - jobs running together (one run group, time_based): every line whole, the I/O lines of
#   each kind as many as that job's JSON total_ios (or one more: an I/O its
#   runtime cut is issued, logged, not counted);
# - the first job of a run empties the file (fio would append to an older
#   run's log; a documented difference); write_iolog= in [global] is the same.
. "${NVS_TOP:-.}/tests/lib.sh"
command -v fio >/dev/null || skip "fio is needed (the reference)"
command -v python3 >/dev/null || skip "python3 is needed"
t_loop 64M
cd "$T_TMP" || fail cd
cat >two.fio <<EOF2
[global]
direct=1
bs=4k
size=4M
[a]
rw=randread
[b]
stonewall
rw=randwrite
offset=8M
EOF2
sed '/^stonewall/d' two.fio >together.fio
fio --filename="$LOOP" --write_iolog=f.log two.fio --output-format=terse >/dev/null 2>f.err ||
	fail "fio: $(cat f.err)"
fh=$(grep -o "fio version 3 iolog" f.log | wc -l)
[ "$fh" = 2 ] && grep -q " read " f.log && grep -q " write " f.log ||
	fail "fio's log: $fh headers (the reference changed?)"
echo "junk from an earlier run" >n.log
"$NVS_BIN" run --target "$LOOP" --write_iolog=n.log two.fio --output-format=json >n.json 2>n.err ||
	fail "nvscope: $(cat n.err)"
check() { # LOG JSON SECTIONS(1: sections must each be one job's)
	python3 - "$@" <<'PY'
import json, re, sys
log, js, sections = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
lines = open(log).read().split("\n")
assert lines[-1] == "", "the log does not end with a whole line"
want = {}
for j in json.load(open(js))["jobs"]:
    for k in ("read", "write"):
        want[k] = want.get(k, 0) + j[k]["total_ios"]
heads, got, secs, cur = 0, {}, [], None
io = re.compile(r"\d+ \S+ (read|write) \d+ \d+$")
act = re.compile(r"\d+ \S+ (add|open|close)$")
for l in lines[:-1]:
    if l == "fio version 3 iolog":
        heads += 1
        cur = {}
        secs.append(cur)
    elif io.match(l):
        k = l.split()[2]
        got[k] = got.get(k, 0) + 1
        cur[k] = cur.get(k, 0) + 1
    else:
        assert act.match(l), "not a whole line: %r" % l
assert heads == 2, "%d version lines" % heads
# issued I/Os: a job's last one, cut by its runtime, is logged, not counted
assert got == want if sections else all(
    0 <= got.get(k, 0) - want[k] <= 1 for k in want), (got, want)
if sections:
    assert sorted(tuple(s) for s in secs) == [("read",), ("write",)], secs
print("  %d sections; I/Os %s (the JSON's: %s)" % (heads, got, want))
PY
}
check n.log n.json 1 || fail "nvscope's log of two jobs one after the other"
grep -q junk n.log && fail "an earlier run's log kept"
ok "--write_iolog with two jobs: each job's log appended, as fio (which has $fh headers)"

# jobs running together: lines interleave, whole
"$NVS_BIN" run --target "$LOOP" --write_iolog=t.log --runtime=1 --time_based together.fio \
	--output-format=json >t.json 2>t.err || fail "nvscope time_based: $(cat t.err)"
check t.log t.json 0 || fail "nvscope's log of two jobs together"
ok "two jobs together: every line whole, each kind's count the JSON's"

sed 's/^\[global\]/[global]\nwrite_iolog=g.log/' two.fio >g.fio
"$NVS_BIN" run --target "$LOOP" g.fio --output-format=json >g.json 2>g.err || fail "g.fio: $(cat g.err)"
check g.log g.json 1 || fail "write_iolog= in [global]"
ok "write_iolog= in [global]: the same"
