#!/bin/bash
# fio's zonemode=zbd on a device that is not zoned (emulated zones, fio
# 3.33's ZBD_NONE), side by side with Debian's fio on a 256 MiB loop device:
# both write_iologs are replayed against fio's zone rules (zbd_check.py:
# every write at its zone's write pointer or a reset of a full zone, reads
# below the write pointer, trims = resets of zones with data, the open-zone
# limit), sequential jobs issue the very same offsets as fio, and the
# figures (I/Os, zones, resets) agree.  Then the refusals.
# test: no-sanitizer it compares the zones fio and nvscope write, open and reset (their iologs against fio's zone rules), not memory; nvscope's zone code runs under ASan and TSan in test_zbd.c, test_zones.c and fio_zbd_verify.sh, its option parsing in the spec fuzzer
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "no fio"
t_loop 256M
dev=$LOOP
CHK="$(dirname "$0")/zbd_check.py"
# python3 resolved once: the PATH's may be a pyenv shim, ~0.35 s of CPU a
# start here (the interpreter itself ~0.06 s), and this test starts it ~20 times
PY=$(python3 -c 'import sys; print(sys.executable)') && [ -x "$PY" ] || PY=$(command -v python3)
python3() { "$PY" "$@"; }
MB=1048576

both() { # options...
	rm -f "$T_TMP/n.log" "$T_TMP/f.log"
	"$NVS_BIN" run --target "$dev" --zonemode=zbd "$@" --write_iolog="$T_TMP/n.log" \
		>"$T_TMP/n.txt" 2>&1 || { cat "$T_TMP/n.txt"; fail "nvscope $* exited"; }
	fio --name=j --filename="$dev" --direct=1 --ioengine=psync --zonemode=zbd "$@" \
		--write_iolog="$T_TMP/f.log" >"$T_TMP/f.txt" 2>&1 || { cat "$T_TMP/f.txt"; fail "fio $* exited"; }
}
ops() { awk '$3 ~ /^(read|write|trim)$/ {print $3, $4, $5}' "$1"; }
check() { # name zonesize checker-options...: both logs, "n-figures|f-figures"
	local name=$1 n f
	shift
	n=$(python3 "$CHK" "$T_TMP/n.log" "$@") || fail "$name: nvscope broke a zone rule: $n"
	f=$(python3 "$CHK" "$T_TMP/f.log" "$@") || fail "$name: fio broke a zone rule (checker wrong?): $f"
	echo "$n|$f"
}
fig() { sed -n "s/.*\b$2=\([0-9]*\).*/\1/p" <<<"$1"; }

# 1. sequential writes: fio rounds the region in to whole zones (offset 8M
# up to 16M, the end down), loops over the same zones resetting them, and
# skips from the zone capacity to the zone's end: the same offsets as fio
for o in "--bs=1M --offset=8M --size=58M" "--bs=1M --offset=16M --size=32M --loops=3" \
	"--bs=1M --zonecapacity=12M --offset=16M --size=32M --loops=2"; do
	both --rw=write --zonesize=16M $o
	[ -s "$T_TMP/f.log" ] && [ "$(ops "$T_TMP/n.log" | wc -l)" -gt 0 ] || fail "write $o: no I/O"
	cmp -s <(ops "$T_TMP/n.log") <(ops "$T_TMP/f.log") ||
		{ diff <(ops "$T_TMP/n.log") <(ops "$T_TMP/f.log") | head; fail "write $o: offsets differ from fio's"; }
	ok "rw=write $o: the same $(ops "$T_TMP/n.log" | wc -l) offsets in the same order as fio"
done

