#!/bin/bash
# report_publish.sh - every chart of `nvscope report` also as its own files
# (docs/report.md "Publishing"), on one short plan (a precondition, a
# measure at QD1 and QD4, a grid; ~2 s of I/O on a file):
#  - charts/index.csv lists one row per inline chart of the page, in page
#    order, each with its NN-STEP-CHART.svg/.png/.csv present, the page
#    linking each chart to its files;
#  - each SVG parses as XML (xml.etree), is a standalone document (xmlns,
#    its own <style>) and holds the same data marks as the page's inline
#    chart (paths, their move/line commands, circles, heat map cells);
#  - the CSVs of "IOPS vs queue depth", "Mean latency vs queue depth", the
#    grid's "IOPS vs queue depth per thread count" and its IOPS heat map
#    equal the rows' JSON (fio's layout: read + write iops, lat_ns mean),
#    row for row;
#  - each PNG has the PNG signature and twice its SVG's size;
#  - with a PATH without rsvg-convert the report still succeeds, says so in
#    exactly one line, writes no PNG and removes the previous report's PNGs;
#  - --charts svg,csv / none / a bad word; -o - writes no files.
# Skips (77) only when rsvg-convert is missing and cannot be installed.
. "${NVS_TOP:-.}/tests/lib.sh"
B=$NVS_BIN
if ! command -v rsvg-convert >/dev/null; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends librsvg2-bin \
		>/dev/null 2>&1 || skip "rsvg-convert (librsvg2-bin) is not installed and cannot be installed"
	command -v rsvg-convert >/dev/null || skip "rsvg-convert missing"
fi

plan=$T_TMP/p.ini
cat >"$plan" <<'INI'
[plan]
description = publish test plan
runtime = 200ms

[global]
interval = 100ms
size = 16m

[precondition 4k-randwrite]
rw = randwrite
bs = 4k
iodepth = 4
round = 200ms
max_rounds = 2
window = 2
range = 1000
slope = 1000

[measure 4k-randread]
rw = randread
bs = 4k
iodepth = 1,4

[grid 4k]
rw = randread
bs = 4k
threads = 1,2
iodepth = 1,2
runtime = 100ms
INI
truncate -s 16M "$T_TMP/a.img"
res=$T_TMP/drive-a
"$B" plan "$plan" --target "$T_TMP/a.img" --results "$res" --quiet \
	--yes-destroy-data="$T_TMP/a.img" >"$T_TMP/log" 2>&1 || fail "plan: $(cat "$T_TMP/log")"

mkdir "$T_TMP/out"
out=$T_TMP/out/report.html
"$B" report "$res" -o "$out" >/dev/null 2>"$T_TMP/err" || fail "report failed: $(cat "$T_TMP/err")"
[ -s "$T_TMP/err" ] && fail "report with rsvg-convert said: $(cat "$T_TMP/err")"
charts=$T_TMP/out/charts
[ -s "$charts/index.csv" ] || fail "no charts/index.csv"

python3 - "$out" "$charts" "$res" <<'PY' || fail "chart files (above)"
import csv, glob, json, os, re, struct, sys
import xml.etree.ElementTree as ET
html, charts, res = sys.argv[1:]
page = open(html, encoding="utf-8").read()
NS = "{http://www.w3.org/2000/svg}"
errs = []

# the page: each chart followed by its line of links
chunks = page.split('</svg>\n<p class="chartfiles">')
inline = []
for i in range(1, len(chunks)):
    svg = chunks[i - 1][chunks[i - 1].rfind("<svg"):] + "</svg>"
    name = chunks[i].split(":", 1)[0]
    links = chunks[i].split("</p>", 1)[0]
    for ext in ("svg", "png", "csv"):
        if f'href="charts/{name}.{ext}"' not in links:
            errs.append(f"{name}: no link to its .{ext}")
    inline.append((name, svg))
nsvg = page.count("<svg ")
rows = list(csv.DictReader(open(os.path.join(charts, "index.csv"))))
names = [r["name"] for r in rows]
if not rows or names != [n for n, _ in inline]:
    errs.append(f"index.csv {names} != the page's charts {[n for n, _ in inline]}")
if len(inline) != nsvg:
    errs.append(f"{nsvg} charts on the page, {len(inline)} with files")
if len(set(names)) != len(names):
    errs.append("names repeat")
for n in names:
    if not re.fullmatch(r"\d\d-[a-z0-9-]+", n):
        errs.append(f"{n}: not NN-slug")

