#!/bin/bash
# docs/cli.md's table "fio's options" stays true: every option src/io/spec.c
# sets or accepts (its option table core_opts), src/io/specval.c refuses (and the job-file keys of src/config/preset.c
# and the replay options of src/io/replay.c) has
# (and src/io/specdata.c, src/io/specss.c, src/io/flow.c, src/io/zones.c, src/io/sprandom.c,
# src/io/nvcmd.c, src/io/zbd.c, src/io/zbdspec.c, src/io/speclog.c, src/io/pagecache.c:
# their strcmp chains or their io/opt rows) a row; every row names an option nvscope knows; "refused" rows are refused
# by nvscope run, the others are not unknown.
. "$(dirname "$0")/../lib.sh"
python3 - "$NVS_TOP" <<'PY' || fail "option table out of date"
import re, sys
top = sys.argv[1]
spec = open(top + "/src/io/spec.c").read()
preset = open(top + "/src/config/preset.c").read()
keys = set(re.findall(r'strcmp\(key, "([a-z0-9_]+)"\)', spec))
keys |= set(re.findall(r'\{"([a-z0-9_]+)", opt_[a-z0-9_]+\}', spec))  # the option table's rows
keys |= set(re.findall(r'strcmp\(key, "([a-z0-9_]+)"\)', preset))
for f in ("replay", "specdata", "prio", "xrun", "lattarget", "filesize", "specss", "flow", "zones", "zbd", "zbdspec", "sprandom", "nvcmd", "speclog", "pi", "pagecache", "fdp"):
    src = open(top + "/src/io/" + f + ".c").read()
    keys |= set(re.findall(r'strcmp\(key, "([a-z0-9_]+)"\)', src))
    # io/opt's rows: {.name = "x", ...}, or a row macro's first argument
    keys |= set(re.findall(r'\.name = "([a-z0-9_]+)"', src))
    keys |= set(re.findall(r'^\s*(?:LAT_TIME|ZONE_SIZE)\("([a-z0-9_]+)",', src, re.M))
ign = re.search(r"ignored\[\] = \{(.*?)\};", spec, re.S).group(1)
keys |= set(re.findall(r'"([a-z0-9_]+)"', ign))
specval = open(top + "/src/io/specval.c").read()
ref = re.search(r"refused\[\] = \{(.*?)\n\};", specval, re.S).group(1)
refused = set(re.findall(r'\{"([a-z0-9_]+)",', ref))
keys |= refused
doc = open(top + "/docs/cli.md").read()
sec = doc[doc.index("## fio's options"):]
sec = sec[: sec.index("\n## ", 4)]
rows = {}
for line in sec.splitlines():
    if not line.startswith("| `"):
        continue
    cells = line.split("|")
    for k in re.findall(r"`([a-z0-9_]+)`", cells[1]):
        rows[k] = cells[2].strip()
missing = sorted(keys - rows.keys())
extra = sorted(k for k in rows.keys() - keys if k not in ("include",))
assert not missing, "options without a row in docs/cli.md: %s" % missing
assert not extra, "rows for options nvscope does not know: %s" % extra
for k in refused:
    assert rows[k].startswith("refused"), (k, rows[k])
for k, v in rows.items():
    assert re.match(r"(same|differs|refused|nvscope's|accepted|see)", v), (k, v)
# the fuzzers' dictionary (tests/fuzz/options.dict) names every option, so
# the spec/cli/preset/plan fuzzers reach the new ones
fz = set(re.findall(r'^"([^"=]+)', open(top + "/tests/fuzz/options.dict").read(), re.M))
assert not keys - fz, "options missing in tests/fuzz/options.dict: %s" % sorted(keys - fz)
print("rows", len(rows), "refused", len(refused))
PY
ok "every option has a row"
# the rows' words match what nvscope does: a "refused:" row is refused
f=$T_TMP/t.img; truncate -s 1M "$f"
for k in trim_percentage lockmem fill_fs ioscheduler nrfiles directory; do
	"$NVS_BIN" run --parse-only --target "$f" --$k=1 >/dev/null 2>"$T_TMP/err"
	[ $? = 2 ] && grep -q "$k: refused" "$T_TMP/err" || fail "$k: $(cat "$T_TMP/err")"
done
ok "refused options say why"
