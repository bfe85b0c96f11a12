#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/check itself, on a small meson project of fixture tests: what it
# counts, and that it fails when meson ran nothing: no test selected (meson
# exits 0 without a log), a failed rebuild (exit 125), a TAP test that
# prints nothing; never the previous run's log counted again. cmocka 1.1.5's
# "not ok N # SKIP" is a skip through tests/cmocka-tap.sh, and a failure of
# meson without it.
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
test('burster', sh, args: ['-c', 'echo "cpu  100 0 100 1000 0 0 0 50 0 0" >"$AUDIOLAT_PROC_STAT"; sleep 1.6; echo 1..1; echo ok 1 - a'],
  protocol: 'tap', suite: 'before')
test('flaky', sh, args: ['-c', 'sleep 0.7; [ -z "$FLAKY_BURST" ] || echo "cpu  100 0 100 1000 0 0 0 $FLAKY_BURST 0 0" >"$AUDIOLAT_PROC_STAT"; sleep 0.8; echo 1..1; if [ -e "$FLAKY_MARK" ]; then echo ok 1 - a; else touch "$FLAKY_MARK"; echo not ok 1 - a; fi'],
  protocol: 'tap', suite: 'flaky')
EOF
cat >"$P/prog.c" <<'EOF'
#include <stdio.h>
int main(void) { puts("1..1\nok 1 - built"); return 0; }
EOF
t_exit 0 "the fixture project sets up" meson setup "$P/build" "$P"

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
		echo "# got exit $rc and '$last', expected $want_rc and '$want'"
		t_result 1 "$desc"
	fi
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

# the host's steal (/proc/stat's 8th figure, a fake one here): a test that
# failed while the host took the CPU is run again, and its last attempt
# counts; on a quiet host it is not
STAT=$T_TMP/stat
export AUDIOLAT_PROC_STAT=$STAT AUDIOLAT_QUIET_S=0 FLAKY_MARK=$T_TMP/flaky.mark
echo "cpu  100 0 100 1000 0 0 0 0 0 0" >"$STAT"
check_run "a test that fails once on a quiet host: a failure, no rerun" \
	1 "0 passed, 1 failed, 0 skipped" --suite flaky
t_nogrep "$OUT" 'run again' "... not run again"
rm -f "$FLAKY_MARK"
# a burst before it ran (500 ms, from the test before it) is not its own
check_run "a burst of steal before the test ran: no rerun" \
	1 "1 passed, 1 failed, 0 skipped" --suite before --suite flaky
t_nogrep "$OUT" 'run again' "... not run again"
rm -f "$FLAKY_MARK"
echo "cpu  100 0 100 1000 0 0 0 0 0 0" >"$STAT"
# one burst: 100 ms of the CPU time in one second while it ran (from the
# test itself, in its middle), 2 % or so of its time in all
FLAKY_BURST=10 check_run "the same test when the host took 100 ms in one second: run again" \
	0 "1 passed, 0 failed, 0 skipped" --suite flaky
t_grep "$OUT" 'at most [0-9]+ ms in a second.*run again \(attempt 2 of 3\)' "... saying why"
echo "cpu  100 0 100 1000 0 0 0 0 0 0" >"$STAT"
rm -f "$FLAKY_MARK"
# the host takes 1 s of each CPU-second from now (2 CPUs: 50 %)
(s=0; while :; do s=$((s + 20)); echo "cpu  100 0 100 1000 0 0 0 $s 0 0" >"$STAT.new"; mv "$STAT.new" "$STAT"; sleep 0.2; done) &
steal_pid=$!
check_run "the same test while the host steals: run again, its second attempt counts" \
	0 "1 passed, 0 failed, 0 skipped" --suite flaky
t_grep "$OUT" 'flaky failed while the host took [0-9]+ ms of the CPU time \(steal, [0-9.]+ %, at most [0-9]+ ms in a second\).*run again \(attempt 2 of 3\)' "... saying why"
t_grep "$OUT" 'flaky: OK on attempt 2' "... and how it went"
check_run "a test that always fails, while the host steals: run twice more, still a failure" \
	1 "1 passed, 1 failed, 0 skipped" --suite fails
t_grep "$OUT" 'fails: FAIL on attempt 3' "... after its third attempt"
kill "$steal_pid"
unset AUDIOLAT_PROC_STAT AUDIOLAT_QUIET_S

# a rebuild that fails: meson exits 125 before running anything
echo 'int main(void) { return syntax error; }' >"$P/prog.c"
check_run "a failed rebuild (meson exits 125): a failure, the last log not counted" \
	1 "0 passed, 1 failed, 0 skipped" --suite good
t_grep "$ERR" 'exited 125: the rebuild failed' "... saying the rebuild failed"
t_done
