#!/bin/bash
# review_anandtech.sh - AnandTech's IO consistency scaled down (docs/
# report.md, "The five reviews", seed 003): io-consistency and its 25%
# spare-area variant, one report of the two as Chromium lays it out (the
# whole run and the zoom, log and linear).
# test: no-sanitizer it checks the report as a browser lays it out against the review's charts, not memory; plans and reports run under ASan and TSan in report_qos.sh, report_html.sh and the plan tests
. "${NVS_TOP:-.}/tests/review.sh"
truncate -s 64M "$T_TMP/a.img"
Y=--yes-destroy-data="$T_TMP/a.img"
rv_plan io-consistency an --target "$T_TMP/a.img" "$Y" --fill 0.02 --runtime 3s --ramp-time 0
rv_plan io-consistency-spare25 an25 --target "$T_TMP/a.img" "$Y" --fill 0.02 --runtime 3s \
	--ramp-time 0
rv_check 003 an an25
