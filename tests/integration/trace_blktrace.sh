#!/bin/bash
# trace_blktrace.sh - the real blktrace path, where the kernel allows it
# (exit 77 where it does not: kernel lockdown restricts blktrace's debugfs
# files, as on the machine docs/traces.md's figures come from; the tracefs
# path is what trace_fidelity.sh then tests):
#  1. trace_fidelity.sh with both captures taken by blktrace (binary
#     per-CPU files), not tracefs;
#  2. nvscope's reader of blktrace's binary files against Debian's
#     blkparse: a recording of a known workload; the issue (D) events with
#     data that blkparse prints from the raw per-CPU files are the I/Os of
#     nvscope's iolog made from the same files.
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "no fio"
command -v blkparse >/dev/null || skip "no blkparse (Debian: blktrace)"
t_loop 64M
a=$LOOP
# does the kernel let blktrace run?  One short recording says which way it took
"$NVS_BIN" trace record --target "$a" --duration 2s -o "$T_TMP/probe.log" --raw "$T_TMP/probe" \
	2>"$T_TMP/probe.txt" &
rp=$!
t_nap 0.7
dd if="$a" of=/dev/null bs=4096 count=4 iflag=direct 2>/dev/null
wait $rp || { cat "$T_TMP/probe.txt"; fail "trace record exited"; }
if ! grep -q "via blktrace;" "$T_TMP/probe.txt"; then
	why=$(dmesg 2>/dev/null | grep -o 'Lockdown: blktrace: .*restricted' | tail -1)
	skip "the kernel refuses blktrace (${why:-no per-CPU files}); tracefs is tested by trace_fidelity.sh"
fi

NVS_TRACE_VIA=blktrace bash "$(dirname "$0")/trace_fidelity.sh" || fail "fidelity with blktrace captures"
ok "fidelity with blktrace's own captures"

"$NVS_BIN" trace record --target "$a" --duration 3s -o "$T_TMP/k.log" --raw "$T_TMP/raw" \
	2>"$T_TMP/rk.txt" &
rp=$!
t_nap 0.7
fio --name=known --filename="$a" --rw=randrw --bssplit=4k/50:16k/30:64k/20 --direct=1 \
	--ioengine=psync --number_ios=200 --size=48m --randseed=3 >/dev/null || fail "fio"
wait $rp || { cat "$T_TMP/rk.txt"; fail "record exited"; }
grep -q "via blktrace;" "$T_TMP/rk.txt" || fail "not recorded by blktrace: $(cat "$T_TMP/rk.txt")"
blkparse -q -i "$T_TMP/raw/${a##*/}" >"$T_TMP/parsed.txt" 2>/dev/null || fail "blkparse"
python3 - "$T_TMP/parsed.txt" "$T_TMP/k.log" <<'PY' || fail "nvscope's blktrace reader and blkparse differ"
import sys
bp = []
for ln in open(sys.argv[1]):
    f = ln.split()
    # "MAJ,MIN CPU SEQ TIME PID ACTION RWBS SECTOR + NSECT [COMM]"
    if len(f) >= 10 and f[5] == "D" and f[8] == "+" and int(f[9]) > 0:
        op = "trim" if "D" in f[6] else "write" if "W" in f[6] else "read"
        bp.append((op, int(f[7]) * 512, int(f[9]) * 512))
nv = []
for ln in open(sys.argv[2]).read().splitlines()[1:]:
    f = ln.split()
    if len(f) == 5 and f[2] in ("read", "write", "trim"):
        nv.append((f[2], int(f[3]), int(f[4])))
assert len(nv) >= 200, len(nv)
assert sorted(bp) == sorted(nv), ("blkparse %d, nvscope %d I/Os" % (len(bp), len(nv)),
                                  sorted(set(bp) ^ set(nv))[:5])
print("blkparse and nvscope read the same %d issue events" % len(nv))
PY
ok "nvscope's blktrace reader agrees with blkparse"
