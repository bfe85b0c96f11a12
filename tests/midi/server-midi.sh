#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# audiolat midi on a jackd (dummy driver) this test starts and stops:
# send -> record at 10 Hz through a JACK connection (the events, their
# interval and jitter; the -o file analyzes back to the same figures),
# loop through audiolat's thru client (latencies, 0 lost), record under a
# hackbench load, and the result saved in a results database.
# Timing assertions only check what was detected, with wide margins.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../servers.sh"
command -v jq >/dev/null || t_skip_all "jq not installed (scripts/packages.txt)"
command -v jackd >/dev/null || t_skip_all "jackd not installed (jackd2, scripts/packages.txt)"
"$AUDIOLAT" midi send --help >/dev/null || t_bail "audiolat midi send --help exits 0"

NAME=$(srv_name al-midi)
start_jackd "$NAME" 256 48000 || t_bail "jackd -n $NAME (dummy driver) starts (${SRV_WHY:-})"
export JACK_DEFAULT_SERVER=$NAME JACK_NO_START_SERVER=1
# SCHED_FIFO for the sender where permitted (CI runs as root): a busy
# machine then delays it less; the assertions hold either way
PRIO=()
chrt -f 10 true 2>/dev/null && PRIO=(-p 10)
# our background clients go first, then servers.sh's trap (the server)
BG=()
eval "set -- $(trap -p EXIT)"
_prev_exit=${3:-}
trap 'for p in "${BG[@]}"; do kill "$p" 2>/dev/null; done; eval "$_prev_exit"' EXIT

# has_port PORT: the JACK port is there
has_port() {
	jack_lsp -s "$NAME" 2>/dev/null | grep -qx "$1"
}

# ---- send -> record at 10 Hz ----
R="$T_TMP/rec.json"
M="$T_TMP/rec.mid"
"$AUDIOLAT" midi record -d 5 --interval 100ms -o "$M" --json "$R" --no-db -q \
	>"$T_TMP/rec.out" 2>"$T_TMP/rec.err" &
REC=$!
BG+=($REC)
t_wait 10 "record's port audiolat-record:in appears" has_port audiolat-record:in
t_exit 0 "send at 10 Hz for 3 s into it: exit 0" \
	"$AUDIOLAT" midi send --port audiolat-record:in -d 3 "${PRIO[@]}" -q
t_grep "$OUT" "^summary: api=jack rate_hz=10 sent=[0-9]+ errors=0 " "send's summary line"
# (record's -d 5 only caps it: it ends on SIGINT once send is done, its
# events kept, as a user ends it with Ctrl-C)
kill -INT $REC
wait $REC
t_result $? "record ends on SIGINT once send is done: exit 0"
cp "$T_TMP/rec.err" "$ERR"
t_json "schema audiolat.midi/1, kind record, api jack" \
	'.schema == "audiolat.midi/1" and .kind == "record" and .config.backend == "jack"' "$R"
UUID_RE='^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$'
t_json "record's document: a random (version 4) UUID" --arg re "$UUID_RE" '.uuid | test($re)' "$R"
t_json "about 10 events a second: 20..40 note-ons in 3 s" '.events >= 20 and .events <= 40' "$R"
t_json "a note-off for every note-on received too (2 messages each)" \
	'.source.received >= 2 * .events - 2 and .source.received <= 2 * .events + 2' "$R"
t_json "the interval given is kept" '.interval_ns == 100000000 and .interval_auto == false' "$R"
t_json "mean delta about 100 ms (90..110)" '.delta_mean_ns > 90000000 and .delta_mean_ns < 110000000' "$R"
t_json "median delta about 100 ms (95..105)" '.delta_median_ns > 95000000 and .delta_median_ns < 105000000' "$R"
t_json "jitter fields present and finite" \
	'[.jitter_max_ns, .jitter_abs_max_ns, .jitter_mean_abs_ns, .delta_stddev_ns, .delta_p99_ns] | length == 5 and all(type == "number")' "$R"
t_json "jitter_max = delta_max - interval" '.jitter_max_ns == .delta_max_ns - .interval_ns' "$R"
t_json "max |delta - interval| >= both sides" \
	'.jitter_abs_max_ns >= .jitter_max_ns and .jitter_abs_max_ns >= .interval_ns - .delta_min_ns' "$R"
t_json "the histogram holds every delta" '.histogram.count == .deltas and .deltas == .events - 1' "$R"
t_json "timestamps: JACK frame times, JACK's clock identified" \
	'.source.timestamp_source == "jack-frame-time" and (.source.jack_clock | test("^CLOCK_MONOTONIC"))' "$R"
t_json "the JACK side: rate, period, cycles, callback wake-up" \
	'.source.rate == 48000 and .source.period_frames == 256 and .source.cycles > 100 and .source.callback_wake_ns.count > 100' "$R"
