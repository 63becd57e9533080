#!/bin/bash
# report_html.sh - `nvscope report` of two results directories (two "drives",
# files here) rendered by headless Chromium: the page loads with no network,
# the SVG charts are in the DOM (preconditioning scatter with the
# steady-state window marked, IOPS and latency vs QD, rate curve) and the
# SNIA matrix and grid tables are there.  Skips (77) only without Chromium.
. "${NVS_TOP:-.}/tests/lib.sh"
B=$NVS_BIN
CHROME=$(command -v chromium || command -v chromium-browser || command -v google-chrome)
if [ -z "$CHROME" ]; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium \
		>/dev/null 2>&1 || skip "chromium is not installed and cannot be installed"
	CHROME=$(command -v chromium) || skip "chromium missing"
fi

plan=$T_TMP/r.ini
cat >"$plan" <<'INI'
[plan]
description = report test plan
runtime = 200ms

[global]
interval = 100ms
size = 16m

[precondition 4k-randwrite]
rw = randwrite
bs = 4k
iodepth = 8
round = 200ms
max_rounds = 3
window = 2
range = 1000
slope = 1000

[measure 4k-randread]
rw = randread
bs = 4k
iodepth = 1,4

[rate-curve 4k-randread]
rw = randread
bs = 4k
iodepth = 2
points = 50,100

[grid 4k]
rw = randread
bs = 4k
threads = 1,2
iodepth = 1,2
runtime = 100ms

[matrix m]
bs_list = 4k,8k
mixes = 100,50,0
iodepth = 2
runtime = 100ms
INI
pids=()
for d in a b; do # the two "drives" run at the same time
	truncate -s 16M "$T_TMP/$d.img"
	"$B" plan "$plan" --target "$T_TMP/$d.img" --results "$T_TMP/drive-$d" --quiet \
		--yes-destroy-data="$T_TMP/$d.img" >"$T_TMP/log-$d" 2>&1 &
	pids+=($!)
done
for i in 0 1; do
	wait "${pids[$i]}" || fail "plan $i: $(cat "$T_TMP"/log-*)"
done
out=$T_TMP/report.html
"$B" report "$T_TMP/drive-a" "$T_TMP/drive-b" -o "$out" >/dev/null || fail "report failed"
[ -s "$out" ] || fail "empty report"
# self-contained: no script, stylesheet, image or font is fetched
grep -Eiq '<script|<link|<img|src=|@import|url\(' "$out" && fail "report references external resources"
ok "report written ($(wc -c <"$out") bytes)"
# every chart of every kind (rate curve, matrix, grid, QoS ... of two
# drives) has its files beside the page (docs/report.md "Publishing")
python3 - "$out" <<'PY' || fail "chart files (above)"
import csv, os, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
d = os.path.join(os.path.dirname(sys.argv[1]), "charts")
names = re.findall(r'</svg>\n<p class="chartfiles">([a-z0-9-]+):', page)
rows = [r["name"] for r in csv.DictReader(open(os.path.join(d, "index.csv")))]
bad = [n + "." + e for n in names for e in ("svg", "csv") if not os.path.getsize(os.path.join(d, n + "." + e))]
if page.count("<svg ") != len(names) or rows != names or bad:
    sys.exit(f"{page.count('<svg ')} charts, {len(names)} with files, index {len(rows)}, empty {bad}")
print(f"{len(names)} charts, each with its files")
PY

flags=(--headless --no-sandbox --disable-gpu --disable-background-networking
	--disable-component-update --no-first-run --disable-extensions --user-data-dir="$T_TMP/chrome")
timeout 120 "$CHROME" "${flags[@]}" --dump-dom "file://$out" >"$T_TMP/dom.html" 2>"$T_TMP/chrome.err" ||
	fail "chromium --dump-dom failed: $(tail -3 "$T_TMP/chrome.err")"
dom=$T_TMP/dom.html
count() { grep -o "$1" "$dom" | wc -l; }
[ "$(count '<svg')" -ge 8 ] || fail "only $(count '<svg') SVG charts in the DOM"
for id in 'chart-scatter"' 'chart-qd-iops"' 'chart-qd-latency"' 'chart-rate-curve"' 'class="band"' \
	'class="matrix"' 'class="grid"' 'steady state at round 2'; do
	grep -q "$id" "$dom" || fail "missing $id in the rendered DOM"
