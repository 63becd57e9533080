#!/bin/bash
# report_testbed.sh - the test bed and the parameters as run.  A plan whose
# description says "2x fill ... 30 min" runs scaled down with command-line
# overrides (--runtime 300ms --fill 0.05 --round 200ms --max-rounds 2) on a
# file (and on a loop device when root): meta.json's "testbed" holds the
# machine (checked against nproc, uname -r, /etc/os-release; the CPUs'
# power policy against sysfs: cpuidle driver, haltpoll's halt poll, cpu0's
# deepest enabled idle state, cpufreq governor), the command
# line (shlex gives the exact argv back, a path with a space and a quote
# included) and the drive; step.json holds the values each step ran with;
# the report shows the test bed block and, under each step, the values as
# run with the overrides marked - never the description's 30 min or 2x;
# a trace step is headed by its trace; each row has the machine's CPU over
# it (all cores, /proc/stat) and the IOPS per % of it, as reviews quote CPU.
# The two measure steps at one QD are IO consistency runs: each has
# AnandTech's three charts (whole run on a log scale, a zoom on the last
# 30% on a log and on a linear scale, report/conshtml.c), the zoom's start
# said on the page and shaded on the whole run, its points exactly the
# samples from there on, the dots 5 px across (not single pixels); the
# replay's one 10 ms interval is too short to chart, and the page says so.
. "${NVS_TOP:-.}/tests/lib.sh"
B=$NVS_BIN
PY=$(python3 -c 'import sys; print(sys.executable)') && [ -x "$PY" ] || PY=python3

plan=$T_TMP/tb.ini
cat >"$plan" <<'INI'
[plan]
description = testbed plan: 2x fill, then 4K random write QD4 for 30 min

[global]
size = 16m
interval = 100ms

[fill]
passes = 2

[precondition p]
rw = randwrite
bs = 4k
iodepth = 4
round = 1s
max_rounds = 25
window = 2

[measure m]
rw = randwrite
bs = 4k
iodepth = 4
runtime = 30m

[measure web]
rw = randread
bssplit = 4k/50:8k/50
iodepth = 2
runtime = 30m
INI
# a trace replay (two copies): headed by its trace, not "randread 4k"
{ echo "fio version 3 iolog"; echo "0 t.img add"; echo "0 t.img open"
  for i in $(seq 0 39); do echo "$((i * 2)) t.img read $((i * 4096)) 4096"; done
  echo "80 t.img close"; } >"$T_TMP/mini.log"
printf '\n[trace mini]\nread_iolog = %s\ntrace_copies = 2\n' "$T_TMP/mini.log" >>"$plan"
img="$T_TMP/it's a.img"
truncate -s 16M "$img"
R="$T_TMP/res dir"
"$B" plan "$plan" --target "$img" --results "$R" --quiet --yes-destroy-data="$img" \
	--runtime 300ms --fill 0.05 --round 200ms --max-rounds 2 >"$T_TMP/log" 2>&1 ||
	fail "plan: $(cat "$T_TMP/log")"
"$B" report "$R" -o "$T_TMP/r.html" >/dev/null 2>"$T_TMP/err" || fail "report: $(cat "$T_TMP/err")"
ok "plan with overrides and report"