t_json "1 us resolution" '.tick_ns == 1000' "$R"
t_json "no messages dropped" '.source.dropped == 0' "$R"

t_exit 0 "analyze the recorded file" "$AUDIOLAT" midi analyze "$M" --interval 100ms --json "$T_TMP/ana.json" -q
# the -o file holds what record analyzed (the SMF writer and reader agree);
# both figures come from src/midi's analysis, so this checks the file only
t_json "the -o file analyzes back to record's figures" --slurpfile a "$T_TMP/ana.json" \
	'[.events, .delta_min_ns, .delta_max_ns, .delta_mean_ns, .delta_median_ns, .delta_stddev_ns, .delta_p99_ns, .jitter_max_ns, .jitter_abs_max_ns, .jitter_mean_abs_ns, .tick_ns] ==
	 [$a[0] | .events, .delta_min_ns, .delta_max_ns, .delta_mean_ns, .delta_median_ns, .delta_stddev_ns, .delta_p99_ns, .jitter_max_ns, .jitter_abs_max_ns, .jitter_mean_abs_ns, .tick_ns]' "$R"
# the figures themselves, held to a reading of the file that shares no code
# with audiolat (smf-note-ons.py): the events, and the deltas to 1 us (a tick)
t_true "smf-note-ons.py reads the -o file" sh -c "python3 '$TESTS_DIR/midi/smf-note-ons.py' '$M' >'$T_TMP/indep.json'"
t_json "record's events and deltas are the file's, read independently (to 1 us)" --slurpfile f "$T_TMP/indep.json" \
	'$f[0] as $f | .events == $f.events and ([.delta_min_ns - $f.delta_min_ns, .delta_max_ns - $f.delta_max_ns, .delta_mean_ns - $f.delta_mean_ns, .delta_median_ns - $f.delta_median_ns] | length == 4 and all(fabs <= 1000))' "$R"
t_json "the file: 1000 ticks per quarter (1 us a tick)" '.source.ticks_per_quarter == 1000 and .tick_ns == 1000' "$T_TMP/ana.json"

# ---- loop through a JACK connection (audiolat's thru client) ----
"$AUDIOLAT" midi thru -q >"$T_TMP/thru.out" 2>&1 &
THRU=$!
BG+=($THRU)
t_wait 10 "thru's ports appear" has_port audiolat-thru:out
L="$T_TMP/loop.json"
t_exit 0 "loop 200 probes through the thru client: exit 0" \
	"$AUDIOLAT" midi loop --out audiolat-thru:in --in audiolat-thru:out -n 200 --timeout 3s \
	--json "$L" --no-db
t_grep "$OUT" "^summary: api=jack sent=[0-9]+ echoed=200 lost=0 latency_min_ns=" "loop's summary line"
t_json "schema audiolat.midi-loop/1" '.schema == "audiolat.midi-loop/1" and .kind == "loop"' "$L"
t_json "loop's document: a random (version 4) UUID" --arg re "$UUID_RE" '.uuid | test($re)' "$L"
t_json "200 echoed, 0 lost, none unexpected" '.echoed == 200 and .lost == 0 and .unexpected == 0' "$L"
# (a few outliers under load may pull the mean above p99: both inside min..max)
t_json "latencies reported: 0 < min <= mean <= max, min <= p99 <= max" \
	'.latency_min_ns > 0 and .latency_min_ns <= .latency_mean_ns and .latency_mean_ns <= .latency_max_ns and
	 .latency_min_ns <= .latency_p99_ns and .latency_p99_ns <= .latency_max_ns' "$L"
t_json "at least a period in frames (JACK MIDI crosses a cycle)" '.latency_frames_min >= 256' "$L"
t_json "peak-to-peak jitter = max - min; mean absolute jitter present" \
	'.jitter_peak_ns == .latency_max_ns - .latency_min_ns and (.jitter_mean_abs_ns | type == "number")' "$L"
t_json "the histogram holds every echo" '.histogram.count == 200' "$L"
t_json "the wall-clock round trip (callback to callback) too" \
	'.wall_latency_ns.count == 200 and .wall_latency_ns.min <= .wall_latency_ns.max' "$L"

t_exit 0 "loop straight from our output to our input (a feedback connection)" \
	"$AUDIOLAT" midi loop --out audiolat-loop:in --in audiolat-loop:out -n 50 --timeout 3s \
	--json "$T_TMP/self.json" --no-db -q

# two loop results compare like run results
t_exit 0 "a second loop through the thru client" \
	"$AUDIOLAT" midi loop --out audiolat-thru:in --in audiolat-thru:out -n 200 --timeout 3s \
	--json "$T_TMP/loop2.json" --no-db -q
