#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A real sound card (suite 'hardware'): hw:0 plays, and a second open of it
# while it plays is refused as busy (exit 4). Skipped without /dev/snd.
. "$(dirname "$0")/common.sh"
need_backend alsa libasound2-dev
[ -d /dev/snd ] || t_skip_all "no sound card: /dev/snd does not exist (the kernel has no sound support or no card)"
ls /dev/snd/pcmC0D0p >/dev/null 2>&1 || t_skip_all "no playback device hw:0,0 (/dev/snd/pcmC0D0p)"

J="$T_TMP/run.json"
t_exit 0 "hw:0 plays for 2 s (--nearest: whatever the card gives)" \
	"$AUDIOLAT" run -b alsa -D hw:0 -d 2s --nearest --no-db -q --json "$J"
t_json "periods measured" '.total.periods > 10' "$J"
t_json "the card's stamps are on a clock of ours" '.backend.clock | test("monotonic|realtime")' "$J"

"$AUDIOLAT" run -b alsa -D hw:0 -d 4s --nearest --no-db -q >"$T_TMP/first.out" 2>&1 &
pid=$!
t_wait 10 "the first run plays on hw:0,0 (its substream RUNNING)" \
	grep -qs '^state: RUNNING' /proc/asound/card0/pcm0p/sub0/status
t_exit 4 "a second open of hw:0 while it plays: exit 4" \
	"$AUDIOLAT" run -b alsa -D hw:0 -d 1s --nearest --no-db
t_grep "$ERR" "in use by another program" "... one line says busy"
wait $pid
t_done