# 2. random writes with max_open_zones=4: each at its zone's write pointer,
# never more than 4 zones open (exactly 4 in both), full zones reset when
# drawn again; zones and resets close to fio's
both --rw=randwrite --zonesize=4M --bs=64k --number_ios=3000 --max_open_zones=4
r=$(check "randwrite max_open_zones" $((4 * MB)) --minbs 65536 --max-open 4)
n=${r%|*} f=${r#*|}
[ "$(fig "$n" writes)" = 3000 ] && [ "$(fig "$n" maxopen)" = 4 ] && [ "$(fig "$f" maxopen)" = 4 ] ||
	fail "randwrite max_open_zones=4: nvscope $n, fio $f"
nz=$(fig "$n" zones) fz=$(fig "$f" zones)
[ $((nz - fz)) -le 8 ] && [ $((fz - nz)) -le 8 ] || fail "zones written: nvscope $nz, fio $fz"
ok "randwrite max_open_zones=4: every write at the wp, 4 zones open at most ($n | fio $f)"

# 3. randrw, read_beyond_wp=0: the first I/O a write, reads below the wp
both --rw=randrw --zonesize=4M --bs=64k --size=32M
r=$(check "randrw" $((4 * MB)) --minbs 65536 --rbwp0)
n=${r%|*} f=${r#*|}
[ "$(ops "$T_TMP/n.log" | head -1 | cut -d' ' -f1)" = write ] || fail "randrw: the first I/O is not a write"
nr=$(fig "$n" reads) fr=$(fig "$f" reads)
[ "$nr" -gt 150 ] && [ "$nr" -lt 360 ] && [ "$fr" -gt 150 ] && [ "$fr" -lt 360 ] ||
	fail "randrw: reads nvscope $nr, fio $fr of 512"
ok "randrw read_beyond_wp=0: every read below its zone's wp ($n | fio $f)"

# 4. zone_reset_threshold/frequency: past half of the region written, every
# 4th write resets its zone first: the same count as fio
both --rw=randwrite --zonesize=4M --bs=1M --size=32M --zone_reset_threshold=0.5 \
	--zone_reset_frequency=0.25
r=$(check "reset frequency" $((4 * MB)) --minbs $MB --freq)
n=${r%|*} f=${r#*|}
fres=$(sed -n 's/.*; \([0-9]*\) zone resets.*/\1/p' "$T_TMP/f.txt")
[ "$(fig "$n" resets)" -ge 3 ] && [ "$(fig "$n" resets)" -le 5 ] && [ "$(fig "$f" resets)" = "$fres" ] ||
	fail "zone_reset_frequency: nvscope $n, fio $f (fio says $fres resets)"
ok "zone_reset_threshold=0.5 zone_reset_frequency=0.25: $(fig "$n" resets) resets (fio $fres)"

# 5. a job file: write 2.5 zones (rounded to 2), then (stonewall) read them
# with read_beyond_wp=0, then randtrim: the zones live over the whole run;
# the trims reset the two zones with data (nothing reaches the device)
for t in n f; do
	cat >"$T_TMP/$t.fio" <<EOF
[global]
zonemode=zbd
zonesize=16M
direct=1
ioengine=psync
[w]
rw=write
bs=1M
offset=2z
size=40M
write_iolog=$T_TMP/$t-w.log
[r]
stonewall
rw=read
bs=256k
read_beyond_wp=0
write_iolog=$T_TMP/$t-r.log
[t]
stonewall
rw=randtrim
bs=16M
write_iolog=$T_TMP/$t-t.log
EOF
done
dd if=/dev/urandom of="$dev" bs=1M count=1 seek=100 oflag=direct status=none
"$NVS_BIN" run --target "$dev" --job "$T_TMP/n.fio" >"$T_TMP/n.txt" 2>&1 || { cat "$T_TMP/n.txt"; fail "nvscope job file"; }
# the trims were zone resets in memory: the trimmed zones still hold what
# was written (no discard reached the device), the data past them is intact
nz() { dd if="$dev" bs=4k count=1 skip=$(($1 / 4096)) iflag=direct status=none | tr -d '\0' | wc -c; }
[ "$(nz $((32 * MB)))" -gt 0 ] && [ "$(nz $((48 * MB)))" -gt 0 ] ||
	fail "job file: a trimmed zone reads zeros (a discard reached the device)"
[ "$(nz $((100 * MB)))" -gt 0 ] || fail "job file: data past the zones zeroed"
fio --filename="$dev" "$T_TMP/f.fio" >"$T_TMP/f.txt" 2>&1 || { cat "$T_TMP/f.txt"; fail "fio job file"; }
cat "$T_TMP"/n-{w,r,t}.log >"$T_TMP/n.log"
cat "$T_TMP"/f-{w,r,t}.log >"$T_TMP/f.log"
r=$(check "job file" $((16 * MB)) --minbs 262144 --rbwp0)
n=${r%|*} f=${r#*|}
sops() { ops "$1" | grep -v trim; ops "$1" | grep trim | sort; } # random trims: any order
cmp -s <(sops "$T_TMP/n.log") <(sops "$T_TMP/f.log") ||
	{ diff <(sops "$T_TMP/n.log") <(sops "$T_TMP/f.log") | head; fail "job file: I/Os differ from fio's ($n | $f)"; }
[ "$(fig "$n" writes)" = 32 ] && [ "$(fig "$n" reads)" = 128 ] && [ "$(fig "$n" trims)" = 2 ] ||
	fail "job file: $n"
ok "job file write / read_beyond_wp=0 / randtrim over run groups: fio's I/Os ($n)"

# 6. numjobs=4 on one device share the zones: 4 x 60 writes into at most 8
# open zones (none fills: no reset), each zone's writes tile it from its
# start (the merged log is in issue order, not in claim order: sorted)
both --rw=randwrite --zonesize=4M --bs=64k --number_ios=60 --numjobs=4 --max_open_zones=8 \
	--group_reporting
n=$(python3 "$CHK" "$T_TMP/n.log" $((4 * MB)) --minbs 65536 --max-open 8 --unordered) ||
	fail "numjobs=4: a zone rule broken: $n"
[ "$(fig "$n" writes)" = 240 ] && [ "$(fig "$n" zones)" -le 8 ] || fail "numjobs=4: $n"
ok "numjobs=4 max_open_zones=8: 240 writes tiling at most 8 zones from their starts ($n)"

# 7. refusals (exit 2)
for o in "--rw=read" "--rw=write" "--rw=randwrite" "--rw=randwrite --zonesize=4M --bs=8M" "--rw=randtrim --zonesize=4M --bs=1M" \
	"--rw=randwrite --zonesize=4M --job_max_open_zones=2" "--rw=write --zonesize=4M --zoneskip=4M" \
	"--rw=write --zonesize=4M --zonecapacity=8M" "--rw=write --zonesize=4M --max_open_zones=nan" \
	"--rw=write --zonesize=4M --zone_reset_threshold=2" "--rw=write --zonesize=4M --offset=1000z"; do
	"$NVS_BIN" run --target "$dev" --bs=64k --zonemode=zbd $o >"$T_TMP/z.txt" 2>&1
	rc=$?
	[ $rc = 2 ] || { cat "$T_TMP/z.txt"; fail "zonemode=zbd $o: exit $rc, not 2"; }
done
"$NVS_BIN" run --target "$dev" --bs=4k --size=1z --rw=read >"$T_TMP/z.txt" 2>&1
[ $? = 2 ] || fail "size=1z without zones accepted"
ok "zbd refusals: no zonesize, bs > zone, trim bs != zone, job_max without max, zoneskip, capacity > size, NaN, threshold > 1, offset past the end"

# 8. fio's zbd examples scaled to the loop device (zones of 4M, offsets in
# the device, 2 s): the same jobs and directions as fio; zbd-seq-read reads
# nothing in both (fresh emulated zones hold no data); the trim job of
# zbd-rand-write-trim-gc resets zones (trims counted, none reach the device)
counts() { # json: "job:reads:writes:trims ..." (fio's JSON may follow notes)
	python3 - "$1" <<'PY'
import json, sys
t = open(sys.argv[1]).read()
d = json.loads(t[t.index("{"):])
print(" ".join("%s:%d:%d:%d" % (j["jobname"], j["read"]["total_ios"], j["write"]["total_ios"],
                              j["trim"]["total_ios"]) for j in d["jobs"]))
PY
}
for e in zbd-rand-write zbd-rand-write-zone-reset-gc zbd-rand-write-trim-gc zbd-seq-read; do
	sed -e 's/zonesize=256M/zonesize=4M/; s/offset=524z/offset=4z/; s/bs=256M/bs=4M/; s/bs=32M/bs=1M/' \
		-e 's/offset=140660178944/offset=16M/; s/size=10G/size=64M/; s/^runtime=.*/runtime=2/' \
		-e "s|^filename=.*|filename=$dev|" "$NVS_TOP/tests/fixtures/fio-examples/$e.fio" >"$T_TMP/$e.fio"
	"$NVS_BIN" run --job "$T_TMP/$e.fio" --output-format=json --output "$T_TMP/n.json" >"$T_TMP/n.txt" 2>&1 ||
		{ cat "$T_TMP/n.txt"; fail "$e (scaled): nvscope exited"; }
	fio "$T_TMP/$e.fio" --output-format=json --output "$T_TMP/f.json" >"$T_TMP/f.txt" 2>&1 ||
		{ cat "$T_TMP/f.txt"; fail "$e (scaled): fio exited"; }
	n=$(counts "$T_TMP/n.json") f=$(counts "$T_TMP/f.json")
	# the same jobs, and each direction used by both or by neither
	shape() { sed -E 's/:0(:|$| )/:z\1/g; s/:[1-9][0-9]*/:n/g' <<<"$1"; }
	[ "$(shape "$n")" = "$(shape "$f")" ] || fail "$e (scaled): nvscope $n, fio $f (job:reads:writes:trims)"
	ok "$e scaled to 4M zones: nvscope $n, fio $f (job:reads:writes:trims)"
done

# a sequential write pass that ends at its region's end claims nothing past
# it (the claim of the wrapped offset reset zone 0: on a zoned device its
# data would be destroyed): the read job after it reads all that was written
cat >"$T_TMP/e.fio" <<EOF2
[global]
zonemode=zbd
zonesize=1M
zonecapacity=768k
size=4M
bs=64k
direct=1
ioengine=psync
[w]
rw=write
[r]
stonewall
rw=read
EOF2
rb() { python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))
print(sum(x["read"]["io_bytes"] for x in j["jobs"] if x["jobname"] == "r"))' "$1"; }
"$NVS_BIN" run --target "$dev" --output-format=json "$T_TMP/e.fio" >"$T_TMP/e.json" 2>"$T_TMP/e.err" ||
	{ cat "$T_TMP/e.err"; fail "nvscope e.fio"; }
fio --filename="$dev" --output-format=json "$T_TMP/e.fio" >"$T_TMP/fe.json" 2>&1 || fail "fio e.fio"
[ "$(rb "$T_TMP/e.json")" = 3145728 ] && [ "$(rb "$T_TMP/fe.json")" = 3145728 ] ||
	fail "write then read of 4 zones of capacity 768k: read $(rb "$T_TMP/e.json") bytes (fio $(rb "$T_TMP/fe.json"))"
ok "a write pass ending at its region's end resets no zone: the read job reads the 3 MiB written, as fio"
