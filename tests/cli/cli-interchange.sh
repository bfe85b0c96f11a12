#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# audiolat import/export of cyclictest's formats (docs/interchange.md),
# against a real cyclictest run made here: the import reproduces
# cyclictest's own summary (count, min, max, average) exactly; show,
# history and compare work on it and name what it lacks; the export is
# cyclictest's text byte for byte; a round trip ours -> cyclictest -> ours
# is byte-identical on the second round; bad input is one line naming the
# file and line, and nothing of it is saved.
. "$(dirname "$0")/../lib.sh"

A=$AUDIOLAT
T=$T_TMP
DB=$T/results.db

command -v cyclictest >/dev/null ||
	t_bail "cyclictest is installed (rt-tests, scripts/packages.txt)"
prio=()
fifo_permitted && prio=(-p 80)

# cyclictest's own run: one thread, 2000 loops of 1 ms, buckets to 200 us
t_true "cyclictest -h 200 --json ran" \
	cyclictest -m "${prio[@]}" -i 1000 -l 2000 -h 200 -q --json="$T/ct.json" \
	--histfile="$T/ct.hist"
# and two threads with -H (the summary column), 500 loops
t_true "cyclictest -t 2 -H 100 ran" \
	cyclictest -m "${prio[@]}" -t 2 -i 1000 -l 500 -H 100 -q --histfile="$T/ct2.hist"

# cyclictest's own summary, read here with awk (not with our parser)
summary() { # summary FILE KEY COLUMN: the COLUMN-th value of "# KEY:"
	awk -v k="# $2:" -v c="$3" 'index($0, k) == 1 { n = split(substr($0, length(k) + 1), v, " "); print v[c] + 0 }' "$1"
}
total=$(summary "$T/ct.hist" Total 1)
ovf=$(summary "$T/ct.hist" "Histogram Overflows" 1)
min=$(summary "$T/ct.hist" "Min Latencies" 1)
avg=$(summary "$T/ct.hist" "Avg Latencies" 1)
max=$(summary "$T/ct.hist" "Max Latencies" 1)
echo "# cyclictest -h: Total $total, overflows $ovf, min $min, avg $avg, max $max us"
[ -n "$total" ] && [ -n "$max" ] && [ $((total + ovf)) -eq 2000 ]
t_result $? "cyclictest's text counts its 2000 loops (Total + Overflows)"

t_exit 0 "import the -h text" "$A" import --db "$DB" "$T/ct.hist"
t_grep "$OUT" "ct.hist: saved as result [0-9]+$" "it says the result's id"
id_h=$(sed -n 's/.*saved as result \([0-9]*\)$/\1/p' "$OUT")
t_exit 0 "export the imported run" "$A" export --db "$DB" "$id_h"
cp "$OUT" "$T/h.json"
t_json "the import reproduces cyclictest's count, min, avg and max exactly" \
	--argjson n $((total + ovf)) --argjson min "$min" --argjson avg "$avg" --argjson max "$max" \
	--argjson ovf "$ovf" \
	'.schema == "audiolat.run/2" and .source.tool == "cyclictest" and
	 .source.format == "cyclictest-hist" and .source.file == "ct.hist" and
	 .total.wake_latency_ns.count == $n and .total.wake_latency_ns.min == $min * 1000 and
	 .total.wake_latency_ns.mean == $avg * 1000 and .total.wake_latency_ns.max == $max * 1000 and
	 .total.histogram.wake_latency_ns.overflow == $ovf and .source.histogram_buckets == 200 and
	 (.source.threads | length) == 1' "$T/h.json"
t_json "what cyclictest does not measure is null, never 0" \
	'.total.xruns == null and .total.periods == null and .total.missed_periods == null and
	 .config.backend == null and .config.period_frames == null and .config.rate == null and
	 .total.interval_ns == null and .total.wakeups == .total.wake_latency_ns.count' "$T/h.json"

