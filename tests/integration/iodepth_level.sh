#!/bin/bash
# The queue depth a job really ran at (issue 26): fio's iodepth_level,
# iodepth_submit and iodepth_complete in nvscope's JSON and its text output.
# On one loop device: fio's own run (io_uring, iodepth=16, 1 s) gives the
# reference keys, order and types, and its depth; nvscope at iodepth=16 runs
# at 16 as fio does; nvscope at iodepth=16 with rate_iops=200 runs at depth 1
# (one I/O every 5 ms on a device that answers in microseconds) and says so,
# while its "job options".iodepth stays the configured 16; with fio's own
# batching (iodepth_batch_submit=1, iodepth_batch_complete_max=1: one I/O per
# submit, one per reap) nvscope keeps 16 in flight as fio does (it ran at
# depth 1 before: it waited for a completion after each batch).
# test: no-sanitizer it compares nvscope's tables with a run of Debian's fio (not instrumented), not memory; the counting and the tables run under ASan and TSan in test_fioout.c and in every other run test
. "$(dirname "$0")/../lib.sh"
command -v fio >/dev/null || skip "fio not installed"
t_loop 64M; dev=$LOOP
opts="--name=x --filename=$dev --rw=randread --bs=4k --iodepth=16 --direct=1 --runtime=1 --time_based"
fio $opts --ioengine=io_uring --output-format=json >"$T_TMP/f.json" 2>"$T_TMP/f.err" ||
	fail "fio: $(cat "$T_TMP/f.err")"
# the JSON to a file, the text output (fio's normal one) then on stdout
"$NVS_BIN" run $opts --output-format=json --output "$T_TMP/n.json" >"$T_TMP/n.txt" 2>&1 ||
	fail "nvscope: $(tail -3 "$T_TMP/n.txt")"
"$NVS_BIN" run $opts --rate_iops=200 --output-format=json --output "$T_TMP/r.json" \
	>"$T_TMP/r.txt" 2>&1 || fail "nvscope rate_iops: $(tail -3 "$T_TMP/r.txt")"
"$NVS_BIN" run $opts --iodepth_batch_submit=1 --iodepth_batch_complete_max=1 \
	--output-format=json --output "$T_TMP/b.json" >"$T_TMP/b.txt" 2>&1 ||
	fail "nvscope iodepth_batch_submit=1: $(tail -3 "$T_TMP/b.txt")"

python3 - "$T_TMP" <<'EOF' || fail "the depth tables (above)"
import json, re, sys
d = sys.argv[1]
def job(name):
    t = open(f"{d}/{name}").read()
    return json.loads(t[t.index("{"):])["jobs"][0]
f, n, r, b = job("f.json"), job("n.json"), job("r.json"), job("b.json")
names = ("iodepth_level", "iodepth_submit", "iodepth_complete")
bad = []
# fio's layout: the same keys in the same order, every value a float
# (fio writes 0.000000, never 0), shares summing to about 100 (fio shows a
# non-zero share under 0.1% as 0.1, so a little over 100 is fio's too)
for j, who in ((n, "nvscope"), (r, "nvscope rate_iops")):
    for k in names:
        if list(j[k]) != list(f[k]):
            bad.append(f"{who} {k} keys {list(j[k])} != fio's {list(f[k])}")
        if not all(type(v) is float for v in j[k].values()):
            bad.append(f"{who} {k} not all floats: {j[k]}")
        if not 99.5 <= sum(j[k].values()) <= 101:
            bad.append(f"{who} {k} sums to {sum(j[k].values())}: {j[k]}")
# iodepth=16 on a loop device: fio and nvscope both keep 16 in flight
for j, who in ((f, "fio"), (n, "nvscope"), (b, "nvscope iodepth_batch_submit=1")):
    if j["iodepth_level"]["16"] < 90:
        bad.append(f"{who} at iodepth=16: {j['iodepth_level']}")
# fio's batching: every submit and every reap moves 1 to 4 I/Os, as fio's
for k in ("iodepth_submit", "iodepth_complete"):
    if b[k]["4"] < 90:
        bad.append(f"iodepth_batch_submit=1 {k}: {b[k]}")
# rate_iops=200: the configured 16, the depth really run 1
lv = r["iodepth_level"]
if lv["1"] < 90 or lv["16"] > 0:
    bad.append(f"rate_iops=200 ran at depth 1, the table says {lv}")
if r["job options"].get("iodepth") != "16":
    bad.append(f"job options.iodepth {r['job options'].get('iodepth')!r}, not the configured 16")
# the text output: fio's three lines, the same shares as the JSON's
for txt, j in (("n.txt", n), ("r.txt", r)):
    t = open(f"{d}/{txt}").read()
    for head, k in (("IO depths    :", "iodepth_level"), ("submit    :", "iodepth_submit"),
                    ("complete  :", "iodepth_complete")):
        m = re.search(re.escape(head) + r" (.*)", t)
        want = ", ".join("%s=%3.1f%%" % (a, v) for a, v in j[k].items())
        if not m or m.group(1) != want:
            bad.append(f"{txt}: {head!r} line {m.group(1) if m else None!r}, want {want!r}")
print("fio", f["iodepth_level"], "\nnvscope", n["iodepth_level"], "\nrate_iops", lv,
      "\nbatch 1", b["iodepth_level"])
if bad:
    print("\n".join(bad))
    sys.exit(1)
EOF
ok "iodepth=16 runs at 16 as fio's does, also with fio's batching; rate_iops=200 at 1; fio's keys, order, types; the text lines"
