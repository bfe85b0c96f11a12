#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/check itself, on a small meson project of fixture tests: what it
# counts, and that it fails when meson ran nothing: no test selected (meson
# exits 0 without a log), a failed rebuild (exit 125), a TAP test that
# prints nothing; never the previous run's log counted again. cmocka 1.1.5's
# "not ok N # SKIP" is a skip through tests/cmocka-tap.sh, and a failure of
# meson without it. The host's steal (a fake /proc/stat): one rerun, only
# of a test that failed under steal and only on a quiet host, named above
# the count; under CI more than one fails the run. The skips allowed
# (tests/expected-skips, here a fixture's): one not allowed fails the run.
. "$(dirname "$0")/../lib.sh"
CHECK=$TESTS_DIR/../scripts/check
command -v meson >/dev/null || t_bail "meson is installed (it runs these tests)"
P=$T_TMP/proj
mkdir -p "$P"
cp "$TESTS_DIR/cmocka-tap.sh" "$P/"
cat >"$P/meson.build" <<'EOF'
project('scripts-check-fixture', 'c')
sh = find_program('sh')
tap = find_program('cmocka-tap.sh')
prog = executable('prog', 'prog.c')
test('pass', sh, args: ['-c', 'echo 1..2; echo ok 1 - a; echo "ok 2 - b # SKIP why"'],
  protocol: 'tap', suite: 'good')
test('cmocka-skip', tap, args: [sh.full_path(), '-c', 'echo 1..2; echo ok 1 - a; echo "not ok 2 # SKIP b"'],
  protocol: 'tap', suite: 'good')
test('built', prog, protocol: 'tap', suite: 'good')
test('silent', sh, args: ['-c', 'exit 0'], protocol: 'tap', suite: 'silent')
test('cmocka-skip-raw', sh, args: ['-c', 'echo 1..2; echo ok 1 - a; echo "not ok 2 # SKIP b"'],
  protocol: 'tap', suite: 'raw')
test('fails', sh, args: ['-c', 'echo 1..2; echo ok 1 - a; echo not ok 2 - b'],
  protocol: 'tap', suite: 'fails')
test('crash', sh, args: ['-c', 'echo 1..2; echo ok 1 - a; kill -SEGV $$'],
  protocol: 'tap', suite: 'crash')
test('burster', sh, args: [files('steal.sh'), 'burster'], protocol: 'tap', suite: 'before')
test('flaky', sh, args: [files('steal.sh'), 'flaky', 'flaky'], protocol: 'tap', suite: 'flaky')
test('flaky2', sh, args: [files('steal.sh'), 'flaky', 'flaky2'], protocol: 'tap', suite: 'flaky2')
test('fails-stolen', sh, args: [files('steal.sh'), 'fails', 'fails-stolen'], protocol: 'tap', suite: 'fails-stolen')
test('skip-env', sh, args: ['-c', 'echo 1..2; echo ok 1 - a; echo "ok 2 - b # SKIP no widget here"'],
  protocol: 'tap', suite: 'skips')
test('skip-all', sh, args: ['-c', 'echo "1..0 # SKIP no gadget on this machine"'],
  protocol: 'tap', suite: 'skips')
test('ran', sh, args: ['-c', 'echo 1..1; echo ok 1 - a'], protocol: 'tap', suite: 'skips')
EOF
# steal.sh MODE [NAME]: a test that plants the host's steal in the fake
# /proc/stat ($AUDIOLAT_PROC_STAT: the 8th figure, in ticks) in its middle.
# burster: 50 ticks at once, at its start. flaky: $STEAL_BURST ticks on its
# first try (none once $MARKS/NAME exists), which fails; its second passes.
# fails: the same burst, and it always fails.
cat >"$P/steal.sh" <<'EOF'
burst() {
	awk -v n="$1" '/^cpu / { $9 += n } { print }' "$AUDIOLAT_PROC_STAT" >"$AUDIOLAT_PROC_STAT.$$" &&
		mv "$AUDIOLAT_PROC_STAT.$$" "$AUDIOLAT_PROC_STAT"
}
case $1 in
burster) burst 50; sleep 0.5; echo 1..1; echo ok 1 - a; exit 0 ;;
esac
mark=$MARKS/$2
echo run >>"$mark.runs"
sleep 0.3
[ -e "$mark" ] || [ -z "${STEAL_BURST:-}" ] || burst "$STEAL_BURST"
sleep 0.3
echo 1..1
if [ "$1" = flaky ] && [ -e "$mark" ]; then
	echo ok 1 - a
