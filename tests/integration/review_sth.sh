#!/bin/bash
# review_sth.sh - ServeTheHome's 24 drives scaled down (docs/report.md, "The
# five reviews", seed 004): many-drives on 24 file targets at once, its
# report (the aggregate, each drive's row, IOPS and p99.99 per drive, small
# multiples) as Chromium lays it out.
# test: no-sanitizer it checks the report as a browser lays it out against the review's charts, not memory; plans and reports run under ASan and TSan in report_qos.sh, report_html.sh and the plan tests
. "${NVS_TOP:-.}/tests/review.sh"
T=() Y=""
for i in $(seq 24); do
	truncate -s 32M "$T_TMP/d$i.img"
	T+=(--target "$T_TMP/d$i.img")
	Y="$Y,$T_TMP/d$i.img"
done
rv_plan many-drives sth "${T[@]}" --yes-destroy-data="${Y#,}" --runtime 0.3s --ramp-time 0
rv_check 004 sth
grep -q 'data-drives="24"' "$T_TMP/report.html" || fail "no small multiples of the 24 drives"
# each row's per-drive table: the 24 drives in order with their p99.99, then
# the aggregate
python3 - "$T_TMP/report.html" <<'PY' || fail "per-drive tables of the 24 drives"
import re, sys
page = open(sys.argv[1]).read()
tables = re.findall(r'<table class="per-drive" data-row="[^"]*">(.*?)</table>', page, re.S)
assert len(tables) == 4, len(tables)  # 128K QD32; 4K QD1, 8, 32
for t in tables:
    assert "<th>p99.99 &micro;s</th>" in t, "no p99.99 column"
    rows = re.findall(r'<tr class="drive"><td>(\d+)</td><td class="l">([^<]*)</td>', t)
    assert [int(n) for n, _ in rows] == list(range(1, 25)), rows
    assert all(p.endswith("/d%d.img" % (i + 1)) for i, (_, p) in enumerate(rows)), rows
    assert "all 24 drives (aggregate)" in t
print("ok: 4 per-drive tables of 24 drives in order, p99.99 and the aggregate")
PY
ok "24 drives: per-drive rows with p99.99 and the aggregate, dots and small multiples"
