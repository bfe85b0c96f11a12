#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# audiolat monitor judges run's thresholds (--fail-on-xrun, --max-latency)
# over the whole run, at its end, as `audiolat run` does (docs/monitor.md):
# the same SIGSTOP stall of known length (300 ms: one xrun event, a period
# at least 300 ms - the buffer late) ends in exit 3 with them, naming the
# one exceeded, and in exit 0 without; the result is kept either way.
. "$(dirname "$0")/../lib.sh"

A=$AUDIOLAT

# stalled NAME ARGS...: a monitor in 1 s windows, a 300 ms SIGSTOP, then
# SIGTERM; sets RC (its exit status), LOG (its terminal) and SOUT (its stdout)
stalled() {
	local name=$1
	shift
	LOG="$T_TMP/$name.log"
	SOUT="$T_TMP/$name.out"
	RC=
	run_tty "$SOUT" "$LOG" "$A" monitor --no-db --no-histogram --window 1s "$@"
	t_measuring 10 "$name: the monitor measures" "$LOG" 300
	stop_for 0.3 "$LOG"
	t_result $? "$name: it goes on after the stall"
	kill -TERM "$RUN_PID"
	wait "$TTY_PID"
	RC=$?
}

J="$T_TMP/xrun.json"
stalled fail-on-xrun --fail-on-xrun --json "$J"
t_result $([ "$RC" = 3 ] && echo 0 || echo 1) "a stall with --fail-on-xrun: exit 3 (got $RC)"
tty_text "$LOG" >"$T_TMP/xrun.err"
t_grep "$T_TMP/xrun.err" '^audiolat monitor: [1-9][0-9]* xrun\(s\) with --fail-on-xrun$' \
	"it says why, in one line"
t_grep "$SOUT" '^summary: .* result=FAIL$' "the summary line says FAIL"
t_json "the result is kept: the stall's xrun is in it, and the threshold" \
	'.config.fail_on_xrun == true and .total.xruns >= 1 and .monitor.final == true' "$J"

stalled no-threshold
t_result $([ "$RC" = 0 ] && echo 0 || echo 1) "the same stall without a threshold: exit 0 (got $RC)"
t_grep "$SOUT" '^summary: .* result=-$' "the summary line has no verdict"

stalled max-latency --max-latency 100ms
t_result $([ "$RC" = 3 ] && echo 0 || echo 1) "a stall with --max-latency 100ms: exit 3 (got $RC)"
tty_text "$LOG" >"$T_TMP/lat.err"
t_grep "$T_TMP/lat.err" '^audiolat monitor: max wake latency [0-9.]+ ms exceeded --max-latency 100(\.0+)? ms$' \
	"it names --max-latency and the latency"

# a threshold not reached: 0, PASS (no stall: a 10 s late period cannot happen)
t_exit 0 "no stall, --max-latency 10s: exit 0" "$A" monitor --no-db -q -d 1s --max-latency 10s
t_grep "$OUT" '^summary: .* result=PASS$' "the summary line says PASS"

t_done
