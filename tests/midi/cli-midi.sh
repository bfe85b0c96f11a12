#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# audiolat midi without a server: help, usage errors, analyze on files the
# SMF unit test generates (exact figures in the text and the JSON), the
# malformed files (exit 1, one line with the byte offset), thresholds, and
# rawmidi/seq without /dev/snd (exit 4 and a clear line).
. "$(dirname "$0")/../lib.sh"
command -v jq >/dev/null || t_skip_all "jq not installed (scripts/packages.txt)"
GEN="$BUILD_DIR/tests/midi/test-midi-smf"
[ -x "$GEN" ] || t_bail "$GEN is built (the test depends on it)"
F="$T_TMP/smf"
mkdir -p "$F"
CMOCKA_MESSAGE_OUTPUT=TAP "$GEN" --write-corpus "$F" >/dev/null 2>&1
J="$T_TMP/a.json"

# ---- help and usage ----
t_exit 0 "midi --help" "$AUDIOLAT" midi --help
t_grep "$OUT" "^usage: audiolat midi analyze" "midi --help lists the subcommands"
for s in analyze send record loop thru; do
	t_exit 0 "midi $s --help" "$AUDIOLAT" midi "$s" --help
	t_grep "$OUT" "^usage: audiolat midi $s" "midi $s --help: its usage"
done
t_exit 2 "midi without a subcommand: usage error" "$AUDIOLAT" midi
t_exit 2 "an unknown subcommand" "$AUDIOLAT" midi replay
t_grep "$ERR" "unknown subcommand 'replay'" "... is named"
t_exit 2 "analyze without a file" "$AUDIOLAT" midi analyze
t_grep "$ERR" "a MIDI file is needed" "... says what is missing"
t_exit 2 "--rate is not an option of record" "$AUDIOLAT" midi record --rate 5
t_grep "$ERR" "^audiolat midi record: --rate: not an option of midi record$" "... one line naming it"
t_exit 2 "--api bogus" "$AUDIOLAT" midi record --api alsa --port x
t_grep "$ERR" "--api: 'alsa' is not jack, rawmidi or seq" "... names the choices"
t_exit 2 "--interval nonsense" "$AUDIOLAT" midi analyze "$F/jitter-10hz" --interval soon
t_grep "$ERR" "--interval: 'soon' is not a duration" "... names the option"
t_exit 2 "--channel 17" "$AUDIOLAT" midi analyze "$F/jitter-10hz" --channel 17
t_grep "$ERR" "--channel: '17' is not in 1..16" "... names the range"
t_exit 2 "--events chords" "$AUDIOLAT" midi analyze "$F/jitter-10hz" --events chords
# the shared options are checked as audiolat run checks them (src/args/common-opts.c)
t_exit 2 "record --label with a control character" "$AUDIOLAT" midi record --label "$(printf 'a\tb')" -d 1
t_grep "$ERR" "^audiolat midi record: --label: 'a.b' has a control character$" "... one line, as run says it"
t_exit 2 "loop --label of 128 bytes" "$AUDIOLAT" midi loop --label "$(printf '%0128d' 0)" -n 1
t_grep "$ERR" "--label: '0{40}\.\.\.' is too long \(at most 127 bytes\)" "... names the limit"
t_exit 2 "record --db ''" "$AUDIOLAT" midi record --db '' -d 1
t_grep "$ERR" "^audiolat midi record: --db: '' is not a path$" "... as run says it"
t_exit 2 "rawmidi record without --port" "$AUDIOLAT" midi record --api rawmidi
t_grep "$ERR" "--port: rawmidi needs a port \(hw:CARD,DEVICE\)" "... says which"
t_exit 2 "loop over seq without --in" "$AUDIOLAT" midi loop --api seq --out 14:0
t_exit 2 "thru over rawmidi" "$AUDIOLAT" midi thru --api rawmidi
t_exit 2 "a load option where no load runs" "$AUDIOLAT" midi send --load-policy batch
t_exit 2 "a bad load option value" "$AUDIOLAT" midi record --load-nice 30
t_grep "$ERR" "--load-nice" "... names it"
t_exit 2 "a bad --load spec" "$AUDIOLAT" midi record --load nosuchload:1s --no-db
t_grep "$ERR" "--load" "... names it"

# ---- analyze: exact figures ----
t_exit 0 "analyze a 10 Hz stream" "$AUDIOLAT" midi analyze "$F/jitter-10hz" --interval 100ms
t_grep "$OUT" "^events: 6 note-on \(velocity > 0\), every channel$" "6 note-ons counted"
t_grep "$OUT" "^deltas: min 95.000 ms, mean 100.000 ms, max 105.000 ms" "min, mean, max of the deltas"
t_grep "$OUT" "^jitter: max delta - interval 5000.0 us; max \|delta - interval\| 5000.0 us; mean \|delta - interval\| 2000.0 us$" \
	"the jitter figures"