t_exit 0 "compare two loop results" "$AUDIOLAT" compare "$L" "$T_TMP/loop2.json" --json "$T_TMP/lc.json"
t_grep "$OUT" '^A +loop\.json +200 ' "a row per loop result, named by its file"
t_grep "$OUT" '^B vs A: p99_latency .*: (no significant difference \(would have seen \+-[0-9.]+ ms\)|better \(within-run only\)|worse \(within-run only\))$' "a verdict on the p99 latency"
# the verdicts themselves, on known differences: the same result twice, and
# a copy of it whose every round trip is one period (5.333 ms) longer
cp "$L" "$T_TMP/same.json"
jq '.histogram.buckets |= map([.[0] + 5333333, .[1] + 5333333, .[2]])' "$L" >"$T_TMP/later.json"
t_exit 0 "compare a loop result with itself" "$AUDIOLAT" compare "$L" "$T_TMP/same.json"
t_grep "$OUT" '^B vs A: p99_latency \+0\.000 ms .*: no significant difference \(would have seen \+-[0-9.]+ ms\)$' "the same result: no significant difference"
t_exit 0 "compare with a copy one period later" "$AUDIOLAT" compare "$L" "$T_TMP/later.json"
t_grep "$OUT" '^B vs A: p99_latency \+5\.33[0-9] ms .*: worse \(within-run only\)$' "one period later: worse, by the period"
t_exit 0 "compare the later copy with the original" "$AUDIOLAT" compare "$T_TMP/later.json" "$L"
t_grep "$OUT" '^B vs A: p99_latency -5\.33[0-9] ms .*: better \(within-run only\)$' "one period earlier: better, by the period"
t_json "audiolat.compare-midi/1 with the p99 latency" \
	'.schema == "audiolat.compare-midi/1" and .scopes[0].comparisons[0].statistics[0].name == "p99_latency"' "$T_TMP/lc.json"
t_exit 1 "a loop and a record result do not mix" "$AUDIOLAT" compare "$L" "$R"
t_exit 0 "report of a loop result" "$AUDIOLAT" report "$L" -o "$T_TMP/loop.html"
if command -v xmllint >/dev/null; then
	t_true "the loop report is well-formed" xmllint --noout --nonet "$T_TMP/loop.html"
fi
t_grep "$T_TMP/loop.html" '<span>p99 round trip</span>' "the loop report shows its round trips"
t_json "the self-loop: 50 echoed, 0 lost, at least a period" \
	'.echoed == 50 and .lost == 0 and .latency_frames_min >= 256' "$T_TMP/self.json"

# ---- loop --max-latency: exit 3 when the max latency exceeds it ----
t_exit 3 "loop --max-latency 1ms (a JACK MIDI round trip takes a period, 5.3 ms): exit 3" \
	"$AUDIOLAT" midi loop --out audiolat-thru:in --in audiolat-thru:out -n 20 --timeout 3s \
	--max-latency 1ms --json "$T_TMP/maxlat.json" --no-db -q
t_grep "$ERR" '^audiolat midi: loop: max latency [0-9.]+ [mu]s exceeds --max-latency 1000\.0 us$' \
	"... one line with both"
t_json "... the JSON is still written, the threshold in its config" \
	'.echoed == 20 and .config.max_latency_ns == 1000000 and .latency_max_ns > 1000000' "$T_TMP/maxlat.json"
t_exit 0 "loop --max-latency 1s is met: exit 0" \
	"$AUDIOLAT" midi loop --out audiolat-thru:in --in audiolat-thru:out -n 20 --timeout 3s \
	--max-latency 1s --no-db -q

# ---- --server NAME: the JACK server to use, without JACK_DEFAULT_SERVER ----
t_exit 0 "loop --server $NAME, JACK_DEFAULT_SERVER unset: exit 0" \
	env -u JACK_DEFAULT_SERVER "$AUDIOLAT" midi loop --server "$NAME" --out audiolat-thru:in \
	--in audiolat-thru:out -n 20 --timeout 3s --json "$T_TMP/server.json" --no-db -q
t_json "--server: 20 echoed through that server's thru client" '.echoed == 20 and .lost == 0' "$T_TMP/server.json"
t_exit 4 "--server of a server that does not run: exit 4" \
	env -u JACK_DEFAULT_SERVER "$AUDIOLAT" midi loop --server "nosuch-$$" --out audiolat-thru:in \
	--in audiolat-thru:out -n 20 --no-db -q
t_grep "$ERR" "jack: no JACK server 'nosuch-$$' running" "... naming it"

