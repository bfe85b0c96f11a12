#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Checks that cannot fail, found in the shell tests (issue 16), refused:
#  1. a check whose command reads the file the check's own redirect empties
#     (taken from lib.sh: t_exit sends its command's stdout to $OUT and
#     stderr to $ERR, so `t_exit ... cmp "$OUT" x` reads an empty file; the
#     old t_true sent stderr to $ERR, and `t_true ... test ! -s "$ERR"`
#     always passed), or any command that reads a file it redirects into;
#  2. `jq -e` outside lib.sh: jq 1.6 exits 0 on empty input and judges only
#     the last of several documents; t_json/json_ok check there is exactly one;
#  3. a skip emitted unconditionally: t_skip/t_skip_all outside any if, case,
#     while, until, && or ||, or in every branch of an if (a "padding" skip
#     in the branch that runs and its twin in the other);
#  4. a cmocka test that meson runs without tests/cmocka-tap.sh (cmocka
#     1.1.5's skip is "not ok N # SKIP": a failure to meson);
#  5. a t_grep or grep whose regex is one bare word that audiolat prints
#     on every run or help (ALWAYS below: its live status line, "[ 1.2/3.0 s]
#     periods=N max wake latency=N ms xruns=N", its summary line, "summary:
#     backend=... rate=... period=... periods=... samples=... result=...",
#     and every --help, "usage: audiolat ... options ... exit status"): it
#     matches whatever happened (xrun-sigstop.sh's grep of "xrun");
#  6. in a t_json or json_ok filter, a jq all (all(...), | all) with no
#     length check before it in the filter: all is true of an empty list.
#   patterns.sh [FILE.sh...]   (default: every tests/*/*.sh but lib.sh and this file)
# Heredoc bodies are data, not code: they are not read. tests/lint/patterns-selftest.sh
# shows each rule catching its pattern.
. "$(dirname "$0")/../lib.sh"

