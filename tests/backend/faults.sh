#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Faults: a device or server that does not exist (exit 4, one clear line and
# the list of devices); the JACK server killed in the middle of a run, with
# the JACK backend and with the ALSA backend through pcm_jack (the run stops,
# what was measured is printed and written with "interrupted": true, exit 1,
# nothing hangs).
. "$(dirname "$0")/common.sh"
need_backend jack libjack-jackd2-dev
need_backend alsa libasound2-dev
need_cmd jackd jackd2

J="$T_TMP/run.json"
GONE="nosuch-$$"

t_exit 4 "an ALSA device that does not exist: exit 4" \
	"$AUDIOLAT" run -b alsa -D "$GONE" -d 1s --no-db
t_grep "$ERR" "^audiolat run: alsa: $GONE: cannot open for playback: No such file or directory" \
	"one line names the device and why"
t_grep "$ERR" "^devices of the alsa backend" "then the list of devices"
t_grep "$ERR" "^  null +playback,capture" "... which has the null PCM"

t_exit 4 "a JACK server that does not exist: exit 4" \
	"$AUDIOLAT" run -b jack -D "$GONE" -d 1s --no-db
t_grep "$ERR" "^audiolat run: jack: JACK server '$GONE': not running" "one line names the server"
t_grep "$ERR" "^devices of the jack backend" "then what the jack backend can reach"

# a busy device (exit 4, "in use by another program") needs a kernel ALSA
# PCM: the kernel suite's alsa_busy check (qemu guest, hw:Dummy, hw:Loopback)
# and backend-hw on a real card have it

# killed mid-run: the JACK backend notices at once (the shutdown callback)
NAME=$(srv_name al-fault)
start_jackd "$NAME" 256 48000 || server_failed "jackd -n $NAME starts"
start=$(date +%s%N)
run_tty "$OUT" "$T_TMP/jack.log" "$AUDIOLAT" run -b jack -D "$NAME" -d 20s --no-db --no-histogram --json "$J"
t_measuring 10 "jack: the run measures (100 periods) before the server is killed" "$T_TMP/jack.log" 100
crash_jackd
wait $TTY_PID
rc=$?
tty_text "$T_TMP/jack.log" >"$ERR"
took=$((($(date +%s%N) - start) / 1000000))
t_result $([ $rc -eq 1 ] && echo 0 || echo 1) "jack: the server killed mid-run: exit 1 (got $rc)"
t_result $([ $took -lt 10000 ] && echo 0 || echo 1) "jack: the run ended soon after ($took ms, < 10 s of 20)"
t_grep "$ERR" "^audiolat run: the JACK server '$NAME' went away during the run; reporting what was measured" \
	"jack: one clear line"
t_grep "$OUT" "^summary: backend=jack .*samples=[1-9]" "jack: the results so far are printed"
t_json "jack: the JSON says interrupted" '.interrupted == true' "$J"
t_json "jack: ... with the periods measured until then" '.total.periods > 100' "$J"
t_json "jack: ... and a duration under the 20 s asked" '.duration_ns < 15000000000' "$J"
stop_jackd

# the ALSA backend through pcm_jack: the plugin never hears of the death;
# the backend's stall timeout (3 s) ends the run
start_jackd "$NAME" 256 48000 || server_failed "jackd -n $NAME starts again"
export JACK_DEFAULT_SERVER=$NAME JACK_NO_START_SERVER=1
jack_alsa_conf alfault system:playback_1 system:playback_2
start=$(date +%s%N)
run_tty "$OUT" "$T_TMP/alsa.log" "$AUDIOLAT" run -b alsa -D plug:alfault -P 256 -n 2 -d 20s --no-db \
	--no-histogram --json "$J"
t_measuring 10 "alsa through jack: the run measures (100 periods) before the server is killed" \
	"$T_TMP/alsa.log" 100
crash_jackd
wait $TTY_PID
rc=$?
tty_text "$T_TMP/alsa.log" >"$ERR"
took=$((($(date +%s%N) - start) / 1000000))
t_result $([ $rc -eq 1 ] && echo 0 || echo 1) "alsa through jack: the server killed mid-run: exit 1 (got $rc)"
t_result $([ $took -lt 12000 ] && echo 0 || echo 1) "alsa through jack: the run ended ($took ms, < 12 s of 20)"
t_grep "$ERR" "^audiolat run: plug:alfault stopped delivering periods" "alsa through jack: one clear line"
t_grep "$OUT" "^summary: backend=alsa .*samples=[1-9]" "alsa through jack: the results so far are printed"
t_json "alsa through jack: the JSON says interrupted" '.interrupted == true' "$J"
t_json "alsa through jack: ... with the periods until then" '.total.periods > 100' "$J"
stop_jackd
t_done
