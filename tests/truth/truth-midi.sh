#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The truth matrix, MIDI (docs/truth.md): truth-midi.sh jack (pwjack:
# not yet, docs/truth.md says why). `audiolat midi record` on JACK
# (jackd2's dummy driver, or PipeWire's JACK) receives a note-on at every 4800th frame (10 Hz at 48 kHz, seed
# 002's rate) from truth-midi-source, which writes down when each event
# really went out on CLOCK_MONOTONIC. The server is stopped for 40..150 ms
# (random), twice: at a random point, and half a period before the cycle
# that carries an event (which jackd then runs first when it resumes); the
# events due meanwhile go out late, when it runs again. What record says against the source: every event; away
# from the stall every delta 100 ms to 50 us (the source's frames); the
# stall's delta and the next the source's to 300 us (the stamps carry the
# server's wake-up jitter), the stall in one window of the timeline; the
# mean to 2 us + 300 us / (n - 1); and the source's stall against the fault.
BE=${1:?backend} # (servers.sh sets the positional parameters)
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../servers.sh"
. "$(dirname "$0")/lib.sh"
trap 'truth_cleanup; [ -n "${SP:-}" ] && kill "$SP" 2>/dev/null; srv_stop_all; rm -rf "$T_TMP"' EXIT
J=$T_TMP/record.json
SRC=$T_TMP/source.txt
LIVE=$T_TMP/source-live.txt
MID=$T_TMP/record.mid
REC=$T_TMP/record-times.txt
# what a failed check prints (tjq)
TRUTH_SHOW='{delta_min_ns, delta_max_ns, timeline: .timeline.rows, cycles: .source.cycles,
	irregular: .source.irregular_cycles, xruns: .source.xruns}'
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

