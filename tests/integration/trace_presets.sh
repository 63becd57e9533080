#!/bin/bash
# The shipped traces (presets/traces/*.log) load, fio's own reader agrees on
# their counts, and the "traces" plan ([trace NAME] steps, a 4-copy storm)
# replays them on a loop device with nvscope.trace figures per step.
#
# The shipped plans replay at their recorded timing (sleep-bound, ~20 s each
# for "traces" and "vdi-boot-storm", little CPU): the independent parts run
# side by side, each on its own loop device and outputs, and are waited for.
. "$(dirname "$0")/../lib.sh"
t_loop 1100M
tl=$LOOP # plan traces, then the dry runs (once the plan is done with it)
t_loop 300M
vb=$LOOP # plan trace-vm-boot (its trace spans up to 256 MiB)
t_loop 2100M
big=$LOOP # plan vdi-boot-storm, then the refused boot replay on ext4

# bg NAME COMMAND...: COMMAND in the background (output in NAME.log)
declare -A bg_pid
bg() { local n=$1; shift; "$@" >"$T_TMP/$n.log" 2>&1 & bg_pid[$n]=$!; }
# bg_wait NAME: its status; its output shown when it failed
bg_wait() { wait "${bg_pid[$1]}" && cat "$T_TMP/$1.log" && return 0; cat "$T_TMP/$1.log"; fail "$1"; }
# on a failure, what still runs is stopped (the jobs, then their children) before the cleanup
bg_stop() {
	local p c
	for p in "${bg_pid[@]}"; do
		for c in $(pgrep -P "$p"); do kill "$c" 2>/dev/null; done
		kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
	t_cleanup
}
trap bg_stop EXIT

# fio's reader on every shipped trace (its image on tmpfs: the traces'
# syncs are fsyncs, slow on a disk-backed /tmp)
fio_counts() {
	local f n d=$T_TMP pids=() rc=0 p
	[ -d /dev/shm ] && [ -w /dev/shm ] && d=$(mktemp -d /dev/shm/nvscope-test.XXXXXX)
	for f in presets/traces/*.log; do
		n=$(basename "$f" .log)
		"$NVS_BIN" trace show "$f" >"$T_TMP/show.$n" || { echo "trace show $f"; return 1; }
		command -v fio >/dev/null || continue
		truncate -s 300M "$d/$n.img"
		fio --name=r --read_iolog="$f" --replay_redirect="$d/$n.img" --replay_no_stall=1 \
			--output-format=json >"$T_TMP/fio.$n.json" 2>/dev/null &
		pids+=("$!:$f")
	done
	command -v fio >/dev/null || return 0
	for p in "${pids[@]}"; do
		wait "${p%%:*}" || { echo "fio on ${p#*:}"; rc=1; }
	done
	[ "$d" = "$T_TMP" ] || rm -rf "$d"
	[ $rc = 0 ] || return 1
	echo fio-ran
}

plan_run() { # NAME DEV RESULTS OUT
	"$NVS_BIN" plan "$1" --target "$2" --results "$3" --yes-destroy-data="$2" \
		>"$4" 2>&1 || { tail -20 "$4"; echo "plan $1 exited $?"; return 1; }
}
storm_then_ext4() {
	plan_run vdi-boot-storm "$big" "$T_TMP/vs" "$T_TMP/out.vs" || return 1
	# a boot replay on a device holding data: refused, nothing written
	command -v mkfs.ext4 >/dev/null || { echo "no mkfs.ext4"; return 0; }
	mkfs.ext4 -q -F "$big" || { echo "mkfs"; return 1; }
	local name=${big##*/} w0 rc
	w0=$(awk '{print $5}' /sys/block/$name/stat)
	"$NVS_BIN" plan trace-vm-boot --target "$big" --results "$T_TMP/vr" --yes-destroy-data="$big" \
		>"$T_TMP/out.vr" 2>&1
	rc=$?
	[ $rc -eq 2 ] || { cat "$T_TMP/out.vr"; echo "boot replay on ext4: exit $rc, not 2"; return 1; }
	[ "$(awk '{print $5}' /sys/block/$name/stat)" = "$w0" ] || { echo "the ext4 device was written"; return 1; }
	echo ext4-refused
}
bg fio fio_counts
bg traces plan_run traces "$tl" "$T_TMP/res" "$T_TMP/out.tl"
bg vmboot plan_run trace-vm-boot "$vb" "$T_TMP/vb" "$T_TMP/out.vb"
bg storm storm_then_ext4

bg_wait fio
bg_wait traces
n=$(grep -c "^  trace: " "$T_TMP/out.tl" || true)
[ "$n" -eq 3 ] || { cat "$T_TMP/out.tl"; fail "$n trace lines, not 3"; }
grep -q "4 copies" "$T_TMP/out.tl" || fail "storm step not 4 copies"

