#!/bin/bash
# review_p4610.sh - StorageReview's P4610 review scaled down (docs/report.md,
# "The five reviews", seed 002): the 4K random read rate curve, the
# database mixes' rate curves and the VDI test's three phases (boot storm,
# initial login, Monday login: recorded traces, 8 desktops each), one
# report of the three as Chromium lays it out.
# test: budget 90 three plans, the VDI one at its traces' recorded timing (~14 s)
# test: no-sanitizer it checks the report as a browser lays it out against the review's charts, not memory; plans and reports run under ASan and TSan in report_qos.sh, report_html.sh and the plan tests
. "${NVS_TOP:-.}/tests/review.sh"
truncate -s 64M "$T_TMP/a.img"
truncate -s 2G "$T_TMP/big.img" # 8 desktops of up to 256 MiB each (sparse)
Y=--yes-destroy-data="$T_TMP/a.img"
rv_plan rate-curve-4k-randread rc --target "$T_TMP/a.img" "$Y" --fill 0.02 --runtime 0.2s --ramp-time 0
rv_plan database-mixes db --target "$T_TMP/a.img" "$Y" --fill 0.02 --runtime 0.2s --ramp-time 0
rv_plan vdi vdi --target "$T_TMP/big.img" --yes-destroy-data="$T_TMP/big.img" # recorded timing: ~14 s
rv_check 002 rc db vdi
# the VDI phases' replays: lag and late per phase (the three steps), and
# each desktop's
python3 - "$T_TMP/report.html" <<'PY' || fail "no trace replay table"
import re, sys
page = open(sys.argv[1]).read()
rows = re.findall(r'<table class="trace">(.*?)</table>', page, re.S)
assert len(rows) == 3, len(rows)  # boot, initial login, Monday login
for t, trace in zip(rows, ("vm-boot.log", "vdi-login.log", "vdi-monday.log")):
    (r,) = re.findall(r"<tr><td class=\"l\">.*?</tr>", t)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", r)
    assert cells[2] == trace and cells[3] == "8" and cells[6] == "0", cells  # all replayed
    assert cells[7] != "n/a" and cells[10].endswith("%"), cells
assert page.count('<table class="trace-copies">') == 3
print("ok: the VDI test's three phases with lag and late, each with its 8 desktops")
PY
ok "VDI: lag and late per phase and desktop"