done
# both drives side by side: two preconditioning charts, two series on the QD chart
[ "$(count 'chart-scatter"')" -ge 2 ] || fail "one scatter per drive expected"
grep -o '<svg[^>]*chart-qd-iops".*' "$dom" | head -1 | grep -o 'class="line"' | head -2 | wc -l |
	grep -q 2 || fail "QD chart lacks a series per drive"
grep -q "no data" "$dom" && fail "a chart has no data"
ok "Chromium rendered $(count '<svg') SVG charts"

timeout 120 "$CHROME" "${flags[@]}" --screenshot="$T_TMP/report.png" --window-size=1280,2400 \
	"file://$out" >/dev/null 2>&1 || fail "screenshot failed"
[ "$(stat -c %s "$T_TMP/report.png")" -gt 20000 ] || fail "screenshot is (nearly) blank"
ok "screenshot"

# bad input
"$B" report "$T_TMP/nowhere" -o "$T_TMP/x.html" 2>"$T_TMP/err"; [ $? -eq 2 ] || fail "bad dir exit status"
grep -q "meta.json" "$T_TMP/err" || fail "bad dir message"
[ ! -e "$T_TMP/x.html" ] || fail "a failed report left a file"
ok "bad input"

# a drive check's results directory (hand-made, hostile strings from
# "drives") next to a plan directory: a verdict row per serial, escaped
C=$T_TMP/check-x
mkdir "$C"
echo '{"command": "check", "profile": "quick", "drives": [{"serial": "<script>x</script>", "device": "/dev/nvme9n1"}]}' >"$C/meta.json"
cat >"$C/summary.json" <<'EOF'
{"profile": "quick", "interrupted": false, "drives": [
 {"serial": "<script>alert(1)</script>", "model": "M&M <b>", "firmware": "F\"1", "capacity_bytes": 1e300,
  "device": "/dev/nvme9n1", "verdict": "FAIL", "reasons": ["media errors 3 > 0 <i>", 7, "spare 2% < 10%"]},
 {"serial": "S2", "model": "M", "firmware": "1", "capacity_bytes": 512110190592,
  "device": "/dev/nvme8n1", "verdict": "WARN", "reasons": ["temperature 71 C > 70 C"]},
 {"serial": "S3", "verdict": "<img src=x>", "capacity_bytes": -1},
 "junk", 42]}
EOF
"$B" report "$T_TMP/drive-a" "$C" -o "$T_TMP/mixed.html" >/dev/null 2>"$T_TMP/err" ||
	fail "mixed report: $(cat "$T_TMP/err")"
m=$T_TMP/mixed.html
grep -Eiq '<script|<img|<b>|<i>' "$m" && fail "unescaped drive strings in the report"
grep -q 'chart-scatter"' "$m" || fail "the plan's charts are missing"
[ "$(grep -c '<tr class="drive">' "$m")" = 3 ] || fail "not one row per serial"
grep -q '<td class="l">&lt;script&gt;alert(1)&lt;/script&gt;</td><td class="l">/dev/nvme9n1</td><td class="l">M&amp;M &lt;b&gt;</td><td class="l">F&quot;1</td><td>-</td><td class="l verdict fail">FAIL</td><td class="l">media errors 3 &gt; 0 &lt;i&gt;; spare 2% &lt; 10%</td>' "$m" ||
	fail "hostile row: $(grep -o '<tr class="drive">.*' "$m" | head -1)"
grep -q '<td class="l">S2</td>.*<td>512.1 GB</td><td class="l verdict warn">WARN</td><td class="l">temperature 71 C &gt; 70 C</td>' "$m" ||
	fail "WARN row"
grep -q '<td class="l">S3</td>.*<td>-</td><td class="l verdict na">?</td><td class="l">-</td>' "$m" || fail "bad verdict row"
# truncated summary.json: a line saying so, never a failure
head -c 100 "$C/summary.json" >"$C/s" && mv "$C/s" "$C/summary.json"
"$B" report "$C" -o - >"$T_TMP/trunc.html" 2>"$T_TMP/err" || fail "truncated summary.json: $(cat "$T_TMP/err")"
grep -q "no readable summary.json" "$T_TMP/trunc.html" || fail "truncated summary.json not reported"
ok "check directory next to a plan directory: a row per serial, escaped; truncated summary survives"
