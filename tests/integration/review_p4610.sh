#!/bin/bash
# review_p4610.sh - StorageReview's P4610 review scaled down (docs/report.md,
# "The five reviews", seed 002): the 4K random read rate curve, the
# database mixes' rate curves and the VDI boot storm, one report of the
# three as Chromium lays it out.
# test: no-sanitizer it checks the report as a browser lays it out against the review's charts, not memory; plans and reports run under ASan and TSan in report_qos.sh, report_html.sh and the plan tests
. "${NVS_TOP:-.}/tests/review.sh"
truncate -s 64M "$T_TMP/a.img"
truncate -s 2G "$T_TMP/big.img" # the shipped boot trace spans 2 GiB (sparse)
Y=--yes-destroy-data="$T_TMP/a.img"
rv_plan rate-curve-4k-randread rc --target "$T_TMP/a.img" "$Y" --fill 0.02 --runtime 0.2s --ramp-time 0
rv_plan database-mixes db --target "$T_TMP/a.img" "$Y" --fill 0.02 --runtime 0.2s --ramp-time 0
rv_plan vdi-boot-storm vdi --target "$T_TMP/big.img" --yes-destroy-data="$T_TMP/big.img" \
	--runtime 0.5s --ramp-time 0
rv_check 002 rc db vdi
# the VDI boot storm's replay: lag and late per phase (the two steps), and
# each copy's
python3 - "$T_TMP/report.html" <<'PY' || fail "no trace replay table"
import re, sys
page = open(sys.argv[1]).read()
rows = re.findall(r'<table class="trace">(.*?)</table>', page, re.S)
assert len(rows) == 2, len(rows)  # boot-staggered, boot-together
for t in rows:
    (r,) = re.findall(r"<tr><td class=\"l\">.*?</tr>", t)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", r)
    assert cells[2] == "vm-boot.log" and cells[3] == "8", cells
assert page.count('<table class="trace-copies">') == 2
print("ok: the boot storm's two phases with lag and late, each with its 8 copies")
PY
ok "VDI boot storm: lag and late per phase and copy"
