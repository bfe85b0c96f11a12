#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run --tone HZ plays a sine of HZ at -12 dBFS on every channel (jack, alsa):
# what audiolat plays into a jackd (dummy driver) is recorded off its ports
# with jack_rec and measured by tone-measure.py (its own WAV reader): the
# frequency from the zero crossings, the level, no drop-out, the channels
# alike. Without --tone the output is silence.
. "$(dirname "$0")/common.sh"
need_backend jack libjack-jackd2-dev
need_backend alsa libasound2-dev
need_cmd jackd jackd2
need_cmd jack_rec jackd2
MEASURE=$TESTS_DIR/backend/tone-measure.py

NAME=$(srv_name al-tone)
start_jackd "$NAME" 256 48000 || server_failed "jackd -n $NAME starts"
export JACK_DEFAULT_SERVER=$NAME JACK_NO_START_SERVER=1
jack_alsa_conf altone system:playback_1 system:playback_2

# ports_of PID: audiolat PID's JACK output ports (its own client, or the
# pcm_jack client of its ALSA PCM), a line each; false while there are none
ports_of() {
	PORTS=$(jack_lsp -s "$NAME" 2>/dev/null | grep -E "^(audiolat-$1|[^:]*\.$1\.[0-9]+):out_")
	[ -n "$PORTS" ]
}

# record LABEL WAV HZ CMD...: CMD (an audiolat run of a HZ tone, 0 for
# none) on a terminal; once it measures, 1 s of its output ports recorded
# into WAV, then SIGINT
record() {
	local label=$1 wav=$2 hz=$3 log="$T_TMP/$1.tty"
	shift 3
	run_tty "$T_TMP/$label.out" "$log" "$@"
	t_measuring 10 "$label: the run measures (50 periods)" "$log" 50
	t_wait 10 "$label: its output ports are there" ports_of "$RUN_PID"
	# (recorded once: a cycle jackd skipped a client for, whose ports then
	# hold the cycle before, is a phase jump in the recording, not another
	# frequency; tone-measure.py reads the frequency over the median
	# crossing interval and counts the jumps, printed below)
	# shellcheck disable=SC2086
	jack_rec -f "$wav" -d 1 -b 16 $PORTS >"$OUT" 2>"$ERR"
	rc=$?
	t_result "$rc" "$label: jack_rec records 1 s of them"
	kill -INT "$RUN_PID"
	wait "$TTY_PID"
	t_result $? "$label: the run exits 0"
	t_true "$label: tone-measure.py reads the recording" \
		sh -c "python3 '$MEASURE' '$wav' >'$T_TMP/$label.json'"
	echo "# $label: $(cat "$T_TMP/$label.json")"
}

# check_tone LABEL HZ CHANNELS: the recording is the sine: HZ to 0.1 %, a
# peak of -12.04 dBFS (0.25 of full scale) and an RMS 3.01 dB below it (a
# sine, not a square), to 0.2 dB, for the whole second, on every channel
check_tone() {
	local j="$T_TMP/$1.json"
	t_json "$1: a tone of at least 0.5 s without a drop-out recorded" \
		'.tone_seconds >= 0.5' "$j"
	t_json "$1: its frequency is $2 Hz (to 0.1 %)" --argjson f "$2" \
		'((.freq_hz - $f) | fabs) <= $f / 1000' "$j"
	t_json "$1: its peak is -12 dBFS (0.25 of full scale, to 0.2 dB)" \
		'(.peak_dbfs | length) > 0 and all(.peak_dbfs[]; ((. + 12.041) | fabs) <= 0.2)' "$j"
	t_json "$1: its RMS is a sine's, 3.01 dB below the peak (to 0.2 dB)" \
		'(.rms_dbfs | length) > 0 and all(.rms_dbfs[]; ((. + 15.051) | fabs) <= 0.2)' "$j"
	# (jack_rec connects its ports one by one: its later channels may be
	# silent for the first cycle or two of the recording: about 260 frames,
	# from the RMS of one failure)
	t_json "$1: on each of its $3 channels, the same, once all have sound (within 2 periods)" \
		--argjson n "$3" '.channels == $n and .max_channel_diff < 0.001 and .channels_late_frames <= 512' "$j"
}

record jack-1000 "$T_TMP/jack-1000.wav" 1000 "$AUDIOLAT" run -b jack --tone 1000 -d 30s --no-db --no-histogram
check_tone jack-1000 1000 2
record jack-440 "$T_TMP/jack-440.wav" 440 "$AUDIOLAT" run -b jack --tone 440 -d 30s --no-db --no-histogram
check_tone jack-440 440 2
record jack-silent "$T_TMP/jack-silent.wav" 0 "$AUDIOLAT" run -b jack -d 30s --no-db --no-histogram
t_json "jack without --tone: silence" '.tone_seconds == 0' "$T_TMP/jack-silent.json"

# the ALSA backend's own sine, through pcm_jack (a 2 x 256-frame buffer, float)
record alsa-750 "$T_TMP/alsa-750.wav" 750 "$AUDIOLAT" run -b alsa -D plug:altone -P 256 -n 2 --tone 750 \
	-d 30s --no-db --no-histogram
check_tone alsa-750 750 2
stop_jackd
t_done
