#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A real run stopped from outside (SIGSTOP) for 150 ms, once its live status
# line says it measures, and continued: a fault of known size. It must show
# an xrun as long as the stop less the buffer (3 x 64 frames, 4 ms) and the
# periods that stall covers, and an interval that long.
# Where the stall lands decides which other figure shows it: stopped while
# sleeping, the wake latency; stopped during the busy work (80 % of the
# time by default), the work time. With -L 0 the thread always sleeps.
. "$(dirname "$0")/../lib.sh"

# stopped_run NAME STOP_S ARGS...: audiolat run ARGS on a terminal, stopped
# for STOP_S seconds once it has measured 200 periods; RC its exit status,
# $T_TMP/NAME.log what it wrote to the terminal
stopped_run() {
	local name=$1 stop=$2 log="$T_TMP/$1.log"
	shift 2
	run_tty "$OUT" "$log" "$AUDIOLAT" run --no-db --no-histogram "$@"
	t_measuring 10 "$name: the run measures (200 periods)" "$log" 200
	stop_for "$stop" "$log"
	t_result $? "$name: the run goes on after the stop (a status line after it)"
	wait "$TTY_PID"
	RC=$?
}

# the xrun of a stop of STOP ms, less the buffer and 5 ms of slack (signal
# delivery), and the 1.333 ms periods it covers
STOP_MS=150
MIN_NS=$(((STOP_MS - 4 - 5) * 1000000))
J="$T_TMP/stop.json"
stopped_run stop 0.$STOP_MS -d 3s --json "$J"
t_result $RC "the stopped run exits 0"
t_json "at least one xrun" '.total.xruns >= 1' "$J"
t_json "an xrun as long as the stop less the buffer (>= $((MIN_NS / 1000000)) ms), starting in the stop" \
	--argjson a "$STOP_FROM_NS" --argjson b "$STOP_TO_NS" --argjson min $MIN_NS \
	'[.xrun_events[] | select(.t_ns >= $a and .t_ns <= $b) | .duration_ns] | max >= $min' "$J"
t_json "no xrun is longer than the longest interval between writes" \
	'.total.interval_ns.max as $g | (.xrun_events | length) > 0 and all(.xrun_events[]; .duration_ns <= $g)' "$J"
t_json "max interval at least as long as the stop less the buffer" --argjson min $MIN_NS \
	'.total.interval_ns.max >= $min' "$J"
t_json "the stall is in the wake latency or the work" --argjson min $MIN_NS \
	'[.total.wake_latency_ns.max, .total.work_ns.max] | max >= $min' "$J"
t_json "lost periods cover the stall (>= $((MIN_NS / 1333334)) of 1.333 ms)" \
	--argjson n $((MIN_NS / 1333334)) '.total.lost_periods >= $n' "$J"
t_json "every xrun lies inside the run" \
	'.duration_ns as $d | (.xrun_events | length) > 0 and all(.xrun_events[]; .t_ns > 0 and .t_ns < $d)' "$J"

# with no work the thread is asleep when stopped: the wake latency shows it
stopped_run stop-L0 0.$STOP_MS -d 3s -L 0 --json "$J"
t_result $RC "the stopped -L 0 run exits 0"
t_json "-L 0: max wake latency as long as the stop less the buffer" --argjson min $MIN_NS \
	'.total.wake_latency_ns.max >= $min' "$J"
t_json "-L 0: an xrun as long as the stop less the buffer, starting in the stop" \
	--argjson a "$STOP_FROM_NS" --argjson b "$STOP_TO_NS" --argjson min $MIN_NS \
	'[.xrun_events[] | select(.t_ns >= $a and .t_ns <= $b) | .duration_ns] | max >= $min' "$J"

# --fail-on-xrun turns it into exit 3: the stop's xrun was detected (its
# event in the stop's window, as long as the stop less the buffer), and the
# message counts it ("xrun" alone is in every status line: it proves nothing)
MIN100_NS=$(((100 - 4 - 5) * 1000000))
stopped_run fail 0.1 -d 3s --fail-on-xrun --json "$J"
t_result $([ $RC -eq 3 ] && echo 0 || echo 1) "--fail-on-xrun after a stall exits 3 (got $RC)"
t_json "--fail-on-xrun: an xrun >= $((MIN100_NS / 1000000)) ms, starting in the stop" \
	--argjson a "$STOP_FROM_NS" --argjson b "$STOP_TO_NS" --argjson min $MIN100_NS \
	'[.xrun_events[] | select(.t_ns >= $a and .t_ns <= $b) | .duration_ns] | max >= $min' "$J"
tty_text "$T_TMP/fail.log" >"$T_TMP/fail.txt"
t_grep "$T_TMP/fail.txt" '^audiolat run: [1-9][0-9]* xrun\(s\) with --fail-on-xrun$' \
	"the message counts the xruns and names --fail-on-xrun"
t_grep "$OUT" 'result=FAIL' "the summary says FAIL"

t_done
