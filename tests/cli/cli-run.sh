#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `audiolat run` and the dispatcher: exit codes, messages, JSON shape.
. "$(dirname "$0")/../lib.sh"

A=$AUDIOLAT

# --help and the dispatcher
t_exit 0 "audiolat --help exits 0" "$A" --help
t_grep "$OUT" '^  run ' "--help lists the run command"
t_exit 0 "audiolat run --help exits 0" "$A" run --help
t_grep "$OUT" -- '--max-latency' "run --help lists --max-latency"
t_exit 0 "audiolat --version exits 0" "$A" --version
t_grep "$OUT" '^audiolat [0-9]' "--version prints the version"
t_exit 2 "no command is a usage error" "$A"
t_exit 2 "an unknown command is a usage error" "$A" frobnicate
t_grep "$ERR" "unknown command 'frobnicate'" "the unknown command is named"

# every bad value exits 2 with one line naming the option
bad() { # bad OPTION-NAME ARGS...
	local name=$1
	shift
	t_exit 2 "run $* exits 2" "$A" run -q "$@"
	t_grep "$ERR" "^audiolat run: .*$name" "run $* names $name"
	[ "$(grep -c '^audiolat run:' "$ERR")" -eq 1 ]
	t_result $? "run $* says it in one line"
}
bad "-P/--period" -P 0
bad "-r/--rate" -r 0
bad "-n/--periods" -n 1
bad "-L/--cpu-load" -L 1001
bad "-b/--backend" -b nosuch
bad "-d/--duration" -d 10parsecs
bad "-d/--duration" -d ""
bad "-p/--priority" -p 120
bad "--max-latency" --max-latency soon
bad "-a/--affinity" -a 4095
bad "-D/--device" -D hw:0
bad "--nosuch" --nosuch
bad "unexpected argument" stray
bad "--fragments" --fragments 3
bad "--fragments" --fragments 1x256
bad "--fragments" --fragments 3x255
bad "--fragments" --fragments 3x256x
bad "--capture" -b oss --capture
bad "--tone" -b oss --tone 440
bad "--mmap" -b oss --mmap

# --fragments NxBYTES is latencytest's form: N periods of BYTES / 4 frames
t_exit 0 "--fragments 3x256 runs" "$A" run --no-db -q -d 200ms --fragments 3x256 --json -
t_json "--fragments 3x256 is 3 periods of 64 frames" \
	'.config.periods == 3 and .config.period_frames == 64' "$OUT"
t_exit 0 "--fragments after -P and -n wins" "$A" run --no-db -q -d 200ms -P 32 -n 5 --fragments 4x1024 --json -
t_json "--fragments 4x1024 is 4 periods of 256 frames" \
	'.config.periods == 4 and .config.period_frames == 256' "$OUT"

# the OSS backend where there is no OSS device: exit 4 and one line that says why
if [ -e /dev/dsp ]; then
	t_skip "-b oss without /dev/dsp" "this machine has a /dev/dsp"
	t_skip "-b oss without /dev/dsp names the device" "this machine has a /dev/dsp"
else
	t_exit 4 "-b oss without /dev/dsp exits 4" "$A" run --no-db -q -b oss -d 1s
	t_grep "$ERR" '^audiolat run: oss: /dev/dsp: No such file or directory \(no OSS device: load snd-pcm-oss' \
		"-b oss without /dev/dsp names the device and the module"
fi
t_exit 4 "-b oss on a device that is not OSS exits 4" "$A" run --no-db -q -b oss -D /dev/null -d 1s
t_grep "$ERR" '^audiolat run: oss: /dev/null: not an OSS audio device' "-b oss -D /dev/null says it is not OSS"
t_exit 4 "-b oss on a regular file exits 4" "$A" run --no-db -q -b oss -D "$0" -d 1s
t_grep "$ERR" 'not a character device' "-b oss on a file says it is not a device (and never writes it)"
t_exit 0 "devices -b oss exits 0" "$A" devices -b oss --json -
t_json "devices -b oss: the backend is there, its devices listed" \
	'.backends[0].backend == "oss" and .backends[0].available and (.backends[0].devices | type == "array")' "$OUT"

