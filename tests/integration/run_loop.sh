#!/bin/bash
# nvscope run on a loop device with direct I/O: several targets at once with
# per-target results, a stripe set, ramp_time excluded, rate limiting.
. "$(dirname "$0")/../lib.sh"
t_loop 64M; a=$LOOP
t_loop 64M 4096; b=$LOOP
"$NVS_BIN" run --target "$a" --target "$b" --rw=randread --bs=4k --iodepth=4 --runtime=2 \
	--time_based --output-format=json >"$T_TMP/m.json" || fail "two targets exited $?"
python3 - "$T_TMP/m.json" "$a" "$b" <<'PY' || fail "multi-target JSON"
import json, sys
d = json.load(open(sys.argv[1]))
j = d["jobs"][0]
ts = j["nvscope"]["targets"]
assert [t["target"] for t in ts] == sys.argv[2:4], ts
s = sum(t["read"]["total_ios"] for t in ts)
assert s == j["read"]["total_ios"] and all(t["read"]["total_ios"] > 0 for t in ts)
PY
ok "two targets, per-target results add up"

"$NVS_BIN" run --target "$a,$b" --stripe=64k --rw=randwrite --bs=16k --iodepth=8 --runtime=1 \
	--time_based --output-format=json >"$T_TMP/s.json" || fail "stripe exited $?"
python3 - "$T_TMP/s.json" <<'PY' || fail "stripe set results"
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
ms = j["nvscope"]["members"]
assert len(ms) == 2 and j["write"]["iops"] > 0
tot = j["write"]["total_ios"]
assert sum(m["total_ios"] for m in ms) == tot, (ms, tot)
# uniform random over the set: each member gets about half
assert all(0.4 < m["total_ios"] / tot < 0.6 for m in ms), ms
PY
ok "stripe set: members share the I/O and add up"

"$NVS_BIN" run --target "$a" --rw=randread --bs=4k --iodepth=1 --rate_iops=200 --runtime=2 \
	--time_based --output-format=json >"$T_TMP/r.json" || fail "rate exited $?"
python3 -c "
import json; d=json.load(open('$T_TMP/r.json')); i=d['jobs'][0]['read']['iops']
assert 170 < i < 230, i; print('rate-limited IOPS', i)" || fail "rate_iops=200 not held"
ok "rate limit"

"$NVS_BIN" run --target "$a" --rw=randread --bs=4k --iodepth=2 --ramp_time=1 --runtime=1 \
	--time_based --output-format=json --csv "$T_TMP/ramp.csv" >"$T_TMP/ramp.json" ||
	fail "ramp exited $?"
python3 - "$T_TMP/ramp.json" "$T_TMP/ramp.csv" <<'PY' || fail "ramp accounting"
import json, csv, sys
d = json.load(open(sys.argv[1])); j = d["jobs"][0]
assert 0.9 < j["read"]["runtime"] / 1000 < 1.3, j["read"]["runtime"]
rows = list(csv.DictReader(open(sys.argv[2])))
assert rows[0]["ramp"] == "1" and rows[-1]["ramp"] == "0", rows
PY
ok "ramp_time excluded"
"$NVS_BIN" run --target "$b" --rw=randread --bs=512 --runtime=1 2>"$T_TMP/e" >/dev/null
[ $? -eq 2 ] && grep -q "logical block size 4096" "$T_TMP/e" || fail "bs < lbs not refused"
ok "block size below the logical block size refused"
