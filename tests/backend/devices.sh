#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# audiolat devices: the test's jackd and its ports, the ALSA PCM the test
# defines (with its hint), the JSON document; usage errors.
. "$(dirname "$0")/common.sh"
need_backend jack libjack-jackd2-dev
need_backend alsa libasound2-dev
need_cmd jackd jackd2

NAME=$(srv_name al-dev)
start_jackd "$NAME" 256 48000 || server_failed "jackd -n $NAME starts"
export JACK_DEFAULT_SERVER=$NAME
jack_alsa_conf aldev system:playback_1 system:playback_2

t_exit 0 "audiolat devices exits 0" "$AUDIOLAT" devices
t_grep "$OUT" "^  server $NAME +running +48000 Hz, 256 frames per period" "the test's server, running"
t_grep "$OUT" "^    system:playback_1 +input,physical,terminal +32 bit float mono audio" \
	"its ports, with flags and type"
t_grep "$OUT" "^    system:capture_2 +output,physical" "capture ports too"
t_grep "$OUT" "^  aldev +playback,capture +audiolat test: JACK server $NAME" \
	"the test's ALSA PCM with its hint"
t_grep "$OUT" "^  null " "the null PCM of alsa.conf"

D="$T_TMP/devices.json"
t_exit 0 "--json FILE exits 0" "$AUDIOLAT" devices --json "$D"
t_grep "$OUT" "^jack: " "--json FILE: the text still goes to stdout"
t_json "schema audiolat.devices/1" '.schema == "audiolat.devices/1"' "$D"
t_json "the jack backend lists the server" \
	".backends[] | select(.backend == \"jack\") | .devices | any(.kind == \"jack-server\" and .name == \"$NAME\" and .detail == \"running\")" "$D"
t_json "... and its port system:playback_2" \
	'.backends[] | select(.backend == "jack") | .devices | any(.kind == "jack-port" and .name == "system:playback_2" and .description == "32 bit float mono audio")' "$D"
t_json "the alsa backend lists aldev" \
	'.backends[] | select(.backend == "alsa") | .devices | any(.kind == "alsa-pcm" and .name == "aldev")' "$D"
t_json "sim is there, with no devices" \
	'.backends[] | select(.backend == "sim") | .available and (.devices | length == 0)' "$D"

t_exit 0 "-b alsa --json - exits 0" "$AUDIOLAT" devices -b alsa --json -
t_json "only the alsa backend" '[.backends[].backend] == ["alsa"]' "$OUT"

# the server gone: it is not listed as running any more
stop_jackd
"$AUDIOLAT" devices -b jack >"$OUT" 2>"$ERR"
st=$?
# exit 4 when no JACK server is left (other servers of this machine may run)
if grep -q "no JACK server running" "$OUT"; then want=4; else want=0; fi
t_result "$([ "$st" -eq "$want" ] && echo 0 || echo 1)" "with the server stopped, devices lists and exits $want (got $st)"
t_nogrep "$OUT" "^  server $NAME +running" "the stopped server is not listed as running"
# JACK servers are found by their files in /dev/shm: other servers on this
# machine are hidden by an empty /dev/shm of a mount namespace of its own
if ! ls /dev/shm/jack_*_"$(id -u)"_0 >/dev/null 2>&1; then
	t_exit 4 "no server at all: devices -b jack lists none and exits 4" "$AUDIOLAT" devices -b jack
	t_grep "$OUT" "no JACK server running" "no server at all: 'no JACK server running'"
elif unshare -m true 2>/dev/null; then
	t_exit 4 "no server at all (a private, empty /dev/shm): devices -b jack exits 4" \
		unshare -m sh -c 'mount -t tmpfs audiolat-test /dev/shm && exec "$@"' sh "$AUDIOLAT" devices -b jack
	t_grep "$OUT" "no JACK server running" "no server at all: 'no JACK server running'"
else
	t_skip "no server at all: devices -b jack exits 4" "other JACK servers run on this machine, and no mount namespace (unshare -m) hides them"
	t_skip "no server at all: 'no JACK server running'" "other JACK servers run on this machine, and no mount namespace (unshare -m) hides them"
fi

t_exit 2 "-b nosuch is a usage error" "$AUDIOLAT" devices -b nosuch
t_grep "$ERR" "-b/--backend: unknown backend 'nosuch'" "... naming the option"
t_exit 2 "an unknown option is a usage error" "$AUDIOLAT" devices --frobnicate
t_exit 2 "an argument is a usage error" "$AUDIOLAT" devices extra
t_exit 0 "--help exits 0" "$AUDIOLAT" devices --help
t_grep "$OUT" "^usage: audiolat devices" "--help prints the usage"
t_done