# a short real run, JSON to a file
J="$T_TMP/run.json"
# (-L 20: the simulated app's work is 20 % of a period, not the default
# 80. This test runs beside the others: beside the kernel test's initramfs
# build (xz -d of the kernel, cpio), the 80 % work took 1.31 ms of a
# 1.33 ms period at p50 and the app missed 241-290 of 750 periods, its
# interval p50 2.6 ms, with no xrun: an overloaded app, measured right,
# and not what these checks are about. At 20 %, beside the same build,
# 0-1 missed and the interval p50 one period, 5 runs of 5. 2026-12-07)
t_exit 0 "a 1 s run exits 0" "$A" run -d 1s -L 20 -q --json "$J"
t_grep "$OUT" '^summary: backend=sim .* result=PASS$' "the summary line closes the run"
t_json "the JSON parses (one object)" 'type == "object"' "$J"
t_json "schema is audiolat.run/2" '.schema == "audiolat.run/2"' "$J"
for f in tool_version config system realtime started_at duration_ns interrupted total phases xrun_events; do
	t_json "JSON has $f" "has(\"$f\")" "$J"
done
for f in backend rate period_frames periods cpu_load_pct priority; do
	t_json "config has $f" ".config | has(\"$f\")" "$J"
done
for f in kernel_release kernel_version preempt cpu_model cpus clocksource; do
	t_json "system has $f" ".system | has(\"$f\")" "$J"
done
t_json "system.checks has the tally" '.system.checks | (.ok + .warn + .fail + .skip) == (.checks | length) and (.checks | length) > 10' "$J"
t_json "every check has id, status, message, fix" \
	'[.system.checks.checks[] | has("id") and has("status") and has("message") and has("fix")] | length > 0 and all' "$J"
for f in periods xruns lost_periods wake_latency_ns interval_ns work_ns max_interval_pct_of_buffer within_1ms_pct within_2ms_pct min_margin_ns histogram; do
	t_json "total has $f" ".total | has(\"$f\")" "$J"
	t_json "phases[0] has $f" ".phases[0] | has(\"$f\")" "$J"
done
for f in min mean p50 p90 p99 p999 p9999 max; do
	t_json "wake_latency_ns has $f" ".total.wake_latency_ns | has(\"$f\")" "$J"
done
# every period due in the run is counted, missed ones too: the run's own
# length in 1.333 ms periods, give or take the one it ended in (a loaded
# machine ends a run late: 1.0079 s gave 755, never fewer than due). An
# xrun restarts the card (prepare, refill, start) where it is found, and
# its periods are due from there: the part of a period between the last
# boundary before it and the restart is due to no one, so each xrun may
# leave up to one period fewer (747 for 750.1 with 10 xruns, beside a
# build)
t_json "periods are counted: the run's length in periods, less up to one per xrun ($(jq -c '[.total.periods, .duration_ns, .config.period_ns, .total.missed_periods, .total.xruns]' "$J" 2>/dev/null): periods, duration ns, period ns, missed, xruns)" \
	'(.duration_ns / .config.period_ns) as $due | .total.periods > 700 and
	 .total.periods - $due <= 2 and $due - .total.periods <= 2 + .total.xruns' "$J"
# (what they read, printed: in 2 of 3 clean clones' make test on
# 2026-12-07, this one and the periods' count failed once each, beside the
# kernel test's first 4-8 s: the 80 % work and the xruns' restarts, above)
t_json "interval p50 is about one period ($(jq -c '[.total.interval_ns.p50, .total.wake_latency_ns.p99, .total.missed_periods, .realtime]' "$J" 2>/dev/null): p50 ns, latency p99 ns, missed, realtime)" \
	'.total.interval_ns.p50 > 1200000 and .total.interval_ns.p50 < 1470000' "$J"
t_json "min <= p50 <= p99 <= max" \
	'.total.wake_latency_ns | .min <= .p50 and .p50 <= .p99 and .p99 <= .max' "$J"
t_json "not interrupted" '.interrupted == false' "$J"
# the thread sleeps until the boundary (clock_nanosleep, TIMER_ABSTIME) and
# reads the clock after: every wake-up of its own comes after its boundary
t_json "every wake-up comes after its boundary (per wake-up min > 0)" \
	'.total.wake_latency_per_wakeup_ns | .count > 0 and .min > 0' "$J"

