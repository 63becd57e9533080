#!/usr/bin/env bash
# Marginal user-space instructions per I/O of the engine's worker for the
# default 4k randread QD32 job (docs/performance.md, "Instructions per I/O").
# Two callgrind runs (N1 and N2 I/Os) against /dev/zero; the difference in
# instructions divided by N2-N1 removes setup and teardown.
# A bench, not a test: never run by make check.
#   bench/instr-per-io.sh [N1 [N2 [TOP]]]   (NVS_BIN=./nvscope by default)
set -euo pipefail
bin=${NVS_BIN:-./nvscope}
n1=${1:-100000}
n2=${2:-200000}
top=${3:-15}
command -v valgrind >/dev/null || { echo "instr-per-io: valgrind not found" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() {
	valgrind --tool=callgrind --toggle-collect=worker_main \
		--callgrind-out-file="$tmp/cg.$1" "$bin" run \
		--filename=/dev/zero --size=16g --direct=0 --rw=randread --bs=4k \
		--iodepth=32 --number_ios="$1" --name=z >/dev/null 2>"$tmp/log.$1" ||
		{ cat "$tmp/log.$1" >&2; exit 1; }
	callgrind_annotate --auto=no --inclusive=no --threshold=100 "$tmp/cg.$1" >"$tmp/an.$1"
}
run "$n1"
run "$n2"
# "  1,234,567 (12.3%)  file:function [obj]" -> "function count"
fns() {
	awk '/^-+$/ {s++; next} s>=3 && $1 ~ /^[0-9,]+$/ && $2 ~ /^\(/ && NF >= 3 {
		n=$1; gsub(/,/, "", n); f=$NF; if (f ~ /^\[/) f=$(NF-1)
		sub(/^.*:/, "", f); if ($0 !~ /PROGRAM TOTALS/) a[f]+=n } END {for (k in a) print k, a[k]}' "$1"
}
tot() { awk '/PROGRAM TOTALS/ {n=$1; gsub(/,/, "", n); print n; exit}' "$1"; }
t1=$(tot "$tmp/an.$n1")
t2=$(tot "$tmp/an.$n2")
d=$((n2 - n1))
awk -v a="$t1" -v b="$t2" -v d="$d" -v n1="$n1" -v n2="$n2" 'BEGIN {
	printf "instructions per I/O: %.1f (Ir %d at N=%d, %d at N=%d)\n", (b-a)/d, a, n1, b, n2 }'
echo "top functions, instructions per I/O:"
join -a2 -e0 -o 0,1.2,2.2 <(fns "$tmp/an.$n1" | sort) <(fns "$tmp/an.$n2" | sort) |
	awk -v d="$d" '{printf "%8.1f  %s\n", ($3-$2)/d, $1}' | sort -rn | head -n "$top"