# every shipped trace has its plan (the console's Launch pane lists plans):
# presets/plans/trace-NAME.ini replaying [trace NAME]
"$NVS_BIN" plan --list >"$T_TMP/list" || fail "plan --list"
for f in presets/traces/*.log; do
	n=$(basename "$f" .log)
	[ -f "presets/plans/trace-$n.ini" ] || fail "no presets/plans/trace-$n.ini for $f"
	"$NVS_BIN" plan "trace-$n" --target "$tl" --dry-run >"$T_TMP/dry" 2>&1 ||
		{ cat "$T_TMP/dry"; fail "plan trace-$n does not load"; }
	grep -q "trace $n" "$T_TMP/dry" || fail "plan trace-$n has no [trace $n] step"
	# the dry run says what the step replays, not a workload it does not run
	grep -q "trace $n .* replay .*$n.log" "$T_TMP/dry" && ! grep -q "QD" "$T_TMP/dry" ||
		{ cat "$T_TMP/dry"; fail "plan trace-$n --dry-run does not show its trace"; }
	grep -q "^trace-$n " "$T_TMP/list" || fail "plan --list lacks trace-$n"
done
ok "a plan per shipped trace"

# the boot trace replays; the VDI boot storm (8 staggered copies, then 8
# together) runs with per-copy figures on a 2.1 GiB loop device
bg_wait vmboot
grep -q "^  trace: .*vm-boot.log.*1 copy, 809 I/Os issued (trims and syncs too), 0 not replayed" "$T_TMP/out.vb" ||
	{ cat "$T_TMP/out.vb"; fail "vm-boot step figures"; }
bg_wait storm
[ "$(grep -c "^  trace: .*8 copies, 6472 I/Os issued" "$T_TMP/out.vs")" -eq 2 ] ||
	{ cat "$T_TMP/out.vs"; fail "storm steps: not 2 x 8 copies"; }

# the JSON checks, in one python run (each names what failed):
# fio's counts (when fio ran), nvscope.trace of the traces plan's steps, the
# storm's per-copy figures
fio_ran=0
grep -q '^fio-ran$' "$T_TMP/fio.log" && fio_ran=1
python3 - "$T_TMP" "$fio_ran" presets/traces/*.log <<'PY' || fail "JSON checks (above)"
import glob, json, os, re, sys
tmp, fio_ran, traces = sys.argv[1], sys.argv[2] == "1", sys.argv[3:]
bad = []
def check(what, fn):
    try:
        fn()
    except Exception as e:
        bad.append("%s: %r" % (what, e))

def fio_counts(f):
    n = os.path.basename(f)[:-4]
    m = re.search(r"\((\d+) reads, (\d+) writes", open(os.path.join(tmp, "show." + n)).read())
    t = open(os.path.join(tmp, "fio." + n + ".json")).read(); j = json.loads(t[t.index("{"):])["jobs"][0]
    assert (j["read"]["total_ios"], j["write"]["total_ios"]) == (int(m[1]), int(m[2])), (m.groups(), j["read"]["total_ios"], j["write"]["total_ios"])
if fio_ran:
    for f in traces:
        check("fio disagrees on " + f, lambda f=f: fio_counts(f))

def plan_traces():
    found = {}
    for p in glob.glob(os.path.join(tmp, "res", "*", "qd*.json")):
        try:
            d = json.load(open(p))
        except Exception:
            continue
        t = d.get("nvscope", {}).get("trace") if isinstance(d, dict) else None
        if t:
            found[p] = t
    assert len(found) == 3, sorted(found)
    for p, t in found.items():
        assert t["issued"] == (t["reads"] + t["writes"] + t["trims"] + t["syncs"]) * t["copies"], (p, t)
    print("steps with nvscope.trace:", len(found))
check("nvscope.trace in the steps' JSON (plan traces)", plan_traces)

def storm():
    n = 0
    for p in glob.glob(os.path.join(tmp, "vs", "*", "qd*.json")):
        t = json.load(open(p)).get("nvscope", {}).get("trace")
        if not t:
            continue
        n += 1
        assert t["copies"] == 8 and len(t["per_copy"]) == 8, t
        assert all(c["issued"] == 809 for c in t["per_copy"]), t["per_copy"]
        if "stagger" in p:
            assert t["stagger_ms"] == 1000, t
    assert n == 2, n
    print("storm steps with 8 copies of 809 I/Os each:", n)
check("storm per-copy figures", storm)
for b in bad:
    print("FAIL:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
[ $fio_ran = 1 ] && ok "shipped traces load (fio agrees on the counts)"
[ $fio_ran = 1 ] || ok "shipped traces load (no fio: counts not compared)"
ok "plan traces"
ok "boot trace and VDI boot storm"
command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
grep -q '^ext4-refused$' "$T_TMP/storm.log" || fail "the refusal on ext4 did not run"
ok "boot replay refused on a device holding data (exit 2, no write)"
