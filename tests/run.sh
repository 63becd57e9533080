#!/bin/bash
# run.sh - all of `make check`: the Check unit tests, then every script in
# tests/integration and tests/ui (exit 0 pass, 77 skip, else fail; a
# console test that fails is run once more, and says so).
# Prints one closing line "N passed, N failed, N skipped".
# Environment: NVS_BIN (binary under test), NVS_BUILD (build dir),
# NVS_SANITIZER (asan|tsan: some slow scripts skip themselves),
# NVS_TESTS (glob filter on script names).
cd "$(dirname "$0")/.." || exit 1
export NVS_BIN=${NVS_BIN:-./nvscope} NVS_BUILD=${NVS_BUILD:-build}
export NVS_TOP=$PWD
pass=0 fail=0 skip=0 failed=()

echo "== unit tests ($NVS_BUILD/unit-tests)"
if "$NVS_BUILD/unit-tests"; then pass=$((pass + 1)); else fail=$((fail + 1)); failed+=(unit); fi

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
	rm -f "$log"
	case $rc in
	0) pass=$((pass + 1)); echo "   PASS ($(( $(date +%s) - start ))s$retried)" ;;
	77) skip=$((skip + 1)); echo "   SKIP" ;;
	*) fail=$((fail + 1)); failed+=("$t"); echo "   FAIL (exit $rc)" ;;
	esac
done
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
