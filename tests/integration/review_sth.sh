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