def marks(root):
    paths = [e for e in root.iter() if e.tag in (NS + "path", "path") and e.get("class") in ("line", "dots")]
    cmds = sum(len(re.findall(r"[ML]", p.get("d", ""))) for p in paths)
    circles = sum(1 for e in root.iter() if e.tag in (NS + "circle", "circle"))
    cells = sum(1 for e in root.iter() if e.tag in (NS + "g", "g") and (e.get("class") or "").startswith("cell"))
    return (len(paths), cmds, circles, cells)

svgsize = {}
for name, svg in inline:
    path = os.path.join(charts, name + ".svg")
    try:
        root = ET.parse(path).getroot()
    except Exception as e:
        errs.append(f"{name}.svg: not XML: {e}")
        continue
    if root.tag != NS + "svg":
        errs.append(f"{name}.svg: root {root.tag}, not an SVG document (xmlns)")
    if root.find(NS + "style") is None or "font-family" not in (root.find(NS + "style").text or ""):
        errs.append(f"{name}.svg: no <style> with its fonts")
    want = marks(ET.fromstring(svg))
    got = marks(root)
    if got != want or want == (0, 0, 0, 0) and "no data" not in svg:
        errs.append(f"{name}.svg: marks {got} != inline {want}")
    svgsize[name] = (int(root.get("width")), int(root.get("height")))
    png = os.path.join(charts, name + ".png")
    b = open(png, "rb").read(24) if os.path.exists(png) else b""
    if b[:8] != b"\x89PNG\r\n\x1a\n":
        errs.append(f"{name}.png: no PNG signature")
        continue
    w, h = struct.unpack(">II", b[16:24])
    if (w, h) != (2 * svgsize[name][0], 2 * svgsize[name][1]):
        errs.append(f"{name}.png: {w}x{h}, not twice {svgsize[name]}")

def figures(j):
    jobs = j["jobs"]
    iops = sum(x["read"]["iops"] + x["write"]["iops"] for x in jobs)
    ios = sum(x["read"]["total_ios"] + x["write"]["total_ios"] for x in jobs)
    mean = sum(x[d]["lat_ns"]["mean"] * x[d]["total_ios"] for x in jobs for d in ("read", "write")) / max(ios, 1)
    return iops, mean / 1000

def check_csv(suffix, header, jsonof, col, tol, minrows):
    hits = [n for n in names if n.endswith(suffix)]
    if len(hits) != 1:
        errs.append(f"*{suffix}: {len(hits)} charts")
        return
    r = list(csv.reader(open(os.path.join(charts, hits[0] + ".csv"))))
    if r[0] != header:
        errs.append(f"{hits[0]}.csv: header {r[0]} != {header}")
    if len(r) - 1 < minrows:
        errs.append(f"{hits[0]}.csv: {len(r) - 1} rows")
    for row in r[1:]:
        x, y = float(row[1]), float(row[2])
        want = figures(json.load(open(jsonof(row[0], x))))[col]
        # (a figure printed with k decimals is off by up to half its last place)
        dec = len(row[2].split(".")[1]) if "." in row[2] else 0
        if abs(y - want) > max(tol * max(1, abs(want)), 0.5001 * 10 ** -dec):
            errs.append(f"{hits[0]}.csv: {row}: JSON says {want}")
    print(f"{hits[0]}.csv: {len(r) - 1} rows equal the JSON")

m = glob.glob(os.path.join(res, "*-measure-4k-randread"))[0]
g = glob.glob(os.path.join(res, "*-grid-4k"))[0]
check_csv("-measure-4k-randread-iops-vs-queue-depth", ["series", "queue depth", "IOPS"],
          lambda s, x: f"{m}/qd{int(x)}.json", 0, 1e-5, 2)
check_csv("-measure-4k-randread-mean-latency-vs-queue-depth", ["series", "queue depth", "mean latency (µs)"],
          lambda s, x: f"{m}/qd{int(x)}.json", 1, 1e-4, 2)
check_csv("-grid-4k-iops-vs-queue-depth-per-thread-count", ["series", "queue depth (per thread)", "IOPS"],
          lambda s, x: f"{g}/t{s[1:]}q{int(x)}.json", 0, 1e-5, 4)
# the heat map: threads, QD, IOPS (unrounded: the JSON's read + write)
check_csv("-grid-4k-iops-by-threads-x-queue-depth", ["threads", "queue depth (per thread)", "IOPS"],
          lambda s, x: f"{g}/t{s}q{int(x)}.json", 0, 1e-9, 4)
for e in errs:
    print("  " + e, file=sys.stderr)
print(f"{len(inline)} charts: svg/png/csv each, marks equal")
sys.exit(1 if errs else 0)
PY
ok "$(ls "$charts" | wc -l) files for $(($(wc -l <"$charts/index.csv") - 1)) charts"

