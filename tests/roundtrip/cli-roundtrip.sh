#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# audiolat roundtrip without a server: help, usage errors, unavailable
# servers and devices (exit codes of docs/man/audiolat-roundtrip.1).
. "$(dirname "$0")/../lib.sh"

t_exit 0 "--help exits 0" "$AUDIOLAT" roundtrip --help
t_grep "$OUT" '^usage: audiolat roundtrip' "--help prints the usage on stdout"
t_grep "$OUT" 'self-loop' "--help names --self-loop"
t_exit 0 "audiolat --help" "$AUDIOLAT" --help
t_grep "$OUT" '^  roundtrip ' "the command list has roundtrip"

t_exit 2 "unknown backend" "$AUDIOLAT" roundtrip -b sim
t_grep "$ERR" -- '-b/--backend' "the error names -b"
t_exit 2 "-d below 2 s" "$AUDIOLAT" roundtrip -d 1s
t_grep "$ERR" -- '-d/--duration.*at least 2s' "the error says why"
t_exit 2 "-d not a duration" "$AUDIOLAT" roundtrip -d soon
t_exit 2 "--self-loop with alsa" "$AUDIOLAT" roundtrip -b alsa --self-loop
t_grep "$ERR" -- '--self-loop: only with -b jack' "the error names --self-loop"
t_exit 2 "--in with alsa" "$AUDIOLAT" roundtrip -b alsa --in system:capture_1
t_exit 2 "--self-loop with --out" "$AUDIOLAT" roundtrip --self-loop --out system:playback_1
t_exit 2 "-P with jack" "$AUDIOLAT" roundtrip -b jack -P 64
t_grep "$ERR" -- '-P/--period: only with -b alsa' "the error names -P"
t_exit 2 "-C with jack" "$AUDIOLAT" roundtrip -C hw:0
t_exit 2 "-P with pipewire" "$AUDIOLAT" roundtrip -b pipewire -P 64
t_grep "$ERR" -- '-P/--period: only with -b alsa' "the error names -P"
t_exit 2 "--self-loop with --in on pipewire" "$AUDIOLAT" roundtrip -b pipewire --self-loop \
	--in null-sink:monitor_FL
t_exit 2 "-P out of range" "$AUDIOLAT" roundtrip -b alsa -P 8
t_exit 2 "-n 1" "$AUDIOLAT" roundtrip -b alsa -n 1
t_exit 2 "-r not a number" "$AUDIOLAT" roundtrip -b alsa -r fast
t_exit 2 "-p 100" "$AUDIOLAT" roundtrip -b alsa -p 100
t_exit 2 "--json without a file" "$AUDIOLAT" roundtrip --json
t_exit 2 "unknown option" "$AUDIOLAT" roundtrip --loop
t_exit 2 "stray argument" "$AUDIOLAT" roundtrip extra

# nothing to connect to: 4, one line, quickly
export JACK_NO_START_SERVER=1
t_exit 4 "no such JACK server" env JACK_DEFAULT_SERVER="audiolat-none-$$" \
	"$AUDIOLAT" roundtrip --self-loop -d 2
t_grep "$ERR" 'roundtrip: jack: cannot connect to the JACK server' "says the server is missing"
t_exit 4 "-D names a JACK server that is not running" "$AUDIOLAT" roundtrip -D "audiolat-none-$$" \
	--self-loop
t_grep "$ERR" "JACK server 'audiolat-none-$$'" "names the server"
t_exit 4 "no such ALSA PCM" "$AUDIOLAT" roundtrip -b alsa -D audiolat_no_such_pcm -d 2
t_grep "$ERR" "roundtrip: alsa: cannot open playback PCM 'audiolat_no_such_pcm'" "names the PCM"
# alsa-lib answers -EINVAL for a card that does not exist: no usage error
t_exit 4 "a card that does not exist (hw:77,0)" "$AUDIOLAT" roundtrip -b alsa -D hw:77,0 -d 2
t_grep "$ERR" "cannot open playback PCM 'hw:77,0'.*no such device or server" "... says there is no such device"
t_done
