#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/lint/patterns.sh catches each pattern it is there for, on small
# fixture scripts (the patterns of issues 16 and 31), and passes their
# corrected twins; lint/spdx.sh checks files outside a git work tree too.
. "$(dirname "$0")/../lib.sh"
LINT=$TESTS_DIR/lint/patterns.sh
F=$T_TMP/fixtures
mkdir -p "$F"

# lint NAME: patterns.sh on $F/NAME.sh (stdout to $OUT)
lint() {
	bash "$LINT" "$F/$1.sh" >"$OUT" 2>"$ERR"
}
# caught NAME RULE_TEXT LINE DESC: the lint fails NAME, at LINE, under the check RULE_TEXT
caught() {
	local rc
	lint "$1"
	rc=$?
	grep -q "^not ok .*$2" "$OUT" && grep -q "^#   $F/$1.sh:$3: " "$OUT" && [ $rc -ne 0 ]
	rc=$?
	[ $rc -eq 0 ] || sed 's/^/#   lint: /' "$OUT"
	t_result $rc "$4"
}
# clean NAME DESC: the lint passes NAME
clean() {
	local rc
	lint "$1"
	rc=$?
	[ $rc -eq 0 ] || sed 's/^/#   lint: /' "$OUT"
	t_result $rc "$2"
}

# --- 1: a check that reads what its own redirect empties
cat >"$F/redirect.sh" <<'EOF'
t_exit 0 "run" "$A" run -q
t_exit 0 "stderr empty" test ! -s "$ERR"
EOF
caught redirect "its own redirect empties" 2 "t_exit reading \$ERR is caught"
cat >"$F/redirect2.sh" <<'EOF'
t_exit 0 "run" "$A" run -q
t_exit 0 "the same as before" \
	cmp "$OUT" "$T_TMP/before"
EOF
caught redirect2 "its own redirect empties" 2 "t_exit reading \$OUT, over a continued line, is caught"
cat >"$F/redirect3.sh" <<'EOF'
jq '.x = 1' "$J" >"$J"
EOF
caught redirect3 "its own redirect empties" 1 "a command redirected into the file it reads is caught"
cat >"$F/redirect-ok.sh" <<'EOF'
t_exit 0 "run" "$A" run -q
t_empty "$ERR" "stderr empty"
t_true "the same as before" cmp "$OUT" "$T_TMP/before"
jq '.x = 1' "$J" >"$J.new"
[ -f "$C" ] || { echo x; } >"$C"
EOF
clean redirect-ok "t_empty, t_true reading \$OUT, a new file: not flagged"

# --- 2: jq -e
cat >"$F/jq.sh" <<'EOF'
t_exit 0 "json" "$A" run --json -
t_true "one JSON document" jq -e '.schema == "audiolat.run/1"' "$OUT"
EOF
caught jq "no jq" 2 "t_true over jq with -e is caught"
cat >"$F/jq2.sh" <<'EOF'
if jq -re '.error' "$J" >/dev/null; then echo yes; fi
t_true "x" bash -c "jq --arg a b -e '.a' '$J'"
EOF
caught jq2 "no jq" 1 "jq with -re in a condition is caught"
grep -q "jq2.sh:2: " "$OUT"
t_result $? "jq with -e after another option, inside bash -c, is caught"
cat >"$F/jq-ok.sh" <<'EOF'
t_json "one JSON document" '.schema == "audiolat.run/1"' "$OUT"
n=$(jq -r '.events' "$J")
x=$(jq -c '{schema}' "$J") # jq -e in a comment
cat >"$T_TMP/x" <<'X'
jq -e in a heredoc is data
X
EOF
clean jq-ok "t_json, jq without -e, -e in a comment or a heredoc: not flagged"

# --- 3: skips emitted unconditionally
cat >"$F/skip.sh" <<'EOF'
t_exit 0 "a" true
t_skip "a busy device exits 4" "needs a sound card"
EOF
caught skip "no skip emitted unconditionally" 2 "a skip at the top level is caught"
cat >"$F/skip2.sh" <<'EOF'
if [ -d /dev/snd ]; then
	t_skip "a busy device exits 4" "covered by the hardware test"
else
	t_skip "a busy device exits 4" "needs a sound card"
fi
EOF
caught skip2 "no skip emitted unconditionally" 2 "a skip in both branches of an if is caught"
cat >"$F/skip3.sh" <<'EOF'
if [ ! -e /dev/snd ]; then
	t_exit 4 "without /dev/snd: exit 4" "$A" midi record
	t_skip "on a real device" "no /dev/snd on this machine"
else
	t_skip "without /dev/snd" "/dev/snd exists here"
fi
EOF
caught skip3 "no skip emitted unconditionally" 3 "a padding skip beside the checks, and its twin, is caught"
cat >"$F/skip4.sh" <<'EOF'
pad() {
	t_skip "$1" "never run here"
}
EOF
caught skip4 "no skip emitted unconditionally" 2 "a skip in a function, outside any condition in it, is caught"
cat >"$F/skip-ok.sh" <<'EOF'
command -v jq >/dev/null || t_skip_all "jq not installed"
[ -d /dev/snd ] ||
	t_skip_all "no /dev/snd"
