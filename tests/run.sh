#!/bin/bash
# run.sh - the test runner of `make check`, `make asan` and `make tsan`
# (docs/testing.md).  Runs the Check unit tests (in shards) and every script
# in tests/integration and tests/ui, J at a time, each in a scratch
# directory of its own (TMPDIR, TMUX_TMPDIR: its own loop-device images,
# tmux sockets and results), then the tests that declare they need the
# machine to themselves, one at a time, with nothing else running.
#
# A script declares, in a comment line of its own near its top:
#   # test: exclusive REASON       run alone, in the final serial phase
#   # test: budget SECONDS REASON  its budget, when over the default 60 s
#   # test: no-sanitizer REASON    not run under ASan/TSan (said as a skip)
#
# Exit status of a script: 0 pass, 77 skip, anything else fail.  A budget
# is the wall-clock time a test may take with a CPU to itself; the runner
# scales it by the tests it runs per CPU (J / CPUs, at least 1: beside
# others a test gets a share of a CPU) and by the sanitizer's slowness (x2
# ASan, x3 TSan).  A test over its scaled budget fails when NVS_ENFORCE=1
# (set in CI), else it is flagged; so does the whole run over NVS_BUDGET
# seconds of wall-clock time.  Each test's CPU time (user+sys, GNU time) is
# printed beside its wall time.  Nothing is retried: a test that fails once
# is a test to fix.
#
# Usage: tests/run.sh [-l] [PATTERN...]   (PATTERN: a part of a test's name)
# Environment: J (tests at once; default 2 x CPUs, 1 = serial),
#   NVS_BIN, NVS_BUILD, NVS_SANITIZER (asan|tsan), NVS_TESTS (a pattern),
#   NVS_BUDGET (seconds for the whole run), NVS_ENFORCE, NVS_KEEP=1 (keep
#   every scratch directory; a failed test's is always kept),
#   NVS_TIMEOUT (seconds before a test is killed, default 300).
# The closing line is "N passed, N failed, N skipped".
cd "$(dirname "$0")/.." || exit 1
export NVS_BIN=${NVS_BIN:-./nvscope} NVS_BUILD=${NVS_BUILD:-build}
case $NVS_BIN in /*) ;; *) NVS_BIN=$PWD/${NVS_BIN#./} ;; esac
export NVS_TOP=$PWD
SAN=${NVS_SANITIZER:-}
# Check's per-test timeouts catch a hang, not slowness: a sanitizer build
# on a shared 2-core machine runs the statistical tests several times
# slower, and a loaded one (other tests, a build beside them) the
# plain build's past Check's default 4 s (test_prio, test_offgen)
ck_x=3
[ -n "$SAN" ] && ck_x=6
export CK_TIMEOUT_MULTIPLIER=${CK_TIMEOUT_MULTIPLIER:-$ck_x}
ncpu=$(nproc 2>/dev/null || echo 2)
J=${J:-$((2 * ncpu))}
[[ $J =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: J must be a whole number >= 1" >&2; exit 2; }
TMO=${NVS_TIMEOUT:-300}
DEF_BUDGET=60
case $SAN in asan) BMUL=2 ;; tsan) BMUL=3 ;; *) BMUL=1 ;; esac
ENFORCE=${NVS_ENFORCE:-}
[ -z "$ENFORCE" ] && [ "${CI:-}" = true ] && ENFORCE=1

list_only=0
pats=()
for a in "$@"; do
	case $a in -l) list_only=1 ;; *) pats+=("$a") ;; esac
done
[ -n "${NVS_TESTS:-}" ] && pats+=("$NVS_TESTS")
wanted() { # name
	local p
	[ ${#pats[@]} -eq 0 ] && return 0
	for p in "${pats[@]}"; do [[ $1 == *"$p"* ]] && return 0; done
	return 1
}
# decl SCRIPT KEY: the text after "# test: KEY" in the script's first 40 lines
decl() { sed -n "1,40s/^# test: $2\\( \\(.*\\)\\)\\?\$/\\2+/p" "$1" | head -1; }

# ---- the list: unit shards, then scripts (longest first, by the last
# recorded times, so the slow ones do not start last)
times_file=$NVS_BUILD/test-times${SAN:+-$SAN}.tsv
declare -A prev_time budget excl nosan
names=()
if [ -x "$NVS_BUILD/unit-tests" ] && wanted unit; then
	nsh=$(( 2 * J < 8 ? 2 * J : 8 )) # the sanitizers make a few suites long
	for ((k = 0; k < nsh; k++)); do names+=("unit:$k/$nsh"); done
fi
for t in tests/integration/*.sh tests/ui/*.sh; do
	[ -e "$t" ] && wanted "$t" && names+=("$t")
done
for t in "${names[@]}"; do
	budget[$t]=$DEF_BUDGET
	[[ $t == unit:* ]] && continue
	b=$(decl "$t" budget)
	[ -n "$b" ] && budget[$t]=${b%% *} && budget[$t]=${budget[$t]%+}
	e=$(decl "$t" exclusive) && [ -n "$e" ] && excl[$t]=${e%+}
	s=$(decl "$t" no-sanitizer) && [ -n "$s" ] && nosan[$t]=${s%+}
done
# the order's source: this build's last run, else the times kept in the
# tree (tests/times.tsv, a quiet plain run's; a sanitizer scales them all)
for f in "$times_file" tests/times.tsv; do
	[ -r "$f" ] || continue
	while IFS=$'\t' read -r n s _; do prev_time[$n]=$s; done <"$f"
	break
done
if [ $list_only = 1 ]; then
	for t in "${names[@]}"; do
		printf '%-44s budget %4ss%s%s\n' "$t" "${budget[$t]}" \
			"${excl[$t]:+  exclusive: ${excl[$t]}}" "${nosan[$t]:+  no-sanitizer: ${nosan[$t]}}"
	done
	exit 0
fi
order() { # names... -> by previous time, longest first (unknown: first)
	local n
	for n in "$@"; do printf '%s\t%s\n' "${prev_time[$n]:-9999}" "$n"; done |
		sort -t$'\t' -k1,1nr -s | cut -f2
}
par=() ser=()
while read -r n; do
	[ -n "$n" ] || continue
	[ -n "$SAN" ] && [ -n "${nosan[$n]:-}" ] && continue
	if [ -n "${excl[$n]:-}" ]; then ser+=("$n"); else par+=("$n"); fi
done < <(order "${names[@]}")

scratch=$(mktemp -d "${TMPDIR:-/tmp}/nvscope-run.XXXXXX")
cleanup() {
	local p
	for p in "${!pid_name[@]}"; do
		kill -TERM -- "-$p" "$p" 2>/dev/null
		rm -rf "${t_dir[${pid_name[$p]}]:?}"
	done
	[ "${NVS_KEEP:-}" = 1 ] || [ -n "$(ls -A "$scratch/kept" 2>/dev/null)" ] || rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir -p "$scratch/kept" "$scratch/logs" "$scratch/bin"
# the tests' python3 is Debian's, the one `make deps-test` installs packages
# for (python3-pandas, fusepy, ...): a pyenv or venv shim earlier in PATH
# lacks them and costs over a second of CPU per start
if [ -x /usr/bin/python3 ]; then
	ln -s /usr/bin/python3 "$scratch/bin/python3"
	export PATH=$scratch/bin:$PATH
fi

declare -A pid_name t_start t_took t_dir t_cpu
# GNU time gives each test's CPU time (user+sys of all it ran); without it,
# env in its place: the wall time alone
if [ -x /usr/bin/time ]; then TIMER=(/usr/bin/time -f '%U %S' -o); else TIMER=(sh -c 'shift; exec "$@"' -); fi
PHASE_J=$J
pass=0 fail=0 skip=0 failed=() over=()
run_start=$(date +%s.%N)

# start NAME: runs one test in the background, in its own session (setsid:
# a kill reaches everything it started) and its own scratch directory.
start() {
	local n=$1 id dir log
	id=$(printf '%s' "$n" | tr -c 'A-Za-z0-9_.-' '_')
	log=$scratch/logs/$id.log
	# the same short form as lib.sh's own (tests lay out paths on 80 columns)
	dir=$(mktemp -d "${TMPDIR:-/tmp}/nvscope-test.XXXXXX") || { echo "run.sh: mktemp" >&2; exit 2; }
	t_dir[$n]=$dir
	if [[ $n == unit:* ]]; then
		setsid env TMPDIR="$dir" CK_FORK=yes timeout -k 10 "$TMO" "${TIMER[@]}" "$log.time" \
			"$NVS_BUILD/unit-tests" "${n#unit:}" >"$log" 2>&1 &
	else
		setsid env TMPDIR="$dir" TMUX_TMPDIR="$dir" NVS_SCRATCH="$dir" \
			timeout -k 10 "$TMO" "${TIMER[@]}" "$log.time" bash "$n" >"$log" 2>&1 &
	fi
	pid_name[$!]=$n
	t_start[$n]=$(date +%s.%N)
}

# unit_failures LOG: the failing checks and any sanitizer report, not the
# list of suites
unit_failures() {
	grep -E ':[EF]:|Checks:|ERROR: |SUMMARY: |runtime error|^ +#[0-9]' "$1"
}

# finish PID RC: one line for the test that ended; a failure's last lines
# at once, and again at the end.
finish() {
	local pid=$1 rc=$2 n=${pid_name[$1]} took id log b verdict
	unset "pid_name[$pid]"
	took=$(awk -v a="${t_start[$n]}" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
	t_took[$n]=$took
	id=$(printf '%s' "$n" | tr -c 'A-Za-z0-9_.-' '_')
	log=$scratch/logs/$id.log
	t_cpu[$n]=$(awk 'NF == 2 && $1 ~ /^[0-9.]+$/ { printf "%.1f", $1 + $2; exit }' "$log.time" 2>/dev/null)
	b=$(awk -v b="${budget[$n]}" -v m="$BMUL" -v j="$PHASE_J" -v c="$ncpu" \
		'BEGIN { f = j / c; if (f < 1) f = 1; printf "%.0f", b * m * f }')
	case $rc in
	0) verdict=PASS ;;
	77) verdict=SKIP ;;
	124 | 137) verdict="FAIL (killed after ${TMO}s)" ;;
	*) verdict="FAIL (exit $rc)" ;;
	esac
	if [ "$verdict" = PASS ] && awk -v t="$took" -v b="$b" 'BEGIN { exit !(t > b) }'; then
		over+=("$n ${took}s > ${b}s")
		[ -n "$ENFORCE" ] && verdict="FAIL (over its budget of ${b}s)"
	fi
	printf '%-6s %6ss  cpu %6ss  %s\n' "${verdict%% *}" "$took" "${t_cpu[$n]:--}" "$n${verdict#????}"
	case $verdict in
	PASS) pass=$((pass + 1)) ;;
	SKIP) skip=$((skip + 1)); sed -n 's/^SKIP: /       skipped: /p' "$log" | head -1 ;;
	*) fail=$((fail + 1)); failed+=("$n")
	   [ -d "${t_dir[$n]}" ] && mv "${t_dir[$n]}" "$scratch/kept/$id"
	   # what broke first (its FAIL line and the last step that passed:
	   # a screen dump of 40 lines must not hide it), then the log's end
	   { echo "== $n: $verdict"
	     if [[ $n == unit:* ]]; then unit_failures "$log"; else
	       grep -E '^(ok|FAIL): ' "$log" | tail -n 2 | sed 's/^/  first: /'
	       tail -n 60 "$log"
	     fi
	   } | sed 's/^/   /' >"$scratch/logs/$id.fail"
	   head -n 3 "$scratch/logs/$id.fail"
	   tail -n +4 "$scratch/logs/$id.fail" | tail -n 22 ;;
	esac
	if [ -d "${t_dir[$n]}" ]; then
		if [ "${NVS_KEEP:-}" = 1 ]; then mv "${t_dir[$n]}" "$scratch/kept/$id"; else rm -rf "${t_dir[$n]:?}"; fi
	fi
	return 0
}

# leftovers PID NAME: the processes the test that ran as session PID left
# behind.  A probe helper stuck on a stalled device (D state) is left there
# by design (src/dev/probe.h); one still running (R: a spin, such as a
# helper forked from a threaded process that waits forever on a lock the
# fork copied held) is killed, since it would slow every later test; each
# is named in the log.
leftovers() {
	local sid=$1 n=$2 p st args
	while read -r p st args; do
		[ "$p" = "$sid" ] && continue
		case $st in
		Z*) continue ;;
		R*) kill -9 "$p" 2>/dev/null && echo "       left behind by $n, running: killed $p $args" ;;
		*) echo "       left behind by $n ($st): $p $args" ;;
		esac
	done < <(ps -e -o pid=,sid=,stat=,args= | awk -v s="$sid" '$2 == s { $2 = ""; print }')
}

# run_all JOBS NAMES...: at most JOBS at a time
run_all() {
	local jobs=$1 pid rc
	PHASE_J=$jobs
	shift
	local q=("$@")
	while [ ${#q[@]} -gt 0 ] || [ ${#pid_name[@]} -gt 0 ]; do
		while [ ${#q[@]} -gt 0 ] && [ ${#pid_name[@]} -lt "$jobs" ]; do
			start "${q[0]}"
			q=("${q[@]:1}")
		done
		pid=""
		wait -n -p pid "${!pid_name[@]}"
		rc=$?
		if [ -n "$pid" ] && [ -n "${pid_name[$pid]:-}" ]; then
			leftovers "$pid" "${pid_name[$pid]}"
			finish "$pid" "$rc"
		fi
	done
}

echo "== ${#par[@]} tests, $J at a time${SAN:+ ($SAN)}; then ${#ser[@]} alone; scratch $scratch"
for n in "${names[@]}"; do
	if [ -n "$SAN" ] && [ -n "${nosan[$n]:-}" ]; then
		printf 'SKIP        -  cpu      -  %s\n       not under a sanitizer: %s\n' "$n" "${nosan[$n]}"
		skip=$((skip + 1))
	fi
done
run_all "$J" "${par[@]}"
if [ ${#ser[@]} -gt 0 ]; then
	echo "== the tests that need the machine to themselves, one at a time"
	run_all 1 "${ser[@]}"
fi
total=$(awk -v a="$run_start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }')

# ---- times: kept for the next run's order, the slowest printed
# (a run of some tests keeps the others' times from before)
mkdir -p "$NVS_BUILD"
this=$scratch/times.tsv
for n in "${!t_took[@]}"; do printf '%s\t%s\t%s\n' "$n" "${t_took[$n]}" "${t_cpu[$n]:--}"; done |
	sort -t$'\t' -k2,2nr >"$this"
{
	cat "$this"
	[ -r "$times_file" ] && awk -F'\t' 'NR == FNR { ran[$1] = 1; next } !($1 in ran)' "$this" "$times_file"
} | sort -t$'\t' -k2,2nr >"$times_file.new" && mv "$times_file.new" "$times_file"
sum=$(awk -F'\t' '{ s += $2; c += $3 } END { printf "%.0f", s }' "$this")
cpu=$(awk -F'\t' '{ c += $3 } END { printf "%.0f", c }' "$this")
echo "== the 10 slowest tests, wall and CPU (budget ${DEF_BUDGET}s unless declared, x$BMUL, x J/CPUs)"
head -n 10 "$this" | while IFS=$'\t' read -r n s c; do
	printf '   %7ss  cpu %6ss  %s\n' "$s" "$c" "$n"
done
echo "== total ${total}s wall clock, ${sum}s of tests (${cpu}s of CPU), $J at a time${NVS_BUDGET:+ (budget ${NVS_BUDGET}s)}"
if [ ${#over[@]} -gt 0 ]; then
	echo "== over their budget${ENFORCE:+ (counted as failures)}:"
	printf '   %s\n' "${over[@]}"
fi
if [ -n "${NVS_BUDGET:-}" ] && [ "$total" -gt "$NVS_BUDGET" ]; then
	echo "== the whole run took ${total}s, over its budget of ${NVS_BUDGET}s${ENFORCE:+: a failure}"
	[ -n "$ENFORCE" ] && { fail=$((fail + 1)); failed+=("(the run's time budget)"); }
fi
if [ ${#failed[@]} -gt 0 ]; then
	echo "== what failed, again (the last lines of each; scratch kept in $scratch/kept)"
	cat "$scratch"/logs/*.fail 2>/dev/null
	echo "failed: ${failed[*]}"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
