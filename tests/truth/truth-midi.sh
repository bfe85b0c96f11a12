#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The truth matrix, MIDI (docs/truth.md): truth-midi.sh jack (pwjack:
# not yet, docs/truth.md says why). `audiolat midi record` on JACK
# (jackd2's dummy driver, or PipeWire's JACK) receives a note-on at every 4800th frame (10 Hz at 48 kHz, seed
# 002's rate) from truth-midi-source, which writes down when each event
# really went out on CLOCK_MONOTONIC. The server is stopped for 40..150 ms
# (random) at a random point: the events due meanwhile go out late, when
# it runs again. What record says against the source: every event; away
# from the stall every delta 100 ms to 50 us (the source's frames); the
# stall's delta the source's to 200 us (its stamps carry the server's
# wake-up jitter) and in one window of the timeline; the mean to 5 us;
# and the source's stall against the fault.
BE=${1:?backend} # (servers.sh sets the positional parameters)
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../servers.sh"
. "$(dirname "$0")/lib.sh"
trap 'truth_cleanup; [ -n "${SP:-}" ] && kill "$SP" 2>/dev/null; srv_stop_all; rm -rf "$T_TMP"' EXIT
J=$T_TMP/record.json
SRC=$T_TMP/source.txt
SOURCE=$TRUTH_BIN/truth-midi-source
PRE=()
command -v jq >/dev/null || { t_result 1 "jq is installed"; t_done; exit 1; }
[ -x "$SOURCE" ] && [ -x "$TRUTH_BIN/truth-stall" ] ||
	{ t_result 1 "the truth tools are built ($TRUTH_BIN)"; t_done; exit 1; }

case $BE in
jack)
	start_jackd "$(srv_name truthmidi)" 256 || { t_result 1 "jackd (dummy) starts: $SRV_WHY"; t_done; exit 1; }
	export JACK_DEFAULT_SERVER=$SRV_JACKD_NAME
	SERVER_PID=$SRV_JACKD_PID
	;;
pwjack)
	start_pipewire 256 48000 || { t_result 1 "PipeWire with a null sink starts: $SRV_WHY"; t_done; exit 1; }
	PRE=(pw-jack)
	SERVER_PID=${SRV_PW_PIDS[1]} # the pipewire daemon (its null sink drives the graph)
	;;
*)
	echo "truth-midi.sh: no backend '$BE'" >&2
	exit 2
	;;
esac

port_there() { "${PRE[@]}" jack_lsp 2>/dev/null | grep -qx 'audiolat-record:in'; }
connected() { "${PRE[@]}" jack_lsp -c 2>/dev/null | grep -A1 -x 'truth-midi:out' | grep -q 'audiolat-record:in'; }

# measure: record, the source into it, the server stopped for a random
# S ms at a random point, then both ended; the source's times in $SRC
measure() {
	S=$(truth_random 40 150)
	"${PRE[@]}" "$AUDIOLAT" midi record --interval 100ms -d 60s --no-db -q --json "$J" >"$OUT" 2>"$ERR" &
	TRUTH_PID=$!
	t_wait 20 "record's port audiolat-record:in is there" port_there
	"${PRE[@]}" "$SOURCE" audiolat-record:in 4800 "$SRC" 2>"$T_TMP/source.err" &
	SP=$!
	t_wait 20 "the source plays into it" connected
	# the random point: the fault's timing, not a wait
	sleep "1.$(truth_random 0 9)"
	out=$("$TRUTH_BIN/truth-stall" "$SERVER_PID" "$S")
	t_result $? "the server (pid $SERVER_PID) stopped for $S ms"
	eval "${out// /; }"
	# events after the stall, as many as before it
	sleep 1.5
	kill -TERM "$SP"
	wait "$SP"
	t_result $? "the source ends on SIGTERM and writes its times"
	SP=
	kill -INT "$TRUTH_PID"
	truth_wait
	t_result $? "record ends on SIGINT with exit 0 (results kept)"
	TRUTH_PID=

}