os=$(. /etc/os-release 2>/dev/null && echo "${PRETTY_NAME:-unknown}")
"$PY" - "$R" "$T_TMP/r.html" "$img" "$(nproc)" "$(uname -r)" "${os:-unknown}" "$B" "$plan" <<'PY' ||
import json, re, shlex, sys
R, page, img, nproc, kernel, os_name, B, plan = sys.argv[1:]
page = open(page).read()
def esc(s):  # the report's escaping (svg_escape)
    return (s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#39;"))
meta = json.load(open(R + "/meta.json"))
tb = meta["testbed"]
assert tb["cpus"] == int(nproc), tb["cpus"]
assert tb["kernel"] == kernel and tb["os"] == os_name, (tb["kernel"], tb["os"])
assert isinstance(tb["cpu_model"], str) and tb["cpu_model"], tb["cpu_model"]
assert tb["memory_bytes"] > 0 and tb["nvscope_version"] == meta["nvscope_version"]
# the CPUs' power policy, read here from sysfs the same way
import glob, os
def sysline(p):
    try:
        return open(p).readline().rstrip("\n")
    except FileNotFoundError:
        return None
cpu = "/sys/devices/system/cpu/"
pw = tb["cpu_power"]
drv = sysline(cpu + "cpuidle/current_driver")
assert pw["idle_driver"] == (drv if drv else "none" if not os.path.isdir(cpu + "cpuidle") else "unknown"), pw
gov = sysline(cpu + "cpu0/cpufreq/scaling_governor")
assert pw["freq_governor"] == (gov if gov else "none" if not os.path.isdir(cpu + "cpu0/cpufreq") else "unknown"), pw
poll = sysline("/sys/module/haltpoll/parameters/guest_halt_poll_ns") if drv == "haltpoll" else None
assert pw["guest_halt_poll_ns"] == (int(poll) if poll else None), pw
states = [(int(sysline(d + "/latency")), sysline(d + "/name"))
          for d in sorted(glob.glob(cpu + "cpu0/cpuidle/state*"), key=lambda d: int(d.rsplit("state", 1)[1]))
          if sysline(d + "/disable") != "1"]
if states:
    deep = max(states, key=lambda x: x[0])  # the last of the deepest, as testbed.c
    deep = next(s for s in reversed(states) if s[0] == deep[0])
    assert (pw["deepest_idle_exit_us"], pw["deepest_idle_state"]) == deep, (pw, states)
else:
    assert pw["deepest_idle_state"] == "unknown" and pw["deepest_idle_exit_us"] is None, pw
assert ">CPU power</th>" in page and "cpufreq: " + esc(pw["freq_governor"]) + "</td>" in page, pw
if pw["guest_halt_poll_ns"] == 0:
    assert "halt poll 0 ns (an idle CPU halts at once)" in page
# the exact command line: a shell gives back the argv it ran with
argv = [B, "plan", plan, "--target", img, "--results", R, "--quiet", "--yes-destroy-data=" + img,
        "--runtime", "300ms", "--fill", "0.05", "--round", "200ms", "--max-rounds", "2"]
assert tb["argv"] == argv, tb["argv"]
assert shlex.split(tb["command_line"]) == argv, tb["command_line"]
(d,) = tb["drives"]
assert d == {"path": img, "kind": "file", "model": "unknown", "serial": "unknown",
             "firmware": "unknown", "capacity_bytes": 16 << 20, "lba_size": None,
             "pcie_link": None, "health_before": None, "health_after": None}, d
# each step's values as run
st = {s: json.load(open("%s/%s/step.json" % (R, s))) for s in meta["steps"]}
fill, pre, m, web, tr = (st[s] for s in meta["steps"])
assert tr["trace"] == "mini.log" and tr["trace_copies"] == 2, tr
assert fill["passes"] == 0.05 and pre["round_s"] == 0.2 and pre["max_rounds"] == 2, (fill, pre)
assert m["runtime_s"] == 0.3 and web["runtime_s"] == 0.3 and m["iodepth"] == [4], (m, web)
assert web["bssplit"] == "4k/50:8k/50", web
# the report: the test bed block ...
for want in ("<h2 id=\"testbed\">Test bed", esc(tb["cpu_model"]),
             "<td class=\"l\">%s</td>" % esc(kernel),
             "<code>%s</code>" % esc(tb["command_line"]),
             "<td>0.017 GB</td><td class=\"na\">unknown</td><td class=\"l na\">not PCIe</td>",
             "<td class=\"l\">%s</td><td class=\"l na\" colspan=\"6\">not NVMe</td>" % esc(img),
             "run with overrides: --runtime=300ms --fill=0.05 --round=200ms --max-rounds=2"):
    assert want in page, want
# ... and under each step what it ran with, the overrides marked
asrun = re.findall(r'<p class="asrun">(.*?)</p>', page)
assert len(asrun) == 5, asrun
o = '<span class="override">(override --%s)</span>'
assert "fill passes 0.05 " + o % "fill=0.05" in asrun[0], asrun[0]
assert "round 0.2 s " + o % "round=200ms" in asrun[1] and "max rounds 2 " + o % "max-rounds=2" in asrun[1], asrun[1]
for a in asrun[2:4]:
    assert "runtime 0.3 s " + o % "runtime=300ms" in a, a
    assert "30 min" not in a and "passes 2" not in a, a
assert "QD 2 &middot; bssplit 4k/50:8k/50" in asrun[3], asrun[3]
assert re.search(r'<h2 id="step-4"[^>]*>[^<]*<small>\(randread 4k/50:8k/50, 1 jobs\)', page)
assert re.search(r'<h2 id="step-5"[^>]*>[^<]*<small>\(trace mini\.log, 2 copies\)</small>', page)
# the machine's CPU over each row, as reviews quote it: qd.csv's
# sys_cpu_pct, on the page with the IOPS per % of it
import csv
(row,) = list(csv.DictReader(open("%s/%s/qd.csv" % (R, meta["steps"][2]))))
sys_cpu, iops = float(row["sys_cpu_pct"]), float(row["iops"])
assert 0 < sys_cpu <= 100, row
assert ">system CPU %</th>" in page and ">IOPS per CPU %</th>" in page
assert "<td>%.1f</td><td>%.0f</td></tr>" % (sys_cpu, iops / sys_cpu) in page, (sys_cpu, iops)
print("ok: testbed in meta.json and on the page; 5 steps show the values they ran with; system CPU %.1f%%" % sys_cpu)
PY
	fail "test bed or parameters as run"
ok "test bed and parameters as run (file target)"

"$PY" - "$R" "$T_TMP/r.html" <<'PY' || fail "IO consistency charts"
import csv, json, re, sys
R, page = sys.argv[1], open(sys.argv[2]).read()
steps = json.load(open(R + "/meta.json"))["steps"]
divs = re.findall(r'<div class="consistency" data-run-s="([^"]*)" data-zoom-from-s="([^"]*)">'
                  r'(.*?)</div></div>', page, re.S)
def points(step):  # samples.csv's rows but the ramp and a short tail interval
    t, prev = [], 0.0
    for row in csv.DictReader(open("%s/%s/samples.csv" % (R, step))):
        x = float(row["time_s"])
        if x - prev >= 0.05 and row["ramp"] == "0":
            t.append(x)
        prev = x
    return t
# measure m and measure web; the trace step (two copies of a 40-I/O trace)
# ends before two 100 ms intervals (no chart, said so), usually before half
# of one; on a busy machine it once took 51 ms (one point: still no chart)
trace_pts = points(steps[4])
assert len(divs) == 2 + (len(trace_pts) >= 2), (len(divs), trace_pts)
for (run, zoom, body), step in zip(divs, steps[2:5]):
    t = points(step)
    assert float(run) == float("%g" % t[-1]), (run, t)
    assert abs(float(zoom) - 0.7 * t[-1]) < 1e-6, (zoom, t[-1])  # 1400 s of 2000 s
    for c in ("chart-scatter", "chart-consistency-zoom-log", "chart-consistency-zoom-linear"):
        assert body.count('class="chart %s"' % c) == 1, (step, c)
    assert "from t = %.4g s of %.4g s" % (float(zoom), t[-1]) in body, body[:300]
    # the whole run shades the zoomed span (grey: its own style, in a
    # standalone chart too) and says where it starts
    whole = re.search(r'<svg[^>]*chart-scatter".*?</svg>', body, re.S).group(0)
    assert re.search(r'<rect class="band grey"[^>]*/><text class="bandlabel grey"[^>]*>zoomed below: '
                     r'from t = %s s</text>' % re.escape("%.4g" % float(zoom)), whole), whole[:600]
    zooms = re.findall(r'<svg[^>]*chart-consistency-zoom-(log|linear)".*?</svg>', body, re.S)
    assert zooms == ["log", "linear"], zooms
    for z in re.findall(r'<svg[^>]*chart-consistency-zoom-.*?</svg>', body, re.S):
        assert ">IOPS from t = %.4g s (" % float(zoom) in z, z[:400]
        d = re.search(r'<path class="dots"[^>]*stroke-width="5"[^>]*d="([^"]*)"', z).group(1)
        assert d.count("M") == sum(1 for x in t if x >= float(zoom)), (d, t)
    assert re.search(r'<path class="dots" fill="none" stroke="#1f77b4" stroke-width="5"', body)
assert ("(a step shorter than two intervals): no IO consistency chart" in page.split('id="step-5"')[1]) \
    == (len(trace_pts) < 2), trace_pts
print("ok: 2 consistency steps: whole run, zoom from 70%% (t = %s s of %s s) log and linear"
      % (divs[0][1], divs[0][0]))
PY
ok "IO consistency: whole run and the zoom, log and linear"

# a loop device: its sysfs identity (capacity, logical block size), no
# serial or firmware invented, no PCIe link or health ("not PCIe", "not
# NVMe", the meta.json keys null: never blank, never 0)
[ "$(id -u)" -eq 0 ] || { ok "loop device part skipped (not root)"; exit 0; }
t_loop 16M 4096
cat >"$T_TMP/l.ini" <<'INI'
[plan]
description = loop plan: 4K random read for 1 min

[measure r]
rw = randread
bs = 4k
iodepth = 1
runtime = 1m
INI
"$B" plan "$T_TMP/l.ini" --target "$LOOP" --results "$T_TMP/loop-res" --quiet --runtime 200ms \
	>"$T_TMP/log" 2>&1 || fail "plan on $LOOP: $(cat "$T_TMP/log")"
"$B" report "$T_TMP/loop-res" -o "$T_TMP/l.html" >/dev/null 2>"$T_TMP/err" || fail "report: $(cat "$T_TMP/err")"
"$PY" - "$T_TMP/loop-res" "$T_TMP/l.html" "$LOOP" <<'PY' || fail "loop device test bed"
import json, sys
R, page, loop = sys.argv[1:]
page = open(page).read()
(d,) = json.load(open(R + "/meta.json"))["testbed"]["drives"]
assert d["path"] == loop and d["kind"] == "block" and d["driver"] == "loop", d
assert d["capacity_bytes"] == 16 << 20 and d["lba_size"] == 4096, d
assert d["serial"] == "unknown" and d["firmware"] == "unknown", d
# no PCIe link, no health log: the keys there, null; the page says so
assert d["pcie_link"] is None and d["health_before"] is None and d["health_after"] is None, d
assert "<td>0.017 GB</td><td>4096 B</td><td class=\"l na\">not PCIe</td>" in page
assert "<td class=\"l\">%s</td><td class=\"l na\" colspan=\"6\">not NVMe</td>" % loop in page
assert "runtime 0.2 s <span class=\"override\">(override --runtime=200ms)</span>" in page
print("ok: loop device identity from sysfs")
PY
ok "test bed of a loop device"
