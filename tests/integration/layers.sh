#!/bin/bash
# layers.sh - no lower layer includes a higher one (docs/architecture.md,
# each src/ folder's README.md).  Layers, low to high:
#   base, ring < stats, dev < io < config, report < run < check < ui < cmd
# Rules checked on every #include "dir/..." of src/*/*.[ch]:
#   - base includes only base; ring only ring; stats only stats and base;
#   - dev, io never include config, report, run, check, ui, cmd;
#   - config, report never include run, check, ui, cmd;
#   - run never includes check, ui, cmd (running and recording, no ncurses);
#   - check never includes ui, cmd;
#   - ui never includes cmd (only cmd/ turns results into exit codes).
# There are no known exceptions (issue 11 removed the last two): any
# upward include fails.
# test: no-sanitizer a static check of the source tree: it runs no binary of ours, a sanitizer adds nothing
. "${NVS_TOP:-.}/tests/lib.sh"
cd "$NVS_TOP" || fail "no source tree"

# prints "file included-dir" for every upward include under $1/src (one
# grep and one awk over the whole tree)
violations() {
	(cd "$1" && grep -HE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z_]*/' src/*/*.c src/*/*.h src/*/*/*.c src/*/*/*.h 2>/dev/null) |
		awk '{
		f = $0; sub(/:.*/, "", f)
		from = f; sub(/^src\//, "", from); sub(/\/.*/, "", from)
		to = $0; sub(/^[^:]*:[^"]*"/, "", to); sub(/\/.*/, "", to)
		bad = 0
		if (from == "base") bad = to != "base"
		else if (from == "ring") bad = to != "ring"
		else if (from == "stats") bad = to != "stats" && to != "base"
		else if (from == "dev" || from == "io") bad = to ~ /^(config|report|run|check|ui|cmd)$/
		else if (from == "config" || from == "report") bad = to ~ /^(run|check|ui|cmd)$/
		else if (from == "run") bad = to ~ /^(check|ui|cmd)$/
		else if (from == "check") bad = to ~ /^(ui|cmd)$/
		else if (from == "ui") bad = to == "cmd"
		if (bad) print f " " to
	}' | sort -u
}
found=$(violations .)
[ -z "$found" ] || fail "a lower layer includes a higher one (file, included dir):
$found"
ok "layers: no upward include in src/"

# the rules can fail: planted upward includes are caught, a downward one is not
probe=$T_TMP/layer-probe
mkdir -p "$probe/src/run" "$probe/src/ui" "$probe/src/io" "$probe/src/cmd"
printf '#include "ui/app.h"\n' >"$probe/src/run/x.c"
printf '#include "cmd/cmd.h"\n' >"$probe/src/ui/y.c"
printf '  #  include "run/session.h"\n' >"$probe/src/io/z.h"
printf '#include "run/session.h"\n#include "ui/console.h"\n' >"$probe/src/cmd/w.c"
hit=$(violations "$probe")
want='src/io/z.h run
src/run/x.c ui
src/ui/y.c cmd'
[ "$hit" = "$want" ] || fail "planted includes: want
$want
got
$hit"
ok "planted upward includes are caught (run->ui, ui->cmd, io->run), cmd->anything is not"

# io/'s folders (issue 21): core (workers, pool, backends, targets, offsets),
# opt (the option table, its parsers, validation), feat (the features the
# worker calls when configured), trace (trace readers and replay).  The
# options know nothing of the engine: io/opt includes no io/core; a trace
# is read and prepared without the engine or its features: io/trace
# includes no io/core and no io/feat.  Prints "file included-folder".
io_rule() {
	(cd "$1" && grep -HE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"io/[a-z]+/' \
		src/io/opt/*.[ch] src/io/trace/*.[ch] 2>/dev/null) |
		awk '{
		f = $0; sub(/:.*/, "", f)
		from = f; sub(/^src\/io\//, "", from); sub(/\/.*/, "", from)
		to = $0; sub(/^[^:]*:[^"]*"io\//, "", to); sub(/\/.*/, "", to)
		if ((from == "opt" && to == "core") || (from == "trace" && (to == "core" || to == "feat")))
			print f " " to
	}' | sort -u
}
found=$(io_rule .)
[ -z "$found" ] || fail "io/: options or traces reach into the engine (file, folder):
$found"
mkdir -p "$probe/src/io/opt" "$probe/src/io/trace"
printf '#include "io/core/worker.h"\n#include "io/feat/zbd.h"\n' >"$probe/src/io/opt/o.c"
printf '#include "io/feat/verify.h"\n#include "io/opt/spec.h"\n' >"$probe/src/io/trace/t.h"
hit=$(io_rule "$probe")
want='src/io/opt/o.c core
src/io/trace/t.h feat'
[ "$hit" = "$want" ] || fail "planted io/ includes: want
$want
got
$hit"
ok "io/: opt includes no core, trace no core or feat (planted ones are caught)"

# the console reads through its one source (run/source.h, issue 21): from
# run/ it includes run/source.h only (a plan to start, its step results and
# ETA are offered there too); it names no concrete source (session, replay,
# planview, plansrc, planexec), opens no file (fopen, open: device opens go
# through dev/, settings.ini through config/, a run's events.log through the
# source's note()) nor a results file by name, and holds no replay or plan
# mode flag
source_rule() {
	for f in "$1"/src/ui/*.c "$1"/src/ui/*.h; do
		[ -e "$f" ] || continue
		sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"run\/\([a-z_]*\)\.h".*/\1/p' "$f" |
			while read -r h; do
				[ "$h" = source ] || echo "${f#"$1"/} includes run/$h.h"
			done
		grep -HnE '\b(session|replay|planview|plansrc|planexec|planrun|planres_read|dirread)_[a-z_]+\(|\b(fopen|open|openat)\(|RESDIR_(SAMPLES|HEALTH|STATE|EVENTS|ROUNDS|STEADY|SUMMARY|PLAN_INI|QD|RATE|GRID|TARGETS)\b|a->(replay|plan|replay_plan|sess|rp|pview)\b' "$f" |
			sed "s|^$1/||"
	done | sort
}
found=$(source_rule .)
[ -z "$found" ] || fail "ui/ reaches past its source:
$found"
printf '#include "run/replay.h"\n#include "run/planexec.h"\nint f(void) {\n\treturn replay_open(0, 0, 0, 0) +\n\t       (fopen("x/health.csv", "r") != 0) +\n\t       a->replay;\n}\n' >"$probe/src/ui/v.c"
hit=$(source_rule "$probe" | wc -l)
[ "$hit" = 5 ] || fail "planted source bypasses: want 5 hits, got $hit: $(source_rule "$probe")"
ok "ui/ reads through its one source: no concrete source, results file or mode flag (planted ones are caught)"

# no widget takes the whole console (issue 21): a ui/ function (or
# function pointer) with a WINDOW * parameter takes what it draws from -
# the pane's context (ui/pane.h), its module's state, the painter - never
# a struct app *.  Signatures are read whole across their wrapped lines.
widget_rule() {
	awk '
	FNR == 1 { open = 0 }
	!open && /^[a-z][^=;]*\(/ { sig = ""; open = 1; at = FNR }
	open {
		sig = sig " " $0
		o = gsub(/\(/, "(", sig); c = gsub(/\)/, ")", sig)
		if (o == c) {
			if (sig ~ /struct app[[:space:]]*\*/ && sig ~ /WINDOW[[:space:]]*\*/)
				print FILENAME ":" at
			open = 0
		}
	}' "$1"/src/ui/*.c "$1"/src/ui/*.h 2>/dev/null | sed "s|^$1/||"
}
found=$(widget_rule .)
[ -z "$found" ] || fail "a ui/ function takes both a WINDOW * and the console (struct app *):
$found"
mkdir -p "$probe/src/ui"
printf 'static void f(struct app *a, WINDOW *w)\n{\n}\nvoid g(struct paint *pa,\n       WINDOW *w, int y,\n       const struct app *a);\nvoid h(struct paint *pa, WINDOW *w);\nvoid k(struct app *a, int y);\nstatic void (*const t[2])(struct app *, WINDOW *) = {0};\n' >"$probe/src/ui/wd.c"
hit=$(widget_rule "$probe" | grep -c 'src/ui/wd.c:')
[ "$hit" = 3 ] || fail "planted widgets taking the console: want 3 hits (f, g over 3 lines, the table), got $hit: $(widget_rule "$probe")"
ok "no ui/ function takes a WINDOW * and a struct app * (planted ones, one wrapped over 3 lines, are caught)"

# no call circle spanning more than 2 files in ui/ or io/ (issue 21: the
# console's shared helpers live at its bottom, in core.c; io/'s value
# parsers in specparse.c, the workers' first failure in wfail.c, so no
# feature module calls back into spec.c or worker.c)
widest() { python3 "$NVS_TOP/tests/tools/callcircles.py" "$1" | head -1 | cut -d' ' -f1; }
w=$(widest src/ui)
[ "${w:-0}" -le 2 ] || fail "ui/: a call circle over more than 2 files: $(python3 "$NVS_TOP/tests/tools/callcircles.py" src/ui | head -1)"
w=$(widest src/io)
[ "${w:-0}" -le 2 ] || fail "io/: a call circle over more than 2 files: $(python3 "$NVS_TOP/tests/tools/callcircles.py" src/io | head -1)"
mkdir -p "$probe/src/circ"
printf 'void a(void) { b(); }\n' >"$probe/src/circ/a.c"
printf 'void b(void) { c(); }\n' >"$probe/src/circ/b.c"
printf 'void c(void) { a(); }\n' >"$probe/src/circ/c.c"
[ "$(widest "$probe/src/circ")" = 3 ] || fail "a planted 3-file circle is not seen"
ok "call circles: none over 2 files in ui/ or io/ (a planted 3-file circle is seen)"
