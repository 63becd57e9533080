#!/bin/bash
# fio master's sprandom (SanDisk random preconditioning; Debian's fio 3.33
# refuses it): fio's example tests/fixtures/fio-examples/sprandom.fio
# (FIO_BS=4096, op 0.15, 100 regions) on a 64 MiB loop device.
#
# Checked by hand against fio master (commit f5344384, 2026-08-21, built in
# /tmp, io_uring, same device, write_iolog from both):
#   plan (fio --debug=sprandom): physical 77172736 bytes, regions of 771727
#     bytes = 188 writes, rewrite buffer 83 (166 with spr_cs); the 99
#     invalid_pct values it prints equal nvscope's (region 0: 0.2479, region
#     49: 0.1340, region 98: 0.0029); with spr_op=0.21 and 400 regions all
#     399 printed ones equal too (physical 81199104, 49 writes a region).
#   writes: fio 18841 (its io_size cap = the physical size; 16377 of 16384
#     blocks written, 2464 rewrites), nvscope 18776 (the fresh blocks ran out:
#     all 16384 written, 2392 rewrites); expected rewrites 2442 +- 49, so both
#     endings are in the noise.  op 0.21 x 400: both 19649 writes (401
#     regions of 49: the plan's end), fio 16219 blocks, nvscope 16333
#     (expected 16259 +- 53).
#   validity per 188-write window (share of writes not rewritten later):
#     fio 0.761 0.771 0.750 ... 1.000, nvscope 0.734 0.793 0.761 ... 1.000;
#     mean over regions 0-98: fio 0.8689, nvscope 0.8715.
#   order: each region starts with one fresh write, then the previous
#     region's rewrites (98 of 99 regions in fio's log, 97 of 98 here: the
#     last region is cut); with spr_cs they come at the region's end (fio 99
#     of 99, nvscope 97 of 98).
#   time_based: both end at the plan's end (fio 18849 writes, no io_size cap).
#   refused by fio too: spr_num_regions=0, spr_cs above a region (fio's
#     message), random_generator other than lfsr, norandommap=0, rw without
#     random writes, an unset ${FIO_BS}.  fio master runs but nvscope refuses:
#     numjobs=2 (each job its own plan over the same blocks), spr_op >= 1;
#     fio master dies of SIGFPE with regions under one block, nvscope refuses.
# With NVS_FIO_MASTER=/path/to/fio (master) the comparison runs here too.
. "$(dirname "$0")/../lib.sh"
t_loop 64M
dev=$LOOP
ex=$NVS_TOP/tests/fixtures/fio-examples/sprandom.fio
export FIO_BS=4096

