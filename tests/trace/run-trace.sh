#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# audiolat run --trace: a load that holds the audio thread's CPU at a
# higher real-time priority is named as the cause of the late wake-ups,
# with about the time it held the CPU; without root the run goes on
# untraced with one warning; no ftrace instance is left behind.
. "$(dirname "$0")/../lib.sh"

T=/sys/kernel/tracing
[ "$(id -u)" -eq 0 ] || t_skip_all "needs root for ftrace"
if [ ! -d "$T/instances" ]; then
	mount -t tracefs nodev "$T" 2>/dev/null || t_skip_all "no tracefs on this kernel"
fi
cpu=$(($(nproc) - 1))
J=$T_TMP/trace.json
# a hog: 40 ms of spinning at SCHED_FIFO 90 on the audio thread's CPU, twice a
# second; timeout runs above it (95) so that its alarm can end the spin
hog="cmd:'chrt -f 95 timeout 0.04 chrt -f 90 sh -c \"while :; do :; done\"; sleep 0.5'"
t_exit 0 "a traced run under a real-time hog" "$AUDIOLAT" run -d 3s -q --no-db -a "$cpu" \
	--trace --trace-threshold 5ms --load "$hog" --load-cpus "$cpu" --json "$J"
t_json "spikes were explained" '.spikes | length >= 1' "$J"
t_json "the threshold is recorded" '.trace_threshold_ns == 5000000' "$J"
t_json "the hog (sh, timeout or chrt: a task) is the top cause of the worst spike" \
	'.spikes | max_by(.latency_ns) | .causes[0] | .kind == "task" and (.name | test("^(sh|timeout|chrt)$"))' "$J"
t_json "it held the CPU for roughly its 40 ms (20..80 ms)" \
	'.spikes | max_by(.latency_ns) | .causes[0].duration_ns | . > 20000000 and . < 80000000' "$J"
t_json "spike times lie inside the run" '[.spikes[].t_ns | . >= 0 and . < 4000000000] | length > 0 and all' "$J"
t_result "$([ -z "$(trace_leaks "$T")" ] && echo 0 || echo 1)" "no audiolat instance left"

# the default threshold is half the buffer: 4 x 128 frames at 48 kHz is
# 10.667 ms (10666666 ns), so 5333333 ns; 3 x 64 (the default) 2 ms
t_exit 0 "--trace without --trace-threshold, 4 x 128 frames" "$AUDIOLAT" run -d 500ms -q --no-db -a "$cpu" \
	-P 128 -n 4 --trace --json "$T_TMP/th.json"
t_json "... the threshold is half the buffer, 5333333 ns" \
	--argjson want $((128 * 4 * 1000000000 / 48000 / 2)) '.trace_threshold_ns == $want' "$T_TMP/th.json"
t_exit 0 "--trace without --trace-threshold, the default 3 x 64 frames" "$AUDIOLAT" run -d 500ms -q --no-db \
	-a "$cpu" --trace --json "$T_TMP/th.json"
t_json "... the threshold is half the buffer, 2 ms" '.trace_threshold_ns == 2000000' "$T_TMP/th.json"
# the kernel's own wake-to-run histogram needs hist triggers and synthetic
# events: this VM's kernel has neither (the qemu guest's check has them),
# so it is not made, its figures null, and the note says which is missing
if [ -f "$T/synthetic_events" ] && [ -f "$T/events/sched/sched_waking/hist" ]; then
	t_json "... the kernel's wake-to-run histogram was made" '.kernel_wake_to_run.measured == true and .kernel_wake_to_run.count > 0' "$T_TMP/th.json"
else
	t_json "... the kernel's wake-to-run histogram: not made, null figures, the missing config named" \
		'.kernel_wake_to_run | .measured == false and .count == null and .max_ns == null and .agree == null and (.note | test("CONFIG_(SYNTH_EVENTS|HIST_TRIGGERS)"))' "$T_TMP/th.json"
fi
t_exit 0 "a run without --trace" "$AUDIOLAT" run -d 200ms -q --no-db --json "$T_TMP/nt.json"
t_json "... has no kernel_wake_to_run (null)" 'has("kernel_wake_to_run") and .kernel_wake_to_run == null' "$T_TMP/nt.json"

