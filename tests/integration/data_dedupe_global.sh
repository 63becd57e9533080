#!/bin/bash
# fio's dedupe_global=1 (dedupe_mode=working_set): the jobs of a run share
# one working set, spread evenly over the run's threads, each thread's part
# its first unique blocks (fio 3.33's dedupe.c), measured side by side with
# Debian's fio on a loop device this test makes.  Three jobs write three
# regions of it (8 MiB, 2048 4 KiB blocks each; dedupe_percentage=50, a
# working set of 50% = 1024 blocks); per tool, from what reached the device:
# - each region's distinct blocks / blocks (global: ~71%, a third of the
#   copies from its own first blocks and two thirds from the others'; not
#   global: 50%);
# - the share of a region's blocks also found in another region (global:
#   ~60%; not global: none, each job's data its own);
# - the whole device's distinct / total (50% both ways);
# each within 2 points of fio's.  Without dedupe, jobs of one run share no
# block either (each job's data stream its own, as fio's thread numbers).
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "fio is needed (the reference)"
command -v python3 >/dev/null || skip "python3 is needed"
t_loop 24M

jobfile() { # jobfile FILE OPTIONS...: three jobs over three regions
	local f=$1
	shift
	{
		printf '[global]\nbs=4k\nrw=write\nsize=8m\ndirect=1\niodepth=4\n'
		printf '%s\n' "$@"
		printf '[a]\noffset=0\n[b]\noffset=8m\n[c]\noffset=16m\n'
	} >"$f"
}
measure() { # measure NAME: figures of the device's three regions
	dd if="$LOOP" of="$T_TMP/raw" bs=1M count=24 iflag=direct status=none || fail "read back"
	python3 - "$T_TMP/raw" "$T_TMP/$1.m" <<'PY'
import hashlib, json, sys
data = open(sys.argv[1], "rb").read()
bs, per = 4096, 2048
hs = [hashlib.sha1(data[i:i + bs]).digest() for i in range(0, len(data), bs)]
regs = [hs[r * per:(r + 1) * per] for r in range(3)]
sets = [set(r) for r in regs]
distinct = [len(s) / per for s in sets]
cross = [sum(1 for h in regs[r] if any(h in sets[k] for k in range(3) if k != r)) / per
         for r in range(3)]
m = dict(distinct=sum(distinct) / 3, cross=sum(cross) / 3, total=len(set(hs)) / len(hs),
         zero=sum(1 for r in regs for h in r if h == hashlib.sha1(bytes(bs)).digest()))
json.dump(m, open(sys.argv[2], "w"))
print("  ", sys.argv[2].rsplit("/", 1)[1], {k: round(v, 4) for k, v in m.items()})
PY
}
both() { # both NAME OPTIONS...: nvscope then fio write the regions, measured
	local name=$1
	shift
	jobfile "$T_TMP/$name.fio" "$@"
	dd if=/dev/zero of="$LOOP" bs=1M count=24 oflag=direct status=none || fail "dd zero"
	"$NVS_BIN" run --target "$LOOP" --job "$T_TMP/$name.fio" -q >"$T_TMP/$name.out" 2>&1 ||
		fail "nvscope $name: $(cat "$T_TMP/$name.out")"
	measure "n$name"
	dd if=/dev/zero of="$LOOP" bs=1M count=24 oflag=direct status=none || fail "dd zero"
	fio --filename="$LOOP" --ioengine=io_uring "$T_TMP/$name.fio" >"$T_TMP/$name.fout" 2>&1 ||
		fail "fio $name: $(tail -5 "$T_TMP/$name.fout")"
	measure "f$name"
}
compare() { # compare NAME PYTHON-CHECKS: n (nvscope's figures) and f (fio's)
	python3 - "$T_TMP/n$1.m" "$T_TMP/f$1.m" "$2" <<'PY' || fail "$1: differs from fio"
import json, sys
n, f = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
for k in ("distinct", "cross", "total"):
    assert abs(n[k] - f[k]) <= 0.02, (k, "nvscope", n[k], "fio", f[k])
assert n["zero"] == 0 == f["zero"], (n, f)
exec(sys.argv[3])
PY
}

dd="dedupe_mode=working_set
dedupe_percentage=50
dedupe_working_set_percentage=50"
both glob "$dd" dedupe_global=1
compare glob 'assert 0.66 < n["distinct"] < 0.76 and 0.5 < n["cross"] < 0.7, n'
ok "dedupe_global=1: regions $(python3 -c "import json;m=json.load(open('$T_TMP/nglob.m'));print('%.3f distinct, %.3f shared' % (m['distinct'], m['cross']))") (fio within 2 points)"

both local "$dd" dedupe_global=0
compare local 'assert 0.48 < n["distinct"] < 0.52 and n["cross"] == 0, n'
ok "dedupe_global=0: each job's working set its own, no block shared between jobs (as fio)"

both plain
compare plain 'assert n["distinct"] == 1 and n["cross"] == 0 and n["total"] == 1, n'
ok "no dedupe: the three jobs' 6144 blocks all distinct (as fio)"
