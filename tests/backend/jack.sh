#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The JACK backend on a jackd (dummy driver) this test starts: rate and
# period are the server's and recorded as such, the periods measured match
# the run's length, wake latency is above zero and below a period, the DSP
# load is read; capture, duplex and the tone run; -D and JACK_DEFAULT_SERVER
# pick the server.
. "$(dirname "$0")/common.sh"
need_backend jack libjack-jackd2-dev
need_cmd jackd jackd2

NAME=$(srv_name al-jack)
J="$T_TMP/run.json"
start_jackd "$NAME" 256 48000 || server_failed "jackd -n $NAME -d dummy -r 48000 -p 256 starts"

t_exit 0 "a 2 s run on the test server exits 0" \
	"$AUDIOLAT" run -b jack -D "$NAME" -d 2s --no-db -q --json "$J"
t_json "the rate is the server's: 48000" '.config.rate == 48000' "$J"
t_json "the period is the server's: 256 frames (64 were asked)" \
	'.config.period_frames == 256 and .config.requested_period_frames == 64' "$J"
t_json "period_ns follows the server: 5333333" '.config.period_ns == 5333333' "$J"
t_json "the periods match the run's length (50..110 %)" \
	'(.duration_ns / .config.period_ns) as $n | .total.periods >= 0.5 * $n and .total.periods <= 1.1 * $n + 2' "$J"
t_json "the server is recorded as the device" ".config.device == \"$NAME\"" "$J"
echo "# wake latency: $(jq -c '.total.wake_latency_ns | {min, p50, max, count}' "$J" 2>/dev/null)"
# (to a frame, 20.8 us: the line fitted to the server's cycle starts may lie
# a little after one of them, and we may wake within a frame of it)
t_json "wake latency is above zero (to a frame)" \
	'.total.wake_latency_ns.min > -20834 and .total.wake_latency_ns.p50 > 0' "$J"
# a clock mix-up (a time on JACK2's CLOCK_MONOTONIC_RAW taken as CLOCK_MONOTONIC) shifts
# every wake-up by the clocks' offset; some wake-up comes within a period of its cycle start
t_json "the least wake latency is within one period" '.total.wake_latency_ns.min < 5333333' "$J"
t_json "median interval is one period (within 20 %)" \
	'(.total.interval_ns.p50 - 5333333) | fabs < 1066667' "$J"
t_json "JACK's DSP load is recorded (0..100 %)" \
	'.backend.dsp_load_mean_pct > 0 and .backend.dsp_load_max_pct <= 100' "$J"
t_json "the clock and where cycle starts come from are named" \
	'.backend.clock | test("^CLOCK_MONOTONIC; cycle starts from jack_frames_since_cycle_start")' "$J"
t_json "not interrupted" '.interrupted == false' "$J"

t_exit 0 "the text report runs" "$AUDIOLAT" run -b jack -D "$NAME" -d 1s --no-db --no-histogram
t_grep "$OUT" "^device: JACK server '$NAME'" "it names the server"
t_grep "$OUT" "^device gave 48000 Hz, 2 x 256 frames \(asked 48000 Hz, 3 x 64 frames\)" \
	"it says what the server gave against what was asked"
t_grep "$OUT" "^JACK DSP load: mean [0-9.]+ %" "it prints the DSP load"

JACK_DEFAULT_SERVER=$NAME t_exit 0 "JACK_DEFAULT_SERVER picks the server" \
	"$AUDIOLAT" run -b jack -d 1s --no-db -q --json "$J"
t_json "... and it is recorded" ".config.device == \"$NAME\"" "$J"

t_exit 0 "--capture runs" "$AUDIOLAT" run -b jack -D "$NAME" -d 1s --capture --no-db -q --json "$J"
t_json "--capture: recorded, periods measured" '.config.capture and .total.periods > 50' "$J"
t_exit 0 "--duplex runs" "$AUDIOLAT" run -b jack -D "$NAME" -d 1s --duplex --no-db -q --json "$J"
t_json "--duplex: recorded, periods measured" '.config.duplex and .total.periods > 50' "$J"
t_exit 0 "--tone 440 runs" "$AUDIOLAT" run -b jack -D "$NAME" -d 1s --tone 440 --no-db -q --json "$J"
t_json "--tone: recorded" '.config.tone_hz == 440' "$J"
t_exit 2 "--mmap is refused for jack" "$AUDIOLAT" run -b jack -D "$NAME" -d 1s --mmap --no-db
t_grep "$ERR" "--mmap: not with the jack backend" "... naming the option"

# another server, another rate and period: the result follows the server
stop_jackd
NAME2=$(srv_name al-jack44)
start_jackd "$NAME2" 128 44100 || server_failed "jackd -n $NAME2 -d dummy -r 44100 -p 128 starts"
t_exit 0 "a run on a 44.1 kHz, 128-frame server" \
	"$AUDIOLAT" run -b jack -D "$NAME2" -d 1s --no-db -q --json "$J"
t_json "rate 44100 and period 128 recorded" '.config.rate == 44100 and .config.period_frames == 128' "$J"
t_json "period_ns follows: 2902494" '.config.period_ns == 2902494' "$J"
t_json "the periods match (50..110 %)" \
	'(.duration_ns / .config.period_ns) as $n | .total.periods >= 0.5 * $n and .total.periods <= 1.1 * $n + 2' "$J"
stop_jackd
t_done
