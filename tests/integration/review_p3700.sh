#!/bin/bash
# review_p3700.sh - StorageReview's P3700 review scaled down (docs/report.md,
# "The five reviews", seed 001): thread-qd-grid (preconditioning, then the
# thread x QD grids of 4K read, 4K write and 8K 70/30), its report as
# Chromium lays it out.
# test: no-sanitizer it checks the report as a browser lays it out against the review's charts, not memory; plans and reports run under ASan and TSan in report_qos.sh, report_html.sh and the plan tests
. "${NVS_TOP:-.}/tests/review.sh"
truncate -s 64M "$T_TMP/a.img"
rv_plan thread-qd-grid sr --target "$T_TMP/a.img" --yes-destroy-data="$T_TMP/a.img" --fill 0.02 \
	--round 0.3s --max-rounds 2 --runtime 0.2s --ramp-time 0
rv_check 001 sr
