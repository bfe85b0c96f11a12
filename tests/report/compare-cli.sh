#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# audiolat compare on synthetic results (gen-result, seeded): a planted
# difference is reported as worse or better, results drawn from the same
# distribution show no significant difference; the design effect of
# clustered windows; text, Markdown, JSON, HTML; database ids; exit codes.
# $1: gen-result, the synthetic result generator.
. "$(dirname "$0")/../lib.sh"
GEN=${1:?gen-result}
T=$T_TMP
t_eq() { # DESC GOT WANT
	[ "$2" = "$3" ] || echo "# got '$2', expected '$3'"
	t_result $([ "$2" = "$3" ] && echo 0 || echo 1) "$1"
}

# A and B from the same distribution, C 40 % slower, D 40 % faster
"$GEN" --seed 11 --duration 20 -o "$T/a.json"
"$GEN" --seed 12 --duration 20 -o "$T/b.json"
"$GEN" --seed 13 --duration 20 --scale 1.4 --label "patched | v2" -o "$T/c.json"
"$GEN" --seed 14 --duration 20 --scale 0.6 -o "$T/d.json"

t_exit 0 "compare four results" "$AUDIOLAT" compare "$T/a.json" "$T/b.json" "$T/c.json" "$T/d.json"
cp "$OUT" "$T/text"
for s in p50 p99 max; do
	t_grep "$T/text" "^B vs A, whole run, $s wake latency: .*: no significant difference \(would have seen \+-[0-9.]+ [mun]?s\)$" \
		"same distribution: $s, no significant difference, and what it would have seen"
	t_grep "$T/text" "^C vs A, whole run, $s wake latency: \+.*: worse \(within-run only\)$" "planted slower: $s worse, within-run only"
	t_grep "$T/text" "^D vs A, whole run, $s wake latency: -.*: better \(within-run only\)$" "planted faster: $s better, within-run only"
done
t_grep "$T/text" "^A  6\.1\.0-gen11 +[0-9.]+ ms +[0-9.]+ % +[0-9.]+ +[0-9.]+ +[0-9.]+ us +[0-9.]+ us +0$" \
	"a row per result: kernel release, the latencytest figures, p99, p99.9, xruns"
t_grep "$T/text" "^C  patched \| v2 " "a result is labelled with its label"
t_grep "$T/text" "^C: patched \| v2 = .*c.json \(sim, 48000 Hz, 3 x 64 frames, buffer 4.000 ms\)$" \
	"the results are named with their files"

t_exit 0 "--json -" "$AUDIOLAT" compare "$T/a.json" "$T/b.json" "$T/c.json" "$T/d.json" --json -
cp "$OUT" "$T/cmp.json"
t_eq "the JSON is the whole stdout" "$(jq -r .schema "$T/cmp.json")" "audiolat.compare/1"
t_eq "four results" "$(jq '.results | length' "$T/cmp.json")" 4
t_eq "one scope for one-phase results" "$(jq '.scopes | length' "$T/cmp.json")" 1
t_eq "three comparisons against A" "$(jq -c '[.scopes[0].comparisons[] | .key + .baseline]' "$T/cmp.json")" \
	'["BA","CA","DA"]'
t_eq "the verdicts" "$(jq -c '[.scopes[0].comparisons[] | [.statistics[].verdict[0:2]]]' "$T/cmp.json")" \
	'[["no","no","no"],["wo","wo","wo"],["be","be","be"]]'
t_eq "every interval holds its difference" \
	"$(jq '[.scopes[].comparisons[].statistics[] | select(.ci_low_ns > .diff_ns or .ci_high_ns < .diff_ns)] | length' "$T/cmp.json")" 0
t_eq "the difference is value - baseline" \
	"$(jq '[.scopes[].comparisons[].statistics[] | select(.diff_ns != .value_ns - .baseline_ns)] | length' "$T/cmp.json")" 0
t_eq "the baseline values are the documents' own" \
	"$(jq -r '.scopes[0].comparisons[0].statistics | map(.baseline_ns) | join(",")' "$T/cmp.json")" \
	"$(jq -r '.total.wake_latency_ns | [.p50, .p99, .max] | join(",")' "$T/a.json")"