# (measured again, once, when record lost an event and says the server
# skipped frames meanwhile, irregular cycles: jackd, resuming from the
# stall, left our client out of a cycle and the events of that cycle were
# never delivered to it, once in about 25 runs; a record that loses events
# on its own loses them twice)
for attempt in 1 2; do
	measure
	n=$(wc -l <"$SRC" 2>/dev/null || echo 0)
	[ "$attempt" -lt 2 ] && json_ok --argjson n "$n" '.events < $n and .source.irregular_cycles > 0' "$J" >/dev/null || break
	echo "# record: $(jq -r '.events' "$J") of the source's $n events, the server's cycles irregular $(jq -r '.source.irregular_cycles' "$J") times: measured again"
done
n=$(wc -l <"$SRC" 2>/dev/null || echo 0)
t_result $([ "$n" -ge 20 ] && echo 0 || echo 1) "the source sent 20 events or more ($n)"
# the source's figures, in us (the JSON's tick): min, mean, max of the deltas, and how many are over 101 ms
read -r smin smean smax sover < <(awk 'NR > 1 { d = $1 - p; if (NR == 2 || d < mn) mn = d; if (d > mx) mx = d
	if (d > 101000000) o++ } { p = $1; if (NR == 1) f = $1 }
	END { printf "%d %d %d %d\n", mn / 1000, (p - f) / (NR - 1) / 1000, mx / 1000, o }' "$SRC")
echo "# source: $n events, deltas min ${smin} us mean ${smean} us max ${smax} us, $sover over 101 ms; the stall $((stall_ns / 1000)) us"
# the server's period, in us (from record's document)
P_US=$(jq '.source.period_frames * 1000000 / .source.rate | ceil' "$J" 2>/dev/null)
[ -n "$P_US" ] && [ "$P_US" != null ] || P_US=0
set -- --argjson n "$n" --argjson smin "${smin:-0}" --argjson smean "${smean:-0}" \
	--argjson smax "${smax:-0}" --argjson stall "$stall_ns" --argjson p "$P_US"
# the truth: the events due in the stall went out when the server ran again,
# at most a period (5.3 ms) + 2 ms before its end, at most 10 ms after
t_result $([ "$sover" = 1 ] && echo 0 || echo 1) "the source: one delta over 101 ms (the stall)"
lo=$((100000 + stall_ns / 1000 - 2 * P_US)) hi=$((100000 + stall_ns / 1000 + 10000))
t_result $([ "${smax:-0}" -ge $lo ] && [ "${smax:-0}" -le $hi ] && echo 0 || echo 1) \
	"the source: its longest delta is 100 ms + the stall (-2 periods .. +10 ms): $smax us in $lo..$hi"
tjq "record: every event the source sent" '.events == $n' "$J" "$@"
# (the source's stamps carry the server's wake-up jitter, up to 150 us
# seen: the frames are the truth between events, the stamps across the stall)
# (when the server skipped frames around the stall, irregular cycles, the
# source's stamp and record's line part by up to 2 periods on the event
# after it: seen once in 25 runs, 10.5 ms, not explained yet: docs/truth.md)
tjq "record: the longest delta is the source's across the stall (±200 us; 2 periods after skipped frames)" \
	'(if .source.irregular_cycles > 0 then 2 * $p + 200 else 200 end) as $tol |
	 (.delta_max_ns / 1000 - $smax) | fabs <= $tol' "$J" "$@"
tjq "record: away from the stall every delta is the source's 4800 frames, 100 ms ±50 us" \
	'.delta_min_ns >= 99950000 and ([.timeline.rows[] | select(.[1] > 0 and .[3] <= 101000000) |
	 select(.[2] < 99950000 or .[3] > 100050000)] | length == 0)' "$J" "$@"
tjq "record: the mean delta is the source's (±5 us)" \
	'(.delta_mean_ns / 1000 - $smean) | fabs <= 5' "$J" "$@"
tjq "record: the stall in one timeline window, no other window over 101 ms" \
	'[.timeline.rows[] | select(.[1] > 0 and .[3] > 101000000)] | length == 1' "$J" "$@"
jq -r 'def us: if . == null then "null" else (. / 1000 | floor | tostring) end;
	"# truth-record: midi-'"$BE"' stall truth_us=\($stall / 1000 | floor) sent=\($n) events=\(.events)" +
	" src_max_us=\($smax) max_us=\(.delta_max_ns | us) src_min_us=\($smin) min_us=\(.delta_min_ns | us)" +
	" src_mean_us=\($smean) mean_us=\(.delta_mean_ns | us)"' "$J" "$@" 2>/dev/null
t_done
