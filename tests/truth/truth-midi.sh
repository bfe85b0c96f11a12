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
# document's mean to its file's 2 us; and the source's stall against the fault.
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
	local phase=$1 n smin smean smax sover safter lo hi resume rn rp lost lostk extra extrak irr sk
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
	# Which of the source's events record has (by time from the first, to
	# 20 ms: they are 100 ms apart): jackd resuming from a stall may skip
	# frames for record alone (jack2 runs a cycle without a client still
	# late from the last), and the event the source wrote there never
	# reaches it. Record cannot get it, but it says so: its cycles
	# irregular. So one event lost, next to the stall, with irregular
	# cycles reported, is jackd's, printed and held to; the figures are
	# then checked against the events record got.
	rn=$(wc -l <"$REC" 2>/dev/null || echo 0)
	# pair record's events with the source's by their time since the first
	# (to 20 ms: they are 100 ms apart); the pairs go to src-got and
	# rec-got, then: the source's events record has not (lost) and record's
	# that pair with an event already paired (extra), by index
	read -r lost lostk extra extrak < <(awk -v src="$SRC" -v sg="$T_TMP/src-got" -v rg="$T_TMP/rec-got" '
		BEGIN { while ((getline l < src) > 0) s[ns++] = l / 1000 }
		{ r[nr++] = $1 }
		END { printf "" > sg; printf "" > rg
			if (!nr || !ns) { print ns, "all", 0, "none"; exit }
			# (the two first events may be either side of the lost
			# or extra one: the origin that pairs the most)
			bo = 0; bn = -1
			for (a = 0; a < 2 && a < nr; a++) for (c = 0; c < 2 && c < ns; c++) { m = 0
				for (j = 0; j < nr; j++) for (k = 0; k < ns; k++) {
					e = (r[j] - r[a]) - (s[k] - s[c]); if (e < 0) e = -e; if (e < 20000) { m++; break } }
				if (m > bn) { bn = m; bo = r[a] - s[c] } }
			for (j = 0; j < nr; j++) { b = -1
				for (k = 0; k < ns; k++) { e = (r[j] - s[k]) - bo; if (e < 0) e = -e
					if (e < 20000 && (b < 0 || e < be)) { b = k; be = e } }
				if (b < 0 || (b in got)) { ex++; xl = xl j "," } else { got[b] = j } }
			for (k = 0; k < ns; k++)
				if (k in got) { printf "%.0f\n", s[k] * 1000 > sg; print r[got[k]] > rg }
				else { lo++; ll = ll k "," }
			print lo + 0, ll == "" ? "none" : ll, ex + 0, xl == "" ? "none" : xl }' "$REC" 2>/dev/null)
	irr=$(jq -r '.source.irregular_cycles // 0' "$J" 2>/dev/null)
	# the stall's delta in the source's own deltas (its longest): the event
	# jackd lost or gave twice must be next to it
	sk=$(awk 'NR > 1 { d = $1 - p; if (NR == 2 || d > mx) { mx = d; k = NR - 1 } } { p = $1 } END { print k + 0 }' "$SRC")
	near() { local k=${1%,}; [ "$k" -ge $((sk - 1)) ] 2>/dev/null && [ "$k" -le $((sk + 1)) ]; }
	echo "# record has ${rn:-?} events, the source sent $n: ${lost:-?} lost (the source's event ${lostk:-?}), ${extra:-?} more (record's event ${extrak:-?}); the stall ends at the source's event $sk; the server's cycles irregular ${irr:-?} times"
	# (jackd resuming from a stall may skip frames for record alone, and
	# the event the source wrote there never reaches it. Record cannot
	# know what it was not given, but it says its cycles were irregular.
	# One such event next to the stall, with irregular cycles reported, is
	# jackd's, printed, and the figures are checked on the events paired.
	# jackd may also run record's callback again on the last cycle's
	# frames, its buffer as it was: record takes those events once and
	# counts them, so none is extra)
	echo "# record: $(jq -r '.source.replayed_events' "$J" 2>/dev/null) event(s) jackd gave again in a replayed cycle"
	t_result $( { [ "${lost:-0}" = 0 ] && [ "${extra:-9}" = 0 ] && [ "${rn:-0}" = "$n" ]; } ||
		{ [ "${lost:-9}" = 1 ] && [ "${extra:-9}" = 0 ] && [ "${irr:-0}" -gt 0 ] && near "$lostk"; } && echo 0 || echo 1) \
		"record: every event the source sent, once, or all but one jackd skipped next to the stall, with irregular cycles reported (${rn:-0} of $n)"
	tjq "record's document: as many events as its file (${rn:-0})" '.events == $rn' "$J" "$@" --argjson rn "${rn:-0}"
	read -r rp si estall eafter off rmin rmax noise list < <(awk -v src="$T_TMP/src-got" -v per="$P_US" '
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
				# re-anchor on), its stamps are a truth too: 300 us
				# plus the lateness the source measured there, as at
				# the stall (a 5.7 ms slip read 377 us off here);
				# where the source saw its delta within 50 us of
				# its frames, record within 50 us of the source
				# (the delta after a 20.8 ms slip of jackd: 99967
				# us by the source, 99932 by record, 2026-12-07)
				fr = d < 99950 || d > 100050
				st = sd < 99950 || sd > 100050
				lt = sd - 100000; if (lt < 0) lt = -lt
				ds = d - sd; if (ds < 0) ds = -ds
				if (fr && !(sd >= 0 && (st ? ds <= 300 + lt : ds <= 50))) {
					o++; l = l sprintf("%d:%d,%.0f;", k, d, sd) } }
			# the lateness the source stamps carry at the three events
			# of the two deltas, against the earliest of their runs
			# of whole 4800-frame deltas (the line of record lies under
			# the earliest cycle starts): the event before the stall
			# above the earliest of the four before it; the one after
			# the stall above the earliest of the four after it; and the one that ends the
			# stall, by how far the next delta is off its frames (100
			# ms, or a period less when jackd resumed by skipping one)
			lp = lm = 0
			for (k = si - 1; k >= 1 && k >= si - 4; k--) { lp -= s[k] - s[k - 1] - 100000; if (lp < lm) lm = lp }
			nz = -lm
			lp = lm = 0
			for (k = si + 2; k < ns && k <= si + 5; k++) { lp += s[k] - s[k - 1] - 100000; if (lp < lm) lm = lp }
			nz += -lm
			if (si + 1 < ns) { a = s[si + 1] - s[si]; e = a - 100000; if (e < 0) e = -e
				e2 = a - (100000 - per); if (e2 < 0) e2 = -e2; nz += e < e2 ? e : e2 }
			printf "%d %d %d %d %d %d %d %d %s\n", nr, si, es, ea, o, mn, mx2, nz, l == "" ? "none" : l }' "$T_TMP/rec-got")
	# record's shortest and longest delta in its whole file
	read -r rmin rmax < <(awk 'NR > 1 { d = $1 - p; if (NR == 2 || d < mn) mn = d; if (NR == 2 || d > mx) mx = d } { p = $1 } END { print mn + 0, mx + 0 }' "$REC")
	echo "# record's file: $rp events paired with the source's, the stall at delta $si: record's error there $estall us, on the next $eafter us; the server late next to it by up to $noise us (the source's deltas); others off 100 ms by over 50 us ($phase): $list"
	# The source's longest delta against the stall (and the server resumed late: the first time the source's process
	# ran after the SIGCONT, by its clock on entry, less the SIGCONT; a
	# busy VM's host delayed it by 12.8 ms once; and its stamps carry the lateness measured below)
	resume=$(awk -v t1="$((stop_mono_ns + stall_ns))" '$1 == "gap" && $3 >= t1 && !d { d = 1; printf "%d", ($3 - t1) / 1000 }' "$T_TMP/source.err")
	echo "# the source ran again ${resume:-?} us after the SIGCONT"
	# The server's own slips inside that delta, as the source saw them:
	# two calls of its process more than a period and 1 ms apart, but for
	# the stall's gap (the one the SIGCONT ends), each less a period (two
	# periods until a run 0.8 ms over with none over two, 2026-12-07). Its
	# frames stood still meanwhile, so they lengthen the delta as the
	# stall does (a truth-midi-jack run beside 10 jackd xruns read 163.4 ms
	# for a 47.5 ms stall, 15.9 ms over it; 2026-12-07). Listed, and
	# added to the bound: the source's truth is its stamps, which record
	# is held to above.
	own=$(awk -v t0="$stop_mono_ns" -v t1="$((stop_mono_ns + stall_ns))" -v p="$((P_US * 1000))" '
		FNR == NR { if (FNR > 1 && $1 - q > mx) { mx = $1 - q; a = q; b = $1 } q = $1; next }
		($1 == "gap" || $1 == "late") && $2 >= a - p && $3 <= b + p && !($2 <= t1 && $3 >= t0) {
			u += $3 - $2 - p; l = l sprintf("%.1f ", ($3 - $2) / 1e6) }
		END { printf "%d %s\n", u / 1000, l == "" ? "none" : l "ms" }' "$SRC" "$T_TMP/source.err" 2>/dev/null)
	own_us=${own%% *}
	echo "# the server's own slips inside the stall's delta (calls over a period + 1 ms apart): ${own#* } (${own_us:-?} us over a period each)"
	lo=$((100000 + stall_ns / 1000 - 2 * P_US)) hi=$((100000 + stall_ns / 1000 + 10000 + ${resume:-0} + ${noise:-0} + ${own_us:-0}))
	t_result $([ -n "$resume" ] && [ -n "$own_us" ] && [ "${smax:-0}" -ge $lo ] && [ "${smax:-0}" -le $hi ] && echo 0 || echo 1) \
		"the source: its longest delta is 100 ms + the stall (-2 periods .. +10 ms + its resume ${resume:-?} us + the lateness its stamps carry next to it, ${noise:-?} us + the server's own slips in it, ${own_us:-?} us): $smax us in $lo..$hi"
	# 300 us of the server's wake-up jitter, plus its lateness next to the
	# stall where the source measured more (a VM's host slipped jackd's
	# cycles by 0.6-1 ms around a stall in CI: record's line is fitted to
	# the earliest cycle starts, the source stamps each cycle's own)
	tol=$((300 + ${noise:-0}))
	t_result $([ "${estall:-999999}" -ge -$tol ] && [ "${estall:-999999}" -le $tol ] && echo 0 || echo 1) \
		"record: the stall's delta is the source's (±300 us + the server's lateness next to it, $tol us): ${estall:-?} us off"
	t_result $([ "${eafter:-999999}" -ge -$tol ] && [ "${eafter:-999999}" -le $tol ] && echo 0 || echo 1) \
		"record: the delta after the stall's is the source's (±$tol us): ${eafter:-?} us off"
	t_result $([ "${rn:-0}" -ge 20 ] && [ "${off:-1}" = 0 ] && echo 0 || echo 1) \
		"record: away from the stall every delta is the source's 4800 frames, 100 ms ±50 us, or the source's stamps' ±50 us (where the server was late elsewhere ±300 us and its lateness) (${off:-?} off)"
	tjq "record's document: its shortest and longest delta are its file's (±2 us)" \
		'(.delta_min_ns / 1000 - $rmin | fabs <= 2) and (.delta_max_ns / 1000 - $rmax | fabs <= 2)' \
		"$J" "$@" --argjson rmin "${rmin:-0}" --argjson rmax "${rmax:-0}"
	# The mean is (last - first) / (n - 1): its error against the source's
	# is the sum of the errors of the deltas, each held to its bound above
	# (a bound of its own was tighter than theirs: a CI run read the stall's
	# and the next within 300 us + the 1.1 ms the server was late there,
	# and the mean 59 us off over 32 deltas). What is left to check is that
	# record's document computes it from its events.
	rmean=$(awk 'NR == 1 { f = $1 } { l = $1 } END { if (NR > 1) printf "%.3f", (l - f) / (NR - 1) }' "$REC")
	tjq "record's document: its mean delta is its file's (±2 us; the file's $rmean us, the source's $smean us)" \
		'(.delta_mean_ns / 1000 - $rmean) | fabs <= 2' "$J" "$@" --argjson rmean "${rmean:-0}"
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