else
	touch "$mark"
	echo not ok 1 - a
fi
EOF
# the skips allowed (scripts/check reads tests/expected-skips; here this)
cat >"$P/expected-skips" <<'EOF'
# a comment, and a blank line

pass	ci	why
cmocka-skip	ci	b
cmocka-skip-raw	ci	b
skip-env	ci	no widget
skip-all	ci	no gadget
ran	ci	never happens here
skip-env	desktop	no widget
EOF
cat >"$P/prog.c" <<'EOF'
#include <stdio.h>
int main(void) { puts("1..1\nok 1 - built"); return 0; }
EOF
t_exit 0 "the fixture project sets up" meson setup "$P/build" "$P"
# every run here: the fixture's skips allowed, as on CI's machine, and the
# host's steal from a fake /proc/stat (the real host's must not decide a
# fixture), quiet until a test or the script plants some
export AUDIOLAT_EXPECTED_SKIPS=$P/expected-skips AUDIOLAT_ENV=ci
unset CI
STAT=$T_TMP/stat
MARKS=$T_TMP/marks
mkdir -p "$MARKS"
# (the steal sampled every 0.1 s, not every second: the same rules on a
# faster clock; this test took 65 s at 1 s, mostly waiting for samples.
# The wait for a quiet host is up to 60 s, as scripts/check's own: on a
# fake host that is quiet it ends after 1 s of samples, but beside
# cli-load's SCHED_FIFO loads a 0.1 s tick can take half a second and
# 5 s were too short for ten of them, 2026-12-07. Only the host that
# never gets quiet, below, waits 5 s.)
export AUDIOLAT_PROC_STAT=$STAT AUDIOLAT_QUIET_S=60 AUDIOLAT_QUIET_WINDOW_S=1 AUDIOLAT_STEAL_TICK_S=0.1 MARKS
# quiet_host: no steal from now, and every fixture test's first try again
quiet_host() {
	echo "cpu  100 0 100 1000 0 0 0 0 0 0" >"$STAT"
	rm -f "$MARKS"/*
}
quiet_host

# check_run DESC WANT_RC WANT_LINE [MESON TEST OPTIONS...]: scripts/check's
# exit status and its last line
check_run() {
	local desc=$1 want_rc=$2 want=$3 rc last
	shift 3
	"$CHECK" "$P/build" "$@" >"$OUT" 2>"$ERR"
	rc=$?
	last=$(tail -n 1 "$OUT")
	if [ "$rc" -eq "$want_rc" ] && [ "$last" = "$want" ]; then
		t_result 0 "$desc"
	else
		echo "# got exit $rc and '$last', expected $want_rc and '$want'; what it said:"
		grep '^scripts/check' "$OUT" "$ERR" | sed 's/^/#   /'
		t_result 1 "$desc"
	fi
}

# above_count WANT DESC: the line just above the count (scripts/check's last
# run, in $OUT) is WANT
above_count() {
	local got
	got=$(tail -n 2 "$OUT" | head -n 1)
	[ "$got" = "$1" ] || echo "# the line above the count: '$got', expected '$1'"
	t_result $([ "$got" = "$1" ] && echo 0 || echo 1) "$2"
}

check_run "the checks of three tests: 3 passed, 2 skipped (one of them cmocka's, through cmocka-tap.sh)" \
	0 "3 passed, 0 failed, 2 skipped" --suite good
t_true "... and it left a log" test -s "$P/build/meson-logs/testlog.json"
check_run "no test selected: a failure, not the last run counted again" \
	1 "0 passed, 1 failed, 0 skipped" --suite nosuch
t_grep "$ERR" 'wrote no .*testlog.json: no test ran' "... saying no test ran"
check_run "a TAP test that prints nothing and exits 0: one failure" \
	1 "0 passed, 1 failed, 0 skipped" --suite silent
t_grep "$ERR" 'silent: printed no check' "... naming it"
check_run "cmocka's skip without cmocka-tap.sh: counted a skip, and meson's failure" \
	1 "1 passed, 1 failed, 1 skipped" --suite raw
check_run "a failed check fails" 1 "1 passed, 1 failed, 0 skipped" --suite fails
check_run "a crash after a passed check: one failure" 1 "1 passed, 1 failed, 0 skipped" --suite crash
t_grep "$ERR" 'crash: .* without a failed check' "... saying why"

# the host's steal (/proc/stat's 8th figure, the fake one): a test that
# failed while the host took the CPU is run once more, once the host is
# quiet (1 s on end here, waited for up to 60 s), and its rerun counts; on a
# quiet host it is not
quiet_host
check_run "a test that fails once on a quiet host: a failure, no rerun" \
	1 "0 passed, 1 failed, 0 skipped" --suite flaky
t_nogrep "$OUT" 'run again' "... not run again"
above_count "0 rerun" "... and the line above the count says no test was rerun"
quiet_host
# a burst before it ran (500 ms, from the test before it) is not its own
check_run "a burst of steal before the test ran: no rerun" \
	1 "1 passed, 1 failed, 0 skipped" --suite before --suite flaky
t_nogrep "$OUT" 'run again' "... not run again"
quiet_host
# one burst: 300 ms of the CPU time at once while it ran (from the
# test itself, in its middle, on its first try; 100 ms or more in a second
# even when a loaded machine spaces the samples 3 s apart)
STEAL_BURST=30 check_run "the same test when the host took 300 ms at once: run once more, its rerun counts" \
	0 "1 passed, 0 failed, 0 skipped" --suite flaky
t_grep "$OUT" '^scripts/check: flaky failed while the host took [0-9]+ ms of the CPU time \(steal, [0-9.]+ %, at most [0-9]+ ms in a second\) in its [0-9]+ s: run again, once, on a quiet host$' \
	"... saying why"
t_grep "$OUT" '^scripts/check: flaky: OK on its rerun \(exit 0\), FAIL on its first try$' "... and how its rerun went"
t_grep "$OUT" '^  not ok 1 - a$' "... its first try's failed check is still shown"
t_grep "$OUT" '^  rerun: OK, exit 0' "... with its rerun's result beside it"
above_count "1 rerun: flaky" "... and it is named in the line above the count"
quiet_host
STEAL_BURST=30 check_run "a test that always fails, under steal: run once more, still a failure" \
	1 "0 passed, 1 failed, 0 skipped" --suite fails-stolen
t_grep "$OUT" '^scripts/check: fails-stolen: FAIL on its rerun' "... its rerun failed too"
t_true "... it ran twice, not more" test "$(wc -l <"$MARKS/fails-stolen.runs")" -eq 2
t_grep "$OUT" '^  rerun: FAIL, exit [0-9]+' "... both results shown"
above_count "1 rerun: fails-stolen" "... named above the count"
quiet_host
STEAL_BURST=30 check_run "two tests that passed on their reruns, not under CI: a pass" \
	0 "2 passed, 0 failed, 0 skipped" --suite flaky --suite flaky2
above_count "2 rerun: flaky, flaky2" "... both named above the count"
quiet_host
STEAL_BURST=30 CI=true check_run "the same under CI=true: more than one rerun fails the run" \
	1 "2 passed, 1 failed, 0 skipped" --suite flaky --suite flaky2
t_grep "$OUT" '^scripts/check: 2 tests needed a rerun; under CI more than one fails the run' "... saying so in one line"
above_count "2 rerun: flaky, flaky2" "... both named above the count"
quiet_host
STEAL_BURST=30 CI=true check_run "one rerun under CI=true: a pass" \
	0 "1 passed, 0 failed, 0 skipped" --suite flaky
above_count "1 rerun: flaky" "... named above the count"
quiet_host
# the host takes 1 s of each CPU-second from now (2 CPUs: 50 %), and never
# gets quiet: no rerun
(s=0; while :; do s=$((s + 5)); echo "cpu  100 0 100 1000 0 0 0 $s 0 0" >"$STAT.new"; mv "$STAT.new" "$STAT"; sleep 0.05; done) &
steal_pid=$!
AUDIOLAT_QUIET_S=5 check_run "a test that failed while the host steals, which never gets quiet: no rerun, a failure" \
	1 "0 passed, 1 failed, 0 skipped" --suite flaky
t_grep "$OUT" '^scripts/check: flaky failed while the host took [0-9]+ ms .*; the host was not quiet for 1 s within 5 s: no rerun, the failure stands$' \
	"... saying why"
t_true "... it ran once" test "$(wc -l <"$MARKS/flaky.runs")" -eq 1
above_count "0 rerun" "... no rerun above the count"
kill "$steal_pid"
quiet_host

# the skips allowed on this machine (the fixture's expected-skips; its ENV ci)
check_run "skips that expected-skips allows here: a pass" 0 "2 passed, 0 failed, 2 skipped" --suite skips
t_grep "$OUT" "^scripts/check: ran ran what tests/expected-skips allows it to skip on 'ci': never happens here\$" \
	"... an allowed skip that did not happen is said, in one line"
t_nogrep "$OUT" 'skip-(env|all) skipped' "... no allowed skip named as a failure"
AUDIOLAT_ENV=desktop check_run "a skip that expected-skips does not allow on this machine (AUDIOLAT_ENV=desktop): a failure" \
	1 "2 passed, 1 failed, 1 skipped" --suite skips
t_grep "$OUT" "^scripts/check: skip-all skipped, which tests/expected-skips does not allow on 'desktop' \(AUDIOLAT_ENV\): no gadget on this machine\$" \
	"... naming the test and its reason"
t_nogrep "$OUT" 'skip-env skipped' "... not the one it allows there"
AUDIOLAT_ENV= CI=true check_run "CI set (no AUDIOLAT_ENV): the skips of ci" 0 "2 passed, 0 failed, 2 skipped" --suite skips
if [ "$(id -u)" -eq 0 ]; then
	AUDIOLAT_ENV= check_run "as root, without CI or AUDIOLAT_ENV: the skips of ci" \
		0 "2 passed, 0 failed, 2 skipped" --suite skips
else
	AUDIOLAT_ENV= check_run "not root, without CI or AUDIOLAT_ENV: the skips of desktop" \
		1 "2 passed, 1 failed, 1 skipped" --suite skips
fi
t_grep "$OUT" "^scripts/check: ran ran what|^scripts/check: skip-all skipped, .* \(not root\)" "... said so"
AUDIOLAT_EXPECTED_SKIPS=$T_TMP/none check_run "no expected-skips file: a failure" \
	1 "0 passed, 1 failed, 0 skipped" --suite good
t_grep "$ERR" "cannot read $T_TMP/none" "... saying so"

# a rebuild that fails: meson exits 125 before running anything
echo 'int main(void) { return syntax error; }' >"$P/prog.c"
check_run "a failed rebuild (meson exits 125): a failure, the last log not counted" \
	1 "0 passed, 1 failed, 0 skipped" --suite good
t_grep "$ERR" 'exited 125: the rebuild failed' "... saying the rebuild failed"
t_done
