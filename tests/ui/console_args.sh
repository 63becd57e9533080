#!/bin/bash
# console_args.sh - bad input to the console gets one clear line and exit 2,
# before the screen opens (no terminal needed).
. "$NVS_TOP/tests/lib.sh"
expect2() {
	local want=$1
	shift
	local out rc
	out=$("$@" 2>&1 </dev/null)
	rc=$?
	[ $rc -eq 2 ] || fail "'$*' exited $rc, not 2: $out"
	echo "$out" | grep -q -- "$want" || fail "'$*' said '$out', expected '$want'"
	[ "$(echo "$out" | wc -l)" -eq 1 ] || fail "'$*' printed more than one line: $out"
}
expect2 "unknown theme 'nosuch'" "$NVS_BIN" --theme nosuch
expect2 "unknown option '--bogus'" "$NVS_BIN" --bogus
expect2 "needs --target" "$NVS_BIN" --preset 4k-randread
expect2 "preset 'nosuch' not found" "$NVS_BIN" --target /dev/null --preset nosuch
expect2 "samples.csv" "$NVS_BIN" replay "$T_TMP/nothing-here"
expect2 "speed" "$NVS_BIN" replay "$T_TMP" --speed=-1
expect2 "needs a terminal" "$NVS_BIN" --ascii
# a bad theme file names file and line
mkdir -p "$T_TMP/themes"
printf 'name = bad\nread = nocolour\n' >"$T_TMP/themes/bad.theme"
expect2 "bad.theme:2:" env NVSCOPE_THEMES="$T_TMP/themes" "$NVS_BIN" --theme bad
"$NVS_BIN" --help | grep -q -- '--preset' || fail "--help"
"$NVS_BIN" replay --help | grep -q 'replay DIR' || fail "replay --help"
ok "bad input refused with exit 2"
