#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# One errno -> exit status table for every subcommand (src/cli/fault.c,
# audiolat(1) EXIT STATUS): the same fault met by every subcommand that can
# meet it gives the same exit status and the same shape of message,
#   audiolat CMD: WHAT: WHY (KIND)
# No server or device is started here: the faults are the absent ones.
. "$(dirname "$0")/../lib.sh"
A=$AUDIOLAT
# WHAT: a backend, a MIDI subcommand, or the results database's URL
SHAPE='^audiolat [a-z]+: ([a-z]+( [a-z]+)?|postgresql://[^ ]+): .+ \('

# fault NAME CODE KIND CMD...: CMD exits CODE with one line of SHAPE ending in "(KIND)"
fault() {
	local name=$1 code=$2 kind=$3
	shift 3
	t_exit "$code" "$name: $* exits $code" "$@"
	t_grep "$ERR" "$SHAPE" "$name: ... one line of the shape 'audiolat CMD: WHAT: WHY (KIND)'"
	t_grep "$ERR" "\\($kind\\)\$" "$name: ... saying: $kind"
}

# no such device: alsa-lib says EINVAL for a card that does not exist (hw:77,0)
export JACK_DEFAULT_SERVER=audiolat-no-such-server-$$
for c in "run -b alsa -D hw:77,0 -d 1s --no-db" "run -b alsa -D audiolat-no-such-pcm -d 1s --no-db" \
	"sweep -b alsa -D audiolat-no-such-pcm -d 1s -P 64 --no-db" \
	"sweep -b alsa:audiolat-no-such-pcm -d 1s --no-db" \
	"monitor -b alsa -D audiolat-no-such-pcm -d 1s --no-db" \
	"roundtrip -b alsa -D audiolat-no-such-pcm -d 2s" \
	"midi record --api rawmidi --port hw:77,0 -d 1s --no-db" \
	"midi loop --api rawmidi --out hw:77,0 --in hw:77,0 -n 1 --no-db" \
	"midi send --api rawmidi --port hw:77,0 -d 1s"; do
	# shellcheck disable=SC2086
	fault "no such device" 4 "no such device or server" "$A" $c
done
# no such server
for c in "run -b jack -d 1s --no-db" "sweep -b jack -d 1s --no-db" "monitor -b jack -d 1s --no-db" \
	"roundtrip -b jack -d 2s" \
	"midi record --api jack -d 1s --no-db" "midi loop --api jack -n 1 --no-db" \
	"midi send --api jack -d 1s" "midi thru -d 1s"; do
	# shellcheck disable=SC2086
	fault "no such server" 4 "no such device or server" "$A" $c
done
# no PipeWire server (the one PIPEWIRE_REMOTE names is not there)
export PIPEWIRE_REMOTE=audiolat-no-such-pipewire-$$
# (the build's backends from meson, lib.sh's built: audiolat must then have them)
if built pipewire; then
	for c in "run -b pipewire -d 1s --no-db" "sweep -b pipewire -d 1s --no-db" \
		"monitor -b pipewire -d 1s --no-db" "roundtrip -b pipewire -d 2s"; do
		# shellcheck disable=SC2086
		fault "no PipeWire server" 4 "no such device or server" "$A" $c
	done
else
	t_skip "no PipeWire server: run, sweep, monitor, roundtrip" "built without libpipewire (libpipewire-0.3-dev was not installed)"
fi
# no such database server: every subcommand that reads or writes one names it
DB=postgresql://audiolat@127.0.0.1:1/audiolat # nothing listens on port 1
echo '{}' >"$T_TMP/x.json"
if built libpq; then
	for c in "history --db $DB" "show --db $DB 1" "export --db $DB 1" \
		"import --db $DB $T_TMP/x.json" "push --to $DB" "report --db $DB 1 -o $T_TMP/r.html" \
		"compare --db $DB 1 2"; do
		# shellcheck disable=SC2086
		fault "no database server" 4 "no such device or server" "$A" $c
	done
else
	t_skip "no database server: history, show, export, import, push, report, compare" \
		"built without libpq (libpq-dev was not installed)"
fi
# a database server out of reach to save to: run and sweep measure, warn, exit 4 alike
if built libpq; then
	for c in "run -d 200ms -q --db $DB" "sweep -d 200ms -P 64 -q --db $DB"; do
		# shellcheck disable=SC2086
		t_exit 4 "saving to no database server: $c exits 4" "$A" $c
		t_grep "$ERR" "^audiolat: warning: results database postgresql://[^ ]+: .*: the result was not saved\$" \
			"... one warning naming the database"
	done
else
	t_skip "saving to no database server: run, sweep" "built without libpq (libpq-dev was not installed)"
fi
# run and midi name the device list of the backend after the line
t_exit 4 "run: a missing device lists what there is" "$A" run -b alsa -D hw:77,0 -d 1s --no-db
t_grep "$ERR" '^devices of the alsa backend \(audiolat devices\):$' "... the alsa devices"

# not permitted: what needs SCHED_FIFO, as a user without rtprio
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	t_exit 4 "not permitted: load rt-migrate as nobody exits 4" \
		setpriv --reuid=nobody --regid=nogroup --clear-groups "$A" load rt-migrate -d 1s -q
	t_grep "$ERR" "$SHAPE|^audiolat load: " "... one line"
	t_grep "$ERR" '\(not permitted\)$' "... saying: not permitted"
else
	t_result 1 "not permitted: root and setpriv(1) to run as nobody (the suite runs as root)"
fi
# (a configuration the device cannot come close to, exit 2 naming -r/-P/-n,
# needs a device that answers: tests/backend/alsa-jack.sh)
t_done
