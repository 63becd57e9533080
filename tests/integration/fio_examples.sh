#!/bin/bash
# fio's own examples/ job files (tests/fixtures/fio-examples/, from fio's
# source) run by Debian's fio and by nvscope on one loop device, only their
# target and length rewritten: each runs the same workload (jobs, groups,
# rw, mix, block sizes, queue depth, numjobs, sizes; the depth each job ran
# at, from both tools' iodepth_level, read from the same runs) or is
# refused with ONE "file:line: option" message naming the right line.  The
# table it prints is docs/fio-examples.md (NVS_FIO_EXAMPLES_TABLE=docs/fio-examples.md
# rewrites it: then each run group runs 1 s, one example at a time, as the
# table's IOPS column says).  Otherwise 500 ms per run group per tool (1 s
# for some: tests/fio_examples.py RUNTIME, LONG), three examples at a time,
# each on its own loop device.
# test: budget 120 35 examples run by fio and by nvscope, 17 of them 1 s per run group (fio_examples.py LONG): 45-65 s beside 3 other tests on 2 CPUs
# test: no-sanitizer it compares fio's and nvscope's workloads, not memory (it skips itself under a sanitizer too)
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "fio not installed"
command -v python3 >/dev/null || skip "python3 not installed"
[ "${NVS_SANITIZER:-}" = "" ] || skip "runs 30 workloads: not under a sanitizer"
# the docs' table: 1 s runs, one example at a time (tests/fio_examples.py)
[ -n "${NVS_FIO_EXAMPLES_TABLE:-}" ] && export NVS_FIO_EXAMPLES_DOCS=1
devs=""
for i in 1 2 3; do
	t_loop 64M; devs=$devs${devs:+,}$LOOP
done
# fio's zbd examples name 256 MiB zones from zone 524 on: a sparse device
# that holds them (tests/fio_examples.py BIG), only written blocks take memory
t_loop 140G; NVS_FIO_BIGDEV=$LOOP
# surface-scan.fio fills its device, then verifies it (fio_examples.py FILL)
t_loop 4M; NVS_FIO_FILLDEV=$LOOP
export NVS_FIO_BIGDEV NVS_FIO_FILLDEV
mkdir -p "$T_TMP/ex"
python3 "$NVS_TOP/tests/fio_examples.py" "$NVS_BIN" "$NVS_TOP/tests/fixtures/fio-examples" "$devs" \
	"$T_TMP/ex" "${NVS_FIO_EXAMPLES_TABLE:-$T_TMP/table.md}" || fail "an example differs from fio (FAIL rows above)"
ok "every fio example runs fio's workload or is refused at its line"
