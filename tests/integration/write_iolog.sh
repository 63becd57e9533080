#!/bin/bash
# write_iolog=FILE (fio's option): the I/Os nvscope issued, as a fio version 3
# iolog in fio's own format, that fio accepts and replays.
#  - nvscope runs a mixed workload on loop device A writing the log; the log
#    has fio's lines (version, add/open, USEC FILE read|write OFF LEN,
#    close), times that never go back, and as many reads and writes as the
#    job's figures and /sys/block/A/stat (writes exactly) count;
#  - fio --read_iolog replays it on loop device B while the kernel's issue
#    events of B are captured (nvscope trace record: blktrace or tracefs):
#    the capture holds the log's (op, offset, length) sequence, exactly and
#    in order (other reads only before/after: udev's probe);
#  - two workers: one log, merged by time, every I/O in it;
#  - refused (exit 2, nothing written): a symlink as the log, the target
#    itself as the log, an iodepth sweep.
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "no fio"
t_loop 64M
a=$LOOP
t_loop 64M
b=$LOOP
command -v udevadm >/dev/null && udevadm settle -t 5 2>/dev/null
an=${a##*/}
log=$T_TMP/w.log

s0=($(cat /sys/block/$an/stat))
"$NVS_BIN" run --target "$a" --rw=randrw --bssplit=4k/50:16k/30:64k/20 --iodepth=4 --io_size=6M \
	--write_iolog="$log" --output-format=json --output "$T_TMP/a.json" >"$T_TMP/a.txt" 2>&1 ||
	{ cat "$T_TMP/a.txt"; fail "run with write_iolog exited $?"; }
s1=($(cat /sys/block/$an/stat))
python3 - "$log" "$a" "$T_TMP/a.json" "$((s1[0] - s0[0]))" "$((s1[4] - s0[4]))" <<'PY' || fail "the log"
import json, re, sys
lines = open(sys.argv[1]).read().splitlines()
dev = sys.argv[2]
assert lines[0] == "fio version 3 iolog", lines[0]
assert lines[1] == "0 %s add" % dev and lines[2] == "0 %s open" % dev, lines[1:3]
assert re.fullmatch(r"\d+ %s close" % re.escape(dev), lines[-1]), lines[-1]
ios, last = [], 0
for ln in lines[3:-1]:
    m = re.fullmatch(r"(\d+) (\S+) (read|write) (\d+) (\d+)", ln)
    assert m and m.group(2) == dev, ln
    t = int(m.group(1))
    assert t >= last, ("time goes back", ln)
    last = t
    ios.append((m.group(3), int(m.group(4)), int(m.group(5))))
assert int(lines[-1].split()[0]) >= last
j = json.load(open(sys.argv[3]))["jobs"][0]
nr = sum(1 for x in ios if x[0] == "read"); nw = len(ios) - nr
assert (nr, nw) == (j["read"]["total_ios"], j["write"]["total_ios"]), (nr, nw)
kr, kw = int(sys.argv[4]), int(sys.argv[5])
assert kw == nw and kr >= nr, ("kernel counted", kr, kw, "log", nr, nw)
assert sum(x[2] for x in ios) == j["read"]["io_bytes"] + j["write"]["io_bytes"]
print("log: %d reads %d writes, as the job's figures; kernel: %d reads %d writes" % (nr, nw, kr, kw))
PY
ok "the log is fio's format and counts what was issued"

# fio replays it on B; the kernel's capture of B holds the same sequence
"$NVS_BIN" trace record --target "$b" --duration 4s -o "$T_TMP/b.log" 2>"$T_TMP/rb.txt" &
rp=$!
t_nap 0.7
fio --name=replay --read_iolog="$log" --replay_redirect="$b" --ioengine=psync --direct=1 \
	--replay_no_stall=1 >"$T_TMP/fio.txt" 2>&1 || { cat "$T_TMP/fio.txt"; fail "fio --read_iolog exited"; }
wait $rp || { cat "$T_TMP/rb.txt"; fail "record B exited"; }
grep -i 'nvscope trace' "$T_TMP/rb.txt" | head -2
python3 - "$log" "$T_TMP/b.log" <<'PY' || fail "fio's replay differs from the log"
import sys
def load(p):
    out = []
    for ln in open(p).read().splitlines()[1:]:
        f = ln.split()
        if len(f) == 5 and f[2] in ("read", "write"):
            out.append((f[2], int(f[3]), int(f[4])))
    return out
A, B = load(sys.argv[1]), load(sys.argv[2])
k = next((k for k in range(len(B) - len(A) + 1) if B[k:k + len(A)] == A), None)
if k is None:
    k0 = next((k for k in range(len(B)) if B[k] == A[0]), 0)
    i = next((i for i in range(len(A)) if k0 + i >= len(B) or B[k0 + i] != A[i]), len(A))
    sys.exit("differs at I/O %d of %d: log %s, capture %s" % (i, len(A), A[i:i+3], B[k0+i:k0+i+3]))
extra = B[:k] + B[k + len(A):]
assert all(x[0] == "read" for x in extra), extra[:5]
print("fio replayed the %d I/Os of the log, identical in order (%d other reads)" % (len(A), len(extra)))
PY
ok "fio --read_iolog replays the log: same (op, offset, length) sequence on the device"

# two workers, one log in time order holding every I/O
"$NVS_BIN" run --target "$a" --rw=randread --bs=4k --io_size=2M --numjobs=2 --iodepth=8 \
	--write_iolog="$T_TMP/n.log" --output-format=json --output "$T_TMP/n.json" >/dev/null 2>&1 ||
	fail "numjobs=2 with write_iolog"
python3 - "$T_TMP/n.log" "$T_TMP/n.json" <<'PY' || fail "two workers' log"
import json, sys
rows = [l.split() for l in open(sys.argv[1]).read().splitlines()[1:] if len(l.split()) == 5]
t = [int(r[0]) for r in rows]
assert t == sorted(t), "not in time order"
# one JSON entry per numjobs copy (fio's layout): the log holds them all
jobs = json.load(open(sys.argv[2]))["jobs"]
assert len(jobs) == 2, len(jobs)
n = sum(j["read"]["total_ios"] for j in jobs)
assert len(rows) == n == 1024, (len(rows), n)
assert len(set((r[3]) for r in rows)) > 1
PY
ok "two workers: one log in time order"

# refused: exit 2, nothing written
ln -s "$T_TMP/elsewhere" "$T_TMP/link.log"
w0=$(awk '{print $5}' /sys/block/$an/stat)
"$NVS_BIN" run --target "$a" --rw=randwrite --bs=4k --io_size=1M --write_iolog="$T_TMP/link.log" \
	>"$T_TMP/e.txt" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "symbolic link" "$T_TMP/e.txt" || fail "symlink log: exit $rc $(cat "$T_TMP/e.txt")"
[ ! -e "$T_TMP/elsewhere" ] || fail "wrote through the symlink"
"$NVS_BIN" run --target "$a" --rw=randwrite --bs=4k --io_size=1M --iodepth=1,4 \
	--write_iolog="$T_TMP/s.log" >"$T_TMP/e.txt" 2>&1
[ $? -eq 2 ] && grep -q "iodepth sweep" "$T_TMP/e.txt" || fail "sweep: $(cat "$T_TMP/e.txt")"
[ "$(awk '{print $5}' /sys/block/$an/stat)" = "$w0" ] || fail "a refused run wrote"
truncate -s 8M "$T_TMP/f.dat"
printf 'keep' | dd of="$T_TMP/f.dat" conv=notrunc 2>/dev/null
"$NVS_BIN" run --target "$T_TMP/f.dat" --rw=randread --bs=4k --io_size=1M \
	--write_iolog="$T_TMP/f.dat" >"$T_TMP/e.txt" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "is the target" "$T_TMP/e.txt" || fail "log = target: exit $rc $(cat "$T_TMP/e.txt")"
[ "$(stat -c %s "$T_TMP/f.dat")" = 8388608 ] && [ "$(head -c 4 "$T_TMP/f.dat")" = keep ] ||
	fail "the target file was changed"
ok "refused: symlink, sweep, the target as the log (exit 2, nothing written)"