# ---- --label: record and loop name their results (JSON and the database) ----
LDB=$T_TMP/labels.db
t_exit 0 "loop --label 'thru, labelled' --db" \
	"$AUDIOLAT" midi loop --out audiolat-thru:in --in audiolat-thru:out -n 20 --timeout 3s \
	--label "thru, labelled" --db "$LDB" --json "$T_TMP/label-loop.json" -q
t_json "loop --label: the JSON names it" '.label == "thru, labelled"' "$T_TMP/label-loop.json"
# send --rate 20 (not the default 10) into a record --label without --interval
"$AUDIOLAT" midi record -d 4 --label "at 20 Hz" --db "$LDB" --json "$T_TMP/label-rec.json" -q \
	>"$T_TMP/label-rec.out" 2>"$T_TMP/label-rec.err" &
REC=$!
BG+=($REC)
t_wait 10 "record --label: its port appears" has_port audiolat-record:in
t_exit 0 "send --rate 20 for 2 s: exit 0" "$AUDIOLAT" midi send --port audiolat-record:in --rate 20 -d 2 \
	"${PRIO[@]}" -q
t_grep "$OUT" "^summary: api=jack rate_hz=20 sent=[0-9]+ errors=0 " "send --rate 20: its summary says 20 Hz"
kill -INT $REC
wait $REC
t_result $? "record --label ends on SIGINT once send is done: exit 0"
t_json "record --label: the JSON names it" '.label == "at 20 Hz"' "$T_TMP/label-rec.json"
t_json "send --rate 20: 30..50 note-ons in 2 s, the interval found is 50 ms (45..55)" \
	'.events >= 30 and .events <= 50 and .interval_auto and .interval_ns > 45000000 and .interval_ns < 55000000 and .delta_median_ns > 45000000 and .delta_median_ns < 55000000' \
	"$T_TMP/label-rec.json"
t_exit 0 "history --label 'at 20 Hz'" "$AUDIOLAT" history --db "$LDB" --label "at 20 Hz"
t_true "... lists the record, alone" test "$(grep -c '^ *[0-9]' "$OUT")" -eq 1
t_grep "$OUT" "^ +2  .* at 20 Hz  " "... with its label"
t_exit 0 "history --label 'thru, labelled'" "$AUDIOLAT" history --db "$LDB" --label "thru, labelled"
t_grep "$OUT" "^ +1  .* thru, labelled  " "... the loop, with its label"

# ---- record under load: seed 002's stressors, hackbench beside rt-migrate ----
"$AUDIOLAT" midi record -d 3 --load hackbench+rt-migrate:3s --groups 2 --loops 20 --interval 100ms \
	--json "$T_TMP/load.json" --db "$T_TMP/results.db" \
	>"$T_TMP/load.out" 2>"$T_TMP/load.err" &
REC=$!
BG+=($REC)
t_wait 10 "record under load: its port appears" has_port audiolat-record:in
"$AUDIOLAT" midi send --port audiolat-record:in -d 2.5 "${PRIO[@]}" -q >/dev/null 2>&1
wait $REC
t_result $? "record --load hackbench+rt-migrate:3s exits 0"
cp "$T_TMP/load.err" "$ERR"
t_json "the hackbench+rt-migrate phase is reported with its loads" \
	'(.phases | length) == 1 and .phases[0].name == "hackbench+rt-migrate" and (.phases[0].load | test("^hackbench .* [+] rt-migrate threads=")) and .config.load == "hackbench+rt-migrate:3s"' \
	"$T_TMP/load.json"
if [ "$(id -u)" -eq 0 ]; then
	t_json "both loads ran: their figures are in the phase" \
		'.phases[0].error == null and (.phases[0].throughput | has("hackbench.runs") and has("rt-migrate.periods_per_s"))' \
		"$T_TMP/load.json"
else
	t_skip "both loads ran: their figures are in the phase" "rt-migrate needs SCHED_FIFO (root)"
fi
t_json "events recorded under load (10..35)" '.events >= 10 and .events <= 35 and .phases[0].events == .events' \
	"$T_TMP/load.json"
t_grep "$T_TMP/load.err" "^saved as .* \($T_TMP/results.db\)" "the result was saved in the results database"
t_exit 0 "history lists it" "$AUDIOLAT" history --db "$T_TMP/results.db"
t_grep "$OUT" "midi" "... as a MIDI result"

t_exit 2 "a JACK port that does not exist" "$AUDIOLAT" midi record --port nosuch:port -d 1 --no-db
t_grep "$ERR" "jack: no port 'nosuch:port'" "... named"
kill "$THRU" 2>/dev/null
wait "$THRU" 2>/dev/null
stop_jackd
t_exit 4 "no JACK server: exit 4" "$AUDIOLAT" midi record -d 1 --no-db
t_grep "$ERR" "^audiolat midi: record: jack: no JACK server '$NAME' running" "... one clear line"
t_done
