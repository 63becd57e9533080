#!/bin/bash
# report_qos.sh - the report's latency QoS against the raw histograms: a
# plan on two file targets (a measure step at QD1 and QD8, a rate curve, a
# 70/30 grid) writes json+ latency bins (lat_ns.bins, per job and per
# target); `nvscope report` draws the exceedance curves.  Python, knowing
# nothing of nvscope's code, recomputes every percentile from the bins of
# each row's JSON (read and write merged, nearest rank, clamped to the
# exact min/max) and compares them with:
#  - every marked point of every exceedance chart (data-value, exact ns),
#  - the table's p99.9 ... p99.9999 cells (to 0.1 us), "n/a" exactly where
#    the I/Os are fewer than the level needs (10^k for k nines),
#  - the per-target table (each target's bins),
#  - the writer's own lat_ns.percentile (a read-only row),
#  - the qd.csv p99 the run wrote (within its rounding).
# Fails when a mark is missing, extra, or off by one bucket.
# The plan runs on three targets: each row of each step also has a
# per-drive table (report/drives.c) checked against each target's JSON:
# one row per drive in the order given, its I/Os, its IOPS (its share of
# the job's I/Os times the aggregate: the rows add up to the aggregate and
# the step table's figure within rounding), mean, p99 and p99.9 from its
# bins; the drives table says "3 drives" with a link, never three paths in
# one cell, and the step table's drive cell links to the per-drive block.
# The rate curve (64K) and the grid are 70/30 mixes: read and write latency
# apart (report/rwhtml.c) in a table under each step table, in the grid's
# thread x QD tables of read and of write latency, and on the rate curve
# (MB/s on its X axis, a read and a write line per drive, the achieved vs
# requested chart), every figure against the row's JSON; the read-only
# measure step has no split.
. "${NVS_TOP:-.}/tests/lib.sh"
B=$NVS_BIN
PY=$(python3 -c 'import sys; print(sys.executable)') && [ -x "$PY" ] || PY=python3

plan=$T_TMP/q.ini
cat >"$plan" <<'INI'
[plan]
description = report QoS test plan
runtime = 1s

[global]
interval = 100ms
size = 32m

[measure 4k-randread]
rw = randread
bs = 4k
iodepth = 1,8

[rate-curve r]
rw = randrw
rwmixread = 70
bs = 64k
iodepth = 4
points = 50
runtime = 300ms

[grid g]
rw = randrw
rwmixread = 70
bs = 4k
threads = 1,2
iodepth = 2
runtime = 300ms
INI
truncate -s 32M "$T_TMP/a.img" "$T_TMP/b.img" "$T_TMP/c.img"
R=$T_TMP/res
"$B" plan "$plan" --target "$T_TMP/a.img" --target "$T_TMP/b.img" --target "$T_TMP/c.img" \
	--results "$R" --quiet --yes-destroy-data="$T_TMP/a.img,$T_TMP/b.img,$T_TMP/c.img" \
	>"$T_TMP/log" 2>&1 || fail "plan: $(cat "$T_TMP/log")"
out=$T_TMP/report.html
"$B" report "$R" -o "$out" >/dev/null 2>"$T_TMP/err" || fail "report: $(cat "$T_TMP/err")"
ok "plan and report"

"$PY" - "$R" "$out" <<'PY' || fail "QoS figures differ from the json+ bins"
import csv, html, json, math, os, re, sys
R, out = sys.argv[1], sys.argv[2]
page = open(out).read()
steps = json.load(open(R + "/meta.json"))["steps"]
LEVELS = [("p50", 50, 1), ("p99", 99, 100), ("p99.9", 99.9, 1000), ("p99.99", 99.99, 10**4),
          ("p99.999", 99.999, 10**5), ("p99.9999", 99.9999, 10**6)]

def hist(obj):
    """Merged read+write lat_ns bins of a job or target: counts by key."""
    bins, n, lo, hi = {}, 0, None, None
    for d in ("read", "write"):
        lat = obj[d]["lat_ns"]
        if lat["N"] == 0:
            continue
        b = lat["bins"]
        assert sum(b.values()) == lat["N"], "bins do not add up to N"
        for k, c in b.items():
            bins[int(k)] = bins.get(int(k), 0) + c
        n += lat["N"]
        lo = lat["min"] if lo is None else min(lo, lat["min"])
        hi = lat["max"] if hi is None else max(hi, lat["max"])
    return sorted(bins.items()), n, lo, hi