t_json "timeseries: 100 ms windows covering the run" \
	'.timeseries.window_ns == 100000000 and (.timeseries.rows | length) >= 10 and (.timeseries.rows | length) <= 12' "$J"
t_json "timeseries: the windows hold every period" \
	'([.timeseries.rows[][1]] | add) == .total.periods' "$J"
t_json "timeseries: window maxima reach the run max" \
	'([.timeseries.rows[][4] // 0] | max) == .total.wake_latency_ns.max' "$J"

# JSON on stdout is the only thing on stdout
t_exit 0 "--json - exits 0" "$A" run -d 300ms --json -
t_json "stdout is one JSON document" '.schema == "audiolat.run/2"' "$OUT"

# the text report
t_exit 0 "a text run exits 0" "$A" run -d 500ms -P 128 -n 2 -r 44100 -L 50
cp "$ERR" "$T_TMP/text-run.err"
t_grep "$OUT" '^max latency=[0-9.]+ ms  factor=[0-9.]+ % of buffer  max interval=[0-9.]+ ms  1MS factor=[0-9.]+  2MS factor=[0-9.]+  xruns=[0-9]+$' "the latencytest summary line"
t_grep "$OUT" '^wake latency +[0-9.]+' "the percentile table"
t_grep "$OUT" '^wake latency histogram \(log scale\):$' "the ASCII histogram"
t_grep "$OUT" 'rate=44100 Hz  2 x 128 frames' "the configuration is printed"
t_grep "$OUT" '^system check: ok=[0-9]+ warn=[0-9]+ fail=[0-9]+ skip=[0-9]+' "the system check tally is printed"

# a live status line on a terminal, none with -q or when not a terminal
if command -v script >/dev/null; then
	script -qec "'$A' run -d 1s --no-histogram" /dev/null >"$T_TMP/tty.txt" 2>&1
	t_grep "$T_TMP/tty.txt" '\[ *[0-9.]+/1\.0 s\] periods=[0-9]+ max wake latency=.* xruns=[0-9]+' \
		"a status line on a terminal"
	script -qec "'$A' run -d 1s -q" /dev/null >"$T_TMP/tty-q.txt" 2>&1
	t_nogrep "$T_TMP/tty-q.txt" 'max wake latency=' "no status line with -q"
else
	t_skip "a status line on a terminal" "no script(1)"
fi
t_nogrep "$T_TMP/text-run.err" 'max wake latency=' "no status line when not a terminal"

# thresholds: exit 3
t_exit 3 "--max-latency 1ns is exceeded: exit 3" "$A" run -d 200ms -q --max-latency 1ns
t_grep "$ERR" 'exceeded --max-latency' "the threshold is named"
t_grep "$OUT" 'result=FAIL' "the summary says FAIL"

# an unwritable JSON path is a runtime error, and the summary still comes
t_exit 1 "--json into a missing directory exits 1" "$A" run -d 200ms -q --json /nonexistent/dir/r.json
t_grep "$ERR" '/nonexistent/dir/r.json' "the path is named"
t_grep "$OUT" '^summary:' "measured data is still printed"

# --dma-latency US: /dev/cpu_dma_latency holds US while the run measures
# (reading the file gives the PM QoS value in force: the smallest request),
# and what it was before once the run has ended
dma_now() {
	od -An -t d4 /dev/cpu_dma_latency | tr -d ' '
}
dma_is() {
	[ "$(dma_now)" = "$1" ]
}
if [ -r /dev/cpu_dma_latency ] && [ -w /dev/cpu_dma_latency ]; then
	base=$(dma_now)
	us=$((base > 7 ? 7 : base - 1))
	if [ "$us" -lt 0 ]; then
		t_skip "--dma-latency holds its request during the run" \
			"another program holds a request of 0 us: no smaller one would show"
	else
		run_tty "$OUT" "$T_TMP/dma.log" "$A" run -d 30s --no-db --no-histogram --dma-latency "$us" \
			--json "$T_TMP/dma.json"
		t_measuring 10 "--dma-latency $us: the run measures" "$T_TMP/dma.log" 100
		during=$(dma_now)
		t_result $([ "$during" = "$us" ] && echo 0 || echo 1) \
			"--dma-latency $us: /dev/cpu_dma_latency is $us us while the run measures (got $during, $base before)"
		kill -INT "$RUN_PID"
		wait "$TTY_PID"
		t_result $? "--dma-latency $us: the run exits 0"
		t_wait 5 "--dma-latency: released after the run (back to $base us)" dma_is "$base"
		t_json "--dma-latency: the result records it" --argjson us "$us" '.dma_latency_us == $us' "$T_TMP/dma.json"
	fi
