#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The OSS backend on a fake /dev/dsp: tests/backend/fake-oss.c, preloaded,
# answers for one path that never exists as a file ($FAKE_OSS_PATH) with a
# simulated card that plays on CLOCK_MONOTONIC and stops on an underrun as
# ALSA's OSS emulation does. What was detected is asserted, never a speed:
# the fragments the driver gave, the JSON of a run, and the underrun of a
# 300 ms SIGSTOP with its duration held to the fake's own record of it.
. "$(dirname "$0")/common.sh"
need_backend oss "linux/soundcard.h"
[ -n "${FAKE_OSS_MODULE:-}" ] || t_bail "meson built the fake OSS module beside the oss backend (FAKE_OSS_MODULE)"
[ -f "$FAKE_OSS_MODULE" ] || t_bail "the fake OSS module was built ($FAKE_OSS_MODULE)"
# the module is built here: if it does not preload, that is a failure
LD_PRELOAD=$FAKE_OSS_MODULE "$AUDIOLAT" --version >/dev/null 2>"$ERR"
if grep -q 'cannot be preloaded' "$ERR"; then
	t_bail "the fake OSS module preloads into audiolat: $(head -n 1 "$ERR")"
fi

# the fake's device, in a directory nobody creates
DSP="$T_TMP/dev/dsp"
export FAKE_OSS_PATH=$DSP
unset FAKE_OSS_COARSE FAKE_OSS_GETERROR FAKE_OSS_FRAG_SCALE FAKE_OSS_LOG
REF="$T_TMP/sim.json"
J="$T_TMP/run.json"

fake() { LD_PRELOAD=$FAKE_OSS_MODULE "$@"; }

# jx DESC EXPR FILE [JQ ARGS]: EXPR is true of FILE ($dev: the fake device, $ref[0]: a sim run)
jx() {
	local desc=$1 expr=$2 file=$3
	shift 3
	t_json "$desc" --arg dev "$DSP" --slurpfile ref "$REF" "$@" "$expr" "$file"
}

t_exit 0 "a sim run for the JSON keys" "$AUDIOLAT" run --no-db -q -d 200ms --json "$REF"

# latencytest's 3x256, 1.5 s
t_exit 0 "-b oss --fragments 3x256 on the fake runs" \
	fake "$AUDIOLAT" run --no-db -q -b oss -D "$DSP" --fragments 3x256 -d 1.5s --json "$J"
jx "the device asked for is the one recorded" '.config.backend == "oss" and .config.device == $dev' "$J"
jx "3 fragments of 64 frames" '.config.periods == 3 and .config.period_frames == 64' "$J"
jx "48000 Hz, S16_LE, 2 channels" '.config.rate == 48000 and .config.format == "S16_LE" and .config.channels == 2' "$J"
jx "what was asked is recorded" \
	'.config.requested_rate == 48000 and .config.requested_periods == 3 and .config.requested_period_frames == 64' "$J"
jx "backend.detail: the fragments given, GETERROR not offered" \
	'.backend.detail == "\($dev): OSS playback, blocking writes, S16_LE, 2 ch, 48000 Hz, 3 x 256 bytes (64 frames); SNDCTL_DSP_GETERROR not offered"' "$J"
jx "boundaries come from the fill level" '.backend.clock | test("^no device stamps \\(OSS\\); boundaries: [0-9]+ fill level, [0-9]+ account, [0-9]+ grid$")' "$J"
jx "periods were measured" '.total.periods > 0 and .total.wake_latency_ns.count > 0' "$J"
jx "intervals were measured" '.total.interval_ns.count > 0 and .total.interval_ns.min > 0' "$J"
jx "the run ran to its end" '.duration_ns > 0 and .interrupted == false' "$J"
jx "the top-level keys of a sim run are all there" '(($ref[0] | keys) - keys) == []' "$J"
jx "the keys of total are those of a sim run" '(($ref[0].total | keys) - (.total | keys)) == []' "$J"
jx "the keys of config are those of a sim run" '(($ref[0].config | keys) - (.config | keys)) == []' "$J"