if [ $# -gt 0 ]; then
	files=("$@")
	mesons=()
else
	mapfile -t files < <(find "$TESTS_DIR" -name '*.sh' ! -path "$TESTS_DIR/lib.sh" \
		! -path "$TESTS_DIR/lint/patterns.sh" | sort)
	mapfile -t mesons < <(find "$TESTS_DIR" -name meson.build | sort)
fi

# The checks of lib.sh that redirect their command's output, and where to:
# "FUNCTION=TARGET ..." (t_exit=$OUT t_exit=$ERR). A command given to one of
# them must not read that target: it is emptied before the command runs.
# ($PATTERNS_LIB: another lib.sh to take them from, for the self-test.)
redirects=$(awk '
	/^[a-z_]+\(\)[ \t]*\{/ { f = $1; sub(/\(\).*/, "", f) }
	/^}/ { f = "" }
	f ~ /^t_/ && /"\$@"/ {
		s = $0
		while (match(s, /[0-9]?>[ \t]*"?\$[A-Za-z_{][^" \t;|&]*/)) {
			t = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
			sub(/^[0-9]?>[ \t]*"?/, "", t); gsub(/[{}]/, "", t)
			if (t != "/dev/null") printf "%s=%s ", f, t
		}
	}' "${PATTERNS_LIB:-$TESTS_DIR/lib.sh}")

# rule 5: the words audiolat prints on every run or help (see above)
ALWAYS="periods period max wake latency ms xrun xruns summary backend rate samples result usage audiolat options command commands exit status"

# One pass over the files; prints "RULE<TAB>FILE:LINE: what" per finding.
scan() {
	awk -v redirects="$redirects" -v always="$ALWAYS" '
	# the code of a line: comments dropped; with mask, quoted strings blanked
	# (openq: the line ended inside a quoted string, which goes on)
	function code(s, mask,    out, i, c, q, n) {
		out = ""; q = ""; n = length(s)
		for (i = 1; i <= n; i++) {
			c = substr(s, i, 1)
			if (q == "") {
				if (c == "#" && (i == 1 || substr(s, i - 1, 1) ~ /[ \t;]/)) break
				if (c == "\\" && i < n) { out = out c substr(s, i + 1, 1); i++; continue }
				if (c == "\x27" || c == "\"") { q = c; out = out (mask ? "S" : c); continue }
				out = out c
			} else {
				if (q == "\"" && c == "\\" && i < n) { if (!mask) out = out c substr(s, i + 1, 1); i++; continue }
				if (c == q) { q = ""; if (!mask) out = out c; continue }
				if (!mask) out = out c
			}
		}
		openq = (q != "")
		return out
	}
	# bare WORD: WORD (unquoted, or in one pair of quotes) is one of the always-printed words
	function bare(w) {
		if (w ~ /^".*"$/ || w ~ /^\x27.*\x27$/) w = substr(w, 2, length(w) - 2)
		return w ~ /^[A-Za-z_]+$/ && index(" " always " ", " " tolower(w) " ")
	}
	function report(rule, line, what) { printf "%s\t%s:%d: %s\n", rule, FILENAME, line, what }
	function push(kind) { sp++; st[sp] = kind; nb[sp] = 1; sk[sp, 1] = 0; hasel[sp] = 0 }
	function pop(kind,    b, all) {
		if (sp == 0) return
		if (st[sp] == "if" && hasel[sp]) {
			all = 1
			for (b = 1; b <= nb[sp]; b++) if (!sk[sp, b]) all = 0
			if (all) for (b = 1; b <= nb[sp]; b++)
				report(3, sk[sp, b], "every branch of this if skips: the skip is unconditional")
		}
		sp--
	}
	function skip_here(line,    i) {
		for (i = sp; i > 0; i--) {
			if (st[i] == "func") break
			if (st[i] == "if" || st[i] == "case" || st[i] == "whilel") {
				if (st[i] == "if" && !sk[i, nb[i]]) sk[i, nb[i]] = line
				return
			}
		}
		report(3, line, "a skip outside any condition: it is emitted on every machine")
	}
	# one ;-separated piece of masked code
	function piece(p, line, whole,    w, n, first, k) {
		for (;;) {
			sub(/^[ \t]+/, "", p)
			if (p == "") return
			n = split(p, w, /[ \t]+/)
			first = w[1]
			if (first == "if") { push("if"); return }
			if (first == "elif" && st[sp] == "if") { nb[sp]++; sk[sp, nb[sp]] = 0; return }
			if (first == "else" && st[sp] == "if") { nb[sp]++; sk[sp, nb[sp]] = 0; hasel[sp] = 1; p = substr(p, 5); continue }
			if (first == "then" || first == "do") { p = substr(p, length(first) + 1); continue }
			if (first == "fi") { pop("if"); p = substr(p, 3); continue }
			if (first == "case") { push("case"); return }
			if (first == "esac") { pop("case"); p = substr(p, 5); continue }
			if (first == "while" || first == "until") { push("whilel"); return }
			if (first == "for" || first == "select") { push("loop"); return }
			if (first == "done") { pop("loop"); p = substr(p, 5); continue }
			if (p ~ /^[A-Za-z_][A-Za-z0-9_]*[ \t]*\(\)[ \t]*\{/ || first == "function") { push("func"); return }
			if (first == "{") { push("brace"); p = substr(p, 2); continue }
			if (first == "}") { pop("brace"); p = substr(p, 2); continue }
			if (st[sp] == "case" && first ~ /\)$/) { p = substr(p, length(first) + 1); continue }
			if (first == "t_skip" || first == "t_skip_all") {
				k = index(whole, first)
				if (substr(whole, 1, k) !~ /(&&|\|\|)/) skip_here(line)
			}
			return
		}
	}
	FNR == 1 { sp = 0; hd = ""; acc = ""; start = 0 }
	# heredoc bodies
	hd != "" {
		t = $0
		if (hdtabs) sub(/^\t+/, "", t)
		if (t == hd) hd = ""
		next
	}
	{
		if (acc == "") start = FNR
		acc = acc $0
		# a command goes on after a backslash, a pipe, && or ||
		if (acc ~ /\\$/) { sub(/\\$/, " ", acc); next }
		m = code(acc, 1)
		if (openq) { acc = acc "\n"; next }
		if (m ~ /(\|\||&&|\|)[ \t]*$/) { acc = acc " "; next }
		raw = code(acc, 0)
		line = start
		acc = ""
		# a heredoc begins here: its body is skipped
		if (m ~ /<<[^<]/ && match(raw, /<<-?[ \t]*["\x27]?[A-Za-z_][A-Za-z0-9_]*/) &&
		    substr(raw, RSTART + 2, 1) != "<") {
			w = substr(raw, RSTART, RLENGTH)
			hdtabs = (w ~ /^<<-/)
			sub(/^<<-?[ \t]*["\x27]?/, "", w)
			hd = w
		}
		# rule 1: a check of lib.sh whose command reads what the check redirects it to
		nr = split(redirects, rd, / /)
		for (r = 1; r <= nr; r++) {
			if (rd[r] == "") continue
			fn = rd[r]; sub(/=.*/, "", fn); tg = rd[r]; sub(/^[^=]*=/, "", tg)
			b2 = raw; gsub(/[{}]/, "", b2)
			if (raw ~ ("^[ \t]*" fn "[ \t]") && (index(b2, tg "\"") || index(b2, tg "\x27") ||
			    index(b2, tg " ") || substr(b2, length(b2) - length(tg) + 1) == tg))
				report(1, line, fn " sends its command'"'"'s output to " tg ", which the command reads: it is empty")
		}
		# rule 1: a command that redirects its output into a file it reads
		s = raw
		while (match(s, /[0-9]?>[ \t]*"?\$\{?[A-Za-z_][A-Za-z0-9_]*\}?[^ \t;|&<>]*/)) {
			tg = substr(s, RSTART, RLENGTH)
			rs = RSTART; rl = RLENGTH
			sub(/^[0-9]?>[ \t]*"?/, "", tg); sub(/"$/, "", tg)
			before = substr(s, 1, rs - 1)
			# the simple command the redirect belongs to: after the last separator
			while (match(before, /(\|\||&&|[|;{}()])/)) before = substr(before, RSTART + RLENGTH)
			gsub(/[{}]/, "", tg)
			b2 = before; gsub(/"/, "", b2)
			if (substr(s, rs - 1, 1) != ">" && (index(" " b2 " ", " " tg " ") > 0 || index(b2, "\x27" tg "\x27") > 0))
				report(1, line, "output redirected to " tg ", which the same command reads")
			s = substr(s, rs + rl)
		}
		# rule 2: jq -e (any short option cluster with e, or --exit-status)
		if (raw ~ /(^|[^A-Za-z0-9_.-])jq([ \t]+(-[^ \t]*|--(arg|argjson|slurpfile|rawfile)[ \t]+[^ \t]+[ \t]+[^ \t]+))*[ \t]+(-[A-Za-z]*e[A-Za-z]*|--exit-status)([ \t]|$)/)
			report(2, line, "jq -e passes on empty input and judges only the last document: use t_json or json_ok")
		# rule 5: t_grep FILE WORD, grep [-OPTS] WORD: a word always printed
		s = raw
		if (match(s, /(^|[ \t;|&(!])t_grep[ \t]+[^ \t]+[ \t]+(--[ \t]+)?[^ \t]+/)) {
			w = substr(s, RSTART, RLENGTH); sub(/^.*t_grep[ \t]+[^ \t]+[ \t]+(--[ \t]+)?/, "", w)
			if (bare(w)) report(5, line, "t_grep of " w ", which audiolat prints every time: it proves nothing")
		}
		while (match(s, /(^|[ \t;|&(!])grep([ \t]+-[A-Za-z]+)*[ \t]+[^ \t-][^ \t]*/)) {
			w = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
			sub(/^.*grep([ \t]+-[A-Za-z]+)*[ \t]+/, "", w)
			if (bare(w)) report(5, line, "grep of " w ", which audiolat prints every time: it proves nothing")
		}
		# rule 6: a t_json/json_ok filter with all and no length check before it
		if (match(raw, /(^|[ \t;|&(!])(t_json|json_ok)[ \t]/)) {
			f = substr(raw, RSTART + RLENGTH)
			# the description of t_json is no filter
			if (substr(raw, RSTART, RLENGTH) ~ /t_json/) sub(/^[ \t]*"([^"\\]|\\.)*"/, "", f)
			if (match(f, /(^|[ \t(|;\x27\n])all([ \t]*\(|[ \t]*$|[ \t)|;\x27\n])/) &&
			    index(substr(f, 1, RSTART), "length") == 0)
				report(6, line, "jq all with no length check before it: true of an empty list")
		}
		# rule 3: the skips, by the structure around them
		n = split(m, ps, /;/)
		for (i = 1; i <= n; i++) piece(ps[i], line, m)
	}' "$@"
}

: >"$T_TMP/findings"
[ ${#files[@]} -eq 0 ] || scan "${files[@]}" >"$T_TMP/findings"
show() { # RULE: the findings of RULE as "# " lines; false if there are any
	awk -F'\t' -v r="$1" '$1 == r { print "#   " $2; n++ } END { exit n > 0 }' "$T_TMP/findings"
}
t_result $([ ${#files[@]} -gt 0 ] && echo 0 || echo 1) "there are shell tests to read (${#files[@]})"
show 1
t_result $? "no check reads a file that its own redirect empties"
show 2
t_result $? "no jq -e: JSON is checked by t_json/json_ok, which fail on empty input"
show 3
t_result $? "no skip emitted unconditionally"
show 5
t_result $? "no t_grep or grep of a bare word that audiolat always prints"
show 6
t_result $? "no jq all in a JSON check without a length check before it (all is true of [])"

# rule 4: in each meson.build, as many tests through cmocka_tap as cmocka executables
bad=""
for m in "${mesons[@]}"; do
	exes=$(grep -v '^[[:space:]]*#' "$m" | grep -c 'cmocka_dep')
	wrapped=$(grep -v '^[[:space:]]*#' "$m" | grep -c 'test(.*cmocka_tap, args: \[')
	[ "$exes" -eq "$wrapped" ] || bad+="$m: $exes cmocka executables, $wrapped tests through cmocka_tap; "
done
[ -z "$bad" ] || echo "#   $bad"
[ ${#mesons[@]} -eq 0 ] || t_result $([ -z "$bad" ] && echo 0 || echo 1) \
	"every cmocka test runs through tests/cmocka-tap.sh (a cmocka skip is a skip)"
t_done
