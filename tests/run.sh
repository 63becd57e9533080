#!/bin/bash
# run.sh - all of `make check`: the Check unit tests, then every script in
# tests/integration and tests/ui (exit 0 pass, 77 skip, else fail; a
# console test that fails is run once more, and says so).
# Prints one closing line "N passed, N failed, N skipped".
# Environment: NVS_BIN (binary under test), NVS_BUILD (build dir),
# NVS_SANITIZER (asan|tsan: some slow scripts skip themselves),
# NVS_TESTS (glob filter on script names).
# Whatever failed is printed again at the very end (its last lines), so a
# CI log that keeps only its tail still says why.
cd "$(dirname "$0")/.." || exit 1
export NVS_BIN=${NVS_BIN:-./nvscope} NVS_BUILD=${NVS_BUILD:-build}
export NVS_TOP=$PWD
# Check's per-test timeouts catch a hang, not slowness: a sanitizer build
# on a shared 2-core machine runs the statistical tests several times slower.
[ -n "${NVS_SANITIZER:-}" ] && export CK_TIMEOUT_MULTIPLIER=${CK_TIMEOUT_MULTIPLIER:-6}
pass=0 fail=0 skip=0 failed=()
faillogs=$(mktemp -d)
trap 'rm -rf "$faillogs"' EXIT
keep_failure() { # name log
	{ echo "== $1"; sed 's/^/   /' "$2" | tail -n 60; } >"$faillogs/$(printf '%03d' ${#failed[@]})"
}

echo "== unit tests ($NVS_BUILD/unit-tests)"
log=$(mktemp)
"$NVS_BUILD/unit-tests" >"$log" 2>&1
rc=$?
cat "$log"
if [ $rc -eq 0 ]; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
	# the failing checks and any sanitizer report, not the list of suites
	grep -E ':[EF]:|Checks:|ERROR: |SUMMARY: |runtime error|^ +#[0-9]' "$log" >"$log.f"
	keep_failure unit "$log.f"
	rm -f "$log.f"
	failed+=(unit)
fi
rm -f "$log"

for t in tests/integration/*.sh tests/ui/*.sh; do
	[ -e "$t" ] || continue
	case $t in *"${NVS_TESTS:-}"*) ;; *) continue ;; esac
	echo "== $t"
	start=$(date +%s)
	log=$(mktemp)
	timeout 300 bash "$t" >"$log" 2>&1
	rc=$?
	sed 's/^/   /' "$log" | tail -n 40
	retried=""
	# Console tests read a terminal screen while it redraws, on a shared
	# machine: a failure is run once more and a second failure counts.
	if [ $rc -ne 0 ] && [ $rc -ne 77 ] && [[ $t == tests/ui/* ]]; then
		echo "   (failed with exit $rc; running it once more)"
		timeout 300 bash "$t" >"$log" 2>&1
		rc=$?
		sed 's/^/   /' "$log" | tail -n 40
		retried=", after a retry"
	fi
	case $rc in
	0) pass=$((pass + 1)); echo "   PASS ($(( $(date +%s) - start ))s$retried)" ;;
	77) skip=$((skip + 1)); echo "   SKIP" ;;
	*) fail=$((fail + 1)); keep_failure "$t (exit $rc)" "$log"; failed+=("$t")
	   echo "   FAIL (exit $rc)" ;;
	esac
	rm -f "$log"
done
if [ ${#failed[@]} -gt 0 ]; then
	echo "== what failed, again (the last lines of each)"
	cat "$faillogs"/*
	echo "failed: ${failed[*]}"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
