#!/bin/bash
# fio's zonemode=strided on a non-zoned device (zonesize, zonerange,
# zoneskip): a job does zonesize bytes in a zone of zonerange bytes, moves
# zonerange + zoneskip on and wraps at the device's end.  On a 16 MiB loop
# device, nvscope's write_iolog lists the same offsets in the same order as
# fio's own for sequential jobs; for a random one every I/O falls in the
# zone fio's schedule puts it in, as fio's do.  zonemode=zbd: fio_zbd.sh.
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "no fio"
t_loop 16M
dev=$LOOP

offs() {
	python3 - "$1" <<'PY'
import re, sys
for l in open(sys.argv[1]):
    m = re.fullmatch(r"\d*\s*\S+ (?:read|write) (\d+) (\d+)", l.strip())
    if m:
        print(m.group(1), m.group(2))
PY
}
run_both() { # options...
	rm -f "$T_TMP/n.log" "$T_TMP/f.log"
	"$NVS_BIN" run --target "$dev" --bs=4k --size=16m --zonemode=strided "$@" --write_iolog="$T_TMP/n.log" \
		>"$T_TMP/n.txt" 2>&1 || { cat "$T_TMP/n.txt"; fail "nvscope $* exited"; }
	fio --name=j --filename="$dev" --bs=4k --size=16m --direct=1 --zonemode=strided "$@" \
		--write_iolog="$T_TMP/f.log" >"$T_TMP/f.txt" 2>&1 || { cat "$T_TMP/f.txt"; fail "fio $* exited"; }
	offs "$T_TMP/n.log" >"$T_TMP/n.offs"
	offs "$T_TMP/f.log" >"$T_TMP/f.offs"
}

for z in "--zonesize=64k --zoneskip=192k" "--zonesize=32k --zonerange=128k --zoneskip=128k" \
	"--zonesize=128k --zonerange=64k --zoneskip=64k"; do
	run_both --rw=read $z
	[ "$(wc -l <"$T_TMP/n.offs")" = 4096 ] || fail "read $z: $(wc -l <"$T_TMP/n.offs") I/Os, not 4096"
	cmp -s "$T_TMP/n.offs" "$T_TMP/f.offs" ||
		{ diff "$T_TMP/n.offs" "$T_TMP/f.offs" | head; fail "read $z: offsets differ from fio's"; }
	ok "rw=read $z: the same 4096 offsets in the same order as fio"
done

# random within the zone: zonesize 64k of zonerange 128k, skip 128k: I/O
# number i belongs to zone (i / 16) mod 64, at (zone * 256k, + 128k)
inzone() {
	python3 - "$1" <<'PY'
import sys
bad = 0; rows = [tuple(map(int, l.split())) for l in open(sys.argv[1])]
for i, (o, s) in enumerate(rows):
    z = (i // 16) % 64
    if not (z * 262144 <= o and o + s <= z * 262144 + 131072):
        bad += 1
print(len(rows), bad, len(set(o for o, _ in rows)))
PY
}
run_both --rw=randread --zonesize=64k --zonerange=128k --zoneskip=128k
n=$(inzone "$T_TMP/n.offs") f=$(inzone "$T_TMP/f.offs")
read -r ni nb nd <<<"$n"
read -r fi fb fd <<<"$f"
# fio resets its random map at each zone visit: 16 of a zone's 32 blocks per
# visit, 4 visits, ~2048 * (1 - 1/16) = 1920 distinct (one map would give 1024)
[ "$ni" = 4096 ] && [ "$nb" = 0 ] && [ "$fb" = 0 ] && [ "$nd" -gt 1800 ] && [ "$nd" -lt 2040 ] &&
	[ "$fd" -gt 1800 ] && [ "$fd" -lt 2040 ] || fail "randread zones: nvscope $n, fio $f (I/Os, outside, distinct)"
ok "rw=randread zonesize=64k zonerange=128k zoneskip=128k: every offset in its zone (nvscope $nd, fio $fd distinct)"

"$NVS_BIN" run --target "$dev" --bs=4k --size=1m --rw=read --zonemode=zbd >"$T_TMP/z.txt" 2>&1
rc=$?
[ $rc = 2 ] && grep -q "zonemode=zbd needs a zonesize" "$T_TMP/z.txt" || fail "zonemode=zbd: rc $rc"
"$NVS_BIN" run --target "$dev" --bs=4k --size=1m --rw=read --zonemode=none --zonesize=64k >"$T_TMP/z.txt" 2>&1
[ $? = 2 ] || fail "zonemode=none with zonesize accepted"
# fio 3.33: zonemode defaults to none, so a zonesize alone is refused
"$NVS_BIN" run --target "$dev" --bs=4k --size=1m --rw=read --zonesize=64k >"$T_TMP/z.txt" 2>&1
[ $? = 2 ] || fail "zonesize without zonemode=strided accepted"
"$NVS_BIN" run --target "$dev" --bs=4k --size=1m --rw=read --zonesize=nan >"$T_TMP/z.txt" 2>&1
[ $? = 2 ] || fail "zonesize=nan accepted"
ok "zonemode=zbd without zonesize (fio_zbd.sh), zonesize without zonemode=strided and zonesize=nan refused (exit 2)"