def pct(h, p):
    bins, n, lo, hi = h
    rank = max(1, math.ceil(p / 100.0 * n))
    seen = 0
    for v, c in bins:
        seen += c
        if seen >= rank:
            return min(max(v, lo), hi)

def json_of(kind, label):
    m = re.fullmatch(r"QD(\d+)", label)
    if m:
        return "qd%s.json" % m.group(1)
    m = re.fullmatch(r"T(\d+)Q(\d+)", label)
    if m:
        return "t%sq%s.json" % m.groups()
    if label == "max":
        return "max.json"
    m = re.fullmatch(r"(\d+)%", label)
    return "pct%s.json" % m.group(1)

def job(step, name):
    return json.load(open("%s/%s/%s" % (R, step, name)))["jobs"][0]

marks_checked = cells_checked = na_cells = targets_checked = 0
sections = re.split(r'<h2 id="step-(\d+)"', page)[1:]
for i in range(0, len(sections), 2):
    step, body = steps[int(sections[i]) - 1], sections[i + 1]
    kind = json.load(open("%s/%s/step.json" % (R, step)))["kind"]
    charts = re.findall(r'<svg[^>]*chart-qos-exceedance".*?</svg>', body)
    assert len(charts) == 1, (step, len(charts))
    # every marked point against the bins of its row
    seen = set()
    for series, mark, value in re.findall(
            r'<circle class="mark"[^>]*data-series="([^"]*)" data-mark="([^"]*)" '
            r'data-value="(\d+)"', charts[0]):
        label = html.unescape(series)
        h = hist(job(step, json_of(kind, label)))
        lv = [l for l in LEVELS if l[0] == mark][0]
        assert h[1] >= lv[2], (step, label, mark, "marked with too few I/Os", h[1])
        want = pct(h, lv[1])
        assert int(value) == want, (step, label, mark, value, want)
        seen.add((label, mark))
        marks_checked += 1
    # ... and none missing: every charted row has every level its I/Os allow
    for label in {s for s, _ in seen}:
        n = hist(job(step, json_of(kind, label)))[1]
        for name, _, need in LEVELS:
            assert ((label, name) in seen) == (n >= need), (step, label, name, n)
    assert seen, (step, "no marks")
    # the step table: p99 (qd.csv, the run's own), then p99.9 ... p99.9999
    table = re.search(r'<table class="numbers">(.*?)</table>', body).group(1)
    for row in re.findall(r"<tr><td class=\"l\">.*?</tr>", table):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row)
        first = cells[1]
        label = ("QD" + first if kind == "measure" else first if first.startswith("T")
                 else "max" if first == "max" else first + "%")
        h = hist(job(step, json_of(kind, label)))
        # the CSV's p99 is rounded to 0.01 us, the table's to 0.1 us
        assert abs(float(cells[5]) - pct(h, 99) / 1000) <= 0.056, (step, label, cells[5])
        for k, (name, p, need) in enumerate(LEVELS[2:]):
            cell = cells[6 + k]
            if h[1] < need:
                assert cell == "n/a", (step, label, name, cell, h[1])
                na_cells += 1
            else:
                assert cell == "%.1f" % (pct(h, p) / 1000), (step, label, name, cell)
                cells_checked += 1
    # the writer's own percentiles agree with its bins (read-only rows)
    if kind == "measure":
        j = job(step, "qd8.json")
        assert j["write"]["lat_ns"]["N"] == 0
        h = hist(j)
        for key, p in (("99.900000", 99.9), ("99.990000", 99.99)):
            assert j["read"]["lat_ns"]["percentile"][key] == pct(h, p), key
    # per target: each target's own bins
    tt = re.search(r'<table class="qos-targets">(.*?)</table>', body)
    assert tt, (step, "no per-target table")
    for row in re.findall(r"<tr><td class=\"l\">.*?</tr>", tt.group(1)):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row)
        label, target = html.unescape(cells[0]), html.unescape(cells[1])
        j = job(step, json_of(kind, label))
        t = [t for t in j["nvscope"]["targets"] if t["target"] == target][0]
        h = hist(t)
        assert int(cells[2]) == h[1]
        for k, (name, p, need) in enumerate(LEVELS):
            want = "n/a" if h[1] < need else "%.1f" % (pct(h, p) / 1000)
            assert cells[3 + k] == want, (step, label, target, name, cells[3 + k], want)
        targets_checked += 1
    # the aggregate is the targets' sum
    for label in {s for s, _ in seen}:
        j = job(step, json_of(kind, label))
        assert hist(j)[1] == sum(hist(t)[1] for t in j["nvscope"]["targets"])
