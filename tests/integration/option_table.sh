#!/bin/bash
# docs/cli.md's table "fio's options" stays true: every option of the one
# option table (io/opt/opt.c's lists: a row {.name = "x", ...} or a row macro's
# first argument in src/io's files; the refused ones .kind = OPT_REFUSED)
# and every job-file key of src/config/preset.c has a row; every row names
# an option nvscope knows; "refused" rows are refused by nvscope run, the
# others are not unknown.
. "$(dirname "$0")/../lib.sh"
python3 - "$NVS_TOP" <<'PY' || fail "option table out of date"
import glob, re, sys
top = sys.argv[1]
preset = open(top + "/src/config/preset.c").read()
keys = set(re.findall(r'strcmp\(key, "([a-z0-9_]+)"\)', preset))
refused = set()
for f in glob.glob(top + "/src/io/**/*.c", recursive=True):
    src = open(f).read()
    keys |= set(re.findall(r'\.name = "([a-z0-9_]+)",\s*\.kind = OPT_', src))
    keys |= set(re.findall(r'^\s*[A-Z][A-Z0-9_]*\("([a-z0-9_]+)",', src, re.M))
    refused |= set(re.findall(r'\{\.name = "([a-z0-9_]+)",\s*\.kind = OPT_REFUSED', src))
assert len(keys) > 200 and len(refused) >= 8, (len(keys), len(refused))
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