if [ "$rc" -eq 4 ]; then
	for t in a b; do
		t_skip "$t" "$(head -n 1 "$ERR")"
	done
else
	t_result 0 "ran"
fi
if command -v xmllint >/dev/null; then t_true "xml" xmllint x; else t_skip "xml" "no xmllint"; fi
case $x in
4) t_skip "x" "why" ;;
*) t_result 0 "y" ;;
esac
need() {
	command -v "$1" >/dev/null || t_skip_all "$1 not installed"
}
EOF
clean skip-ok "skips under ||, an if with a checking branch, a case, a function's ||: not flagged"

# --- 5: a grep of a bare word audiolat prints on every run or help
cat >"$F/word.sh" <<'EOF'
t_exit 3 "--fail-on-xrun after a stall" "$A" run -d 1s --fail-on-xrun
t_grep "$T_TMP/fail.log" 'xrun' "the message says xrun"
EOF
caught word "bare word" 2 "t_grep of 'xrun' (every status line says xruns=) is caught"
cat >"$F/word2.sh" <<'EOF'
if grep -qi Latency "$OUT"; then echo late; fi
EOF
caught word2 "bare word" 1 "grep -qi of a word always printed is caught"
cat >"$F/word3.sh" <<'EOF'
t_grep "$OUT" -- "periods" "it measured"
EOF
caught word3 "bare word" 1 "t_grep -- \"periods\" is caught"
cat >"$F/word-ok.sh" <<'EOF'
t_grep "$T_TMP/fail.txt" '^audiolat run: [1-9][0-9]* xrun\(s\) with --fail-on-xrun$' "the message counts the xruns"
t_grep "$OUT" 'underrun' "a word audiolat does not always print"
grep -q 'no JACK server running' "$OUT"
t_nogrep "$OUT" 'xrun' "no xrun at all (a t_nogrep of it can fail)"
t_result 0 "grep xrun in a description"
EOF
clean word-ok "a regex of more than a word, a word not always printed, t_nogrep: not flagged"

# --- 6: jq all over a list that may be empty, in a JSON check
cat >"$F/all.sh" <<'EOF'
t_json "every xrun lies inside the run" '.duration_ns as $d | all(.xrun_events[]; .t_ns < $d)' "$J"
EOF
caught all "length check before it" 1 "t_json with all(...) and no length check is caught"
cat >"$F/all2.sh" <<'EOF'
t_true "x" true
t_json "no phase failed" \
	'[.phases[].error == null] |
	 all' "$J"
EOF
caught all2 "length check before it" 2 "'| all' at the end of a filter over lines is caught"
cat >"$F/all3.sh" <<'EOF'
wait_until 5 "the phases" json_ok 'all(.phases[]; .error == null)' "$J"
EOF
caught all3 "length check before it" 1 "json_ok with all(...) is caught"
cat >"$F/all-ok.sh" <<'EOF'
t_json "every xrun lies inside the run" '.duration_ns as $d | (.xrun_events | length) > 0 and all(.xrun_events[]; .t_ns < $d)' "$J"
t_json "no phase failed" '[.phases[].error == null] | length == 3 and all' "$J"
t_json "all(...) in a description, all in a string" '.phases[0].load | test("cpus=all$")' "$J"
jq -r '.graph.late_cycles[] | select(all(.causes[]; .name != "x"))' "$J"
EOF
clean all-ok "all after a length check, all in a description or a string, jq outside a check: not flagged"

# --- the tree itself is clean (the lint's own test in make test is lint-patterns)
t_exit 0 "the lint passes on the tests themselves" bash "$LINT"

# --- lint/spdx.sh outside a git work tree: it checks the files, it never passes on none
S=$T_TMP/tree
mkdir -p "$S/tests/lint" "$S/src"
cp "$TESTS_DIR/lib.sh" "$S/tests/"
cp "$TESTS_DIR/lint/spdx.sh" "$S/tests/lint/"
printf '/* SPDX-License-Identifier: GPL-2.0-or-later */\nint x;\n' >"$S/src/a.c"
if git -C "$S" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	t_bail "$S is not inside a git work tree"
fi
t_exit 0 "spdx outside a git work tree: the files are found and checked" \
	env TESTS_DIR="$S/tests" bash "$S/tests/lint/spdx.sh"
t_grep "$OUT" '^ok 1 - there are files to check \(3, by find' "... three of them, by find"
echo 'int y;' >"$S/src/b.c"
t_exit 1 "spdx outside a git work tree: a file without the line fails" \
	env TESTS_DIR="$S/tests" bash "$S/tests/lint/spdx.sh"
t_grep "$OUT" '^# no SPDX line: src/b.c' "... naming it"
t_done