assert na_cells > 0 and cells_checked > 0 and targets_checked >= 4
print("ok: %d marks, %d QoS cells (%d n/a), %d per-target rows equal the json+ bins"
      % (marks_checked, cells_checked, na_cells, targets_checked))

# the per-drive tables (drives.c)
targets = json.load(open(R + "/meta.json"))["targets"]
assert len(targets) == 3
def cells_of(row):
    return [html.unescape(re.sub(r"<[^>]*>", "", c)) for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
def lat(h, p, need):
    return "n/a" if h[1] < need else "%.1f" % (pct(h, p) / 1000)
tables = drive_rows = multiples = 0
for i in range(0, len(sections), 2):
    step, body = steps[int(sections[i]) - 1], sections[i + 1]
    kind = json.load(open("%s/%s/step.json" % (R, step)))["kind"]
    block = re.search(r'<div class="per-drive" id="per-drive-%s-0">(.*?)</div>' % re.escape(step),
                      body, re.S)
    assert block, (step, "no per-drive block")
    assert '<a href="#per-drive-%s-0">' % step in body, (step, "step table not linked")
    numbers = re.search(r'<table class="numbers">(.*?)</table>', body).group(1)
    step_iops = [float(cells_of(r)[2]) for r in re.findall(r"<tr><td class=\"l\">.*?</tr>", numbers)]
    pt = re.findall(r'<table class="per-drive" data-row="([^"]*)">(.*?)</table>', block.group(1))
    assert len(pt) == len(step_iops), (step, len(pt), len(step_iops))
    for (label, tb), agg_csv in zip(pt, step_iops):
        j = job(step, json_of(kind, html.unescape(label)))
        ts = j["nvscope"]["targets"]
        rows = [cells_of(r) for r in re.findall(r'<tr class="drive">(.*?)</tr>', tb)]
        (agg,) = [cells_of(r) for r in re.findall(r'<tr class="aggregate">(.*?)</tr>', tb)]
        assert [r[1] for r in rows] == targets, (step, label, [r[1] for r in rows])
        assert [r[0] for r in rows] == ["1", "2", "3"]
        ios = [sum(t[d]["total_ios"] for d in ("read", "write", "trim")) for t in ts]
        agg_iops = sum(j[d]["iops"] for d in ("read", "write", "trim"))
        for r, t, n in zip(rows, ts, ios):
            assert r[2] == "unknown" and r[3] == "unknown", r  # files: no model, serial
            assert int(r[4]) == n, (step, label, r, n)
            assert abs(float(r[5]) - agg_iops * n / sum(ios)) <= 0.5, (r, agg_iops, n)
            h = hist(t)
            assert r[8] == lat(h, 99, 100) and r[9] == lat(h, 99.9, 1000), (step, label, r)
            assert r[10] == lat(h, 99.99, 10000), (step, label, r)
            assert r[11] == "%.1f%%" % (100.0 * n / sum(ios)), r
            drive_rows += 1
        # the drives add up to the aggregate, which is the step table's
        assert abs(sum(float(r[5]) for r in rows) - float(agg[5])) <= 2, (rows, agg)
        assert abs(float(agg[5]) - agg_csv) <= 1, (agg, agg_csv)
        assert int(agg[4]) == sum(ios), (agg, ios)
        assert agg[1] == "all 3 drives (aggregate)" and agg[11] == "100.0%", agg
        tables += 1
        last = (label, rows)
    # the charts under the tables: the last row's IOPS and p99.99 per drive
    # (its CSV equal to the table), and with several rows one small chart
    # per drive on one scale
    block_all = body[body.index('<div class="per-drive" id="per-drive-%s-0">' % step):]
    assert block_all.count('chart-drives-dots"') == 1, (step, "no per-drive dots chart")
    slug = re.search(r'<a href="(charts/[^"]*per-drive-iops[^"]*)\.csv"', block_all)
    assert slug, (step, "the dots chart's CSV not linked")
    rows_csv = list(csv.reader(open(os.path.dirname(out) + "/" + slug.group(1) + ".csv")))
    iops_pts = [(float(r[1]), float(r[2])) for r in rows_csv[1:] if r[0] == "IOPS"]
    assert [x for x, _ in iops_pts] == [1.0, 2.0, 3.0], iops_pts
    for (x, y), r in zip(iops_pts, last[1]):
        assert abs(y - float(r[5])) <= 0.5, (step, y, r)
    p4 = {float(r[1]): float(r[3]) for r in rows_csv[1:] if r[0] == "p99.99 latency"}
    for i, r in enumerate(last[1]):
        assert (r[10] == "n/a") == ((i + 1.0) not in p4), (step, r, p4)
        assert r[10] == "n/a" or abs(p4[i + 1.0] - float(r[10])) <= 0.05, (step, r, p4)
    nrows = len(pt)
    m = re.search(r'<div class="drive-multiples" data-drives="(\d+)">', block_all)
    if nrows > 1:
        assert m and m.group(1) == "3", (step, "no small multiples")
        assert block_all.count('chart-drive-multiple"') == 3, step
        multiples += 1
    else:
        assert not m, (step, "small multiples of one row")
assert tables >= 6 and drive_rows == 3 * tables, (tables, drive_rows)
assert multiples >= 2, multiples
# the drives table: "3 drives" linked to the list, no cell of three paths
drv = re.search(r'<table class="drives">(.*?)</table>', page).group(1)
assert drv.count('<a href="#drives-0">3 drives</a>') == 2, drv
assert not any(c.count(".img") > 1 for c in re.findall(r"<td[^>]*>(.*?)</td>", drv)), drv
assert '<div id="drives-0">' in page
print("ok: %d per-drive tables, %d drive rows equal each target's JSON and add up" % (tables, drive_rows))
PY
"$PY" - "$R" "$out" <<'PY' || fail "read and write apart"
import html, json, re, sys
R, page = sys.argv[1], open(sys.argv[2]).read()
steps = json.load(open(R + "/meta.json"))["steps"]
sections = dict(zip(*[iter(re.split(r'<h2 id="step-(\d+)"', page)[1:])] * 2))
def job(step, name):
    return json.load(open("%s/%s/%s" % (R, step, name)))["jobs"][0]
def figs(d):  # a direction's IOPS, mean and p99 as the page prints them
    lat = d["lat_ns"]
    p99 = "%.1f" % (lat["percentile"]["99.000000"] / 1000) if lat["N"] >= 100 else "n/a"
    return ["%.0f" % d["iops"], "%.1f" % (lat["mean"] / 1000), p99]
def cells(row):
    return [html.unescape(re.sub(r"<[^>]*>", "", c)) for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
measure, rate, grid = (sections[str(i + 1)] for i in range(3))
assert 'class="rwsplit"' not in measure  # reads only: nothing to split
n = 0
for body, step, name in ((rate, steps[1], lambda l: "max.json" if l == "max" else "pct%s.json" % l[:-1]),
                         (grid, steps[2], lambda l: "t%sq%s.json" % tuple(re.findall(r"\d+", l)))):
    t = re.search(r'<table class="rwsplit">(.*?)</table>', body).group(1)
    rows = [cells(r) for r in re.findall(r"<tr><td.*?</tr>", t)]
    assert len(rows) == len(re.findall(r"<tr><td class=\"l\">", re.search(
        r'<table class="numbers">(.*?)</table>', body).group(1))), (step, rows)
    for r in rows:
        j = job(step, name(r[1]))
        assert r[2:] == figs(j["read"]) + figs(j["write"]), (step, r, figs(j["read"]), figs(j["write"]))
        n += 1
# the grid's read and write latency tables: "mean / p99" per cell
for k in ("read", "write"):
    t = re.search(r'<table class="grid grid-%s">(.*?)</table>' % k, grid).group(1)
    qs = re.findall(r"<th>Q(\d+)</th>", t)
    for th, tds in re.findall(r"<tr><th>T(\d+)</th>(.*?)</tr>", t):
        for q, c in zip(qs, cells(tds)):
            f = figs(job(steps[2], "t%sq%s.json" % (th, q))[k])
            assert c == "%s / %s" % (f[1], f[2]), (k, th, q, c, f)
            n += 1
# the grid's heat maps (report/heat.c): each cell's figure is its JSON's
# (IOPS: read + write; read and write mean latency), the best cell has the
# bright end of the viridis scale and the worst its dark end, lightness
# follows the figures (higher IOPS, lower latency: lighter), the text has
# the better WCAG contrast, and the key's min and max are the extremes
def lum(c):
    l = [x / 255 for x in bytes.fromhex(c[1:])]
    l = [x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4 for x in l]
    return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2]
for k in ("iops", "read", "write"):
    svg = re.search(r'<svg[^>]*class="heat heat-%s".*?</svg>' % k, grid, re.S).group(0)
    cs = re.findall(r'<g class="cell" data-threads="(\d+)" data-qd="(\d+)" data-value="([^"]*)">'
                    r'<title>[^<]*</title><rect [^>]*fill="(#[0-9a-f]{6})"[^>]*/>'
                    r'<text [^>]*style="fill:(#[0-9a-f]+)">([^<]*)</text></g>', svg)
    assert len(cs) == 2 and 'class="cell na"' not in svg, (k, svg[:800])
    v = []
    for th, q, dv, fill, ink, txt in cs:
        j = job(steps[2], "t%sq%s.json" % (th, q))
        want = "%.0f" % (j["read"]["iops"] + j["write"]["iops"]) if k == "iops" else figs(j[k])[1]
        assert txt == dv == want, (k, th, q, txt, want)
        L = lum(fill)
        assert ink == ("#000" if (L + 0.05) ** 2 >= 0.0525 else "#fff"), (k, fill, ink)
        v.append((float(txt) if k == "iops" else -float(txt), L, fill))
        n += 1
    v.sort()
    assert v[-1][2] == "#fde725" and (v[0][0] == v[-1][0] or v[0][2] == "#440154"), (k, v)
    assert all(a[1] <= b[1] for a, b in zip(v, v[1:]) if a[0] < b[0]), (k, v)
    lo, hi = sorted(abs(x[0]) for x in (v[0], v[-1]))
    fmt = "%.0f" if k == "iops" else "%.1f"
    assert re.search(r'>min %s</text>' % (fmt % lo), svg) and re.search(r'>max %s</text>' % (fmt % hi), svg), (k, lo, hi)
    assert ("lower is better" if k != "iops" else "higher is better") in svg, k
# the 64K rate curve: MB/s, a read and a (dashed) write line, achieved vs requested
for c in ("rate-curve", "rate-curve-p99"):
    svg = re.search(r'<svg[^>]*chart-%s".*?</svg>' % c, rate, re.S).group(0)
    assert ">MB/s (achieved)</text>" in svg and "(read and write apart)" in svg, svg[:500]
    keys = re.findall(r'<path class="line" data-series="([^"]*)"', svg)
    assert [k.rsplit(" ", 1)[1] for k in keys] == ["read", "write"], keys
    assert 'data-series="%s" stroke-dasharray' % keys[1] in svg
assert re.search(r'<svg[^>]*chart-rate-achieved"', rate)
print("ok: %d read/write figures equal each row's JSON; the 64K curve in MB/s" % n)
PY
ok "mixed steps: read and write latency apart"

grep -q 'chart-qos-histogram"' "$out" || fail "no latency histogram"
ok "QoS marks, columns and per-target rows equal the percentiles of the json+ bins"

# a results directory without bins (written before them): n/a, no invented figure;
# a grid cell without its JSON: its latency heat cells n/a, grey, not coloured
rm -f "$R"/*/qd1.json "$R"/*/t2q2.json
"$B" report "$R" -o "$T_TMP/old.html" >/dev/null 2>"$T_TMP/err" || fail "report without bins: $(cat "$T_TMP/err")"
grep -q 'title="no latency histogram (json+ bins) for this row">n/a</td>' "$T_TMP/old.html" ||
	fail "a row without bins is not n/a"
grep -q 'data-series="QD1"' "$T_TMP/old.html" && fail "QD1 charted without its bins"
for k in read write; do
	grep -Eq '<svg[^>]*heat-'$k'".*<g class="cell na" data-threads="2" data-qd="2" data-value="n/a"><title>T2 Q2: no data</title><rect [^>]*fill="#e0e0e0"' "$T_TMP/old.html" ||
		fail "a grid cell without JSON is not n/a in the $k latency heat map"
done
ok "a row without bins: n/a"