else
	t_skip "--dma-latency holds its request during the run" "/dev/cpu_dma_latency is not there or not ours (root)"
fi
t_exit 0 "without --dma-latency the result says none" "$A" run -d 100ms -q --no-db --json -
t_json "... dma_latency_us is null" '.dma_latency_us == null' "$OUT"

# -a CPU pins the audio thread (the SCHED_FIFO one) to CPU, and only it
# audio_thread PID: the tid of PID's SCHED_FIFO thread
audio_thread() {
	ps -L -o tid=,cls= -p "$1" | awk '$2 == "FF" { print $1; exit }'
}
# allowed PID [TID]: the CPUs the task may run on (Cpus_allowed_list)
allowed() {
	awk '$1 == "Cpus_allowed_list:" { print $2 }' "/proc/$1/task/${2:-$1}/status"
}
last=$(($(nproc) - 1))
run_tty "$OUT" "$T_TMP/pin.log" "$A" run -d 30s --no-db --no-histogram -a "$last"
t_measuring 10 "-a $last: the run measures" "$T_TMP/pin.log" 100
tid=$(audio_thread "$RUN_PID")
t_result $([ -n "$tid" ] && echo 0 || echo 1) "-a $last: the audio thread runs at SCHED_FIFO (tid '$tid')"
t_result $([ -n "$tid" ] && [ "$(allowed "$RUN_PID" "$tid")" = "$last" ] && echo 0 || echo 1) \
	"-a $last: the audio thread may run on CPU $last only (got '$(allowed "$RUN_PID" "$tid")')"
t_result $([ "$(allowed "$RUN_PID")" = "$(allowed $$)" ] && echo 0 || echo 1) \
	"-a $last: the main thread is not pinned (got '$(allowed "$RUN_PID")', the shell's '$(allowed $$)')"
kill -INT "$RUN_PID"
wait "$TTY_PID"
t_result $? "-a $last: the run exits 0"
if [ "$last" -gt 0 ]; then
	run_tty "$OUT" "$T_TMP/nopin.log" "$A" run -d 30s --no-db --no-histogram
	t_measuring 10 "without -a: the run measures" "$T_TMP/nopin.log" 100
	tid=$(audio_thread "$RUN_PID")
	t_result $([ -n "$tid" ] && [ "$(allowed "$RUN_PID" "$tid")" = "$(allowed $$)" ] && echo 0 || echo 1) \
		"without -a: the audio thread may run on every CPU ours may (got '$(allowed "$RUN_PID" "$tid")')"
	kill -INT "$RUN_PID"
	wait "$TTY_PID"
fi

# SIGINT ends the run cleanly: results kept, interrupted. On a terminal,
# so that the live status line says when it measures: then the signal
J2="$T_TMP/int.json"
for sig in INT TERM; do
	rm -f "$J2"
	run_tty "$OUT" "$T_TMP/tty-$sig.log" "$A" run -d 30s --no-db --no-histogram --json "$J2"
	t_measuring 10 "SIG$sig: the run measures (its status line counts 100 periods)" "$T_TMP/tty-$sig.log" 100
	kill -$sig "$RUN_PID"
	wait "$TTY_PID"
	t_result $? "SIG$sig: exit 0"
	t_json "SIG$sig: interrupted is true" '.interrupted == true' "$J2"
	t_json "SIG$sig: the periods measured are kept, the duration is the time run, not 30 s" \
		'.total.periods >= 100 and .duration_ns < 30000000000' "$J2"
	t_grep "$OUT" '^summary: .*result=PASS$' "SIG$sig: the summary is printed"
done

t_done