t_grep "$OUT" "^resolution: 1 tick = 1000.0 us: the file cannot show timing finer" "the tick and what it bounds"
t_grep "$OUT" "^histogram of the deltas \(5\):" "a histogram of the 5 deltas"
t_grep "$OUT" "^   105\.000 ms \.\. 106\.000 ms  \|#{14} {27}1$" "... its last row: the 105 ms delta"
t_grep "$OUT" "^summary: source=file events=6 interval_ns=100000000 delta_min_ns=95000000 delta_mean_ns=100000000 delta_max_ns=105000000 jitter_max_ns=5000000 jitter_abs_max_ns=5000000 tick_ns=1000000 result=PASS$" \
	"the summary line"

t_exit 0 "analyze --json" "$AUDIOLAT" midi analyze "$F/jitter-10hz" --interval 100ms --json "$J" -q
t_json "schema audiolat.midi/1, kind analyze" '.schema == "audiolat.midi/1" and .kind == "analyze"' "$J"
t_json "the issue's fields, exact" \
	'.events == 6 and .interval_ns == 100000000 and .delta_min_ns == 95000000 and .delta_max_ns == 105000000 and .delta_mean_ns == 100000000 and .delta_stddev_ns == 3162278 and .delta_p99_ns == 105000000 and .jitter_max_ns == 5000000 and .jitter_abs_max_ns == 5000000 and .jitter_mean_abs_ns == 2000000 and .tick_ns == 1000000' "$J"
t_json "the histogram holds the 5 deltas" \
	'.histogram.count == 5 and ([.histogram.buckets[][2]] | add) == 5 and (.histogram.buckets | length > 0 and all(.[0] < .[1]))' "$J"
t_json "the rows the text prints, exact: the deltas in 1 ms from 95 ms, |delta - interval| in 500 us" \
	'.histogram_rows == {"start_ns": 95000000, "step_ns": 1000000, "counts": [1,0,0,0,0,3,0,0,0,0,1]} and .jitter_histogram_rows == {"start_ns": 0, "step_ns": 500000, "counts": [3,0,0,0,0,0,0,0,0,0,2]}' "$J"
t_json "the file described" '.source.format == 0 and .source.tracks == 1 and .source.ticks_per_quarter == 1000 and .source.rmid == false' "$J"
t_json "the interval was given, not auto" '.interval_auto == false and .config.interval_ns == 100000000' "$J"
t_json "the timeline: one 1 s window with the 5 deltas, 95..105 ms" \
	'.timeline.window_ns == 1000000000 and .timeline.rows == [[0, 5, 95000000, 105000000]]' "$J"
# every document gets a UUID at creation (the database and push know it by it)
UUID_RE='^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$'
t_json "a random (version 4) UUID" --arg re "$UUID_RE" '.uuid | test($re)' "$J"
"$AUDIOLAT" midi analyze "$F/jitter-10hz" --json "$T_TMP/again.json" -q >/dev/null 2>&1
t_json "the same file analyzed again: another UUID" --slurpfile a "$J" \
	--arg re "$UUID_RE" '(.uuid | test($re)) and .uuid != $a[0].uuid' "$T_TMP/again.json"
t_exit 0 "import the analysis into a database" "$AUDIOLAT" import --db "$T_TMP/uuid.db" "$J"
t_exit 0 "history --json of that database" "$AUDIOLAT" history --db "$T_TMP/uuid.db" --json -
t_json "the database knows the result by the document's UUID" --slurpfile a "$J" \
	'[.results[].uuid] == [$a[0].uuid]' "$OUT"

t_exit 0 "analyze --json - (stdout only JSON)" "$AUDIOLAT" midi analyze "$F/tempo-changes" --json -
t_json "stdout parses as JSON" '.schema == "audiolat.midi/1"' "$OUT"
t_json "tempo changes: auto interval = the median delta" \
	'.interval_auto and .interval_ns == 500000000 and .delta_min_ns == 250000000 and .delta_max_ns == 2125000000' "$OUT"
t_json "tempo changes: the coarsest tick" '.tick_ns == 10416667 and .source.tick_ns_min == 651042' "$OUT"

# a file name that is not UTF-8 still names the file in the JSON (the odd byte as '?')
cp "$F/jitter-10hz" "$T_TMP/odd$(printf '\377').mid"
t_exit 0 "analyze a file whose name is not UTF-8" "$AUDIOLAT" midi analyze "$T_TMP/odd$(printf '\377').mid" --json "$J" -q
t_json "... the file named in config and source, made valid UTF-8" \
	'(.config.file | endswith("/odd?.mid")) and (.source.file | endswith("/odd?.mid")) and .events == 6' "$J"
