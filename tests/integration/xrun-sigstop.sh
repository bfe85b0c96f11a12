#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A real run stopped from outside (SIGSTOP) for 150 ms and continued must
# show at least one xrun of at least 100 ms and an interval that long.
# Where the stall lands decides which other figure shows it: stopped while
# sleeping, the wake latency; stopped during the busy work (80 % of the
# time by default), the work time. With -L 0 the thread always sleeps.
. "$(dirname "$0")/../lib.sh"

J="$T_TMP/stop.json"
"$AUDIOLAT" run -d 2s -q --json "$J" >"$OUT" 2>"$ERR" &
pid=$!
sleep 0.8
kill -STOP $pid
sleep 0.15
kill -CONT $pid
wait $pid
t_result $? "the stopped run exits 0"
t_json "at least one xrun" '.total.xruns >= 1' "$J"
t_json "an xrun of at least 100 ms" '[.xrun_events[].duration_ns] | max >= 100000000' "$J"
t_json "max interval of at least 100 ms" '.total.interval_ns.max >= 100000000' "$J"
t_json "the stall is in the wake latency or the work" \
	'[.total.wake_latency_ns.max, .total.work_ns.max] | max >= 100000000' "$J"
t_json "lost periods cover the stall (>= 75 of 1.333 ms)" '.total.lost_periods >= 75' "$J"
t_json "the xrun lies inside the run" \
	'.xrun_events[0].t_ns > 0 and .xrun_events[0].t_ns < .duration_ns' "$J"

# with no work the thread is asleep when stopped: the wake latency shows it
"$AUDIOLAT" run -d 1500ms -L 0 -q --json "$J" >"$OUT" 2>"$ERR" &
pid=$!
sleep 0.6
kill -STOP $pid
sleep 0.15
kill -CONT $pid
wait $pid
t_result $? "the stopped -L 0 run exits 0"
t_json "-L 0: max wake latency of at least 100 ms" '.total.wake_latency_ns.max >= 100000000' "$J"
t_json "-L 0: an xrun of at least 100 ms" '[.xrun_events[].duration_ns] | max >= 100000000' "$J"

# --fail-on-xrun turns it into exit 3
"$AUDIOLAT" run -d 1500ms -q --fail-on-xrun >"$OUT" 2>"$ERR" &
pid=$!
sleep 0.6
kill -STOP $pid
sleep 0.1
kill -CONT $pid
wait $pid
t_result $([ $? -eq 3 ] && echo 0 || echo 1) "--fail-on-xrun after a stall exits 3"
t_grep "$ERR" 'xrun' "the message says xrun"

t_done
