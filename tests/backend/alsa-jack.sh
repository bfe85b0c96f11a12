#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The ALSA backend through alsa-plugins' pcm_jack, on a jackd (dummy driver)
# this test starts, with an ALSA configuration of its own (ALSA_CONFIG_PATH
# in the test's directory): what the device gave is what was asked, the
# periods measured match the run, interval is one period; mmap, capture,
# duplex and the tone run; a device that cannot come close is refused
# (exit 2) unless --nearest.
. "$(dirname "$0")/common.sh"
need_backend alsa libasound2-dev
need_cmd jackd jackd2
[ -e /usr/lib/x86_64-linux-gnu/alsa-lib/libasound_module_pcm_jack.so ] ||
	ls /usr/lib/*/alsa-lib/libasound_module_pcm_jack.so >/dev/null 2>&1 ||
	t_skip_all "alsa-plugins' pcm_jack not installed (libasound2-plugins)"

NAME=$(srv_name al-alsa)
J="$T_TMP/run.json"
start_jackd "$NAME" 256 48000 || server_failed "jackd -n $NAME starts"
export JACK_DEFAULT_SERVER=$NAME JACK_NO_START_SERVER=1
jack_alsa_conf altest system:playback_1 system:playback_2 -- system:capture_1 system:capture_2

# (measured once)
t_exit 0 "plug:altest, 2 x 256 frames, 2 s: exits 0" \
	"$AUDIOLAT" run -b alsa -D plug:altest -P 256 -n 2 -d 2s --no-db -q --json "$J"
echo "# the least wake latency read $(jq -c '[.total.wake_latency_ns.min, .total.wake_latency_ns.negative, (.xrun_events | length)]' "$J" 2>/dev/null) (min, negatives, xruns)"
t_json "the boundaries are labelled fitted: jitter against the earliest wake-ups, not latency" \
	'.boundary == "fitted"' "$J"
t_json "the device gave what was asked: 48000 Hz, 2 x 256" \
	'.config.rate == 48000 and .config.period_frames == 256 and .config.periods == 2 and .config.requested_periods == 2' "$J"
t_json "device, format and channels recorded" \
	'.config.device == "plug:altest" and .config.format == "S16_LE" and .config.channels == 2' "$J"
t_json "the periods match the run's length (50..110 %)" \
	'(.duration_ns / .config.period_ns) as $n | .total.periods >= 0.5 * $n and .total.periods <= 1.1 * $n + 2' "$J"
t_json "median interval is one period (within 20 %)" \
	'(.total.interval_ns.p50 - 5333333) | fabs < 1066667' "$J"
# the boundaries come from a frame clock fitted to the earliest wake-ups: a
# wake-up a little before the fitted line reads negative, and is counted.
# The line starts from the first quarter second's earliest wake-up and is
# lowered only at the next block's fit, so a first block the machine
# delayed throughout reads negative by that delay in the second (over
# 100 us now and then on a loaded VM, d422714); a line a period or more
# off would put wake-ups in the wrong period: that is the bound
t_json "wake jitter is measured (the least within a period of the fitted grid, under a period)" \
	'.total.wake_latency_ns.min > -5333333 and .total.wake_latency_ns.min < 5333333' "$J"
t_json "negative wake latencies are counted and their cause named" \
	'(.total.wake_latency_ns.negative | type) == "number" and (.backend.negative_cause | test("fitted"))' "$J"
t_json "the boundaries are said to be estimated, all of them (pcm_jack stamps the call)" \
	'.backend.boundaries.estimated == .backend.boundaries.total and .backend.boundaries.total > 0' "$J"
t_json "the backend says how boundaries were found" '.backend.clock | test("boundaries")' "$J"
# (0 without an xrun is possible: two server cycles emptied the buffer exactly)
t_json "min margin is never negative, never more than the buffer" \
	'.total.min_margin_ns >= 0 and .total.min_margin_ns <= .config.buffer_ns' "$J"

t_exit 0 "--mmap runs" "$AUDIOLAT" run -b alsa -D plug:altest -P 256 -n 3 -d 1s --mmap --no-db -q --json "$J"
t_json "--mmap: MMAP_INTERLEAVED, 3 periods" \
	'.config.mmap and .config.periods == 3 and (.backend.detail | test("MMAP_INTERLEAVED"))' "$J"
t_exit 0 "--capture runs" "$AUDIOLAT" run -b alsa -D plug:altest -P 256 -n 3 -d 1s --capture --no-db -q --json "$J"
t_json "--capture: periods measured" '.config.capture and .total.periods > 50' "$J"
t_exit 0 "--duplex runs" "$AUDIOLAT" run -b alsa -D plug:altest -P 256 -n 3 -d 1s --duplex --no-db -q --json "$J"
t_json "--duplex: periods measured" '.config.duplex and .total.periods > 50 and (.backend.detail | test("duplex"))' "$J"
t_exit 0 "--tone 1000 runs" "$AUDIOLAT" run -b alsa -D plug:altest -P 256 -n 2 -d 1s --tone 1000 --no-db -q --json "$J"
t_json "--tone recorded" '.config.tone_hz == 1000' "$J"

# the raw jack PCM only has the server's rate: 44.1 kHz cannot come close
t_exit 2 "44100 Hz on the raw jack PCM is refused" \
	"$AUDIOLAT" run -b alsa -D altest -r 44100 -P 256 -n 2 -d 1s --no-db
t_grep "$ERR" "altest gave 48000 Hz, 2 x 256 frames .*for 44100 Hz.*--nearest" \
	"one line says what the device gave and names --nearest"
t_exit 0 "--nearest takes it" \
	"$AUDIOLAT" run -b alsa -D altest -r 44100 -P 256 -n 2 -d 1s --nearest --no-db --no-histogram --json "$T_TMP/n.json"
t_grep "$OUT" "^device gave 48000 Hz, 2 x 256 frames \(asked 44100 Hz, 2 x 256 frames\)" \
	"the report says what the device gave"
t_json "--nearest: 48000 recorded, 44100 asked, FLOAT" \
	'.config.rate == 48000 and .config.requested_rate == 44100 and .config.format == "FLOAT_LE"' "$T_TMP/n.json"

t_exit 2 "--capture with --duplex is a usage error" \
	"$AUDIOLAT" run -b alsa -D plug:altest --capture --duplex --no-db
t_exit 2 "--tone with --capture is a usage error" \
	"$AUDIOLAT" run -b alsa -D plug:altest --capture --tone 440 --no-db
t_exit 2 "--tone at half the rate is a usage error" \
	"$AUDIOLAT" run -b alsa -D plug:altest --tone 24000 --no-db
t_exit 2 "--capture with the sim backend is a usage error" "$AUDIOLAT" run --capture --no-db
t_grep "$ERR" "--capture: not with the sim backend" "... naming the option"
stop_jackd
t_done
