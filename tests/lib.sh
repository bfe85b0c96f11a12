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
# the TAP stream, for lines that must reach it whatever a command's stdout is
exec {T_TAP_FD}>&1

# A command that is not there (a helper renamed or gone, a tool the script
# did not check for) only complains on stderr, and the check it should have
# made disappears: it is noted, and t_done fails the script for it.
command_not_found_handle() {
	echo "# $0: command not found: $1" >&"$T_TAP_FD"
	echo "$1" >>"$T_TMP/not-found"
	return 127
}

t_result() { # t_result STATUS(0=ok) DESC
	T_N=$((T_N + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $T_N - $2"
	else
		echo "not ok $T_N - $2"
		T_FAILED=$((T_FAILED + 1))
		# the stderr of the command checked ($T_STDERR, default $ERR)
		local e=${T_STDERR-$ERR}
		if [ -n "$e" ] && [ -s "$e" ]; then sed 's/^/# stderr: /' "$e" | head -n 20; fi
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

# t_true DESC CMD...: CMD exits 0 (its stdout is discarded, its stderr shown
# if it fails). $OUT and $ERR are left alone: the next checks may read them.
# Don't redirect t_true's own output: the TAP line goes to stdout.
t_true() {
	local desc=$1 rc
	shift
	"$@" >/dev/null 2>"$T_TMP/t_true.err"
	rc=$?
	T_STDERR=$T_TMP/t_true.err t_result $rc "$desc"
}

# t_empty FILE DESC: FILE exists and is empty (what it holds is shown if not):
# "nothing on stderr" after a t_exit is `t_empty "$ERR" DESC`.
t_empty() {
	local rc=0
	if [ ! -e "$1" ]; then
		echo "# $1 does not exist"
		rc=1
	elif [ -s "$1" ]; then
		echo "# $1 is not empty:"
		head -n 20 "$1" | sed 's/^/#   /'
		rc=1
	fi
	T_STDERR=/dev/null t_result $rc "$2"
}

# t_nogrep FILE [--] REGEX DESC: FILE exists and no line of it matches the
# extended REGEX (the lines that do are shown).
t_nogrep() {
	local file=$1 rc=0
	shift
	[ "$1" = "--" ] && shift
	if [ ! -e "$file" ]; then
		echo "# $file does not exist"
		rc=1
	elif grep -Eq -- "$1" "$file"; then
		echo "# /$1/ matches in $file:"
		grep -E -- "$1" "$file" | head -n 10 | sed 's/^/#   /'
		rc=1
	fi
	T_STDERR=/dev/null t_result $rc "$2"
}

# --- JSON ------------------------------------------------------------------
# json_ok [JQ OPTIONS...] FILTER FILE: FILE holds exactly one JSON document
# and FILTER is true of it; so does every --slurpfile file among the options.
# `jq -e` alone cannot fail on no input: jq 1.6 exits 0 on an empty file or
# an empty stdin, and of several documents it judges only the last. On
# failure one "# " line says why (empty, N documents, not JSON, or what
# FILTER gave).
json_ok() {
	local n=$# file filter i
	local -a opts
	if [ $n -lt 2 ]; then
		echo "# json_ok: needs a FILTER and a FILE"
		return 2
	fi
	file=${!n}
	i=$((n - 1))
	filter=${!i}
	opts=("${@:1:n-2}")
	for ((i = 0; i < ${#opts[@]}; i++)); do
		if [ "${opts[i]}" = "--slurpfile" ] && [ -n "${opts[i + 2]+set}" ]; then
			json_one "${opts[i + 2]}" || return 1
		fi
	done
	jq -n -e "${opts[@]}" "[inputs] as \$al_docs | if (\$al_docs | length) != 1
		then error(\"\(\$al_docs | length) JSON documents, not one\")
		else \$al_docs[0] | ($filter
		) | if . == true then true else error(\"gave \\(.), not true\") end end" "$file" >"$T_TMP/json_ok.out" 2>&1 && return 0
	if [ ! -s "$file" ]; then
		echo "# $file is empty or missing: no JSON document"
	else
		echo "# jq '$(printf '%s' "$filter" | tr '\n\t' '  ' | cut -c 1-200)' on $file gave: $(head -c 300 "$T_TMP/json_ok.out" | tr '\n' ' ')"
	fi
	return 1
}

# json_one FILE: FILE holds exactly one JSON document.
json_one() {
	local n
	n=$(jq -n 'reduce inputs as $d (0; . + 1)' "$1" 2>&1)
	[ "$n" = 1 ] && return 0
	echo "# $1: ${n:-no output from jq} JSON documents, expected exactly one"
	return 1
}

# t_json DESC [JQ OPTIONS...] FILTER FILE: json_ok as a check. The one way
# to check JSON here: tests/lint/patterns.sh refuses a bare `jq -e`.
t_json() {
	local desc=$1 rc
	shift
	json_ok "$@"
	rc=$?
	T_STDERR=/dev/null t_result $rc "$desc"
}

# --- waiting for a condition -------------------------------------------------
# wait_until SECONDS DESC CMD...: run CMD every 50 ms until it exits 0 (then
# return 0) or SECONDS (may be fractional) have passed: then one "# timed
# out" line naming DESC, and 1. CMD's output is discarded; it runs in this
# shell, so a function may set variables.
wait_until() {
	local secs=$1 desc=$2 now end
	shift 2
	end=$(awk -v s="$secs" -v t="${EPOCHREALTIME//[!0-9]/}" 'BEGIN { printf "%.0f", t + s * 1000000 }')
	while :; do
		"$@" >/dev/null 2>&1 && return 0
		now=${EPOCHREALTIME//[!0-9]/}
		[ "$now" -lt "$end" ] || break
		sleep 0.05
	done
	echo "# timed out after $secs s waiting for $desc"
	return 1
}

# t_wait SECONDS DESC CMD...: wait_until as a check.
t_wait() {
	local secs=$1 desc=$2
	shift 2
	wait_until "$secs" "$desc" "$@"
	T_STDERR=/dev/null t_result $? "$desc (within $secs s)"
}

# --- processes ---------------------------------------------------------------
# procs_alive KIND ID...: how many live (not zombie) processes have their
# KIND (pid or pgid) among the IDs. No ID at all is an error (exit 2, no
# count): an empty set is never "none left".
procs_alive() {
	local kind=$1 col
	shift
	case $kind in
	pid) col=1 ;;
	pgid) col=2 ;;
	*) echo "procs_alive: KIND is pid or pgid, not '$kind'" >&2; return 2 ;;
	esac
	if [ $# -eq 0 ]; then
		echo "procs_alive: no $kind given" >&2
		return 2
	fi
	ps -eo pid=,pgid=,stat= | awk -v c="$col" -v ids=" $* " \
		'index(ids, " " $c " ") && $3 !~ /^Z/ { n++ } END { print n + 0 }'
}

# procs_none KIND ID...: none of them is alive (false for an empty set).
procs_none() {
	local n
	n=$(procs_alive "$@") || return 1
	[ "$n" -eq 0 ]
}

# trace_leaks TRACEFS: audiolat's ftrace instances (audiolat-PID[-...]) whose
# process is gone, one per line. A running audiolat's instance (another
# test's, beside this one) is not a leak; the process that made it ending
# without removing it is.
trace_leaks() {
	local d n pid
	for d in "$1"/instances/audiolat-*; do
		[ -e "$d" ] || continue
		n=${d##*/audiolat-}
		pid=${n%%-*}
		case $pid in
		'' | *[!0-9]*) echo "${d##*/}" ;;
		*) kill -0 "$pid" 2>/dev/null || echo "${d##*/}" ;;
		esac
	done
}

# t_gone DESC SECONDS KIND ID...: the processes of these IDs (pid or pgid),
# seen running before, are all gone within SECONDS. Fails on an empty set of
# IDs: if nothing was found running, "nothing left" proves nothing.
t_gone() {
	local desc=$1 secs=$2 kind=$3 rc=0
	shift 3
	if [ $# -eq 0 ]; then
		echo "# no $kind to watch: nothing was found running, so none left proves nothing"
		rc=1
	elif ! wait_until "$secs" "the processes of $kind $* to end" procs_none "$kind" "$@"; then
		ps -eo pid=,pgid=,stat=,args= | awk -v c="$([ "$kind" = pid ] && echo 1 || echo 2)" -v ids=" $* " \
			'index(ids, " " $c " ") && $3 !~ /^Z/' | head -n 20 | sed 's/^/#   still alive: /'
		rc=1
	fi
	T_STDERR=/dev/null t_result $rc "$desc"
}

# --- a command on a terminal -------------------------------------------------
# run_tty OUT LOG CMD...: start CMD in the background with its stderr on a
# pseudo-terminal (tests/pty-run.c, $PTY_RUN), so that it draws its live
# status line; CMD's stdout goes to OUT, what it writes to the terminal to
# LOG. Sets TTY_PID (`wait $TTY_PID` gives CMD's exit status) and RUN_PID
# (CMD itself: send it the signals, SIGSTOP too). Returns 1 (with a "# "
# line) if CMD did not start within 5 s.
run_tty() {
	local out=$1 log=$2
	shift 2
	RUN_PID=
	"${PTY_RUN:-$BUILD_DIR/tests/pty-run}" -o "$out" "$log" "$@" &
	TTY_PID=$!
	wait_until 5 "$1 to start on a terminal" tty_child
}
tty_child() {
	RUN_PID=$(pgrep -P "$TTY_PID" | head -n 1)
	[ -n "$RUN_PID" ]
}

# status_periods LOG: the periods count of the last live status line in LOG
# ("[ 1.2/3.0 s] periods=900 ..."), empty before the first.
status_periods() {
	tr '\r' '\n' <"$1" | sed -n 's/.*\] periods=\([0-9][0-9]*\) .*/\1/p' | tail -n 1
}

# tty_text LOG: what was written to the terminal as plain lines (the status
# line's carriage returns and erase-line sequences made line ends), for
# t_grep of the messages among the status lines
tty_text() {
	tr '\r' '\n' <"$1" | sed 's/\x1b\[K//g' | grep -v '^$'
}

# t_measuring SECONDS DESC LOG N: t_wait for `measuring LOG N`; on a time-out
# the last lines the command wrote to its terminal are shown.
t_measuring() {
	local secs=$1 desc=$2 log=$3 n=$4 rc
	wait_until "$secs" "$desc" measuring "$log" "$n"
	rc=$?
	if [ $rc -ne 0 ]; then
		[ -n "$RUN_PID" ] || echo "# the command never started on its terminal"
		procs_none pid "${RUN_PID:-0}" && echo "# the command has ended"
		[ -s "$log" ] && tty_text "$log" | tail -n 10 | sed 's/^/#   tty: /'
	fi
	T_STDERR=/dev/null t_result $rc "$desc (within $secs s)"
}

# status_elapsed_ms LOG: the run's own time (ms since its stream started, 0.1 s
# resolution) in the last live status line in LOG ("[   1.2/3.0 s] ...", or
# "[   1.2 s] ..." from audiolat monitor), or -1
status_elapsed_ms() {
	tr '\r' '\n' <"$1" | sed -n 's/.*\[ *\([0-9][0-9]*\)\.\([0-9]\)\(\/[0-9.]*\)\{0,1\} s\] periods=.*/\1\2/p' |
		tail -n 1 | awk '{ print $1 * 100 } END { if (!NR) print -1 }'
}

# stop_for SECONDS LOG: a fault of known size: stop $RUN_PID (started by
# run_tty, its status line in LOG) with SIGSTOP for SECONDS, then SIGCONT, and
# wait for its first status line after that. Sets STOP_FROM_NS and STOP_TO_NS:
# a window on the run's own clock (the xrun events' t_ns) that holds the
# stop, from the last status line before it to the first after it, widened
# by the lines' 0.1 s resolution. Returns 1 (with a "# " line) if no status
# line came after the stop.
stop_for() {
	local secs=$1 log=$2 e0 e1 ms
	ms=$(awk -v s="$secs" 'BEGIN { printf "%d", s * 1000 }')
	e0=$(status_elapsed_ms "$log")
	kill -STOP "$RUN_PID"
	sleep "$secs"
	kill -CONT "$RUN_PID"
	wait_until 10 "a status line after the stop" eval '[ "$(status_elapsed_ms "$log")" -ge $((e0 + ms)) ]' ||
		return 1
	e1=$(status_elapsed_ms "$log")
	STOP_FROM_NS=$(((e0 - 100) * 1000000))
	STOP_TO_NS=$(((e1 + 100) * 1000000))
}

# measuring LOG N: the live status in LOG counts at least N periods.
measuring() {
	local p
	p=$(status_periods "$1")
	[ -n "$p" ] && [ "$p" -ge "$2" ]
}

# t_bail DESC: what the rest of the script needs failed (a server that does
# not start, a tool that does not load): one failed check, then the end. A
# failure of what a test needs is a failure, never a skip.
t_bail() {
	t_result 1 "$1"
	t_done
	exit 1
}

# built NAME: this build has NAME (a backend: sim alsa jack pipewire oss; or
# libpq), as meson configured it ($AUDIOLAT_BUILT, tests/meson.build): a fact
# of the machine it was built on (the -dev package found). A skip may follow
# from it; never from audiolat's own --version or --help, which must then
# say it (a word missing there is a failure). Unset: a failure (t_bail).
built() {
	[ -n "${AUDIOLAT_BUILT:-}" ] || t_bail "AUDIOLAT_BUILT names what this build has (tests/meson.build sets it)"
	case " $AUDIOLAT_BUILT " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}

# fifo_permitted: this process may take SCHED_FIFO (root, CAP_SYS_NICE or an
# rtprio limit), as the kernel answers chrt, not as audiolat does: a check
# that needs it may skip on that (FIFO_DENIED is the reason), and audiolat's
# "not permitted" where it is permitted is a failure
FIFO_DENIED="SCHED_FIFO is not permitted here (chrt -f 1 fails: not root, no CAP_SYS_NICE, no rtprio limit)"
fifo_permitted() {
	chrt -f 1 true 2>/dev/null
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
	if [ -s "$T_TMP/not-found" ]; then
		t_result 1 "every command the script ran exists (not found: $(sort -u "$T_TMP/not-found" | paste -sd' '))"
	fi
	echo "1..$T_N"
	[ "$T_FAILED" -eq 0 ]
}