# per-region check of an iolog: writes, distinct blocks, validity per
# region against the model (fio's maths, ported), where the rewrites sit
check() { # log rwc op nregions where(start|end)
	python3 - "$@" <<'PY'
import math, re, sys
log, rwc, op, n, where = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
offs = []
for l in open(log):
    m = re.fullmatch(r"(?:\d+\s+)?\S+ (\w+) (\d+) (\d+)", l.strip())
    if m:
        assert m.group(1) == "write" and int(m.group(3)) == 4096 and int(m.group(2)) % 4096 == 0, l
        assert int(m.group(2)) < 64 << 20, l
        offs.append(int(m.group(2)) // 4096)
# fio's compute_validity_dist
vgc = 1 - 1 / (0.5 / op + 0.7)
y = [1 + i * (vgc - 1) / (n - 1) for i in range(n)]
x, acc = [], 0.0
for v in y:
    acc += 1 / v; x.append(acc)
def interp(t):
    if t <= x[0]: return y[0]
    if t >= x[-1]: return y[-1]
    for i in range(n - 1):
        if x[i] <= t <= x[i + 1]:
            return y[i] + (y[i + 1] - y[i]) * (t - x[i]) / (x[i + 1] - x[i])
val = [interp(x[0] + i * (x[-1] - x[0]) / (n - 1)) for i in range(n)][::-1]
pct = [round((1 - v) * 10000) for v in val]
last, prev = {}, []
for i, b in enumerate(offs):
    prev.append(last.get(b, -1)); last[b] = i
nreg = (len(offs) + rwc - 1) // rwc
bad, placed, z = [], 0, []
for r in range(0, min(n - 1, nreg - 1)):
    w = range(r * rwc, (r + 1) * rwc)
    obs = sum(1 for i in w if last[offs[i]] == i) / rwc
    vm = 1 - (pct[r] + 1) / 10001
    sd = math.sqrt(vm * (1 - vm) / rwc) + 1e-3
    z.append((obs - vm) / sd)
    if abs(obs - vm) > 5 * sd:
        bad.append("region %d: %.3f, model %.3f" % (r, obs, vm))
    pos = [i - r * rwc for i in w if prev[i] >= 0 and prev[i] // rwc == r - 1]
    if r and pos:
        want = list(range(1, 1 + len(pos))) if where == "start" else list(range(rwc - len(pos), rwc))
        placed += pos == want
print(len(offs), len(last), nreg, placed, "%.2f" % (sum(z) / len(z)), "; ".join(bad[:3]))
PY
}

rm -f "$T_TMP/n.log"
"$NVS_BIN" run --target "$dev" --write_iolog="$T_TMP/n.log" "$ex" >"$T_TMP/n.txt" 2>&1 ||
	{ cat "$T_TMP/n.txt"; fail "sprandom.fio exited"; }
grep -q "ioengine=libaio runs as io_uring" "$T_TMP/n.txt" || fail "no libaio note: $(head -3 "$T_TMP/n.txt")"
read -r nw nd nreg placed zmean bad < <(check "$T_TMP/n.log" 188 0.15 100 start)
[ -z "$bad" ] || fail "validity off the model: $bad"
# at most the physical size (18841 writes) or 101 regions; the fresh
# blocks all written unless the cap came first
[ "$nw" -le 18841 ] && [ "$nw" -gt 16384 ] || fail "writes $nw"
[ "$nd" = 16384 ] || [ "$nw" = 18841 ] || fail "$nd distinct of 16384 with $nw writes"
[ "$placed" -ge 95 ] || fail "rewrites at a region's start in $placed regions"
ok "sprandom.fio: $nw writes, $nd distinct, $nreg regions, validity per region on the model (mean z $zmean), rewrites first in $placed regions"

rm -f "$T_TMP/c.log"
"$NVS_BIN" run --target "$dev" --write_iolog="$T_TMP/c.log" --spr_cs=256k "$ex" >"$T_TMP/c.txt" 2>&1 ||
	{ cat "$T_TMP/c.txt"; fail "spr_cs exited"; }
read -r cw cd creg cplaced czmean cbad < <(check "$T_TMP/c.log" 188 0.15 100 end)
[ -z "$cbad" ] && [ "$cplaced" -ge 95 ] || fail "spr_cs: rewrites last in $cplaced regions; $cbad"
ok "spr_cs: the rewrites at each region's end ($cplaced regions), validity on the model"

# spr_op=0.21 with 400 regions (fio: both tools 19649 writes, 401 x 49)
sed 's/^spr_op=.*/spr_op=0.21/; s/^spr_num_regions=.*/spr_num_regions=400/' "$ex" >"$T_TMP/o.fio"
rm -f "$T_TMP/o.log"
"$NVS_BIN" run --target "$dev" --write_iolog="$T_TMP/o.log" "$T_TMP/o.fio" >"$T_TMP/o.txt" 2>&1 ||
	{ cat "$T_TMP/o.txt"; fail "op 0.21 exited"; }
read -r ow od oreg oplaced ozmean obad < <(check "$T_TMP/o.log" 49 0.21 400 start)
[ -z "$obad" ] && [ "$ow" -le 19649 ] || fail "op 0.21: $ow writes; $obad"
[ "$od" = 16384 ] || [ "$ow" = 19649 ] || fail "op 0.21: $od distinct with $ow writes"
ok "spr_op=0.21 x 400 regions: $ow writes (fio 19649), $od distinct (fio 16219)"

# time_based: the plan's end ends the job (fio master: 18849 writes in 0.26 s)
rm -f "$T_TMP/t.log"
"$NVS_BIN" run --target "$dev" --runtime=30 --time_based --write_iolog="$T_TMP/t.log" "$ex" \
	>"$T_TMP/t.txt" 2>&1 || { cat "$T_TMP/t.txt"; fail "time_based exited"; }
read -r tw _ < <(check "$T_TMP/t.log" 188 0.15 100 start)
[ "$tw" -le 18988 ] && [ "$tw" -gt 16384 ] || fail "time_based: $tw writes"
ok "time_based: ends with the plan ($tw writes)"

# refusals (fio's reasons where fio refuses)
refused() { # pattern args...
	local pat=$1
	shift
	"$NVS_BIN" run --parse-only --target "$dev" "$@" >"$T_TMP/r.txt" 2>&1
	local rc=$?
	[ $rc = 2 ] && grep -q -- "$pat" "$T_TMP/r.txt" || fail "$* : rc $rc, $(cat "$T_TMP/r.txt")"
}
refused "requires random write" --sprandom --rw=randread
refused "requires random_generator=lfsr" --sprandom --rw=randwrite --random_generator=tausworthe
refused "requires norandommap=1" --sprandom --rw=randwrite --norandommap=0
refused "numjobs=1" --sprandom --rw=randwrite --numjobs=2
refused "supports only one file" --sprandom --rw=randwrite --target "$dev"
refused "spr_num_regions" --sprandom --rw=randwrite --spr_num_regions=0
refused "spr_op" --sprandom --rw=randwrite --spr_op=nan
FIO_BS= refused "bs" "$ex"
env -u FIO_BS "$NVS_BIN" run --parse-only --target "$dev" "$ex" >"$T_TMP/r.txt" 2>&1
[ $? = 2 ] && grep -q "sprandom.fio:32: bs" "$T_TMP/r.txt" || fail "unset FIO_BS: $(cat "$T_TMP/r.txt")"
"$NVS_BIN" run --target "$dev" --sprandom --rw=randwrite --size=4m --spr_num_regions=2000 \
	>"$T_TMP/r.txt" 2>&1
[ $? = 1 ] && grep -q "regions smaller than one block" "$T_TMP/r.txt" || fail "2000 regions: $(cat "$T_TMP/r.txt")"
ok "refusals: fio's (random write, lfsr, norandommap, one file, regions, unset \${FIO_BS}) and numjobs>1"

# side by side with fio master, when one is given
if [ -x "${NVS_FIO_MASTER:-}" ]; then
	sed 's/ioengine=libaio/ioengine=io_uring/' "$ex" >"$T_TMP/f.fio"
	rm -f "$T_TMP/f.log"
	"$NVS_FIO_MASTER" --filename="$dev" --write_iolog="$T_TMP/f.log" "$T_TMP/f.fio" \
		>"$T_TMP/f.txt" 2>&1 || { cat "$T_TMP/f.txt"; fail "fio master exited"; }
	read -r fw fd freg fplaced fzmean fbad < <(check "$T_TMP/f.log" 188 0.15 100 start)
	[ -z "$fbad" ] && [ "$fw" -le 18841 ] && [ "$fplaced" -ge 95 ] || fail "fio master: $fw $fplaced $fbad"
	ok "fio master: $fw writes, $fd distinct, validity on the same model (mean z $fzmean)"
else
	echo "note: NVS_FIO_MASTER not set: the side-by-side run with fio master skipped"
fi
