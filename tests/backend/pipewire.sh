#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The JACK and ALSA backends against PipeWire with a null sink as the driver
# (pipewire, wireplumber and pipewire-jack on a private D-Bus, all started and
# stopped here): through pw-jack the JACK backend reports PipeWire's rate and
# quantum, the ALSA backend runs through pcm_jack into the null sink.
. "$(dirname "$0")/common.sh"
need_backend jack libjack-jackd2-dev
need_backend alsa libasound2-dev
need_cmd pipewire pipewire
need_cmd wireplumber wireplumber
need_cmd pw-jack pipewire-jack
need_cmd dbus-daemon dbus

J="$T_TMP/run.json"
start_pipewire 256 48000 || server_failed "PipeWire with a null sink starts"

t_exit 0 "JACK backend on PipeWire (pw-jack), 2 s: exits 0" \
	pw-jack "$AUDIOLAT" run -b jack -d 2s --no-db -q --json "$J"
t_json "rate and quantum are PipeWire's: 48000, 256" \
	'.config.rate == 48000 and .config.period_frames == 256' "$J"
t_json "it ran on PipeWire's libjack" '.backend.detail | test("PipeWire")' "$J"
t_json "the periods match the run's length (50..110 %)" \
	'(.duration_ns / .config.period_ns) as $n | .total.periods >= 0.5 * $n and .total.periods <= 1.1 * $n + 2' "$J"
t_json "wake latency is above zero, the least within a period" \
	'.total.wake_latency_ns.min > 0 and .total.wake_latency_ns.min < 5333333' "$J"
t_json "median interval is one period (within 20 %)" \
	'(.total.interval_ns.p50 - 5333333) | fabs < 1066667' "$J"
t_json "DSP load recorded" '.backend.dsp_load_mean_pct >= 0' "$J"

jack_alsa_conf alpw "Null Sink:playback_FL" "Null Sink:playback_FR" -- \
	"Null Sink:monitor_FL" "Null Sink:monitor_FR"
t_exit 0 "ALSA backend through pcm_jack into the null sink, 3 x 256: exits 0" \
	pw-jack "$AUDIOLAT" run -b alsa -D plug:alpw -P 256 -n 3 -d 2s --no-db -q --json "$J"
t_json "the device gave 48000 Hz, 3 x 256" \
	'.config.rate == 48000 and .config.period_frames == 256 and .config.periods == 3' "$J"
t_json "the periods match the run's length (50..110 %)" \
	'(.duration_ns / .config.period_ns) as $n | .total.periods >= 0.5 * $n and .total.periods <= 1.1 * $n + 2' "$J"
t_json "median interval is one period (within 20 %)" \
	'(.total.interval_ns.p50 - 5333333) | fabs < 1066667' "$J"
t_exit 0 "... --capture from the sink's monitor" \
	pw-jack "$AUDIOLAT" run -b alsa -D plug:alpw -P 256 -n 3 -d 1s --capture --no-db -q --json "$J"
t_json "--capture: periods measured" '.total.periods > 50' "$J"

t_exit 0 "audiolat devices sees PipeWire's JACK ports" pw-jack "$AUDIOLAT" devices -b jack
t_grep "$OUT" "Null Sink:playback_FL" "... the null sink's playback port"
stop_pipewire
t_done