t_eq "the rows carry the latencytest figures" \
	"$(jq -r '.scopes[0].rows[2] | [.max_latency_ns, .max_latency_pct_of_buffer, .max_interval_ns, .max_interval_pct_of_buffer, .xruns, .view] | join(",")' "$T/cmp.json")" \
	"$(jq -r '.total | [.wake_latency_ns.max, .max_latency_pct_of_buffer, .interval_ns.max, .max_interval_pct_of_buffer, .xruns, "per period"] | join(",")' "$T/c.json")"
t_eq "the method is recorded" "$(jq -c '.method | [.confidence, .resamples, .seed, .spread]' "$T/cmp.json")" \
	'[0.95,4000,1,"within-run"]'
# Holm's correction over the 9 verdicts: the 6 planted ones rejected at
# 0.05/9 .. 0.05/4, the 3 of B at the level where the steps stopped, 0.05/3
t_eq "Holm over the nine verdicts" "$(jq -c '.method.multiple_testing' "$T/cmp.json")" \
	'{"method":"holm","tests":9,"family_confidence":0.95}'
t_json "... each rejected one decided at its step (p <= 1 - confidence) and its interval at that level" \
	'[.scopes[0].comparisons[1,2].statistics[]] | length == 6 and all(.p_value <= 1 - .confidence + 1e-12 and .confidence >= 1 - 0.05 / 4 - 1e-12)' "$T/cmp.json"
t_json "... the levels of the six are 0.05/9 .. 0.05/4, one each" \
	'[.scopes[0].comparisons[1,2].statistics[].confidence | 0.05 / (1 - .) | . * 1000 | round] | sort == [4000, 5000, 6000, 7000, 8000, 9000]' "$T/cmp.json"
t_json "... the not-rejected three at the stop's level 0.05/3, p above it, and what they would have seen" \
	'[.scopes[0].comparisons[0].statistics[]] | length == 3 and all((1 - .confidence - 0.05 / 3 | fabs) < 1e-12 and .p_value > 0.05 / 3 and .detectable_ns > 0)' "$T/cmp.json"
t_json "... and only the verdicts of no difference carry detectable_ns" \
	'[.scopes[0].comparisons[1,2].statistics[].detectable_ns] | length == 6 and all(. == null)' "$T/cmp.json"
t_grep "$T/text" "^Holm's correction over the 9 verdicts above \(95 % for all of them together" "the text says so"
"$AUDIOLAT" compare "$T/a.json" "$T/b.json" "$T/c.json" "$T/d.json" --json "$T/cmp2.json" -q
t_true "the same input gives the same output (fixed seed)" cmp "$T/cmp.json" "$T/cmp2.json"
"$AUDIOLAT" compare "$T/a.json" "$T/b.json" "$T/c.json" "$T/d.json" --json "$T/cmp3.json" -q --seed 7
t_eq "another seed, the same verdicts" \
	"$(jq -c '[.scopes[0].comparisons[].statistics[].verdict]' "$T/cmp3.json")" \
	"$(jq -c '[.scopes[0].comparisons[].statistics[].verdict]' "$T/cmp.json")"

# the design effect: windows whose means move together in blocks (10 of 100 ms
# low, 10 high) are fewer independent periods than the run has; each row
# counts its periods divided by it (a periods-long run counted whole would
# make every interval too narrow)
jq '.timeseries.rows |= [to_entries[] | .value[3] = (if .key % 20 < 10 then 10000 else 20000 end) | .value]' \
	"$T/a.json" >"$T/clustered.json"
"$AUDIOLAT" compare "$T/a.json" "$T/clustered.json" --json "$T/deff.json" -q
t_json "clustered windows: a design effect well above 1" '.scopes[0].rows[1].design_effect > 10' "$T/deff.json"
t_json "... and the effective periods are the periods divided by it" \
	'(.scopes[0].rows | length) >= 2 and all(.scopes[0].rows[]; (.effective_periods * .design_effect - .periods | fabs) < 1) and .scopes[0].rows[1].effective_periods < .scopes[0].rows[1].periods / 10' \
	"$T/deff.json"