# a driver that doubles the fragment (ALSA's emulation on HDA): refused, unless --nearest
FAKE_OSS_FRAG_SCALE=2 t_exit 2 "doubled fragments without --nearest: exit 2" \
	fake "$AUDIOLAT" run --no-db -q -b oss -D "$DSP" --fragments 3x256 -d 300ms
t_grep "$ERR" "^audiolat run: .*$DSP gave 48000 Hz, 3 x 128 frames \(512-byte fragments\) for 48000 Hz, 3 x 64 frames; --nearest takes it$" \
	"... saying what was given and that --nearest takes it"
t_result $([ "$(wc -l <"$ERR")" -eq 1 ] && echo 0 || echo 1) "... in one line"
FAKE_OSS_FRAG_SCALE=2 t_exit 0 "doubled fragments with --nearest: runs" \
	fake "$AUDIOLAT" run --no-db -q -b oss -D "$DSP" --fragments 3x256 --nearest -d 300ms --json "$J"
jx "... with 3 periods of 128 frames, 64 asked" \
	'.config.periods == 3 and .config.period_frames == 128 and .config.requested_period_frames == 64' "$J"

# stopped (SIGSTOP) for 300 ms with a 64 ms buffer (3 x 1024 frames): the
# stream runs dry, the fake stops it and restarts it with the next write,
# telling nobody but $FAKE_OSS_LOG (the truth: when the audio ran out, when
# the write restarted it). The environment says what the fake simulates.
# stop_run NAME LAG_NS: the longest xrun's duration is held to the fake's
# to 10 ms either way (the readings' own delays on a busy machine; the
# period is 21.3 ms), and may be LAG_NS shorter still (a pointer that lags
# by a fragment reads the audio running out later)
stop_run() {
	local name=$1 lag=$2 log="$T_TMP/$1.log" x="$T_TMP/$1.json" truth
	rm -f "$log"
	# on a terminal: stopped once its status line counts 15 periods (0.3 s
	# of 21.3 ms periods) of the stream the fake started
	run_tty "$OUT" "$T_TMP/$name.tty" env FAKE_OSS_LOG="$log" LD_PRELOAD="$FAKE_OSS_MODULE" \
		"$AUDIOLAT" run --no-db -b oss -D "$DSP" -P 1024 -n 3 -d 3s -v --no-histogram --json "$x"
	t_measuring 10 "$name: the run measures (15 periods)" "$T_TMP/$name.tty" 15
	t_grep "$log" '^start ' "$name: the fake started its stream"
	kill -STOP "$RUN_PID"
	sleep 0.3
	kill -CONT "$RUN_PID"
	wait "$TTY_PID"
	t_result $? "$name: the stopped run exits 0"
	tty_text "$T_TMP/$name.tty" >"$ERR"
	jx "$name: at least one xrun" '.total.xruns >= 1 and (.xrun_events | length) >= 1' "$x"
	jx "$name: the longest is at least 150 ms (the stop minus the buffer)" \
		'[.xrun_events[].duration_ns] | max >= 150000000' "$x"
	jx "$name: every xrun duration is >= 0 and shorter than the run" \
		'.duration_ns as $d | (.xrun_events | length) > 0 and all(.xrun_events[]; .duration_ns >= 0 and .duration_ns < $d)' "$x"
	jx "$name: every xrun lies inside the run" \
		'.duration_ns as $d | (.xrun_events | length) > 0 and all(.xrun_events[]; .t_ns >= 0 and .t_ns <= $d)' "$x"
	# every period begun while the card stood dry is lost: the duration in
	# periods rounded up, and one at least (a stop shorter than a period)
	jx "$name: each xrun loses the periods its duration began, one at least" \
		'.config.period_ns as $p | (.xrun_events | length) > 0 and all(.xrun_events[]; .lost_periods >= 1 and
		 .duration_ns <= .lost_periods * $p and (.lost_periods == 1 or (.lost_periods - 1) * $p < .duration_ns))' "$x"
	t_grep "$OUT" 'underrun!!! \(at least [0-9.]+ ms long\)' "$name: -v prints the underrun"
	jx "$name: backend.xrun_durations.last_reject says how each xrun was found, each one way" \
		'.total.xruns as $n | .backend.xrun_durations.last_reject | capture("^no stamps \\(OSS\\): (?<a>[0-9]+) from the fill level, (?<b>[0-9]+) a drained buffer, (?<c>[0-9]+) GETERROR$")
		| [.[] | tonumber] | add == $n' "$x"
	# against the fake's record: no xrun it did not have, and the longest one's duration
	jx "$name: no more xruns than the fake had underruns" '.total.xruns <= $n' "$x" \
		--argjson n "$(grep -c '^underrun ' "$log")"
	truth=$(awk '$1 == "underrun" && $3 - $2 > m { m = $3 - $2 } END { print m + 0 }' "$log")
	echo "# $name: the longest xrun $(jq '[.xrun_events[].duration_ns] | max' "$x") ns, the fake's $truth ns; $(jq -r .backend.xrun_durations.last_reject "$x")"
	jx "$name: its duration is the fake's (from when the audio ran out to the restart)" \
		'[.xrun_events[].duration_ns] | max | . <= $t + 10000000 and . >= $t - $lag - 10000000' "$x" \
		--argjson t "$truth" --argjson lag "$lag"
}