t_exit 0 "format 1 with a tempo track" "$AUDIOLAT" midi analyze "$F/format1-tempo-track" --json "$J" -q
t_json "format 1: 4 note-ons, deltas 500, 500, 1000 ms" \
	'.events == 4 and .delta_min_ns == 500000000 and .delta_max_ns == 1000000000 and .source.tempo_events == 2' "$J"
t_exit 0 "SMPTE 29.97" "$AUDIOLAT" midi analyze "$F/smpte-2997" --json "$J" -q
t_json "SMPTE: 3 frames of 29.97 fps = 100.1 ms" '.delta_max_ns == 100100000 and .source.smpte_fps == 29 and .source.ticks_per_frame == 80' "$J"
t_exit 0 "running status, sysex, meta: note-offs" "$AUDIOLAT" midi analyze "$F/running-status" --events note-off --json "$J" -q
t_json "velocity-0 note-on counts as a note-off" '.events == 2 and .delta_max_ns == 150000000' "$J"
t_exit 0 "--events all --channel 2" "$AUDIOLAT" midi analyze "$F/running-status" --events all --channel 2 --json "$J" -q
t_json "channel 2: 3 messages (running status too)" '.events == 3 and .config.channel == 2 and .config.events == "all"' "$J"
t_exit 0 "RIFF RMID" "$AUDIOLAT" midi analyze "$F/rmid" --json "$J" -q
t_json "RMID unwrapped" '.source.rmid and .events == 2 and .delta_max_ns == 500000000' "$J"
t_exit 0 "one event: no deltas" "$AUDIOLAT" midi analyze "$F/format2" --channel 1
t_grep "$OUT" "^deltas: none \(fewer than two events\)$" "... said so"

# ---- thresholds ----
t_exit 3 "--max-jitter 1ms exceeded: exit 3" "$AUDIOLAT" midi analyze "$F/jitter-10hz" --interval 100ms --max-jitter 1ms
t_grep "$ERR" "max \|delta - interval\| 5000.0 us exceeds --max-jitter 1000.0 us" "... one line with both"
t_grep "$OUT" "result=FAIL$" "... FAIL in the summary"
t_exit 0 "--max-jitter 10ms met" "$AUDIOLAT" midi analyze "$F/jitter-10hz" --interval 100ms --max-jitter 10ms

# ---- malformed files: exit 1, one line, the byte offset ----
check_bad() { # FILE OFFSET TEXT
	t_exit 1 "malformed $1: exit 1" "$AUDIOLAT" midi analyze "$F/$1"
	cp "$ERR" "$T_TMP/bad.err"
	t_true "malformed $1: one line naming byte $2" \
		bash -c "[ \$(wc -l <'$T_TMP/bad.err') -eq 1 ] && grep -q 'analyze: $F/$1: byte $2: .*$3' '$T_TMP/bad.err'"
}
check_bad empty 0 "empty file"
check_bad garbage 0 "not a Standard MIDI File"
check_bad mthd-short 4 "MThd length 5"
check_bad format-3 8 "format 3"
check_bad ntracks-absurd 10 "65535 tracks"
check_bad division-0 12 "zero division"
check_bad chunk-past-eof 18 "runs past the end of the file"
check_bad vlq-5-bytes 22 "longer than 4 bytes"
check_bad data-before-status 23 "without a status byte"
check_bad running-after-meta 32 "cancelled by the meta event at offset 26"
check_bad tempo-short 22 "tempo with 2 data bytes"
check_bad no-eot 26 "no End of Track"
check_bad riff-past-eof 4 "RIFF size 1000"
check_bad time-overflow 43 "past 2\\^63 ns"
t_exit 1 "a missing file" "$AUDIOLAT" midi analyze "$T_TMP/nothing.mid"
t_grep "$ERR" "nothing.mid: No such file or directory" "... named"
t_exit 1 "a directory" "$AUDIOLAT" midi analyze "$T_TMP"
t_grep "$ERR" "not a regular file" "... said so"

# ---- rawmidi and seq: without /dev/snd, exit 4 and why ----
if [ ! -e /dev/snd ]; then
	t_exit 4 "record --api rawmidi without /dev/snd: exit 4" \
		"$AUDIOLAT" midi record --api rawmidi --port hw:1,0 -d 1 --no-db
	t_grep "$ERR" "rawmidi hw:1,0: .*no /dev/snd" "... one clear line"
	t_exit 4 "send --api seq without /dev/snd: exit 4" "$AUDIOLAT" midi send --api seq --port 14:0 -d 1
	t_grep "$ERR" "no /dev/snd/seq" "... one clear line"
	t_exit 4 "loop --api rawmidi without /dev/snd: exit 4" \
		"$AUDIOLAT" midi loop --api rawmidi --out hw:1,0 --in hw:1,0 -d 1 --no-db
	t_grep "$ERR" "rawmidi hw:1,0: .*no /dev/snd" "... one clear line"
	# (rawmidi framing and seq stamps on a real device: hw-midi.sh, and the
	# kernel suite's midi_rawmidi and midi_seq checks in the qemu guest)
