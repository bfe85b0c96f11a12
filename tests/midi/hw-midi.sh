#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# audiolat midi over ALSA, where the machine has it (suite 'hardware'):
# the sequencer through snd-seq-dummy's "Midi Through" port (client 14)
# when it is loaded, and a rawmidi loop when AUDIOLAT_TEST_RAWMIDI names
# a device whose output is cabled to its input (hw:C,D). Skips without
# /dev/snd; the framing records themselves are unit-tested from byte
# buffers (midi-framing) everywhere.
. "$(dirname "$0")/../lib.sh"
[ -e /dev/snd ] || t_skip_all "no /dev/snd (no ALSA sound devices on this machine)"
command -v jq >/dev/null || t_skip_all "jq not installed (scripts/packages.txt)"

# seq_port_read NAME: the sequencer port NAME sends to a subscriber
seq_port_read() {
	awk -v name="\"$1\"" '
		/^Client/ || /^  Port/ { p = 0 }
		/^  Port/ && index($0, name) { p = 1 }
		p && /Connecting To/ { f = 1 }
		END { exit !f }' /proc/asound/seq/clients
}

if [ -e /dev/snd/seq ] && grep -q 'Client  14 : "Midi Through"' /proc/asound/seq/clients 2>/dev/null; then
	R="$T_TMP/seq.json"
	"$AUDIOLAT" midi record --api seq --port 14:0 -d 4 --interval 100ms --json "$R" --no-db -q \
		>/dev/null 2>"$T_TMP/rec.err" &
	REC=$!
	# the recorder is subscribed to Midi Through's port before anything is sent
	t_wait 10 "seq: record reads from Midi Through" seq_port_read "Midi Through Port-0"
	t_exit 0 "seq: send 3 s into Midi Through" "$AUDIOLAT" midi send --api seq --port 14:0 -d 3 -q
	wait $REC
	t_result $? "seq: record from Midi Through exits 0"
	t_json "seq: 20..40 note-ons, stamped by a real-time queue" \
		'.events >= 20 and .events <= 40 and .source.timestamp_source == "seq-real-time-queue"' "$R"
	t_json "seq: mean delta about 100 ms" '.delta_mean_ns > 90000000 and .delta_mean_ns < 110000000' "$R"
	t_exit 0 "seq: loop through Midi Through" \
		"$AUDIOLAT" midi loop --api seq --out 14:0 --in 14:0 -n 100 --json "$T_TMP/loop.json" --no-db -q
	t_json "seq: 100 echoed, 0 lost" '.echoed == 100 and .lost == 0 and .latency_min_ns > 0' "$T_TMP/loop.json"
else
	t_skip "seq through Midi Through" "snd-seq-dummy not loaded (modprobe snd-seq-dummy)"
fi

if [ -n "${AUDIOLAT_TEST_RAWMIDI:-}" ]; then
	D=$AUDIOLAT_TEST_RAWMIDI
	t_exit 0 "rawmidi: loop through the cable on $D" \
		"$AUDIOLAT" midi loop --api rawmidi --out "$D" --in "$D" -n 100 --json "$T_TMP/raw.json" --no-db -q
	t_json "rawmidi: 100 echoed, 0 lost, at least a wire time (0.96 ms for 3 bytes)" \
		'.echoed == 100 and .lost == 0 and .latency_min_ns >= 900000' "$T_TMP/raw.json"
	t_json "rawmidi: the timestamp source is named" \
		'.source.timestamp_source | test("^rawmidi-(framing-monotonic|read-time)$")' "$T_TMP/raw.json"
else
	t_skip "rawmidi loop" "set AUDIOLAT_TEST_RAWMIDI=hw:C,D (output cabled to input)"
fi
t_done
