#!/bin/bash
# fio's I/O priorities (prio, prioclass, cmdprio_*, log_prio) against Debian's
# fio on one loop device: the JSON's per-direction "prios" array (same keys
# and types, the same priorities) and each priority's share of the I/Os
# within noise; log_prio=1's log column as fio writes it.
# test: no-sanitizer it compares the priorities' shares and JSON with fio's, not memory; the options, the SQE's ioprio and the per-I/O pick run under ASan and TSan in test_prio.c
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "fio not installed"
command -v python3 >/dev/null || skip "python3 not installed"
t_loop 64M; dev=$LOOP
job() { # $1 = file, rest = option lines
	local f=$1; shift
	printf '[j]\nfilename=%s\ndirect=1\nioengine=libaio\niodepth=8\nruntime=1\ntime_based\n' "$dev" >"$f"
	for o in "$@"; do echo "$o" >>"$f"; done
}
compare() { # $1 = label, $2 = fio JSON, $3 = nvscope JSON, $4 = direction
	python3 - "$2" "$3" "$4" <<'PY'
import json, sys
def load(p):
    t = open(p).read()
    return json.loads(t[t.index('{'):])['jobs'][0][sys.argv[3]]
f, n = load(sys.argv[1]), load(sys.argv[2])
assert 'prios' in f, 'fio wrote no prios'
assert 'prios' in n, 'nvscope wrote no prios'
def shares(d):
    tot = sum(p['clat_ns']['N'] for p in d['prios'])
    assert tot == d['total_ios'], (tot, d['total_ios'])
    return {(p['prioclass'], p['prio']): p['clat_ns']['N'] / tot for p in d['prios']}
for p in n['prios']:
    assert sorted(p) == sorted(f['prios'][0]), (sorted(p), sorted(f['prios'][0]))
    assert type(p['prioclass']) is int and type(p['prio']) is int
    c = p['clat_ns']
    assert sorted(c) == sorted(f['prios'][0]['clat_ns']), sorted(c)
    for k in ('min', 'max', 'N'):
        assert type(c[k]) is int, k
fs, ns = shares(f), shares(n)
assert fs.keys() == ns.keys(), (fs, ns)
for k in fs:  # a few hundred I/Os at least: 8 points covers the noise
    assert abs(fs[k] - ns[k]) < 0.08, (k, fs[k], ns[k])
print(' '.join('%d/%d:%.2f/%.2f' % (k[0], k[1], fs[k], ns[k]) for k in sorted(fs)))
PY
}
run() { # $1 = label, $2 = direction, rest = options
	local label=$1 d=$2; shift 2
	job "$T_TMP/p.fio" "$@"
	fio --output-format=json "$T_TMP/p.fio" >"$T_TMP/f.json" 2>"$T_TMP/f.err" || fail "fio $label: $(cat "$T_TMP/f.err")"
	"$NVS_BIN" run --output-format=json "$T_TMP/p.fio" >"$T_TMP/n.json" 2>"$T_TMP/n.err" ||
		fail "nvscope $label: $(cat "$T_TMP/n.err")"
	r=$(compare "$label" "$T_TMP/f.json" "$T_TMP/n.json" "$d") || fail "$label: $r"
	ok "$label: prios (class/level:fio/nvscope share) $r"
}
run "cmdprio_percentage=30" read rw=randread bs=4k prioclass=2 prio=6 cmdprio_percentage=30 cmdprio_class=1
run "cmdprio_percentage=,40 on writes" write rw=randwrite bs=4k cmdprio_percentage=0,40 cmdprio_class=3,2 cmdprio=0,3
run "cmdprio_bssplit" read rw=randread norandommap=1 bssplit=64k/40:1024k/60 \
	"cmdprio_bssplit=64k/25/1/1:64k/75/3/2:1024k/0"

# log_prio=1: fio writes 0x0000 in windowed logs' priority column
job "$T_TMP/l.fio" rw=randread bs=4k cmdprio_percentage=50 log_prio=1 log_avg_msec=500 write_lat_log=lp
(cd "$T_TMP" && fio "$T_TMP/l.fio" >/dev/null 2>&1) || fail "fio log_prio"
mkdir -p "$T_TMP/n" && (bin=$(readlink -f "$NVS_BIN") && cd "$T_TMP/n" && "$bin" run "$T_TMP/l.fio" >"$T_TMP/n.err" 2>&1) ||
	fail "nvscope log_prio: $(cat "$T_TMP/n.err")"
f=$(head -1 "$T_TMP/lp_lat.1.log" | cut -d, -f5) n=$(head -1 "$T_TMP/n/lp_lat.1.log" | cut -d, -f5)
[ -n "$f" ] && [ "$f" = "$n" ] || fail "log_prio column: fio '$f', nvscope '$n'"
ok "log_prio=1: the priority column is '$f' in both"
# refused with the option's name
job "$T_TMP/b.fio" rw=randread cmdprio_percentage=101
out=$("$NVS_BIN" run "$T_TMP/b.fio" 2>&1) && fail "cmdprio_percentage=101 accepted"
echo "$out" | grep -q "cmdprio_percentage" || fail "refusal does not name the option: $out"
ok "cmdprio_percentage=101 refused: $out"
