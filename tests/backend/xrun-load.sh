#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Seed 004 on any machine: aplay-like playback (SCHED_OTHER) through ALSA
# into JACK (pcm_jack, a 2 x 256-frame buffer) under audiolat's hackbench load
# shows xruns, each with a validated duration: positive, within the run, and
# covered by the periods it says were lost. The same against PipeWire's null
# sink. Detection is asserted, never a count.
. "$(dirname "$0")/common.sh"
need_backend alsa libasound2-dev
need_cmd jackd jackd2

J="$T_TMP/run.json"

# check_xruns LABEL FILE: the xrun assertions
check_xruns() {
	t_json "$1: xruns detected" '.total.xruns >= 1 and (.xrun_events | length) >= 1' "$2"
	t_json "$1: every duration is positive and under the run's length" \
		'.duration_ns as $d | all(.xrun_events[]; .duration_ns > 0 and .duration_ns < $d)' "$2"
	# (the audio thread may write once more after the controller closed the run)
	# starvation begins after the last good write: no xrun outlasts the gap between writes
	t_json "$1: no xrun is longer than the longest gap between writes" \
		'(.total.interval_ns.max + .total.work_ns.max + .config.period_ns) as $g | all(.xrun_events[]; .duration_ns <= $g)' "$2"
	t_json "$1: every xrun starts inside the run" \
		'.duration_ns as $d | all(.xrun_events[]; .t_ns >= 0 and .t_ns <= $d + 1000000000)' "$2"
	t_json "$1: every xrun lost at least one period, as many as its length says" \
		'.config.period_ns as $p | all(.xrun_events[]; .lost_periods >= 1 and .lost_periods == ((.duration_ns + $p - 1) / $p | floor))' "$2"
	t_json "$1: the starved time adds up and fits in the run" \
		'.total.xrun_ns == ([.xrun_events[].duration_ns] | add) and .total.xrun_ns < .duration_ns' "$2"
	t_json "$1: each duration's source is counted (stamps or pointers)" \
		'.backend.xrun_durations.from_stamps + .backend.xrun_durations.fallback == .total.xruns' "$2"
	t_json "$1: a rejected stamp says why" \
		'.backend.xrun_durations.fallback == 0 or (.backend.xrun_durations.last_reject | type == "string")' "$2"
	t_grep "$OUT" "^underrun!!! \(at least [0-9]+\.[0-9]{3} ms long\)" "$1: -v prints aplay's line"
	t_result $([ "$(grep -c '^underrun!!!' "$OUT")" -eq "$(jq '.xrun_events | length' "$2")" ] \
		&& echo 0 || echo 1) "$1: -v prints one line per xrun"
}

NAME=$(srv_name al-xrun)
start_jackd "$NAME" 256 48000 || server_failed "jackd -n $NAME starts"
export JACK_DEFAULT_SERVER=$NAME JACK_NO_START_SERVER=1
jack_alsa_conf alxrun system:playback_1 system:playback_2
t_exit 0 "plug:alxrun, 2 x 256, SCHED_OTHER, 6 s under hackbench: exits 0" \
	"$AUDIOLAT" run -b alsa -D plug:alxrun -P 256 -n 2 -p 0 -d 6s --load hackbench \
	-v --no-histogram --no-db --json "$J"
check_xruns "jackd" "$J"
stop_jackd

if command -v pipewire >/dev/null && command -v pw-jack >/dev/null; then
	start_pipewire 256 48000 || server_failed "PipeWire with a null sink starts"
	jack_alsa_conf alxpw "Null Sink:playback_FL" "Null Sink:playback_FR"
	t_exit 0 "PipeWire null sink, 2 x 256, SCHED_OTHER, 6 s under hackbench: exits 0" \
		pw-jack "$AUDIOLAT" run -b alsa -D plug:alxpw -P 256 -n 2 -p 0 -d 6s \
		--load hackbench -v --no-histogram --no-db --json "$J"
	check_xruns "pipewire" "$J"
	stop_pipewire
else
	t_skip "the same against PipeWire" "pipewire or pipewire-jack not installed"
fi
t_done
