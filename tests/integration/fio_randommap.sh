#!/bin/bash
# fio's random map (norandommap=0, fio's default): a uniform random job visits
# every block of its region once per pass.  On a 16 MiB loop device,
# `--rw=randwrite --bs=4k --size=16m` writes all 4096 blocks once (write_iolog:
# 4096 writes, 4096 distinct offsets), as fio's own write_iolog of the same
# job shows; so does randrw (the map is shared by reads and writes) and
# random_generator=lfsr (also with norandommap); norandommap=1 draws with replacement (~63%, as fio).
# test: no-sanitizer it compares the offsets fio's and nvscope's random maps visit (iologs), not memory; the map and the generator run under ASan and TSan in test_randmap.c and test_offgen.c, and in every random run test
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "no fio"
t_loop 16M
dev=$LOOP

# distinct offsets / I/O count of an iolog (fio's or nvscope's)
count() {
	python3 - "$1" <<'PY'
import re, sys
offs = [int(m.group(1)) for m in (re.fullmatch(r"\d*\s*\S+ (?:read|write) (\d+) 4096", l.strip())
        for l in open(sys.argv[1])) if m]
print(len(set(offs)), len(offs))
PY
}
for opt in "" "--random_generator=lfsr" "--random_generator=tausworthe64"; do
	rm -f "$T_TMP/n.log" "$T_TMP/f.log"
	"$NVS_BIN" run --target "$dev" --rw=randwrite --bs=4k --size=16m --iodepth=4 $opt \
		--write_iolog="$T_TMP/n.log" >"$T_TMP/n.txt" 2>&1 || { cat "$T_TMP/n.txt"; fail "nvscope $opt exited"; }
	fio --name=j --filename="$dev" --rw=randwrite --bs=4k --size=16m --iodepth=4 --direct=1 \
		--ioengine=libaio $opt --write_iolog="$T_TMP/f.log" >"$T_TMP/f.txt" 2>&1 ||
		{ cat "$T_TMP/f.txt"; fail "fio $opt exited"; }
	n=$(count "$T_TMP/n.log") f=$(count "$T_TMP/f.log")
	[ "$n" = "4096 4096" ] && [ "$f" = "4096 4096" ] || fail "randwrite $opt: nvscope $n, fio $f (distinct, I/Os)"
done
ok "randwrite size=16m: every 4k block once, as fio (default, lfsr, tausworthe64)"

rm -f "$T_TMP/n.log"
"$NVS_BIN" run --target "$dev" --rw=randrw --bs=4k --size=16m --write_iolog="$T_TMP/n.log" \
	>"$T_TMP/n.txt" 2>&1 || { cat "$T_TMP/n.txt"; fail "randrw exited"; }
n=$(count "$T_TMP/n.log")
[ "$n" = "4096 4096" ] || fail "randrw: $n"
ok "randrw: reads and writes share one pass"

rm -f "$T_TMP/n.log" "$T_TMP/f.log"
"$NVS_BIN" run --target "$dev" --rw=randwrite --bs=4k --size=16m --norandommap \
	--write_iolog="$T_TMP/n.log" >"$T_TMP/n.txt" 2>&1 || { cat "$T_TMP/n.txt"; fail "norandommap exited"; }
fio --name=j --filename="$dev" --rw=randwrite --bs=4k --size=16m --direct=1 --norandommap \
	--write_iolog="$T_TMP/f.log" >"$T_TMP/f.txt" 2>&1 || { cat "$T_TMP/f.txt"; fail "fio norandommap"; }
read -r nd ni < <(count "$T_TMP/n.log")
read -r fd fi < <(count "$T_TMP/f.log")
[ "$ni" = 4096 ] && [ "$nd" -gt 2300 ] && [ "$nd" -lt 2900 ] && [ "$fd" -gt 2300 ] && [ "$fd" -lt 2900 ] ||
	fail "norandommap: nvscope $nd/$ni, fio $fd/$fi distinct"
ok "norandommap: with replacement (nvscope $nd, fio $fd distinct of 4096)"

# fio's lfsr needs no map: every block once even with norandommap
rm -f "$T_TMP/n.log" "$T_TMP/f.log"
"$NVS_BIN" run --target "$dev" --rw=randread --bs=4k --size=16m --norandommap --random_generator=lfsr \
	--write_iolog="$T_TMP/n.log" >"$T_TMP/n.txt" 2>&1 || { cat "$T_TMP/n.txt"; fail "lfsr exited"; }
fio --name=j --filename="$dev" --rw=randread --bs=4k --size=16m --direct=1 --norandommap \
	--random_generator=lfsr --write_iolog="$T_TMP/f.log" >"$T_TMP/f.txt" 2>&1 || fail "fio lfsr"
n=$(count "$T_TMP/n.log") f=$(count "$T_TMP/f.log")
[ "$n" = "4096 4096" ] && [ "$f" = "4096 4096" ] || fail "lfsr+norandommap: nvscope $n, fio $f"
ok "random_generator=lfsr with norandommap: every block once, as fio"

