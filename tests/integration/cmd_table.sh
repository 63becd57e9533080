#!/bin/bash
# cmd_table.sh - the commands are src/cmd/'s table (cmd.h), and the binary
# says so: `nvscope help` lists every command; `nvscope CMD --help` is the
# table's text (the same as `nvscope help CMD`, in the generated layout)
# and exits 0; a bad option is refused from the table (one line naming the
# command's --help, exit 2); no command writes its own usage or getopt loop.
# (tests/unit/test_cmdtable.c checks the table against docs/cli.md and
# docs/nvscope.1.)
. "$(dirname "$0")/../lib.sh"
B=$NVS_BIN

"$B" help >"$T_TMP/help" || fail "nvscope help exited $?"
"$B" --help | cmp -s - "$T_TMP/help" || fail "nvscope --help is not nvscope help"
cmds=$(sed -n '/^commands:$/,/^$/{s/^  \([a-z]\{1,\}\( [a-z]\{1,\}\)\{0,1\}\)  .*/\1/p}' "$T_TMP/help")
[ "$(echo "$cmds" | wc -l)" -ge 12 ] || fail "nvscope help lists too few commands: $cmds"
for c in console run list health purge plan steady report check replay "trace record" \
	"trace show" help; do
	echo "$cmds" | grep -qx "$c" || fail "nvscope help does not list '$c'"
done
while read -r c; do
	# shellcheck disable=SC2086 # two-word commands
	"$B" $c --help >"$T_TMP/h" 2>"$T_TMP/e" || fail "nvscope $c --help exited $?: $(cat "$T_TMP/e")"
	# shellcheck disable=SC2086
	"$B" help $c | cmp -s - "$T_TMP/h" || fail "nvscope $c --help is not the table's text"
	want="usage: nvscope $c"
	[ "$c" = console ] && want="usage: nvscope ["
	head -1 "$T_TMP/h" | grep -qF -- "$want" || fail "nvscope $c --help: $(head -1 "$T_TMP/h")"
	grep -qx '  -h, --help                this text' "$T_TMP/h" || fail "nvscope $c --help: not generated"
	grep -qx 'options:' "$T_TMP/h" || fail "nvscope $c --help: no options"
	[ -s "$T_TMP/e" ] && fail "nvscope $c --help wrote to stderr: $(cat "$T_TMP/e")"
	# a bad option: refused from the table, one line, exit 2
	# shellcheck disable=SC2086
	if [ "$c" = console ]; then set -- --no-such-option; else set -- $c --no-such-option; fi
	"$B" "$@" >/dev/null 2>"$T_TMP/e" </dev/null
	rc=$?
	[ $rc -eq 2 ] || fail "nvscope $* exited $rc, not 2"
	see="see nvscope $c --help"
	[ "$c" = console ] && see="see nvscope --help"
	grep -qF "unknown option '--no-such-option' ($see)" "$T_TMP/e" ||
		fail "nvscope $*: $(cat "$T_TMP/e")"
	[ "$(wc -l <"$T_TMP/e")" -eq 1 ] || fail "nvscope $*: more than one line"
done <<<"$cmds"
ok "every command's --help is the table's, a bad option is refused from it"

"$B" trace >/dev/null 2>&1
[ $? -eq 2 ] || fail "nvscope trace (no subcommand) is not exit 2"
"$B" trace --help | grep -q 'usage: nvscope trace show' || fail "nvscope trace --help"
"$B" trace frob 2>&1 | grep -q "unknown subcommand 'frob'" || fail "nvscope trace frob"
"$B" list --json=1 2>&1 | grep -q "option '--json=1' takes no value" || fail "a flag with a value"
"$B" report --output 2>&1 | grep -q "option '--output' needs a value" || fail "no value"
"$B" help nosuch >/dev/null 2>&1
[ $? -eq 2 ] || fail "nvscope help nosuch is not exit 2"
ok "subcommands, flags with values, missing values"

# no hand-written help or option loop in the commands
cd "$NVS_TOP" || fail "no source tree"
hand=$(grep -ln 'usage: nvscope\|getopt_long\|"--help"' src/cmd/*.c | grep -v 'src/cmd/table.c\|src/cmd/args.c')
[ -z "$hand" ] || fail "hand-written usage or option parsing in: $hand"
ok "no hand-written usage in src/cmd"
