#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# audiolat report and run --html: every kind of result gives well-formed,
# self-contained markup (checked by libxml2's XML parser) with everything
# from outside escaped; the exit codes.
# $1: gen-result, the synthetic result generator.
. "$(dirname "$0")/../lib.sh"
GEN=${1:?gen-result}
command -v xmllint >/dev/null || t_skip_all "xmllint (Debian libxml2-utils) is not installed"
T=$T_TMP

# XPath on the XHTML: elements by local name (the document has a namespace)
xcount() { # FILE XPATH
	xmllint --xpath "count($2)" "$1" 2>/dev/null
}
t_eq() { # DESC GOT WANT
	[ "$2" = "$3" ] || echo "# got '$2', expected '$3'"
	t_result $([ "$2" = "$3" ] && echo 0 || echo 1) "$1"
}
el() { echo "*[local-name()='$1']"; }

# the kinds of result: one phase; three phases with xruns, a stall and
# spikes; strings from outside that must be escaped; a real sim run
"$GEN" --seed 1 --duration 3 -o "$T/plain.json"
"$GEN" --seed 2 --phases idle:2,hackbench:2:2,idle:2 --xruns 3 --stall --spikes 3 -o "$T/phases.json"
"$GEN" --seed 3 --duration 2 --label "lab <b>&amp; \"q\" 'x' | y" --hostname $'host\xff<i>x</i>' \
	--cmdline $'audiolat run --label "<script>alert(1)</script>" \x01\x1b[2J' \
	--load "cmd:'echo <x> & y'" -o "$T/hostile.json"
t_exit 0 "run --html writes the report of a real run" \
	"$AUDIOLAT" run -d 1s -q --no-db --json "$T/sim.json" --html "$T/run.html"

for k in plain phases hostile sim; do
	t_exit 0 "report of the $k result" "$AUDIOLAT" report "$T/$k.json" -o "$T/$k.html"
	t_true "the $k report is well-formed XML (xmllint)" xmllint --noout --nonet "$T/$k.html"
	t_true "the $k report is valid UTF-8" iconv -f UTF-8 -t UTF-8 "$T/$k.html"
	t_eq "the $k report has its three plots" "$(xcount "$T/$k.html" "//$(el svg)")" 3
done
t_true "run --html is well-formed XML" xmllint --noout --nonet "$T/run.html"
t_eq "run --html has its three plots" "$(xcount "$T/run.html" "//$(el svg)")" 3
t_exit 0 "report of four results at once" "$AUDIOLAT" report "$T/plain.json" "$T/phases.json" \
	"$T/hostile.json" "$T/sim.json" -o "$T/all.html" --title "kernels <&> compared"
t_true "the four-result report is well-formed XML" xmllint --noout --nonet "$T/all.html"
t_eq "four result sections" "$(xcount "$T/all.html" "//$(el section)[@class='result']")" 4
t_eq "three plots each and the overview's" "$(xcount "$T/all.html" "//$(el svg)")" 13
t_eq "the overview table has a row per result" \
	"$(xcount "$T/all.html" "//$(el section)[@id='overview']//$(el tbody)/$(el tr)")" 4
t_grep "$T/all.html" '<title>kernels &lt;&amp;&gt; compared</title>' "the title is escaped"