else
	t_skip "rawmidi and seq without /dev/snd" "/dev/snd exists here"
fi
# --- compare MIDI results: a planted difference is found, none where there is none ---
# mk_smf FILE D1 D2...: a format-0 file, 480 ticks a quarter at 120 bpm (96
# ticks = 100 ms), 200 note-ons whose deltas cycle through D1 D2 ...
mk_smf() {
	local file=$1 track="" len i d
	shift
	local ds=("$@")
	for i in $(seq 0 199); do
		d=${ds[$((i % ${#ds[@]}))]}
		[ "$i" -eq 0 ] && d=0
		track+=$(printf '\\x%02x\\x90\\x3c\\x64' "$d")
	done
	track+='\x00\xff\x2f\x00'
	len=$(printf "$track" | wc -c)
	{
		printf 'MThd\x00\x00\x00\x06\x00\x00\x00\x01\x01\xe0MTrk'
		printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $((len >> 24 & 255)) $((len >> 16 & 255)) $((len >> 8 & 255)) $((len & 255)))"
		printf "$track"
	} >"$file"
}
C=$T_TMP/cmp
mkdir -p "$C"
mk_smf "$C/steady.mid" 95 97 96 96
mk_smf "$C/steady2.mid" 97 95 96 96
mk_smf "$C/jittery.mid" 86 106 96 91 101
for x in steady steady2 jittery; do
	"$AUDIOLAT" midi analyze "$C/$x.mid" --interval 100ms --json "$C/$x.json" -q >/dev/null 2>&1
done
for x in steady steady2 jittery; do
	t_json "the generated $x.mid analyses (200 events)" '.events == 200' "$C/$x.json"
done
t_exit 0 "compare two steady MIDI results" "$AUDIOLAT" compare "$C/steady.json" "$C/steady2.json"
t_grep "$OUT" '^B vs A: p99_abs_jitter .*no significant difference( \(would have seen \+-[0-9.]+ ms\))?$' "same jitter: p99, no significant difference"
t_grep "$OUT" '^B vs A: max_abs_jitter .*no significant difference( \(would have seen \+-[0-9.]+ ms\))?$' "same jitter: max, no significant difference"
t_exit 0 "compare steady with jittery" "$AUDIOLAT" compare "$C/steady.json" "$C/jittery.json" --json "$C/c.json"
t_grep "$OUT" '^B vs A: p99_abs_jitter \+[0-9.]+ ms .*: worse \(within-run only\)$' "the planted jitter: p99 worse"
t_grep "$OUT" '^B vs A: max_abs_jitter \+[0-9.]+ ms .*: worse \(within-run only\)$' "the planted jitter: max worse"
t_grep "$OUT" "^Holm's correction over the 2 verdicts" "... Holm's correction over both"
t_json "... in the JSON: two tests, each at its step's level" \
	'.method.multiple_testing.tests == 2 and ([.scopes[0].comparisons[0].statistics[].confidence] | sort) == [0.95, 0.975]' "$C/c.json"
t_grep "$OUT" '^A +steady.json +200 ' "rows are named by their files"
t_json "audiolat.compare-midi/1 JSON" \
	'.schema == "audiolat.compare-midi/1" and (.results | length) == 2 and (.scopes[0].comparisons[0].statistics | length) == 2' "$C/c.json"
t_exit 3 "--fail-on-worse --within-run with a worse MIDI result exits 3" "$AUDIOLAT" compare "$C/steady.json" "$C/jittery.json" --fail-on-worse --within-run -q
t_exit 5 "... without --within-run: single recordings, not enough data (exit 5)" "$AUDIOLAT" compare "$C/steady.json" "$C/jittery.json" --fail-on-worse -q
t_exit 0 "--markdown for a MIDI comparison" "$AUDIOLAT" compare "$C/steady.json" "$C/jittery.json" --markdown
t_grep "$OUT" '^\| A \| steady.json \| 200 ' "a Markdown row per result"
"$AUDIOLAT" run -d 200ms -q --no-db --json "$C/run.json" >/dev/null 2>&1
t_exit 1 "a MIDI and a run result do not mix" "$AUDIOLAT" compare "$C/steady.json" "$C/run.json"
t_grep "$ERR" 'not mixed' "the message says why"

t_done
