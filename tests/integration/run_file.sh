#!/bin/bash
# nvscope run on a regular file and on /dev/zero: JSON parses, its IOPS
# agree with the CSV, the QD sweep gives one job per depth, mixes hold.
. "$(dirname "$0")/../lib.sh"
f=$T_TMP/target.dat
"$NVS_BIN" run --target "$f" --size=32m --rw=randrw --rwmixread=70 --bs=4k --iodepth=8 \
	--runtime=2 --time_based --output-format=json --output "$T_TMP/r.json" \
	--csv "$T_TMP/r.csv" >"$T_TMP/out.txt" || fail "run exited $?"
[ "$(stat -c %s "$f")" -eq $((32 << 20)) ] || fail "file not laid out to 32m"
python3 - "$T_TMP/r.json" "$T_TMP/r.csv" <<'PY' || fail "JSON/CSV check"
import json, csv, sys
d = json.load(open(sys.argv[1]))
j = d["jobs"][0]
r, w = j["read"], j["write"]
assert r["iops"] > 0 and w["iops"] > 0, (r["iops"], w["iops"])
share = r["total_ios"] / (r["total_ios"] + w["total_ios"])
assert 0.65 < share < 0.75, share
for k in ("50.000000", "99.000000", "99.900000", "99.990000"):
    assert r["clat_ns"]["percentile"][k] > 0, k
assert r["lat_ns"]["min"] <= r["lat_ns"]["mean"] <= r["lat_ns"]["max"]
rows = [x for x in csv.DictReader(open(sys.argv[2]))]
assert len(rows) >= 2, len(rows)
# total I/Os from the CSV's per-interval rates equal the JSON's within 2%
# (ramp_time is 0, so every interval is measured)
tot = 0.0; prev = 0.0
for x in rows:
    t = float(x["time_s"]); tot += (float(x["read_iops"]) + float(x["write_iops"])) * (t - prev); prev = t
json_ios = r["total_ios"] + w["total_ios"]
assert abs(tot - json_ios) / json_ios < 0.02, (tot, json_ios)
assert j["usr_cpu"] + j["sys_cpu"] > 0
cores = j["nvscope"]["cpu"]["cores"]
assert len(cores) >= 1 and all(abs(sum(c.values()) - 100) < 1 for c in cores), cores
assert j["nvscope"]["cpu"]["busy_cores"] > 0
print("json/csv agree:", round(tot), json_ios)
PY
grep -q "read: IOPS=" "$T_TMP/out.txt" || fail "human summary missing"
ok "file randrw"

"$NVS_BIN" run --target /dev/zero --size=64m --direct=0 --rw=randread --bs=4k \
	--iodepth=1,4,16 --runtime=1 --time_based --output-format=json >"$T_TMP/z.json" ||
	fail "/dev/zero sweep exited $?"
python3 - "$T_TMP/z.json" <<'PY' || fail "sweep JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert [j["nvscope"]["iodepth"] for j in d["jobs"]] == [1, 4, 16]
assert all(j["read"]["iops"] > 1000 for j in d["jobs"])
PY
ok "/dev/zero QD sweep"

# size-bound sequential write: exactly size bytes written (loops=2: twice)
"$NVS_BIN" run --target "$T_TMP/seq.dat" --size=8m --rw=write --bs=128k --iodepth=4 \
	--loops=2 --output-format=json >"$T_TMP/s.json" || fail "seq write exited $?"
python3 -c "
import json,sys; d=json.load(open('$T_TMP/s.json'))
b=d['jobs'][0]['write']['io_bytes']; assert b == 16<<20, b" || fail "2x fill bytes"
ok "size-bound 2x sequential fill"
