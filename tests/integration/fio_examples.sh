#!/bin/bash
# fio's own examples/ job files (tests/fixtures/fio-examples/, from fio's
# source) run by Debian's fio and by nvscope on one loop device, only their
# target and length rewritten: each runs the same workload (jobs, groups,
# rw, mix, block sizes, queue depth, numjobs, sizes) or is refused with ONE
# "file:line: option" message naming the right line.  The table it prints
# is docs/fio-examples.md (NVS_FIO_EXAMPLES_TABLE=docs/fio-examples.md
# rewrites it).  About a minute: one second per run group per tool.
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "fio not installed"
command -v python3 >/dev/null || skip "python3 not installed"
[ "${NVS_SANITIZER:-}" = "" ] || skip "runs 30 workloads: not under a sanitizer"
t_loop 64M; dev=$LOOP
# fio's zbd examples name 256 MiB zones from zone 524 on: a sparse device
# that holds them (tests/fio_examples.py BIG), only written blocks take memory
t_loop 140G; NVS_FIO_BIGDEV=$LOOP
export NVS_FIO_BIGDEV
mkdir -p "$T_TMP/ex"
python3 "$NVS_TOP/tests/fio_examples.py" "$NVS_BIN" "$NVS_TOP/tests/fixtures/fio-examples" "$dev" \
	"$T_TMP/ex" "${NVS_FIO_EXAMPLES_TABLE:-$T_TMP/table.md}" || fail "an example differs from fio (FAIL rows above)"
ok "every fio example runs fio's workload or is refused at its line"