# calibration: pairs from one distribution rarely differ, a 30 % change always shows
fp=0
found=0
for s in $(seq 0 11); do
	"$GEN" --seed $((100 + 2 * s)) --duration 5 -o "$T/n1.json"
	"$GEN" --seed $((101 + 2 * s)) --duration 5 -o "$T/n2.json"
	"$GEN" --seed $((300 + s)) --duration 5 --scale 1.3 -o "$T/w.json"
	"$AUDIOLAT" compare "$T/n1.json" "$T/n2.json" "$T/w.json" --json "$T/k.json" -q
	fp=$((fp + $(jq '[.scopes[0].comparisons[0].statistics[] | select(.verdict != "no significant difference")] | length' "$T/k.json")))
	found=$((found + $(jq '[.scopes[0].comparisons[1].statistics[0,1] | select(.verdict == "worse")] | length' "$T/k.json")))
done
echo "# 12 null pairs: $fp of 36 intervals exclude 0; 12 pairs 30 % slower: $found of 24 p50/p99 found"
t_true "same distribution: at most 4 of 36 intervals exclude 0 (5 % expected: 1.8)" test "$fp" -le 4
t_eq "30 % slower: p50 and p99 found every time" "$found" 24

# phases: compared by name, one scope each
"$GEN" --seed 21 --phases idle:4,hackbench:4:2 -o "$T/p1.json"
"$GEN" --seed 22 --phases idle:4,hackbench:4:3 -o "$T/p2.json"
t_exit 0 "compare results with phases" "$AUDIOLAT" compare "$T/p1.json" "$T/p2.json" --json -
t_eq "a scope per phase after the whole run" "$(jq -c '[.scopes[].phase]' "$OUT")" '[null,"idle","hackbench"]'
t_eq "the loaded phase got worse, the idle one did not" \
	"$(jq -c '[.scopes[1,2].comparisons[0].statistics[0].verdict]' "$OUT")" \
	'["no significant difference","worse"]'
t_exit 0 "the text has a table per phase" "$AUDIOLAT" compare "$T/p1.json" "$T/p2.json"
t_grep "$OUT" "^phase hackbench:$" "... the hackbench phase"
t_grep "$OUT" "^B vs A, phase hackbench, p50 wake latency: .*: worse \(within-run only\)$" "... and its verdicts"
t_exit 0 "... --json" "$AUDIOLAT" compare "$T/p1.json" "$T/p2.json" --json -
t_json "Holm over the three scopes' nine verdicts" '.method.multiple_testing.tests == 9' "$OUT"

t_exit 0 "--markdown" "$AUDIOLAT" compare "$T/a.json" "$T/c.json" --markdown
t_grep "$OUT" '^\| \| result \| max latency \| % of buffer \| 1MS factor \| 2MS factor \| p99 wake \| p99\.9 wake \| xruns \|$' \
	"a Markdown table of the results"
t_grep "$OUT" '^\| B \| patched \\\| v2 \| ' "a '|' in a label is escaped"
t_grep "$OUT" '^\| B vs A \| p99 \| [0-9.]+ µs \| [0-9.]+ µs \| \+[0-9.]+ µs \(\+[0-9.]+ %\) \| [0-9.]+ % \[\+[0-9.]+, \+[0-9.]+ µs\] \| worse \(within-run only\) \|$' \
	"a Markdown row per verdict, its interval's level beside it"
t_exit 0 "--html" "$AUDIOLAT" compare "$T/a.json" "$T/c.json" --html "$T/cmp.html" -q
t_eq "-q: no text" "$(wc -c <"$OUT")" 0
if command -v xmllint >/dev/null; then
	t_true "the HTML is well-formed XML" xmllint --noout --nonet "$T/cmp.html"
else
	t_skip "the HTML is well-formed XML" "xmllint is not installed"
fi
t_grep "$T/cmp.html" '<td class="worse">worse</td>' "the HTML shows the verdicts"
# the gate decides on runs: single runs are not enough data (exit 5)
t_exit 5 "--fail-on-worse on single runs, a worse one: not enough data, exit 5" \
	"$AUDIOLAT" compare "$T/a.json" "$T/c.json" --fail-on-worse -q
t_grep "$ERR" "^audiolat compare: not enough data to decide: one run each: .*--group-by label.*--within-run" "... saying why and what to do"
t_exit 5 "... and with a result of the same distribution: exit 5 too, never a pass" \
	"$AUDIOLAT" compare "$T/a.json" "$T/b.json" --fail-on-worse -q
t_exit 0 "--allow-insufficient: exit 0" \
	"$AUDIOLAT" compare "$T/a.json" "$T/b.json" --fail-on-worse --allow-insufficient -q
