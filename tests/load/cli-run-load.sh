#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `audiolat run --load`: phases run in order with their times, each with
# its load, parameters and throughput; bad specs exit 2; no load process or
# file is left after a normal run, SIGINT mid-phase, or SIGKILL of audiolat.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/procs.sh"

A=$AUDIOLAT
D=$T_TMP/loaddir
mkdir -p "$D"
J=$T_TMP/run.json
small="--groups 2 --fds 5 --loops 20 --file-size 4M --load-dir $D"

# phases in order, with their times and loads
# shellcheck disable=SC2086
t_exit 0 "a run through three phases" "$A" run -q -d 3s --load idle:600ms,hackbench,cpu+procfs:600ms $small --json "$J"
t_json "three phases, in order" '[.phases[].name] == ["idle", "hackbench", "cpu+procfs"]' "$J"
# a phase lasts at least its time (stopping the loads before may shift it,
# never shorten it); how much longer is how fast the loads stopped: not asserted
t_json "the untimed phase takes what -d leaves (at least 1.8 s)" \
	'.phases[1].end_ns - .phases[1].start_ns >= 1800000000' "$J"
t_json "timed phases last (at least) their time" \
	'[.phases[0,2] | .end_ns - .start_ns >= 600000000] | length == 2 and all' "$J"
t_json "phases follow each other, inside the run" \
	'.phases[0].start_ns >= 0 and .phases[0].end_ns <= .phases[1].start_ns and .phases[1].end_ns <= .phases[2].start_ns and .phases[2].end_ns <= .duration_ns' "$J"
t_json "every phase measured periods" '[.phases[].periods > 100] | length == 3 and all' "$J"
t_json "the phases add up to the total" '([.phases[].periods] | add) == .total.periods' "$J"
t_json "idle has no load" '.phases[0].load == "none" and .phases[0].throughput == {}' "$J"
t_json "hackbench's exact parameters are recorded" \
	'.phases[1].load | test("^hackbench groups=2 fds=5 loops=20 datasize=100 .*policy=other nice=0 cpus=all")' "$J"
t_json "hackbench's throughput is recorded" '.phases[1].throughput.messages_per_s.value > 0' "$J"
t_json "combined loads report each throughput" \
	'.phases[2].throughput | has("cpu.loops_per_s") and has("procfs.reads_per_s")' "$J"
t_json "no phase failed" '[.phases[].error == null] | length == 3 and all' "$J"
t_json "the spec is in the config" '.config.load == "idle:600ms,hackbench,cpu+procfs:600ms"' "$J"
t_true "no file left in the load dir" empty_dir "$D"

# the text report has a row per phase
# shellcheck disable=SC2086
t_exit 0 "a text run with phases" "$A" run -d 1s --load idle,disk-write $small --no-histogram
t_grep "$OUT" '^phase +periods +max \[ms\]' "the phase table header"
t_grep "$OUT" '^idle +[0-9]+ ' "a row for idle"
t_grep "$OUT" '^disk-write +[0-9]+ .*disk-write' "a row for disk-write with its parameters"
t_grep "$OUT" 'bytes_per_s=' "disk-write's throughput"

# rt-migrate in a phase (needs SCHED_FIFO: root, CAP_SYS_NICE or an rtprio limit)
t_exit 0 "run --help exits 0" "$A" run --help
t_grep "$OUT" "--rt-period, --rt-run, --rt-prio" "run --help lists the rt-migrate options"
t_exit 0 "a run with an rt-migrate phase" "$A" run -q -b sim -d 2s --load rt-migrate:2s --json "$J"
if ! fifo_permitted; then
	t_json "rt-migrate where SCHED_FIFO is not permitted: the phase says so" \
		'.phases[0].name == "rt-migrate" and (.phases[0].error // "" | test("not permitted"))' "$J"
	for t in "rt-migrate's load string" "rt-migrate's throughput"; do
		t_skip "$t" "$FIFO_DENIED"
	done
else
	t_json "rt-migrate's load string is recorded" \
		'.phases[0].name == "rt-migrate" and (.phases[0].load | test("^rt-migrate threads=[0-9]+ prio=fifo:2[.][.][0-9]+ period_ns=20000000 run_ns=4000000 policy=other nice=0 cpus=all$"))' "$J"
	t_json "rt-migrate's throughput is recorded" \
		'.phases[0].throughput | .periods_per_s.value > 0 and ([.migrations.value, .missed_periods.value, .prio_inversions.value] | length == 3 and all(type == "number" and . >= 0 and . == floor)) and .top_wake_max_ns.value > 0 and .top_wake_max_ns.unit == "ns"' "$J"
	t_json "rt-migrate ran without error" '.phases[0].error == null' "$J"