# the --json file: its per-thread figures, the average to 0.01 us
t_exit 0 "import the --json file" "$A" import --db "$DB" "$T/ct.json"
id_j=$(sed -n 's/.*saved as result \([0-9]*\)$/\1/p' "$OUT")
t_exit 0 "export it" "$A" export --db "$DB" "$id_j"
cp "$OUT" "$T/j.json"
t_json "the --json import reproduces cyclictest's cycles, min, avg and max exactly" \
	--slurpfile ct "$T/ct.json" \
	'$ct[0].thread["0"] as $t | .source.format == "cyclictest-json" and
	 .total.wake_latency_ns.count == $t.cycles and .total.wake_latency_ns.min == $t.min * 1000 and
	 .total.wake_latency_ns.max == $t.max * 1000 and
	 .total.wake_latency_ns.mean == ($t.avg * 1000 | round) and
	 .system.kernel_release == $ct[0].sysinfo.release and .source.threads[0].cpu == $t.cpu' \
	"$T/j.json"
t_json "the text and the --json file of one run are the same histogram" --slurpfile h "$T/h.json" \
	'.total.histogram.wake_latency_ns.buckets == $h[0].total.histogram.wake_latency_ns.buckets' \
	"$T/j.json"

# show, history and compare read it, and say what it lacks
t_exit 0 "show the imported run" "$A" show --db "$DB" "$id_h"
t_grep "$OUT" "^imported from cyclictest \(cyclictest-hist, ct.hist\)" "show says where it came from"
t_grep "$OUT" "^not measured by cyclictest: .*xruns" "show names the figures it lacks"
t_grep "$OUT" "xruns=-$" "show prints no 0 for its xruns"
t_nogrep "$OUT" "periods=0|xruns=0" "show prints no 0 for what was not measured"
t_exit 0 "report the imported run as HTML" "$A" report --db "$DB" "$id_h" -o "$T/ct.html"
sed 's/<[^>]*>/ /g' "$T/ct.html" | tr -s ' ' >"$T/ct.txt"
t_grep "$T/ct.txt" "^ - xruns \(- periods lost\) $" "the HTML shows '-' for the xruns it lacks"
t_nogrep "$T/ct.txt" " 0 Hz| 0 x 0 frames| 0 xruns| 0 ns max interval|buffer 0 " "... and no 0 for what cyclictest does not measure"
t_exit 0 "history lists it" "$A" history --db "$DB"
t_grep "$OUT" "^ +$id_h +.* +- +- +[0-9.]+ [mu]?s " "history: periods and xruns '-', the max wake there"
t_exit 0 "audiolat run of the same length" "$A" run --no-db -q -d 2s --json "$T/ours.json"
t_exit 0 "compare the cyclictest run with ours" "$A" compare --db "$DB" "$id_h" "$T/ours.json"
t_grep "$OUT" "A: imported from cyclictest .*not measured: .*xruns" "compare names what it lacks"

# export: cyclictest's own text again, byte for byte (its lines about the machine aside)
t_exit 0 "export --format cyclictest" "$A" export --db "$DB" --format cyclictest "$id_h"
grep -v '^# /dev/cpu_dma_latency' "$T/ct.hist" >"$T/ct.theirs"
cmp -s "$OUT" "$T/ct.theirs"
t_result $? "the export is cyclictest's -h text byte for byte"
t_exit 0 "import the -H text of two threads" "$A" import --db "$DB" "$T/ct2.hist"
id_2=$(sed -n 's/.*saved as result \([0-9]*\)$/\1/p' "$OUT")
t_exit 0 "export it" "$A" export --db "$DB" "$id_2"
t_json "two threads, their -H sums as none of them" \
	'(.source.threads | length) == 2 and .source.histofall == true and
	 .total.wake_latency_ns.count == (.source.threads | map(.wake_latency_ns.count) | add)' "$OUT"
t_exit 0 "export it as cyclictest" "$A" export --db "$DB" --format cyclictest "$id_2"
grep -v '^# /dev/cpu_dma_latency' "$T/ct2.hist" | cmp -s "$OUT" -
t_result $? "the -H export is cyclictest's text byte for byte"

