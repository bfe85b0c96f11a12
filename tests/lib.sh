# SPDX-License-Identifier: GPL-2.0-or-later
# A small TAP library for the shell tests. Source it, call t_* functions,
# end with t_done. $AUDIOLAT is the binary under test (set by meson).
: "${AUDIOLAT:?AUDIOLAT must name the audiolat binary}"
T_N=0
T_FAILED=0
T_TMP=$(mktemp -d "${TMPDIR:-/tmp}/audiolat-test.XXXXXX")
trap 'rm -rf "$T_TMP"' EXIT
OUT="$T_TMP/out"
ERR="$T_TMP/err"

t_result() { # t_result STATUS(0=ok) DESC
	T_N=$((T_N + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $T_N - $2"
	else
		echo "not ok $T_N - $2"
		T_FAILED=$((T_FAILED + 1))
		if [ -s "$ERR" ]; then sed 's/^/# stderr: /' "$ERR" | head -n 20; fi
	fi
}

# t_exit CODE DESC CMD...: run CMD (stdout to $OUT, stderr to $ERR), expect exit CODE.
t_exit() {
	local want=$1 desc=$2 rc
	shift 2
	"$@" >"$OUT" 2>"$ERR"
	rc=$?
	[ "$rc" -eq "$want" ] || echo "# exit $rc, expected $want: $*"
	t_result $([ "$rc" -eq "$want" ] && echo 0 || echo 1) "$desc"
}

# t_grep FILE [--] REGEX DESC: FILE contains a line matching the extended
# REGEX ("--" before a REGEX that starts with a dash).
t_grep() {
	local file=$1
	shift
	[ "$1" = "--" ] && shift
	grep -Eq -- "$1" "$file"
	local rc=$?
	[ $rc -eq 0 ] || { echo "# no match for /$1/ in $file:"; head -n 20 "$file" | sed 's/^/#   /'; }
	t_result $rc "$2"
}

# t_true DESC CMD...: CMD exits 0 (its stdout is discarded, stderr kept in $ERR).
# Don't redirect t_true's own output: the TAP line goes to stdout.
t_true() {
	local desc=$1
	shift
	"$@" >/dev/null 2>"$ERR"
	t_result $? "$desc"
}

# t_skip_all REASON: skip the whole script.
t_skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

t_skip() { # t_skip DESC REASON
	T_N=$((T_N + 1))
	echo "ok $T_N - $1 # SKIP $2"
}

t_done() {
	echo "1..$T_N"
	[ "$T_FAILED" -eq 0 ]
}