# no rsvg-convert in PATH: still a report, one line, no PNG (the old ones removed)
nopath=$T_TMP/nopath
mkdir "$nopath"
PATH=$nopath "$B" report "$res" -o "$out" >/dev/null 2>"$T_TMP/err" ||
	fail "report without rsvg-convert failed: $(cat "$T_TMP/err")"
[ "$(wc -l <"$T_TMP/err")" = 1 ] && grep -q "PNGs skipped: rsvg-convert not found" "$T_TMP/err" ||
	fail "without rsvg-convert: not one line: $(cat "$T_TMP/err")"
ls "$charts" | grep -q '\.png$' && fail "PNGs left without rsvg-convert: $(ls "$charts" | grep png | head -3)"
ls "$charts" | grep -q '\.svg$' || fail "no SVG without rsvg-convert"
grep -q 'href="charts/[^"]*\.png"' "$out" && fail "the page links PNGs that were not made"
ok "without rsvg-convert: $(cat "$T_TMP/err")"

# --charts: a subset, none, a bad word; -o - writes no files
mkdir "$T_TMP/o2" "$T_TMP/o3"
"$B" report "$res" -o "$T_TMP/o2/r.html" --charts csv,svg >/dev/null 2>&1 || fail "--charts csv,svg"
[ -z "$(ls "$T_TMP/o2/charts" | grep '\.png$')" ] && [ -n "$(ls "$T_TMP/o2/charts" | grep '\.csv$')" ] ||
	fail "--charts csv,svg: $(ls "$T_TMP/o2/charts" | head)"
"$B" report "$res" -o "$T_TMP/o3/r.html" --charts none >/dev/null 2>&1 || fail "--charts none"
[ -e "$T_TMP/o3/charts" ] && fail "--charts none made charts/"
grep -q 'class="chartfiles"' "$T_TMP/o3/r.html" && fail "--charts none links files"
"$B" report "$res" -o "$T_TMP/o3/r.html" --charts svg,jpg >/dev/null 2>&1
[ $? = 2 ] || fail "--charts svg,jpg not refused with 2"
(cd "$T_TMP/o3" && "$B" report "$res" -o - >/dev/null 2>&1) || fail "-o -"
[ -e "$T_TMP/o3/charts" ] && fail "-o - wrote charts/"
ok "--charts svg,csv / none / bad word; -o - writes none"

# what stands at a chart's name is never written through (dev/safety's
# output rule, the PNG too: rsvg-convert writes to a descriptor opened by
# it): a symlink or a FIFO is refused, exit 2 in one line, no hang, the
# symlink's target untouched
mkdir -p "$T_TMP/o4/charts"
name=$(sed -n 2p "$charts/index.csv" | cut -d, -f1)
echo outside >"$T_TMP/outside"
ln -s "$T_TMP/outside" "$T_TMP/o4/charts/$name.png"
ln -s "$T_TMP/outside" "$T_TMP/o4/charts/$name.csv"
timeout 20 "$B" report "$res" -o "$T_TMP/o4/r.html" >/dev/null 2>"$T_TMP/err"
[ $? = 2 ] && [ "$(wc -l <"$T_TMP/err")" = 1 ] && grep -q "$name.csv" "$T_TMP/err" || fail "a symlink at $name.csv: not refused: $(cat "$T_TMP/err")"
[ "$(cat "$T_TMP/outside")" = outside ] || fail "written through a symlink"
rm "$T_TMP/o4/charts/$name.csv"
mkfifo "$T_TMP/o4/charts/$name.csv"
timeout 20 "$B" report "$res" -o "$T_TMP/o4/r.html" >/dev/null 2>"$T_TMP/err"
rc=$?
[ $rc = 2 ] && [ "$(wc -l <"$T_TMP/err")" = 1 ] || fail "a FIFO at $name.csv: status $rc: $(cat "$T_TMP/err")"
rm "$T_TMP/o4/charts/$name.csv" "$T_TMP/o4/charts/$name.png"
rm -f "$T_TMP/o4/charts/index.csv"
mkfifo "$T_TMP/o4/charts/index.csv" # read first: the previous report's list
timeout 20 "$B" report "$res" -o "$T_TMP/o4/r.html" >/dev/null 2>"$T_TMP/err"
rc=$?
[ $rc = 2 ] && [ "$(wc -l <"$T_TMP/err")" = 1 ] && grep -q "index.csv.*FIFO" "$T_TMP/err" ||
	fail "a FIFO at index.csv: status $rc: $(cat "$T_TMP/err")"
rm -f "$T_TMP/o4/charts/index.csv" "$T_TMP/o4/charts/$name.png"
ln -s "$T_TMP/outside" "$T_TMP/o4/charts/$name.png" # rsvg-convert's output
timeout 20 "$B" report "$res" -o "$T_TMP/o4/r.html" >/dev/null 2>"$T_TMP/err"
rc=$?
[ $rc = 2 ] && [ "$(wc -l <"$T_TMP/err")" = 1 ] && grep -q "$name.png is a symbolic link" "$T_TMP/err" ||
	fail "a symlink at $name.png: status $rc: $(cat "$T_TMP/err")"
