# review.sh - sourced by review_*.sh: the five reviews of docs/report.md
# ("The five reviews, scaled down") run as their table row says, reported,
# and the page checked as Chromium lays it out (tests/tools/reviewcheck.py).
. "${NVS_TOP:-.}/tests/lib.sh"
command -v chromium >/dev/null || skip "chromium is not installed (make deps-test)"
B=$NVS_BIN

# rv_plan NAME DIR [targets and options...]: the plan, its output kept in
# $T_TMP/DIR.log; fails with its last lines
rv_plan() {
	local name=$1 dir=$2
	shift 2
	"$B" plan "$name" "$@" --results "$T_TMP/$dir" >"$T_TMP/$dir.log" 2>&1 ||
		fail "plan $name: $(tail -3 "$T_TMP/$dir.log")"
}

# rv_check SEED DIR...: the report of the directories, checked against the
# seed's row of docs/report.md's table
rv_check() {
	local seed=$1 d dirs=()
	shift
	for d in "$@"; do dirs+=("$T_TMP/$d"); done
	"$B" report "${dirs[@]}" -o "$T_TMP/report.html" >/dev/null 2>"$T_TMP/report.err" ||
		fail "report: $(cat "$T_TMP/report.err")"
	python3 "$NVS_TOP/tests/tools/reviewcheck.py" "$seed" "$T_TMP/report.html" \
		"$NVS_TOP/docs/report.md" >"$T_TMP/check.out" 2>&1 ||
		{ cat "$T_TMP/check.out" >&2; fail "review $seed: the report as Chromium lays it out"; }
	ok "review $seed: $(grep -c '^ok:' "$T_TMP/check.out") chart kinds drawn and labelled, no table overflows"
}
