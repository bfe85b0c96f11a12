#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Seed 004 on any machine: aplay-like playback (SCHED_OTHER) through ALSA
# into JACK (pcm_jack, a 2 x 256-frame buffer) under audiolat's hackbench
# load, stopped (SIGSTOP) for 300 ms once its live status line says it
# measures: a fault of known size, on any machine however fast. The stop
# must show as an xrun as long as the stop less the buffer, losing the
# periods it covers; every xrun (hackbench may add its own) has a validated
# duration: positive, within the run, no longer than the gap between
# writes. The same against PipeWire's null sink. Never a count or a speed.
. "$(dirname "$0")/common.sh"
need_backend alsa libasound2-dev
need_cmd jackd jackd2

J="$T_TMP/run.json"

# the stop, and what it must show: 300 ms less the 2 x 256-frame buffer
# (10.7 ms) and 10 ms of slack (signal delivery, the server's cycle)
STOP_MS=300
MIN_NS=$(((STOP_MS - 11 - 10) * 1000000))
PERIOD_NS=5333333

# stopped_run LABEL CMD...: CMD (an audiolat run) on a terminal, stopped for
# STOP_MS once it has measured 50 periods; RC its exit status, $OUT its
# stdout, STOP_FROM_NS..STOP_TO_NS the stop on the run's clock (stop_for)
stopped_run() {
	local label=$1 log="$T_TMP/$1.tty"
	shift
	run_tty "$OUT" "$log" "$@"
	t_measuring 20 "$label: the run measures (50 periods) under hackbench" "$log" 50
	stop_for 0.$STOP_MS "$log"
	t_result $? "$label: the run goes on after the stop (a status line after it)"
	wait "$TTY_PID"
	RC=$?
	tty_text "$log" >"$ERR"
}

# check_xruns LABEL FILE: the xrun assertions
check_xruns() {
	# hackbench may starve the playback as long by itself: the stop's xrun
	# is the longest one that overlaps the stop (on the run's own clock). It
	# may start before it: a starvation that hackbench began and the stop
	# continued is one xrun (seen: 699.5 ms for 484 ms, the stop at 700)
	NEAR_STOP='[.xrun_events[] | select(.t_ns <= $b and .t_ns + .duration_ns >= $a)]'
	STOP_XRUN="$NEAR_STOP | max_by(.duration_ns)"
	jq -c --argjson a "$STOP_FROM_NS" --argjson b "$STOP_TO_NS" \
		"{stop: [\$a, \$b], xruns: ($NEAR_STOP | map([.t_ns, .duration_ns, .lost_periods, .source]))}" "$2" 2>&1 |
		sed "s/^/# $1: the stop's window [from, to] and the xruns overlapping it [t_ns, duration_ns, lost, source]: /"
	t_json "$1: the stop shows as an xrun of at least $((MIN_NS / 1000000)) ms, overlapping it" \
		--argjson a "$STOP_FROM_NS" --argjson b "$STOP_TO_NS" --argjson min $MIN_NS \
		"$STOP_XRUN | .duration_ns >= \$min" "$2"
	t_json "$1: ... which lost the periods the stop covers (>= $((MIN_NS / PERIOD_NS)) of 5.333 ms)" \
		--argjson a "$STOP_FROM_NS" --argjson b "$STOP_TO_NS" --argjson n $((MIN_NS / PERIOD_NS)) \
		"$STOP_XRUN | .lost_periods >= \$n" "$2"
	t_json "$1: the xruns are counted as they are listed" \
		'.total.xruns >= 1 and .total.xruns == (.xrun_events | length)' "$2"
	t_json "$1: every duration is positive and under the run's length" \
		'.duration_ns as $d | (.xrun_events | length) > 0 and all(.xrun_events[]; .duration_ns > 0 and .duration_ns < $d)' "$2"
	# (the audio thread may write once more after the controller closed the run)
	# starvation begins after the last good write: no xrun outlasts the gap between writes
	t_json "$1: no xrun is longer than the longest gap between writes" \
		'(.total.interval_ns.max + .total.work_ns.max + .config.period_ns) as $g | (.xrun_events | length) > 0 and all(.xrun_events[]; .duration_ns <= $g)' "$2"
	t_json "$1: every xrun starts inside the run" \
		'.duration_ns as $d | (.xrun_events | length) > 0 and all(.xrun_events[]; .t_ns >= 0 and .t_ns <= $d + 1000000000)' "$2"
	# a period lost per period begun in the starved time: at least one, and
	# no more than its length holds, plus the one it began in and the next
	t_json "$1: every xrun lost at least one period, and no more than its length covers" \
		'.config.period_ns as $p | (.xrun_events | length) > 0 and all(.xrun_events[]; .lost_periods >= 1 and .lost_periods * $p <= .duration_ns + 2 * $p)' "$2"
	t_json "$1: the starved time adds up and fits in the run" \
		'.total.xrun_ns == ([.xrun_events[].duration_ns] | add) and .total.xrun_ns < .duration_ns' "$2"
	# (the PCM's own xruns; those our account found where it reported none are
	# "account"; one more where the PCM's last recovery came after the run's
	# end, which is not recorded: seen under load)
	t_json "$1: each duration's source is counted (stamps or pointers)" \
		'(.backend.xrun_durations.from_stamps + .backend.xrun_durations.fallback -
		  ([.xrun_events[] | select(.source == "device")] | length)) as $d | $d == 0 or $d == 1' "$2"
	t_json "$1: a rejected stamp says why" \
		'.backend.xrun_durations.fallback == 0 or (.backend.xrun_durations.last_reject | type == "string")' "$2"
	t_grep "$OUT" "^underrun!!! \(at least [0-9]+\.[0-9]{3} ms long\)" "$1: -v prints aplay's line"
	t_result $([ "$(grep -c '^underrun!!!' "$OUT")" -eq "$(jq '.xrun_events | length' "$2")" ] \
		&& echo 0 || echo 1) "$1: -v prints one line per xrun"
}

# (5 s runs: the stop comes once 50 periods were measured, 0.7 s in as a
# rule, and needs a status line after it; 8 s until 2026-12-07)
NAME=$(srv_name al-xrun)
start_jackd "$NAME" 256 48000 || server_failed "jackd -n $NAME starts"
export JACK_DEFAULT_SERVER=$NAME JACK_NO_START_SERVER=1
jack_alsa_conf alxrun system:playback_1 system:playback_2
stopped_run jackd "$AUDIOLAT" run -b alsa -D plug:alxrun -P 256 -n 2 -p 0 -d 5s --load hackbench \
	-v --no-histogram --no-db --json "$J"
t_result $RC "plug:alxrun, 2 x 256, SCHED_OTHER, 5 s under hackbench, stopped for $STOP_MS ms: exits 0"
check_xruns "jackd" "$J"
stop_jackd

if command -v pipewire >/dev/null && command -v pw-jack >/dev/null; then
	start_pipewire 256 48000 || server_failed "PipeWire with a null sink starts"
	jack_alsa_conf alxpw "Null Sink:playback_FL" "Null Sink:playback_FR"
	stopped_run pipewire pw-jack "$AUDIOLAT" run -b alsa -D plug:alxpw -P 256 -n 2 -p 0 -d 5s \
		--load hackbench -v --no-histogram --no-db --json "$J"
	t_result $RC "PipeWire null sink, 2 x 256, SCHED_OTHER, 5 s under hackbench, stopped for $STOP_MS ms: exits 0"
	check_xruns "pipewire" "$J"
	stop_pipewire
else
	t_skip "the same against PipeWire" "pipewire or pipewire-jack not installed"
fi
t_done