[ "$(cat "$T_TMP/outside")" = outside ] || fail "written through a symlink (png)"
ok "a symlink or FIFO at a chart's name: refused in one line, never written through"

# --compare beyond 8 runs: 12 copies of the results side by side (no new
# runs).  Every run is a line of its own (10 colours, then the same colours
# dashed), the legend under the plot (the chart grows, no entry over the
# data), every run in the CSV and the drives table.
runs=()
for i in $(seq -w 1 12); do
	cp -r "$res" "$T_TMP/run-$i"
	runs+=("$T_TMP/run-$i")
done
mkdir "$T_TMP/o12"
"$B" report --compare "${runs[@]}" -o "$T_TMP/o12/r.html" --charts svg,csv >/dev/null \
	2>"$T_TMP/err" || fail "report of 12 runs: $(cat "$T_TMP/err")"
# --compare with one directory: refused, nothing written
rc=0; "$B" report --compare "$T_TMP/run-01" -o "$T_TMP/one.html" >/dev/null 2>"$T_TMP/err" || rc=$?
[ "$rc" = 2 ] && grep -q -- "--compare needs two" "$T_TMP/err" && [ ! -e "$T_TMP/one.html" ] ||
	fail "--compare with one directory: rc $rc: $(cat "$T_TMP/err")"
python3 - "$T_TMP/o12/r.html" "$T_TMP/o12/charts" <<'PY' || fail "12 runs (above)"
import csv, glob, re, sys
import xml.etree.ElementTree as ET
html, charts = sys.argv[1:]
NS = "{http://www.w3.org/2000/svg}"
page = open(html, encoding="utf-8").read()
errs = []
f = glob.glob(charts + "/*-measure-4k-randread-iops-vs-queue-depth.svg")[0]
root = ET.parse(f).getroot()
lines = [e for e in root.iter(NS + "path") if e.get("class") == "line"]
styles = {(e.get("stroke"), e.get("stroke-dasharray")) for e in lines}
if len(lines) != 12 or len(styles) != 12:
    errs.append(f"{len(lines)} lines, {len(styles)} distinct colour/dash styles (want 12)")
H = int(root.get("height"))
frame = next(e for e in root.iter(NS + "rect") if e.get("class") == "frame")
bottom = int(frame.get("y")) + int(frame.get("height"))
legend = [e for e in root.iter(NS + "text") if e.get("class") == "legend"]
if len(legend) != 12 or any(int(float(t.get("y"))) <= bottom for t in legend) or H <= 340:
    errs.append(f"legend: {len(legend)} entries, not all under the plot (bottom {bottom}, height {H})")
if any(float(t.get("y")) > H for t in legend):
    errs.append("legend past the chart's height")
rows = list(csv.reader(open(f[:-4] + ".csv")))[1:]
if len({r[0] for r in rows}) != 12 or len(rows) != 24:
    errs.append(f"CSV: {len(rows)} rows of {len({r[0] for r in rows})} runs (want 24 of 12)")
names = [r["name"] for r in csv.DictReader(open(charts + "/index.csv"))]
for i in range(1, 13):
    if f"01-precondition-4k-randwrite-run-{i:02d}-preconditioning-iops-and-latency-per-interval" not in names:
        errs.append(f"no precondition chart named by run-{i:02d}")
if any(re.search(r"-\d+$", n) and not re.search(r"run-\d\d-", n) for n in names) or len(set(names)) != len(names):
    errs.append("a -2 name: charts of two drives not told apart by name")
drives = page.split('<table class="drives">', 1)[1].split("</table>", 1)[0]
if drives.count("<tr>") != 13:
    errs.append(f"drives table: {drives.count('<tr>') - 1} rows")
for e in errs:
    print("  " + e, file=sys.stderr)
sys.exit(1 if errs else 0)
PY
ok "12 runs side by side: 12 styles, legend under the plot, 12 runs in the CSV and the drives table"
# written again of one run: the 12 runs' files of the previous report go
"$B" report "$res" -o "$T_TMP/o12/r.html" --charts svg,csv >/dev/null 2>"$T_TMP/err" ||
	fail "report of 1 run over 12: $(cat "$T_TMP/err")"
ls "$T_TMP/o12/charts" | grep -q 'run-[0-9][0-9]-' && fail "the 12 runs' chart files left: $(ls "$T_TMP/o12/charts" | grep -m2 run-)"
ok "a report written again removes the files of the previous one it does not write"