# the text report explains them
t_exit 0 "a traced text run" "$AUDIOLAT" run -d 2s --no-db --no-histogram -a "$cpu" \
	--trace --trace-threshold 5ms --load "$hog" --load-cpus "$cpu"
t_grep "$OUT" '^late wake-ups explained' "the text report lists the explained spikes"

# SIGINT: the instance is removed
"$AUDIOLAT" run -d 30s -q --no-db -a "$cpu" --trace >/dev/null 2>&1 &
pid=$!
t_wait 10 "the instance exists while running" test -d "$T/instances/audiolat-$pid"
kill -INT $pid
wait $pid
t_true "SIGINT: the instance is removed" test ! -e "$T/instances/audiolat-$pid"

# the rich events are recorded only once a wake-up is later than 3/4 of the
# threshold: not armed under a 500 ms threshold, armed after the hog's spike
ev=events/timer/hrtimer_expire_entry/enable
if [ -e "$T/$ev" ]; then
	"$AUDIOLAT" run -d 30s -q --no-db -a "$cpu" --trace --trace-threshold 500ms >/dev/null 2>&1 &
	pid=$!
	# events in the buffer: the open has enabled all it enables (tracing starts last)
	t_wait 10 "unarmed: recording" awk '$1 == "entries:" && $2 > 0 { ok = 1 } END { exit !ok }' \
		"$T/instances/audiolat-$pid/per_cpu/cpu$cpu/stats"
	t_true "unarmed: the base set is recorded" grep -qx 1 "$T/instances/audiolat-$pid/events/sched/sched_switch/enable"
	t_true "unarmed: hrtimer_expire_entry is not" grep -qx 0 "$T/instances/audiolat-$pid/$ev"
	kill -INT $pid
	wait $pid
	"$AUDIOLAT" run -d 30s -q --no-db -a "$cpu" --trace --trace-threshold 5ms --load "$hog" \
		--load-cpus "$cpu" >/dev/null 2>&1 &
	pid=$!
	t_wait 15 "armed after the hog's first spike: hrtimer_expire_entry is recorded" \
		grep -qx 1 "$T/instances/audiolat-$pid/$ev"
	kill -INT $pid
	wait $pid
else
	t_skip "arming the rich events" "the kernel has no timer:hrtimer_expire_entry"
fi

# the result's warnings (here: --trace without -a pins the audio thread) go to
# stderr when the text that shows them is not shown (-q, --json -), once, for
# run and monitor alike (cli_run_finish: cli_finish's .warn); in the text else
W='warning: --trace: the audio thread is pinned to CPU [0-9]+'
for c in "run -d 300ms" "monitor -d 300ms --window 100ms"; do
	# shellcheck disable=SC2086
	t_exit 0 "$c -q --trace" "$AUDIOLAT" $c -q --no-db --trace
	[ "$(grep -Ec "^audiolat: $W" "$ERR")" -eq 1 ]
	t_result $? "... the warning once on stderr"
	# shellcheck disable=SC2086
	t_exit 0 "$c --json - --trace" "$AUDIOLAT" $c --no-db --trace --json -
	[ "$(grep -Ec "^audiolat: $W" "$ERR")" -eq 1 ]
	t_result $? "... the warning once on stderr"
	t_json "... and in the document" '[.warnings[] | test("pinned to CPU")] | any' "$OUT"
	# shellcheck disable=SC2086
	t_exit 0 "$c --trace" "$AUDIOLAT" $c --no-db --trace --no-histogram
	t_grep "$OUT" "$W" "... the text shows the warning"
	! grep -Eq "$W" "$ERR"
	t_result $? "... and stderr does not repeat it"
done

# without root: one warning, the run goes on untraced
if command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$AUDIOLAT"; then
	t_exit 0 "--trace as nobody still measures" setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$AUDIOLAT" run -d 500ms --no-db -p 0 --trace --no-histogram
	t_grep "$OUT" 'warning: --trace: .*running without tracing' "one warning says why"
	t_grep "$OUT" '^summary: ' "the run still ends with its summary"
else
	t_skip "--trace as nobody" "needs setpriv"
fi
t_done
