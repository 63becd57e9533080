#!/bin/bash
# hostile_strings.sh - issue 20, cause 9: no string from outside reaches a
# terminal as a control.  A loop device backed by a file named with an OSC
# (set the title to "owned", BEL) and a CSI (clear the screen), a plan and a
# job named with ESC, a refusal quoting the path: `list`, a refused run, a
# plan's dry run and a run's text summary hold no raw ESC, BEL or other C0
# but newline, tab and CR on stdout or stderr, and show the escapes
# (\x1b); the console draws the name escaped (the pane's title unchanged).
. "$(dirname "$0")/../lib.sh"
[ "$(id -u)" -eq 0 ] || skip "loop devices need root"
E=$'\e'
A=$'\a'
img="$T_TMP/e${E}]0;owned${A}${E}[2J.img"
truncate -s 8M "$img" || fail "a file with ESC in its name"
loop=$(losetup -f --show "$img") || skip "losetup failed"
t_own_loop "$loop"

# clean FILE WHAT: no ESC, no C0 but \n \t \r, no C1 (C2 80..9F)
clean() {
	if LC_ALL=C grep -qP '[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\xc2[\x80-\x9f]' "$1"; then
		LC_ALL=C grep -naP '[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\xc2[\x80-\x9f]' "$1" | cat -A | head -5 >&2
		fail "$2: a raw control reached the terminal"
	fi
}

"$NVS_BIN" list >"$T_TMP/list.out" 2>"$T_TMP/list.err"
clean "$T_TMP/list.out" "list (stdout)"
clean "$T_TMP/list.err" "list (stderr)"
grep -qF "e\\x1b]0;" "$T_TMP/list.out" || fail "list does not show the name escaped: $(cat -A "$T_TMP/list.out")"
ok "list: the backing file's name escaped"

"$NVS_BIN" run --target "$img" --rw=write --size=1m >"$T_TMP/run.out" 2>"$T_TMP/run.err"
rc=$?
[ "$rc" -eq 2 ] || fail "a write to a loop device's backing file exited $rc"
clean "$T_TMP/run.out" "refused run (stdout)"
clean "$T_TMP/run.err" "refused run (stderr)"
grep -qF '\x1b' "$T_TMP/run.err" || fail "the refusal does not quote the path escaped: $(cat -A "$T_TMP/run.err")"
ok "refused run: the path in the message escaped"

tgt=$T_TMP/t.img
truncate -s 4M "$tgt"
plan="$T_TMP/p${E}]0;owned${A}.ini"
printf '[plan]\ndescription = d\033[2J\033]0;owned\007\n\n[measure r\033[31m]\nrw = randread\nbs = 4k\niodepth = 1\nruntime = 100ms\n' >"$plan"
"$NVS_BIN" plan "$plan" --target "$tgt" --dry-run >"$T_TMP/plan.out" 2>"$T_TMP/plan.err"
clean "$T_TMP/plan.out" "plan --dry-run (stdout)"
clean "$T_TMP/plan.err" "plan --dry-run (stderr)"
grep -qF '\x1b' "$T_TMP/plan.out" "$T_TMP/plan.err" || fail "plan output shows no escape: $(cat -A "$T_TMP/plan.out" "$T_TMP/plan.err")"
ok "plan: its name, description and step escaped"

# a job file refuses control characters outright; --name takes any string
"$NVS_BIN" run --name="j${E}]0;owned${A}" --target "$tgt" --rw=read --bs=4k --size=1m \
	--runtime=100ms >"$T_TMP/job.out" 2>"$T_TMP/job.err" || fail "run --name: $(cat "$T_TMP/job.err")"
clean "$T_TMP/job.out" "run with a job named with ESC (stdout)"
clean "$T_TMP/job.err" "run with a job named with ESC (stderr)"
grep -qF 'j\x1b]0;owned\x07' "$T_TMP/job.out" || fail "job name not shown escaped: $(cat -A "$T_TMP/job.out")"
ok "run: the job's name escaped"

# the console draws the Devices pane's model column (the backing file)
command -v tmux >/dev/null || { echo "SKIP (the console part): tmux not installed"; exit 0; }
. "$NVS_TOP/tests/ui/tmux.inc"
u_start 160 40 "$NVS_BIN" --results "$T_TMP/results"
u_wait 'Devices' 30 # a loaded machine (or another test's stalled device probe) starts it slowly
u_wait "$(basename "$loop")" 20
u_screen | grep -qF 'e\x1b]0;owned\x07' || { u_screen >&2; fail "the console does not draw the name escaped"; }
title=$(u_tmux display -p -t ui '#{pane_title}')
[[ "$title" != *owned* ]] || fail "the console let an OSC set the title: $title"
u_keys q
ok "console: the name drawn escaped, the title untouched"