# fio's map with mixed sizes (bssplit): fio keeps a bitmap of smallest-size
# blocks and cuts an I/O at a block done before in this pass
# (mark_random_map), so one pass covers every 4k block exactly once, in
# sizes the bssplit does not list (8k, 12k, ...), and the mean size is
# smaller than the split's.  Compared per direction with fio's own run.
sizes() {
	python3 - "$1" <<'PY'
import collections, re, sys
cov, n, by = collections.Counter(), {}, {"read": [], "write": []}
for l in open(sys.argv[1]):
    m = re.fullmatch(r"\d*\s*\S+ (read|write) (\d+) (\d+)", l.strip())
    if m:
        d, o, s = m.group(1), int(m.group(2)), int(m.group(3))
        by[d].append(s)
        for b in range(o // 4096, (o + s) // 4096):
            cov[b] += 1
once = sum(1 for c in cov.values() if c == 1)
out = ["%d/%d" % (once, len(cov))]
for d in ("read", "write"):
    s = by[d]
    listed = sum(1 for x in s if x in (4096, 16384, 65536))
    out.append("%s:%d:%.0f:%.3f" % (d, len(s), sum(s) / max(1, len(s)), listed / max(1, len(s))))
print(" ".join(out))
PY
}
rm -f "$T_TMP/n.log" "$T_TMP/f.log"
bs="--bssplit=4k/50:16k/30:64k/20 --rw=randrw --rwmixread=70 --size=16m --iodepth=4"
"$NVS_BIN" run --target "$dev" $bs --write_iolog="$T_TMP/n.log" >"$T_TMP/n.txt" 2>&1 ||
	{ cat "$T_TMP/n.txt"; fail "bssplit exited"; }
fio --name=j --filename="$dev" $bs --direct=1 --ioengine=libaio --write_iolog="$T_TMP/f.log" \
	>"$T_TMP/f.txt" 2>&1 || { cat "$T_TMP/f.txt"; fail "fio bssplit"; }
n=$(sizes "$T_TMP/n.log") f=$(sizes "$T_TMP/f.log")
echo "nvscope $n; fio $f (blocks once/covered, dir:I/Os:mean:listed share)"
python3 - "$n" "$f" <<'PY' || fail "bssplit with the random map: nvscope $n, fio $f"
import sys
n, f = (a.split() for a in sys.argv[1:3])
assert n[0] == "4096/4096" and f[0] == "4096/4096", "each 4k block once"
for a, b in zip(n[1:], f[1:]):
    _, ni, nm, nl = a.split(":"); _, fi, fm, fl = b.split(":")
    # mean size within 20% (a few hundred I/Os: noisy; without the map it is
    # ~20k, 1.75x), share of listed (uncut) sizes within 0.08
    assert abs(float(nm) / float(fm) - 1) < 0.20, (a, b)
    assert abs(float(nl) - float(fl)) < 0.08, (a, b)
    assert float(nl) < 0.97, "some I/Os are cut"
PY
ok "bssplit randrw: each 4k block once per pass, sizes cut at done blocks, as fio ($n)"

# fio's map units and its restarts.  fio's map has a bit per block of the
# smallest size of all directions, but each direction draws and marks block
# numbers in its own smallest size: with 64k reads and 1M writes, the
# writes only draw bits below len/1M, and once those are done the next free
# bit lies past the last 1M block.  That I/O would pass the device's end:
# fio's pass ends and starts over re-seeded (randrepeat), so its iolog
# repeats its first I/Os.  So does size= larger than the device (fio's
# sizes fit io_size, not the device).  Before nvscope followed these rules
# its log never repeated.  Where the first restart falls depends on the
# random stream, which is each tool's own: the period is not compared.
period() {
	python3 - "$1" <<'PY'
import sys
io = [tuple(l.split()[-3:]) for l in open(sys.argv[1]) if l.split()[-3:-2] in (["read"], ["write"])]
w = [int(o) for d, o, s in io if d == "write"]
rep = [i for i in range(1, len(io) - 10) if io[i:i + 10] == io[:10]]
print(rep[0] if rep else 0, len(io), int(all(o % (1 << 20) == 0 for o in w)))
PY
}
for job in "--rw=randrw --bssplit=64k/40:1024k/60,1024k/100" \
	"--rw=randrw --rwmixread=80 --bssplit=512/10:4k/60:64k/30 --size=4g"; do
	rm -f "$T_TMP/n.log" "$T_TMP/f.log"
	"$NVS_BIN" run --target "$dev" $job --iodepth=16 --runtime=1 --time_based \
		--write_iolog="$T_TMP/n.log" >"$T_TMP/n.txt" 2>&1 || { cat "$T_TMP/n.txt"; fail "nvscope $job"; }
	fio --name=j --filename="$dev" $job --iodepth=16 --runtime=1 --time_based --direct=1 \
		--ioengine=libaio --write_iolog="$T_TMP/f.log" >"$T_TMP/f.txt" 2>&1 ||
		{ cat "$T_TMP/f.txt"; fail "fio $job"; }
	read -r np nn na < <(period "$T_TMP/n.log")
	read -r fp fn fa < <(period "$T_TMP/f.log")
	echo "$job: first repeat at I/O nvscope $np of $nn, fio $fp of $fn"
	[ "$np" -gt 0 ] && [ "$fp" -gt 0 ] || fail "$job: the pass restarts re-seeded: nvscope $np, fio $fp"
	case $job in *1024k*) [ "$na" = 1 ] && [ "$fa" = 1 ] || fail "$job: writes in 1M units";; esac
done
ok "fio's per-direction map units and re-seeded restarts: both tools' iologs repeat"