stop_run continuous 0
# the pointer moves only at 'interrupts': the account reads the buffer
# running dry up to a fragment (21.3 ms) late
FAKE_OSS_COARSE=1 stop_run coarse 21333333
# there the fill level after the write is not older than the wake-up: some
# boundaries come from the period grid (with the smooth pointer too, when a
# wake-up comes within a frame of the boundary: nothing is asserted there)
jx "coarse: boundaries from the period grid" \
	'.backend.clock | capture("(?<g>[0-9]+) grid$").g | tonumber > 0' "$T_TMP/coarse.json"

# OSS 4's GETERROR: the stop's underrun is found by the fill level (stopped
# in the blocking write) or a drained buffer (stopped in the work), and the
# play_underruns GETERROR reports for it in that period's write is not
# counted again: one long xrun for one stop
FAKE_OSS_GETERROR=1 stop_run geterror 0
jx "geterror: backend.detail says GETERROR is read" '.backend.detail | endswith("; SNDCTL_DSP_GETERROR read")' \
	"$T_TMP/geterror.json"
jx "geterror: the one stop is one xrun of 100 ms or more" \
	'[.xrun_events[] | select(.duration_ns >= 100000000)] | length == 1' "$T_TMP/geterror.json"

# SIGINT while the audio thread sleeps in a blocking write: the run ends at
# once with what it measured
run_tty "$OUT" "$T_TMP/int.tty" env LD_PRELOAD="$FAKE_OSS_MODULE" \
	"$AUDIOLAT" run --no-db -b oss -D "$DSP" -P 1024 -d 30s --no-histogram --json "$T_TMP/int.json"
t_measuring 10 "SIGINT: the run measures (15 periods)" "$T_TMP/int.tty" 15
kill -INT "$RUN_PID"
wait "$TTY_PID"
t_result $? "SIGINT: exit 0"
jx "SIGINT: the result says interrupted and keeps the periods measured" \
	'.interrupted == true and .total.periods >= 15 and .duration_ns < 30000000000' "$T_TMP/int.json"

t_result $([ ! -e "$DSP" ] && [ ! -e "$(dirname "$DSP")" ] && echo 0 || echo 1) \
	"the fake's device was never created as a file"
t_done
