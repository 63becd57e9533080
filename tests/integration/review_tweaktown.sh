#!/bin/bash
# review_tweaktown.sh - TweakTown's P3608 review scaled down (docs/report.md,
# "The five reviews", seed 000): review-suite on a RAID 0 of two targets
# with a 128 KB stripe (its web-server mix's 512 KB I/Os split across the
# members), then its report as Chromium lays it out.
# test: budget 90 review-suite's 42 sections at 0.15 s each (about 30 s here)
# test: no-sanitizer it checks the report as a browser lays it out against the review's charts, not memory; plans and reports run under ASan and TSan in report_qos.sh, report_html.sh and the plan tests
. "${NVS_TOP:-.}/tests/review.sh"
truncate -s 64M "$T_TMP/a.img" "$T_TMP/b.img"
rv_plan review-suite tt --target "$T_TMP/a.img" --target "$T_TMP/b.img" --stripe=128k \
	--yes-destroy-data="$T_TMP/a.img,$T_TMP/b.img" --fill 0.02 --round 0.15s --max-rounds 2 \
	--runtime 0.15s --ramp-time 0
grep -q 'webserver' "$T_TMP/tt.log" || fail "no web-server step ran"
rv_check 000 tt
