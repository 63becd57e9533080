#!/bin/bash
# fio's random map (norandommap=0, fio's default): a uniform random job visits
# every block of its region once per pass.  On a 16 MiB loop device,
# `--rw=randwrite --bs=4k --size=16m` writes all 4096 blocks once (write_iolog:
# 4096 writes, 4096 distinct offsets), as fio's own write_iolog of the same
# job shows; so does randrw (the map is shared by reads and writes) and
# random_generator=lfsr (also with norandommap); norandommap=1 draws with replacement (~63%, as fio).
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