# measure random|event: record, the source into it, the server stopped for
# a random S ms at a random point or just before a cycle with an event,
# then both ended; the source's times in $SRC
measure() {
	local last
	S=$(truth_random 40 150)
	rm -f "$MID"
	"${PRE[@]}" "$AUDIOLAT" midi record --interval 100ms -d 60s --no-db -q --json "$J" -o "$MID" \
		>"$OUT" 2>"$ERR" &
	TRUTH_PID=$!
	t_wait 20 "record's port audiolat-record:in is there" port_there
	: >"$LIVE"
	"${PRE[@]}" "$SOURCE" audiolat-record:in 4800 "$SRC" "$LIVE" 2>"$T_TMP/source.err" &
	SP=$!
	t_wait 20 "the source plays into it" connected
	if [ "$1" = random ]; then
		# the random point (to the ms: every phase against the events, 100 ms apart)
		sleep "1.$(printf %03d "$(truth_random 0 999)")"
		out=$("$TRUTH_BIN/truth-stall" "$SERVER_PID" "$S")
	else
		# the stop half a period before the cycle that carries an event:
		# 4 events (19200 frames, 75 periods of 256) after one the source
		# sent, the same place in the cycle (and so every 400 ms after)
		t_wait 20 "the source sent 10 events" eval '[ "$(wc -l <"$LIVE")" -ge 10 ]'
		last=$(tail -n 1 "$LIVE" | cut -d' ' -f2)
		out=$("$TRUTH_BIN/truth-stall" "$SERVER_PID" "$S" $((last + 400000000 - 2666667)) 400000000)
	fi
	t_result $? "the server (pid $SERVER_PID) stopped for $S ms ($1)"
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

# check random|event: what record says against the source
check() {
	local phase=$1 n smin smean smax sover safter lo hi
	n=$(wc -l <"$SRC" 2>/dev/null || echo 0)
	t_result $([ "$n" -ge 20 ] && echo 0 || echo 1) "the source sent 20 events or more ($n)"
	# the source's figures, in us (the JSON's tick): min, mean, max of the deltas,
	# how many are over 101 ms, and the delta after the longest
	# and whether the longest spans the stall (the event before it went
	# out before the server resumed, the one that ends it after it stopped)
	read -r smin smean smax sover safter sspan < <(awk -v t0="$stop_mono_ns" -v t1="$((stop_mono_ns + stall_ns))" '
		NR > 1 { d = $1 - p; if (NR == 2 || d < mn) mn = d
		if (d > mx) { mx = d; at = NR; sp = (p < t1 && $1 > t0) } if (NR == at + 1) af = d
		if (d > 101000000) o++ } { p = $1; if (NR == 1) f = $1 }
		END { printf "%d %d %d %d %d %d\n", mn / 1000, (p - f) / (NR - 1) / 1000, mx / 1000, o, af / 1000, sp }' "$SRC")
	echo "# source ($1): $n events, deltas min ${smin} us mean ${smean} us max ${smax} us, $sover over 101 ms, the next after it ${safter} us; the stall $((stall_ns / 1000)) us"
	# the server's period, in us (from record's document)
	P_US=$(jq '.source.period_frames * 1000000 / .source.rate | ceil' "$J" 2>/dev/null)
	[ -n "$P_US" ] && [ "$P_US" != null ] || P_US=0
	set -- --argjson n "$n" --argjson smin "${smin:-0}" --argjson smean "${smean:-0}" \
		--argjson smax "${smax:-0}" --argjson stall "$stall_ns"
	# the truth: the events due in the stall went out when the server ran again,
	# at most a period (5.3 ms) + 2 ms before its end, at most 10 ms after
	# (more over 101 ms are the server late elsewhere, a fault of unknown
	# size the source's stamps carry and record is held to below)
	t_result $([ "$sspan" = 1 ] && echo 0 || echo 1) "the source: its longest delta spans the stall ($sover over 101 ms)"
	lo=$((100000 + stall_ns / 1000 - 2 * P_US)) hi=$((100000 + stall_ns / 1000 + 10000))
	t_result $([ "${smax:-0}" -ge $lo ] && [ "${smax:-0}" -le $hi ] && echo 0 || echo 1) \
		"the source: its longest delta is 100 ms + the stall (-2 periods .. +10 ms): $smax us in $lo..$hi"
	tjq "record: every event the source sent" '.events == $n' "$J" "$@"
	# Record's deltas against the source's, one by one, from record's -o
	# file (1 us ticks, smf-times.py). The source's stamps carry the
	# server's wake-up jitter (up to 150 us seen): the frames are the truth
	# between events, the stamps across the stall. Record's events sit on
	# the line under the server's cycle starts, but an event due in the
	# stall goes out in the first cycle the server runs when it resumes,
	# which record times at its start, as the source does. So the stall's
	# delta and the one after it read the server's lateness at the events
	# next to them off the source's (-161 .. +224 us seen; 300 us allowed),
	# and every other delta is 4800 frames, 100 ms within 50 us. (With the
	# stall half a period before an event's cycle, jackd runs that cycle
	# and the next one at once when it resumes: the delta after the stall's
	# is then a period short, 94.7 ms by the source, and that is the truth.)
	python3 "$(dirname "$0")/smf-times.py" "$MID" >"$REC" 2>"$T_TMP/smf.err"
	t_result $? "record's -o file reads as a Standard MIDI File: $(head -c 200 "$T_TMP/smf.err")"
	# events in the file, the stall's index (the source's longest delta),
	# record's error there and on the next, how many other deltas are off
	# 100 ms by over 50 us (and which: index, record's, the source's, in us),
	# record's shortest and longest delta (us)
	read -r rn si estall eafter off rmin rmax noise list < <(awk -v src="$SRC" '
		BEGIN { while ((getline l < src) > 0) s[ns++] = l / 1000 }
		{ r[nr++] = $1 }
		END { for (k = 1; k < ns; k++) { d = s[k] - s[k - 1]; if (k == 1 || d > mx) { mx = d; si = k } }
			es = ea = 999999; o = 0; mn = mx2 = 0; l = ""
			if (nr == ns && si > 0 && si + 1 < nr) {
				es = (r[si] - r[si - 1]) - (s[si] - s[si - 1])
				ea = (r[si + 1] - r[si]) - (s[si + 1] - s[si])
			}
			for (k = 1; k < nr; k++) { d = r[k] - r[k - 1]
				if (k == 1 || d < mn) mn = d
				if (k == 1 || d > mx2) mx2 = d
				sd = k < ns ? s[k] - s[k - 1] : -1
				if (k == si || k == si + 1)
					continue
				# the frames; where the source saw the server late
				# by over its wake-up jitter (a slip jackd may
				# re-anchor on), its stamps are a truth too (300 us,
				# as at the stall)
				fr = d < 99950 || d > 100050
				st = sd < 99700 || sd > 100300
				if (fr && !(sd >= 0 && st && d - sd <= 300 && sd - d <= 300)) {
					o++; l = l sprintf("%d:%d,%.0f;", k, d, sd) } }
			# the server own lateness next to the stall, as the source
			# measured it: its deltas two either side (not the two of
			# the stall) off 100 ms by more than the 50 us of the frames
			nz = 0
			for (k = si - 2; k <= si + 3; k++) {
				if (k < 1 || k >= ns || k == si || k == si + 1)
					continue
				e = s[k] - s[k - 1] - 100000; if (e < 0) e = -e
				if (e > 50 && e > nz) nz = e }
			printf "%d %d %d %d %d %d %d %d %s\n", nr, si, es, ea, o, mn, mx2, nz, l == "" ? "none" : l }' "$REC")
	echo "# record's file: $rn events, the stall at delta $si: record's error there $estall us, on the next $eafter us; the server late next to it by up to $noise us (the source's deltas); others off 100 ms by over 50 us ($phase): $list"
	# 300 us of the server's wake-up jitter, plus its lateness next to the
	# stall where the source measured more (a VM's host slipped jackd's
	# cycles by 0.6-1 ms around a stall in CI: record's line is fitted to
	# the earliest cycle starts, the source stamps each cycle's own)
	tol=$((300 + ${noise:-0}))
	t_result $([ "${rn:-0}" = "$n" ] && echo 0 || echo 1) "record's -o file: every event the source sent (${rn:-0} of $n)"
	t_result $([ "${estall:-999999}" -ge -$tol ] && [ "${estall:-999999}" -le $tol ] && echo 0 || echo 1) \
		"record: the stall's delta is the source's (±300 us + the server's lateness next to it, $tol us): ${estall:-?} us off"
	t_result $([ "${eafter:-999999}" -ge -$tol ] && [ "${eafter:-999999}" -le $tol ] && echo 0 || echo 1) \
		"record: the delta after the stall's is the source's (±$tol us): ${eafter:-?} us off"
	t_result $([ "${rn:-0}" -ge 20 ] && [ "${off:-1}" = 0 ] && echo 0 || echo 1) \
		"record: away from the stall every delta is the source's 4800 frames, 100 ms ±50 us, or where the server was late elsewhere its stamps' ±300 us (${off:-?} off)"
	tjq "record's document: its shortest and longest delta are its file's (±2 us)" \
		'(.delta_min_ns / 1000 - $rmin | fabs <= 2) and (.delta_max_ns / 1000 - $rmax | fabs <= 2)' \
		"$J" "$@" --argjson rmin "${rmin:-0}" --argjson rmax "${rmax:-0}"
	# (the mean is (last - first) / (n - 1): record's error is the server's
	# lateness at the first event less that at the last, which the
	# source's two stamps carry, over n - 1: 300 us of it allowed, as next
	# to the stall, and 2 us of rounding; a full run read 7 us over 32
	# deltas, every delta within its bounds)
	tjq "record: the mean delta is the source's (±(2 + 300 / (n - 1)) us)" \
		'(.delta_mean_ns / 1000 - $smean) | fabs <= 2 + 300 / ($n - 1)' "$J" "$@"
	tjq "record: the stall in one timeline window, no more windows over 101 ms than the source's deltas over it ($sover)" \
		'[.timeline.rows[] | select(.[1] > 0 and .[3] > 101000000)] | length >= 1 and length <= $sover' "$J" "$@" --argjson sover "${sover:-0}"
	jq -r 'def us: if . == null then "null" else (. / 1000 | floor | tostring) end;
		"# truth-record: midi-'"$BE"' stall truth_us=\($stall / 1000 | floor) sent=\($n) events=\(.events)" +
		" src_max_us=\($smax) max_us=\(.delta_max_ns | us) src_min_us=\($smin) min_us=\(.delta_min_ns | us)" +
		" src_mean_us=\($smean) mean_us=\(.delta_mean_ns | us)"' "$J" "$@" 2>/dev/null
}

# late_elsewhere: the source's deltas, but the stall's and the next, that
# are off 100 ms by over 300 us (index: us), "" when none: the server late
# by more than its wake-up jitter where the test did not stop it (the
# host: 5-25 ms seen with no steal on a busy VM), a fault of unknown size
late_elsewhere() {
	awk 'NR > 1 { d[NR - 1] = ($1 - p) / 1000; if (NR == 2 || d[NR - 1] > mx) { mx = d[NR - 1]; si = NR - 1 } }
		{ p = $1 } END { for (k = 1; k < NR; k++) if (k != si && k != si + 1 && (d[k] < 99700 || d[k] > 100300))
			printf "%d: %.0f; ", k, d[k] }' "$SRC" 2>/dev/null
}

for phase in random event; do
	# (measured once and judged: when jackd, resuming from the stall,
	# skips frames and never delivers an event to record, or the source
	# sees the server late elsewhere, record's figures are held to the
	# source's all the same; what the source saw is printed beside them)
	measure "$phase"
	late=$(late_elsewhere)
	[ -z "$late" ] || echo "# the source: the server late away from the stall ($late)"
	echo "# record: $(jq -r '.events' "$J" 2>/dev/null) events, the server's cycles irregular $(jq -r '.source.irregular_cycles' "$J" 2>/dev/null) times"
	check "$phase"
done
t_done
