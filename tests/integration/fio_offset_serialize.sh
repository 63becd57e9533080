#!/bin/bash
# fio's offset_align and serialize_overlap, against fio on a loop device.
# offset=N%: fio rounds the offset UP to offset_align, or to the smallest
# block size without it (filesetup.c get_start_offset): the first I/O of a
# sequential read is there, for both tools.  serialize_overlap: an I/O that
# overlaps one in flight waits for it, so a random write job over 4 blocks
# at iodepth=16 never has more than 4 in flight (fio's iodepth_level shows
# nothing at 8 or 16), while without it the queue is full.
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "no fio"
t_loop 16M
dev=$LOOP

first() {
	python3 - "$1" <<'PY'
import re, sys
for l in open(sys.argv[1]):
    m = re.fullmatch(r"\d*\s*\S+ (?:read|write) (\d+) \d+", l.strip())
    if m:
        print(m.group(1))
        break
PY
}
# 16 MiB x 33% = 5536481.28: up to 4k 5537792, up to 64k 5570560
for a in "" 64k 512; do
	rm -f "$T_TMP/n.log" "$T_TMP/f.log"
	opt=${a:+--offset_align=$a}
	"$NVS_BIN" run --target "$dev" --rw=read --bs=4k --size=64k --offset=33% $opt \
		--write_iolog="$T_TMP/n.log" >"$T_TMP/n.txt" 2>&1 || { cat "$T_TMP/n.txt"; fail "nvscope $opt"; }
	fio --name=j --filename="$dev" --rw=read --bs=4k --size=64k --offset=33% $opt --direct=1 \
		--write_iolog="$T_TMP/f.log" >"$T_TMP/f.txt" 2>&1 || { cat "$T_TMP/f.txt"; fail "fio $opt"; }
	n=$(first "$T_TMP/n.log") f=$(first "$T_TMP/f.log")
	[ -n "$n" ] && [ "$n" = "$f" ] || fail "offset=33% ${opt:-(no offset_align)}: nvscope starts at $n, fio at $f"
	ok "offset=33% ${opt:-(no offset_align)}: both start at $n"
done
for bad in nan -4k inf 99999999999999999999 8g; do
	"$NVS_BIN" run --target "$dev" --rw=read --offset=10% --offset_align=$bad >"$T_TMP/b.txt" 2>&1
	rc=$?
	[ "$rc" = 2 ] || { cat "$T_TMP/b.txt"; fail "offset_align=$bad: exit $rc, not 2"; }
done
ok "offset_align: NaN, negative, inf, overflow refused"

# the share of submissions at depth 8 and 16 (fio's iodepth_level) of each tool
levels() {
	rm -f "$T_TMP/n.json" "$T_TMP/f.json"
	b="--rw=randwrite --bs=4k --size=16k --iodepth=16 --norandommap --runtime=1 --time_based $1"
	"$NVS_BIN" run --target "$dev" $b --output-format=json --output="$T_TMP/n.json" >"$T_TMP/n.txt" 2>&1 ||
		{ cat "$T_TMP/n.txt"; fail "nvscope $1"; }
	fio --name=j --filename="$dev" $b --direct=1 --ioengine=libaio --output-format=json \
		--output="$T_TMP/f.json" >"$T_TMP/f.txt" 2>&1 || { cat "$T_TMP/f.txt"; fail "fio $1"; }
	python3 - "$T_TMP/n.json" "$T_TMP/f.json" <<'PY'
import json, sys
out = []
for p in sys.argv[1:]:
    lv = json.load(open(p))["jobs"][0]["iodepth_level"]
    out.append("%.1f" % (lv["8"] + lv["16"]))
print(" ".join(out))
PY
}
read -r n f < <(levels "--serialize_overlap=1")
[ "$n" = 0.0 ] && [ "$f" = 0.0 ] || fail "serialize_overlap: % at depth 8-16: nvscope $n, fio $f"
read -r n f < <(levels "")
python3 -c "import sys; sys.exit(not (float('$n') > 50 and float('$f') > 50))" ||
	fail "without serialize_overlap: % at depth 8-16: nvscope $n, fio $f"
ok "serialize_overlap: 4 blocks at iodepth=16 never more than 4 in flight, as fio (without: nvscope $n%, fio $f% at 8-16)"