# a MIDI result (audiolat.midi/1): its delta histograms, alone and beside a run
SMF=$TESTS_DIR/fuzz/corpus/smf/jitter-10hz
# (a midi analyze that fails is a failure of these checks, not a reason to skip them)
t_exit 0 "midi analyze writes the MIDI result" "$AUDIOLAT" midi analyze "$SMF" --interval 100ms --json "$T/midi.json"
t_exit 0 "report of a MIDI result" "$AUDIOLAT" report "$T/midi.json" -o "$T/midi.html"
t_true "the MIDI report is well-formed XML" xmllint --noout --nonet "$T/midi.html"
t_eq "the MIDI report has the delta and jitter histograms and the timeline" "$(xcount "$T/midi.html" "//$(el svg)")" 3
t_eq "a timeline bar per window with deltas" \
	"$(xcount "$T/midi.html" "(//$(el svg))[3]//$(el rect)[@class='bar']")" \
	"$(jq '.timeline.rows | length' "$T/midi.json")"
t_eq "a bar per delta bucket" \
	"$(xcount "$T/midi.html" "(//$(el svg))[1]//$(el rect)[@class='bar']")" \
	"$(jq '.histogram.buckets | length' "$T/midi.json")"
t_grep "$T/midi.html" '>interval<' "the interval is marked on the deltas"
t_grep "$T/midi.html" '<b>105.000 ms</b><span>longest delta</span>' "the longest delta (the file's 105 ms)"
t_grep "$T/midi.html" '<b>5.000 ms</b><span>max \|delta - interval\|</span>' "the jitter (5 ms)"
t_exit 0 "a MIDI result and a run in one report" "$AUDIOLAT" report "$T/midi.json" \
	"$T/plain.json" -o "$T/mixed.html"
t_true "... well-formed" xmllint --noout --nonet "$T/mixed.html"
t_eq "... two sections" \
	"$(xcount "$T/mixed.html" "//$(el section)[@class='result' or @class='result midi']")" 2
t_eq "... six plots (three of the run, three of the MIDI result): no overview for one run" "$(xcount "$T/mixed.html" "//$(el svg)")" 6
t_exit 1 "compare refuses a MIDI result" "$AUDIOLAT" compare "$T/plain.json" "$T/midi.json"
t_grep "$ERR" "midi.json: schema audiolat.midi/1: compare takes audiolat.run results" \
	"... saying why"

# structure and values of the phases result
P=$T/phases.html
t_eq "a row per phase" "$(xcount "$P" "//$(el table)[@class='phases']/$(el tbody)/$(el tr)[@class='phase']")" 3
t_eq "the phases are shaded in the timeline" "$(xcount "$P" "//$(el rect)[starts-with(@class,'phase')]")" 3
t_eq "a row per xrun" "$(xcount "$P" "//$(el table)[@class='xruns']/$(el tbody)/$(el tr)")" 3
t_eq "each xrun is marked in the timeline" "$(xcount "$P" "//$(el path)[@class='xrunmark']")" 3
t_eq "a row per spike" "$(xcount "$P" "//$(el table)[@class='spikes']/$(el tbody)/$(el tr)")" 3
t_grep "$P" "task al-hog &lt;x&gt; &amp; &#39;y&#39; \\[100\\] 300.0 µs \\(75.0 %\\)<br/>irq eth0 \\[42\\] 90.0 µs" \
	"a spike's causes: kind, name, pid, time, share"
t_eq "each spike is a dot" \
	"$(xcount "$P" "//$(el circle)[@class='spike'][not(ancestor::$(el g)[@class='legend'])]")" 3
t_true "the stalled window is shown" test "$(xcount "$P" "//$(el rect)[@class='stall']")" -ge 1
t_eq "the period and buffer deadlines in each plot" \
	"$(xcount "$P" "//$(el line)[@class='period' or @class='buffer']")" 8
t_grep "$P" '>buffer 4.000 ms<' "the buffer deadline is labelled with its time"
t_grep "$P" '>period 1.333 ms<' "the period deadline is labelled with its time"
t_grep "$P" '>time since the stream started<' "the time axis is labelled"
t_grep "$P" '>10 µs<' "latency ticks carry units"
t_grep "$P" '<td class="num">3</td>' "the xrun count is in the table"
t_eq "the system check rows" "$(xcount "$P" "//$(el table)[@class='checks']/$(el tbody)/$(el tr)")" 2
want_p99=$(jq '.total.wake_latency_ns.p99' "$T/phases.json")
t_grep "$P" "$(awk -v v="$want_p99" 'BEGIN { printf "<b>%.1f µs</b><span>p99 wake latency", v / 1000 }')" \
	"the p99 card shows the document's p99"

# everything from outside is escaped
H=$T/hostile.html
t_eq "no element from a label, host name or command line" \
	"$(xcount "$H" "//$(el script) | //$(el i) | //$(el x)")" 0
t_grep "$H" 'lab &lt;b&gt;&amp;amp; &quot;q&quot; &#39;x&#39; \| y' "the label is escaped"
t_grep "$H" 'host\?&lt;i&gt;x&lt;/i&gt;' "the host name is escaped (its odd byte was '?' already)"
t_grep "$H" '&lt;script&gt;alert\(1\)&lt;/script&gt;' "the command line is escaped"
t_result $(LC_ALL=C grep -q $'[\x01\x1b]' "$H"; [ $? -eq 1 ] && echo 0 || echo 1) \
	"control characters do not come through"
t_grep "$H" "cmd:&#39;echo &lt;x&gt; &amp; y&#39;" "the load spec is escaped"
# self-contained: nothing is fetched
refs=$(grep -Eo '(src|href)="[^"#][^"]*"|url\([^#)][^)]*\)|@import' "$T"/*.html | head -n 3)
t_eq "no outside assets (src, href, url(), @import)" "$refs" ""

# a label that is not UTF-8 makes the file invalid JSON: named, line and column
"$GEN" --seed 4 --duration 1 --label-raw $'bad\xff' -o "$T/badutf8.json"
t_exit 1 "a file that is not UTF-8: exit 1" "$AUDIOLAT" report "$T/badutf8.json" -o "$T/x.html"
t_grep "$ERR" "^audiolat report: .*badutf8.json: line [0-9]+, column [0-9]+: " \
	"... naming the file, line and column"
head -c 300 "$T/plain.json" >"$T/cut.json"
t_exit 1 "a truncated file: exit 1" "$AUDIOLAT" report "$T/cut.json" -o "$T/x.html"
t_grep "$ERR" "cut.json: line [0-9]+, column [0-9]+: " "... with the line and column"
echo '{"schema": "audiolat.check/1", "ok": 1}' >"$T/check.json"
t_exit 1 "another schema: exit 1" "$AUDIOLAT" report "$T/check.json" -o "$T/x.html"
t_grep "$ERR" "check.json: schema 'audiolat.check/1' is not audiolat.run/2, audiolat.run/1, audiolat.midi/1 or audiolat.midi-loop/1" \
	"... saying what it is"
echo '[1, 2]' >"$T/array.json"
t_exit 1 "not an object: exit 1" "$AUDIOLAT" report "$T/array.json" -o "$T/x.html"
t_exit 1 "a missing file: exit 1" "$AUDIOLAT" report "$T/nothere.json" -o "$T/x.html"
t_grep "$ERR" "nothere.json: No such file or directory" "... naming it"
t_exit 1 "a directory: exit 1" "$AUDIOLAT" report "$T" -o "$T/x.html"
t_exit 1 "an unwritable output: exit 1" "$AUDIOLAT" report "$T/plain.json" -o /nonexistent/dir/x.html
t_grep "$ERR" "^audiolat report: -o /nonexistent/dir/x.html: No such file or directory" "... naming it"
t_true "no half-written report after a bad input" test ! -e "$T/x.html"
t_exit 0 "the report on stdout (-o -)" "$AUDIOLAT" report "$T/plain.json" -o -
t_true "... is well-formed" xmllint --noout --nonet "$OUT"
t_exit 0 "a result from stdin" bash -c "'$AUDIOLAT' report - -o '$T/stdin.html' <'$T/plain.json'"
t_grep "$T/stdin.html" '<code>stdin</code>' "... called stdin"

t_exit 2 "no result: usage error" "$AUDIOLAT" report -o "$T/x.html"
t_grep "$ERR" "no result to report" "... saying so"
t_exit 2 "no -o: usage error" "$AUDIOLAT" report "$T/plain.json"
t_grep "$ERR" "^audiolat report: -o/--output" "... naming the option"
t_exit 2 "an unknown option: usage error" "$AUDIOLAT" report --frobnicate "$T/plain.json"
t_exit 2 "-o without a value: usage error" "$AUDIOLAT" report "$T/plain.json" -o
t_exit 0 "--help" "$AUDIOLAT" report --help
t_grep "$OUT" "^usage: audiolat report" "--help prints the usage on stdout"
t_exit 2 "run --html - is refused" "$AUDIOLAT" run --html - -d 1s
t_grep "$ERR" "^audiolat run: --html: '-' is not a file name" "... naming the option"
t_done
