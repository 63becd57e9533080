#!/bin/bash
# layers.sh - no lower layer includes a higher one (docs/architecture.md,
# each src/ folder's README.md).  Layers, low to high:
#   base, ring < stats, dev < io < config, report, check < ui < cmd
# Rules checked on every #include "dir/..." of src/*/*.[ch]:
#   - base, ring, stats, dev, io never include ui, cmd, report, config, check;
#   - base includes only base; ring only ring; stats only stats and base;
#   - ui never includes cmd.
# Known violations still to be undone (issue 11) are listed in KNOWN below:
# a new one fails, and so does a listed one that is gone (keep the list true).
. "${NVS_TOP:-.}/tests/lib.sh"
cd "$NVS_TOP" || fail "no source tree"

# file -> included dir, one per line, sorted
KNOWN='src/ui/planexec.c cmd
src/ui/planview.c cmd'

found=$(
	for f in src/*/*.c src/*/*.h; do
		from=${f#src/}
		from=${from%%/*}
		sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([a-z_]*\)\/.*/\1/p' "$f" |
			sort -u | while read -r to; do
			bad=
			case $from in
			base) [ "$to" = base ] || bad=1 ;;
			ring) [ "$to" = ring ] || bad=1 ;;
			stats) case $to in stats | base) ;; *) bad=1 ;; esac ;;
			dev | io)
				case $to in ui | cmd | report | config | check) bad=1 ;; esac ;;
			ui) [ "$to" = cmd ] && bad=1 ;;
			esac
			[ -n "$bad" ] && echo "$f $to"
		done
	done | sort
)
new=$(comm -13 <(echo "$KNOWN") <(echo "$found") | grep .)
gone=$(comm -23 <(echo "$KNOWN") <(echo "$found") | grep .)
[ -z "$new" ] || fail "a lower layer includes a higher one (file, included dir):
$new"
[ -z "$gone" ] || fail "fixed, remove from KNOWN in $0: $gone"
ok "layers: no new upward include ($(echo "$KNOWN" | wc -l) known, issue 11)"

# the rule can fail: a planted upward include is caught
sh_self=$T_TMP/layer-probe
mkdir -p "$sh_self"
printf '#include "ui/app.h"\n' >"$sh_self/x.c"
hit=$(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([a-z_]*\)\/.*/\1/p' "$sh_self/x.c")
[ "$hit" = ui ] || fail "include pattern does not see '#include \"ui/app.h\"'"
ok "include pattern sees a planted include"
