#!/bin/bash
# fio_trim_bigbs.sh - trims above the 64 MiB block size (a trim carries no
# data: no buffer of its size), side by side with Debian's fio on loop
# devices this test makes:
# - a block size above 64m in a job that reads or writes is refused at the
#   line that makes it so (bs=, or a later rw=), with file:line; above 2g
#   it is not a block size; on the command line the same, without a line;
# - rw=trim bs=1g iodepth=4 over a 4 GiB device: 4 trims of 1 GiB, as fio,
#   the data gone (zeros read back), and nvscope's peak memory far below one
#   1 GiB buffer (none is allocated);
# - fio's zbd-rand-write-trim-gc.fio (its group_reporting off, so each job
#   is listed; only its target and runtime rewritten, as tests/fio_examples.py
#   does) on a sparse 140 GiB device: warmup writes alone, then wjob
#   (flow=128) and trimjob (flow=1, wait_for=warmup) together, trimjob's
#   trims whole 256 MiB zones (zone resets), about one per 128 of wjob's
#   writes (fio's flow.c: a job waits while its share of the flow's I/Os
#   is above its weight's share), in each tool; trimjob runs 1 s of wjob's
#   2 s (see below).
. "${NVS_TOP:-.}/tests/lib.sh"
command -v fio >/dev/null || skip "fio is needed (the reference)"
command -v python3 >/dev/null || skip "python3 is needed to read the JSON"
cd "$T_TMP" || fail "cd"

# --- refusals, at their lines
printf '[j]\nrw=randwrite\nbs=256M\n' >big-w.fio
printf '[j]\nrw=randtrim\nbs=256M\nrw=randwrite\n' >big-rw.fio
printf '[j]\nrw=trim\nbs=3g\n' >big-3g.fio
t_loop 64M; small=$LOOP
for c in "big-w.fio:3: bs: a block size above 64m is only for rw=trim or randtrim" \
	"big-rw.fio:4: rw: a block size above 64m is only for rw=trim or randtrim" \
	"big-3g.fio:3: bs: '3g' is not a block size (512 .. 64m; trims up to 2g)"; do
	f=${c%%:*}
	"$NVS_BIN" run --parse-only --target "$small" "$f" >out 2>&1
	rc=$?
	[ $rc = 2 ] && grep -qF "$c" out || fail "$f: exit $rc: $(cat out)"
done
"$NVS_BIN" run --target "$small" --rw=read --bs=128m --size=1m >out 2>&1
rc=$?
[ $rc = 2 ] && grep -q "above 64m is only for rw=trim" out || fail "--bs=128m --rw=read: exit $rc: $(cat out)"
ok "a block size above 64m refused for reads and writes, at its line"

# --- 1 GiB trims: fio's counts, the data gone, no 1 GiB buffer
t_loop 4G; dev=$LOOP
for g in 0 1 2 3; do
	dd if=/dev/urandom of="$dev" bs=1M count=1 seek=$((g * 1024 + 512)) oflag=direct status=none || fail dd
done
python3 - "$NVS_BIN" "$dev" >nv.txt <<'PY' || fail "nvscope rw=trim bs=1g: $(cat nv.txt)"
import json, resource, subprocess, sys
p = subprocess.run([sys.argv[1], "run", "--target", sys.argv[2], "--rw=trim", "--bs=1g",
                    "--iodepth=4", "--size=4g", "--output-format=json"], capture_output=True, text=True)
if p.returncode:
    sys.exit(p.stderr)
t = json.loads(p.stdout)["jobs"][0]["trim"]
print(t["total_ios"], t["io_bytes"], resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
read -r nios nbytes rss <nv.txt
fio --name=t --filename="$dev" --rw=trim --bs=1g --size=4g --output-format=json >f.json 2>f.err || fail "fio trim"
fc=$(python3 -c "import json,sys; t=json.load(open('f.json'))['jobs'][0]['trim']; print(t['total_ios'], t['io_bytes'])")
echo "  trims, bytes: fio $fc, nvscope $nios $nbytes; nvscope peak RSS ${rss} KiB"
[ "$fc" = "$nios $nbytes" ] && [ "$nios" = 4 ] || fail "1g trims: fio $fc, nvscope $nios $nbytes"
[ "$rss" -lt 65536 ] || fail "nvscope's peak RSS $rss KiB: a trim-sized buffer?"
for g in 0 1 2 3; do
	cmp -s -n 1048576 <(dd if="$dev" bs=1M count=1 skip=$((g * 1024 + 512)) iflag=direct status=none) /dev/zero ||
		fail "GiB $g: data left after the trim"
done
ok "rw=trim bs=1g: 4 trims of 1 GiB as fio, the data gone, peak RSS ${rss} KiB"

# --- fio's zbd-rand-write-trim-gc.fio, each job listed
t_loop 140G; big=$LOOP
# runtimes shortened (warmup 1 s, wjob 2 s) and trimjob's set to 1 s, so
# that it ends before wjob: a job whose flow partner has ended is alone in
# its flow and never held (fio's flow_exit_job too), so at a common end
# trimjob would reset every written zone in the instant it outlives wjob
sed -e 's/^group_reporting/# group_reporting/' -e 's/^filename/# rewritten: filename/' \
	-e 's/^runtime=30/runtime=2/' -e 's/^runtime=3$/runtime=1/' -e 's/^flow=1$/flow=1\nruntime=1/' \
	"$NVS_TOP/tests/fixtures/fio-examples/zbd-rand-write-trim-gc.fio" >gc.fio
blkdiscard "$big" 2>/dev/null
fio --output-format=json --filename="$big" gc.fio >gf.json 2>gf.err || fail "fio: $(tail -3 gf.err)"
blkdiscard "$big" 2>/dev/null
"$NVS_BIN" run --output-format=json --target "$big" gc.fio >gn.json 2>gn.err ||
	fail "nvscope exit $?: $(tail -3 gn.err)"
blkdiscard "$big" 2>/dev/null
python3 - gf.json gn.json <<'PY' || fail "zbd-rand-write-trim-gc: see above"
import json, math, sys
def jobs(p):
    t = open(p).read()
    return {j["jobname"]: j for j in json.loads(t[t.index("{"):])["jobs"]}
for tool, p in (("fio", sys.argv[1]), ("nvscope", sys.argv[2])):
    j = jobs(p)
    assert sorted(j) == ["trimjob", "warmup", "wjob"], (tool, sorted(j))
    w, wj, tj = j["warmup"], j["wjob"], j["trimjob"]
    assert w["write"]["total_ios"] > 0 and not w["trim"]["total_ios"] and not w["read"]["total_ios"]
    assert wj["write"]["total_ios"] > 0 and not wj["trim"]["total_ios"]
    nt, nw = tj["trim"]["total_ios"], wj["write"]["total_ios"]
    assert not tj["write"]["total_ios"] and tj["trim"]["io_bytes"] == nt * (256 << 20), (tool, tj["trim"])
    # flow=1 against flow=128: a trim per 128 writes, the first at once;
    # trimjob ran the first of wjob's 2 s: at most one per 128 of wjob's
    # writes (+1), at least one
    most = math.ceil(nw / 128) + 1
    print("  %s: warmup %d writes; wjob %d writes; trimjob %d trims of 256 MiB (flow: 1..%d)" % (
        tool, w["write"]["total_ios"], nw, nt, most))
    assert 1 <= nt <= most, (tool, nt, most)
PY
ok "zbd-rand-write-trim-gc.fio: each job as fio's, 256 MiB zone resets one per 128 writes"