# ours -> cyclictest -> ours -> cyclictest: the second round is byte-identical
mkdir -p "$T/r1" "$T/r2"
t_exit 0 "export our run as cyclictest" "$A" export --format cyclictest "$T/ours.json" -o "$T/r1/ours.hist"
t_grep "$T/r1/ours.hist" '^# audiolat\.xruns: [0-9]+$' "our xruns on a namespaced comment line"
t_grep "$T/r1/ours.hist" '^# audiolat\.backend: "sim"$' "and our backend"
t_json "our run has these figures" --rawfile h "$T/r1/ours.hist" \
	'. as $o | ($h | test("# audiolat.period_frames: \($o.config.period_frames)\n")) and
	 ($h | test("# Max Latencies: [0]*\($o.total.wake_latency_per_wakeup_ns.max / 1000 | floor)\n"))' \
	"$T/ours.json"
(cd "$T/r1" && "$A" import --db "$T/r1.db" ours.hist) >"$OUT" 2>"$ERR"
t_result $? "import it into one database"
t_exit 0 "export that again as cyclictest" "$A" export --db "$T/r1.db" --format cyclictest 1 -o "$T/r2/ours.hist"
cmp -s "$T/r1/ours.hist" "$T/r2/ours.hist"
t_result $? "ours -> cyclictest -> ours -> cyclictest: the same bytes"
(cd "$T/r2" && "$A" import --db "$T/r2.db" ours.hist) >"$OUT" 2>"$ERR"
t_result $? "import the second round into another database"
"$A" export --db "$T/r1.db" 1 >"$T/r1/doc.json" && "$A" export --db "$T/r2.db" 1 >"$T/r2/doc.json"
[ -s "$T/r1/doc.json" ] && cmp -s "$T/r1/doc.json" "$T/r2/doc.json"
t_result $? "the two imported documents are byte-identical"
t_json "and keep our figures the format holds" --slurpfile o "$T/ours.json" \
	'$o[0] as $o | .total.xruns == $o.total.xruns and .config.backend == $o.config.backend and
	 .config.period_frames == $o.config.period_frames and .total.periods == $o.total.periods and
	 .started_at == $o.started_at and
	 .total.wake_latency_ns.count == $o.total.wake_latency_per_wakeup_ns.count and
	 .total.wake_latency_ns.max == ($o.total.wake_latency_per_wakeup_ns.max / 1000 | floor) * 1000' \
	"$T/r1/doc.json"

# bad input: one line naming the file and the line, exit 1, nothing saved
n_before=$("$A" history --db "$DB" --json - | jq '.matching')
head -n 150 "$T/ct.hist" >"$T/cut.hist"
t_exit 1 "a truncated histogram is refused" "$A" import --db "$DB" "$T/cut.hist"
t_grep "$ERR" "^audiolat import: $T/cut.hist:150: expected a '# Min Latencies:' line" \
	"it names the file, the line and what was expected"
[ "$(wc -l <"$ERR")" -eq 1 ]
t_result $? "in one line"
sed 's/^000017 /000017 x/' "$T/ct.hist" >"$T/bad.hist"
line=$(grep -n '^000017 x' "$T/bad.hist" | cut -d: -f1)
t_exit 1 "a damaged bucket line is refused" "$A" import --db "$DB" "$T/bad.hist"
t_grep "$ERR" "bad.hist:$line: expected counts after the bucket, found 'x" "it names line $line"
t_exit 1 "the text read as --format cyclictest-json is refused" \
	"$A" import --db "$DB" --format cyclictest-json "$T/ct.hist"
t_grep "$ERR" "ct.hist:1:1: invalid JSON" "it says why"
jq '.thread["0"].cycles = 3' "$T/ct.json" >"$T/bad.json"
t_exit 1 "a --json file whose cycles are fewer than its histogram is refused" \
	"$A" import --db "$DB" "$T/bad.json"
t_grep "$ERR" "bad.json: thread \"0\": expected \"cycles\" \(3\) at least" "it names the thread"
t_exit 2 "--format nosuch is a usage error" "$A" import --db "$DB" --format nosuch "$T/ct.hist"
t_json "nothing of the refused files was saved" --argjson n "$n_before" '.matching == $n' \
	<("$A" history --db "$DB" --json -)
t_exit 0 "standard input is read too" "$A" import --db "$DB" - <"$T/ct2.hist"
t_grep "$OUT" "^<stdin>: saved as result [0-9]+$" "saved from <stdin>"
t_done