fi
# a load that cannot start: the phase keeps its error and what was asked
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	t_exit 0 "a run whose rt-migrate phase cannot start (as nobody) exits 0" \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$A" run -q -b sim -d 2s --no-db \
		--load rt-migrate:1s,idle:1s --json -
	t_json "the failed phase names the error and keeps the exact load string" \
		'.phases[0].error != null and (.phases[0].error | test("SCHED_FIFO priority [0-9]+: Operation not permitted")) and (.phases[0].load | startswith("rt-migrate threads="))' "$OUT"
	t_json "the next phase runs" '.phases[1].name == "idle" and .phases[1].error == null and .phases[1].periods > 0' "$OUT"
else
	t_skip "a run whose rt-migrate phase cannot start" "needs root and setpriv to drop to nobody"
	t_skip "the failed phase names the error and keeps the exact load string" "needs root and setpriv"
	t_skip "the next phase runs" "needs root and setpriv"
fi

# bad specs and options: exit 2, one line
bad() { # bad WANT ARGS...
	local want=$1
	shift
	t_exit 2 "run $* exits 2" "$A" run -q -d 1s "$@"
	t_grep "$ERR" "^audiolat run: .*$want" "run $*: the message names $want"
}
bad "nosuch" --load nosuch
bad "--load" --load idle:10parsecs
bad "--load" --load "idle:1s,"
bad "groups" --load hackbench --groups -1
bad "load-policy" --load cpu --load-policy fifo:200
bad "rt-run" --load rt-migrate --rt-period 5ms --rt-run 5ms
bad "rt-prio" --load idle:1s,rt-migrate --rt-prio 0
bad "load-dir" --load disk-write --load-dir /nonexistent/dir
ro=$T_TMP/ro
mkdir -p "$ro"
chmod 555 "$ro"
if [ "$(id -u)" -eq 0 ]; then
	mount -t tmpfs -o size=1m,ro tmpfs "$ro" 2>/dev/null && MNT_RO=$ro
fi
if [ -n "${MNT_RO:-}" ] || [ "$(id -u)" -ne 0 ]; then
	bad "load-dir" --load disk-write --load-dir "$ro"
	[ -n "${MNT_RO:-}" ] && umount "$ro"
else
	t_skip "an unwritable --load-dir" "no read-only directory could be made"
fi

# SIGINT mid-phase: results kept, loads gone, files gone
# shellcheck disable=SC2086
"$A" run -q -d 60s --load idle:300ms,hackbench+disk-write --json "$J" $small >"$OUT" 2>"$ERR" &
pid=$!
# the second phase's loads: hackbench's workers (its runs of 20 loops come
# and go: one of them at least), and disk-write writing
t_loads "SIGINT: the second phase's loads start" $pid 2
groups=$LOADS
t_wait 10 "SIGINT: hackbench runs (its supervisor and a worker)" at_least_named 2 al-hackbench $groups
t_wait 10 "SIGINT: disk-write has written" wrote_in al-disk-write $groups
kill -INT $pid
wait $pid
t_result $? "SIGINT mid-phase: exit 0"
t_json "SIGINT: interrupted, both phases kept" \
	'.interrupted == true and ([.phases[].name] == ["idle", "hackbench+disk-write"])' "$J"
# (hackbench's rate is over its completed runs: a SIGINT before the first
# one ended, as on a fresh machine once, leaves it unmeasured, null)
t_json "SIGINT: the second phase measured its loads (hackbench over its completed runs, null before one)" \
	'.phases[1].throughput as $t | $t["disk-write.bytes_per_s"].value > 0 and
	 ($t["hackbench.runs"].value | type) == "number" and
	 if $t["hackbench.runs"].value > 0 then $t["hackbench.messages_per_s"].value > 0 and $t["hackbench.s_per_run"].value > 0
	 else $t["hackbench.messages_per_s"].value == null and $t["hackbench.s_per_run"].value == null end' "$J"
t_gone "SIGINT: the load processes are gone" 5 pgid $groups
t_true "SIGINT: no file left" empty_dir "$D"

# SIGKILL of audiolat: the loads follow
# shellcheck disable=SC2086
marker="sleep 60.$$"  # unique to this test run
"$A" run -q -d 60s --load "hackbench+cmd:'$marker'" $small >/dev/null 2>&1 &
pid=$!
t_loads "SIGKILL: the loads start" $pid 2
groups=$LOADS
t_wait 10 "SIGKILL: hackbench and '$marker' run" \
	eval 'at_least_named 2 al-hackbench $groups && pgrep -f "^$marker\$"'
kill -KILL $pid
wait $pid 2>/dev/null
t_gone "SIGKILL: every load process gone" 5 pgid $groups
t_wait 5 "SIGKILL: no '$marker' left" eval '! pgrep -f "^$marker\$"'
t_true "SIGKILL: no file left" empty_dir "$D"

# a load that dies is reported in its phase
# shellcheck disable=SC2086
t_exit 0 "a run whose cmd load fails" "$A" run -q -d 1s --load "cmd:'exit 127'" $small --json "$J"
t_json "the failure is in the phase" '.phases[0].error | test("127|cmd")' "$J"

t_done