t_grep "$ERR" "not enough data to decide, passed by --allow-insufficient" "... with a warning"
t_exit 3 "--within-run with a worse result: exit 3" \
	"$AUDIOLAT" compare "$T/a.json" "$T/c.json" --fail-on-worse --within-run -q
t_grep "$ERR" "significantly worse than the baseline within the runs \(p99\)" "... saying why, and on which statistic"
t_exit 0 "--within-run with a better result: exit 0" \
	"$AUDIOLAT" compare "$T/a.json" "$T/d.json" --fail-on-worse --within-run -q
t_exit 0 "--within-run with a result of the same distribution: exit 0" \
	"$AUDIOLAT" compare "$T/a.json" "$T/b.json" --fail-on-worse --within-run -q
t_exit 2 "--gate p98: a usage error" "$AUDIOLAT" compare "$T/a.json" "$T/c.json" --gate p98
t_grep "$ERR" "^audiolat compare: --gate: 'p98' is not a list of p50, p99 and max" "... naming it"
t_exit 2 "--within-run with --group-by: a usage error" "$AUDIOLAT" compare --group-by label --within-run "$T/a.json"

# results from the database, by id
DB=$T/results.db
t_exit 0 "import two results into a database" "$AUDIOLAT" import --db "$DB" "$T/a.json" "$T/c.json"
t_exit 0 "compare database ids" "$AUDIOLAT" compare --db "$DB" 1 2 --json -
t_eq "... read from the database" "$(jq -c '[.results[].source]' "$OUT")" '["db:1","db:2"]'
t_eq "... with the same verdicts as the files" \
	"$(jq -c '[.scopes[0].comparisons[0].statistics[].verdict]' "$OUT")" '["worse","worse","worse"]'
t_exit 0 "a file and an id together" "$AUDIOLAT" compare --db "$DB" "$T/a.json" 2
t_exit 1 "an id that is not there: exit 1" "$AUDIOLAT" compare --db "$DB" 1 99
t_grep "$ERR" "^audiolat compare: 99: no such file, and no result 99 in " "... saying so"

t_exit 2 "one result: usage error" "$AUDIOLAT" compare "$T/a.json"
t_grep "$ERR" "needs two results or more" "... saying so"
t_exit 2 "--resamples 5: usage error" "$AUDIOLAT" compare "$T/a.json" "$T/b.json" --resamples 5
t_grep "$ERR" "^audiolat compare: --resamples: '5' is not in 100..1000000" "... naming the option"
t_exit 2 "an unknown option: usage error" "$AUDIOLAT" compare --nope "$T/a.json" "$T/b.json"
t_exit 2 "--json - and --html - together: usage error" \
	"$AUDIOLAT" compare "$T/a.json" "$T/b.json" --json - --html -
head -c 500 "$T/a.json" >"$T/cut.json"
t_exit 1 "a truncated file: exit 1" "$AUDIOLAT" compare "$T/a.json" "$T/cut.json"
t_grep "$ERR" "^audiolat compare: .*cut.json: line [0-9]+, column [0-9]+: " "... with line and column"
# a latency measured on a clock of the device's or server's is not compared
# with jitter against a frame clock fitted to the wake-ups (docs/truth.md)
jq '.boundary = "fitted"' "$T/b.json" >"$T/fitted.json"
t_exit 1 "a fitted-boundary run against a measured one: exit 1" "$AUDIOLAT" compare "$T/a.json" "$T/fitted.json"
t_grep "$ERR" "a.json has measured boundaries, .*/fitted.json fitted: .* not compared" "... naming both and their boundaries"
t_exit 0 "two fitted-boundary runs compare" "$AUDIOLAT" compare "$T/fitted.json" "$T/fitted.json"
echo '{"schema": "audiolat.run/3", "total": {}}' >"$T/v2.json"
t_exit 1 "a newer schema: exit 1" "$AUDIOLAT" compare "$T/a.json" "$T/v2.json"
t_grep "$ERR" "v2.json: schema 'audiolat.run/3' is not audiolat.run/2, audiolat.run/1, audiolat.midi/1 or audiolat.midi-loop/1" "... naming it"
t_exit 1 "a missing file: exit 1" "$AUDIOLAT" compare "$T/a.json" "$T/missing.json"
t_exit 0 "--help" "$AUDIOLAT" compare --help
t_grep "$OUT" "^usage: audiolat compare" "--help prints the usage"
t_done
