#!/bin/bash
# console_settings.sh - the console remembers its settings in
# $XDG_CONFIG_HOME/nvscope/settings.ini: theme, marked targets, form values,
# the log scale come back in the next session; --no-settings neither reads
# nor writes; a malformed file or a planted symlink is ignored with a
# message, left alone, and never crashes the console.  Nothing stored may
# confirm or force a write.
. "$NVS_TOP/tests/lib.sh"
. "$NVS_TOP/tests/ui/tmux.inc"
t_loop 64M
name=${LOOP#/dev/}
CFG=$XDG_CONFIG_HOME/nvscope/settings.ini

u_start 120 40 "$NVS_BIN" --target "$LOOP" --theme mono --results "$T_TMP/res"
u_wait 'targets marked: 1' 10
u_keys l
u_wait '\| mono log' 5
u_keys Tab Tab
u_wait '\[Custom workload\]' 5
u_keys Down Down Down Down Down Enter C-u
u_text 7s
u_keys Enter
u_wait 'runtime +7s' 5
u_keys q
u_restored
[ -f "$CFG" ] || fail "no settings.ini written"
cat "$CFG"
grep -qx 'theme = mono' "$CFG" || fail "theme not saved"
grep -qx 'log = 1' "$CFG" || fail "log scale not saved"
grep -qx "target = $LOOP" "$CFG" || fail "target not saved"
grep -qx 'runtime = 7s' "$CFG" || fail "form value not saved"
grep -v '^#' "$CFG" | grep -Eiq 'force|destroy|confirm|yes' && fail "an override or token in settings.ini"
ok "settings saved on quit"

u_start 120 40 "$NVS_BIN" --results "$T_TMP/res"
u_wait 'targets marked: 1' 10
u_wait "marked as last time: $LOOP" 5 # said, not silently marked
u_screen | grep -Eq "^\\* +$name " || fail "remembered target not marked"
u_screen | grep -q '| mono log' || fail "theme / log scale not restored"
u_screen | grep -Eq 'runtime +7s' || fail "form value not restored"
u_keys q
u_restored
ok "settings restored"

cp "$CFG" "$T_TMP/saved.ini"
u_start 120 40 "$NVS_BIN" --no-settings --results "$T_TMP/res"
u_wait 'targets marked: 0' 10
u_screen | grep -q '| default lin' || fail "--no-settings read the settings"
u_keys m q
u_restored
cmp -s "$CFG" "$T_TMP/saved.ini" || fail "--no-settings wrote the settings"
ok "--no-settings"

# malformed: ignored with a message, not overwritten
printf '[view]\nspan = nan\nlog = 1\n' >"$CFG"
u_start 120 40 "$NVS_BIN" --results "$T_TMP/res"
u_wait 'settings ignored' 10
u_screen | grep -q '| default lin' || fail "part of a malformed file was taken"
u_keys q
u_restored
grep -q 'span = nan' "$CFG" || fail "a malformed settings file was overwritten"
ok "malformed settings ignored, left alone"

# a planted symlink: not read, not written through
rm -f "$CFG"
printf 'victim\n' >"$T_TMP/victim"
ln -s "$T_TMP/victim" "$CFG"
u_start 120 40 "$NVS_BIN" --results "$T_TMP/res"
u_wait 'settings ignored' 10
u_keys q
u_restored
[ "$(cat "$T_TMP/victim")" = victim ] || fail "written through a symlink"
[ -L "$CFG" ] || fail "the symlink was replaced"
ok "symlinked settings ignored"
