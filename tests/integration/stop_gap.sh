#!/bin/bash
# A stopped process (SIGSTOP, then SIGCONT ~3 s later) measures nothing while
# stopped: the samples CSV must jump over those seconds (a gap), not carry
# rows of 0 IOPS inside the measured window.
. "$(dirname "$0")/../lib.sh"
t_loop 64M
"$NVS_BIN" run --target "$LOOP" --rw=randread --bs=4k --iodepth=4 --runtime=8 --time_based \
	--csv "$T_TMP/s.csv" --output-format=json >"$T_TMP/r.json" 2>"$T_TMP/r.err" &
pid=$!
sleep 2.3
kill -STOP "$pid"
sleep 3
kill -CONT "$pid"
wait "$pid" || fail "run exited $?: $(cat "$T_TMP/r.err")"
python3 - "$T_TMP/s.csv" <<'PY' || fail "samples across the stop"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
t = [float(r["time_s"]) for r in rows]
iops = [float(r["read_iops"]) for r in rows]
print("time_s:", t)
print("iops:", iops)
# no row of 0 IOPS before the last (the tail sliver may be short)
assert all(v > 0 for v in iops[:-1]), "0 IOPS rows inside the window"
# the time jumps over the stop: at least 2 s missing between two rows
steps = [b - a for a, b in zip(t, t[1:])]
assert max(steps) >= 2.5, steps
PY
ok "a stopped second is a gap in the samples, not 0 IOPS"
