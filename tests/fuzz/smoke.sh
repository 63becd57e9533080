#!/bin/bash
# smoke.sh TARGET... - `make fuzz-smoke` (docs/fuzzing.md): for each target,
# every kept corpus file as a regression input (-runs=1), then
# FUZZ_SMOKE_TIME seconds of fuzzing from the kept corpus; FUZZ_JOBS targets
# at once (default: one per CPU; each fuzzer is one process).  Any crash, UB
# report, leak or timeout fails; the failing target's finding is printed (its
# last 80 lines, libFuzzer's progress lines left out; the whole log stays in
# $B/TARGET.log).
# Environment (from the Makefile): FUZZ_BUILD, FUZZ_SMOKE_TIME, FUZZ_FLAGS,
# FUZZ_JOBS.  Prints one line per target as it ends, with its time.
cd "$(dirname "$0")/../.." || exit 1
B=${FUZZ_BUILD:-build-fuzz}
T=${FUZZ_SMOKE_TIME:-28}
JOBS=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1

one() { # TARGET: exit 0 clean, 1 a finding (log in $B/TARGET.log)
	local t=$1 dict=() start=$SECONDS rc=0 log=$B/$1.log
	[ -e "tests/fuzz/$t.dict" ] && dict=(-dict="tests/fuzz/$t.dict")
	local run=("$B/fuzz-$t" -timeout=10 -print_final_stats=1 -artifact_prefix="$B/" "${dict[@]}")
	# shellcheck disable=SC2086
	"${run[@]}" ${FUZZ_FLAGS:-} -runs=1 "tests/fuzz/corpus/$t"/* >"$log" 2>&1 </dev/null || rc=1
	if [ $rc = 0 ]; then
		rm -rf "$B/smoke/$t" && mkdir -p "$B/smoke/$t"
		# shellcheck disable=SC2086
		"${run[@]}" ${FUZZ_FLAGS:-} -max_total_time="$T" "$B/smoke/$t" "tests/fuzz/corpus/$t" \
			>"$log" 2>&1 </dev/null || rc=1
	fi
	local n stats
	n=$(find "tests/fuzz/corpus/$t" -type f | wc -l)
	stats=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
	if [ $rc = 0 ]; then
		printf 'PASS %4ss  fuzz-smoke %s: %s corpus files, %s executions\n' \
			$((SECONDS - start)) "$t" "$n" "${stats:-?}"
	else
		printf 'FAIL %4ss  fuzz-smoke %s (%s; the finding below, progress lines left out)\n' \
			$((SECONDS - start)) "$t" "$log"
		# libFuzzer's progress lines (#N NEW ...) and dictionary stats would
		# push the report itself past what a CI log shows (stop 29)
		grep -Ev '^#[0-9]+[[:space:]]|# Uses: [0-9]+$' "$log" | tail -n 80
		# the input itself, to replay it where the log is all there is:
		# base64 -d >IN && build-fuzz/fuzz-TARGET IN
		local a
		for a in $(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log"); do
			[ -f "$a" ] && [ "$(stat -c %s "$a")" -le 16384 ] &&
				{ echo "input $a (base64):"; base64 -w 0 "$a"; echo; }
		done
	fi
	return $rc
}
export -f one
export B T
start=$SECONDS
printf '%s\n' "$@" | xargs -P "$JOBS" -I{} bash -c 'one "$1"' _ {}
rc=$?
echo "== fuzz-smoke: $# targets, $JOBS at a time, $((SECONDS - start)) s"
[ $rc = 0 ] || { echo "fuzz-smoke: a target failed (its log above)"; exit 1; }
