#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The tail beyond the run (docs/tail.md) through the commands: the run
# document's "tail" per scope, the text, the HTML report and compare;
# no number where the fit is poor; a document written before it; the sim
# backend's --sim-tail. $1: gen-result, the synthetic result generator.
. "$(dirname "$0")/../lib.sh"
GEN=${1:?gen-result}
T=$T_TMP
A=$AUDIOLAT

"$GEN" --seed 4 --phases idle:30,hack:30:2 --tail 0.25,200,0.02 -o "$T/a.json"
t_json "every scope has a tail, fitted" \
	'[.total, .phases[]] | length == 3 and all(.tail.status == "ok")' "$T/a.json"
t_json "the 1 h prediction: 2 700 000 periods, low <= median max <= high" \
	'.total.tail.predicted_1h | .periods == 2700000 and .low_ns <= .max_ns and .max_ns <= .high_ns' "$T/a.json"
t_json "24 h predicts more than 1 h, and 1 h more than the 60 s run saw" \
	'.total.tail | .predicted_24h.max_ns > .predicted_1h.max_ns and .predicted_1h.max_ns > .observed_max_ns' "$T/a.json"
t_json "the threshold is the 99th percentile: 1 % of the periods exceed it" \
	'.total.tail | .exceedances > 0.009 * 45000 and .exceedances <= 0.01 * 45000 and .shape > 0' "$T/a.json"
# a light tail: a buffer's lateness is ~1e-31 per period, its run ~1e31 periods
"$GEN" --seed 11 --duration 20 -o "$T/light.json"
t_true "a document that jq rewrote still reads (no number too big for an integer)" \
	sh -c "jq . '$T/light.json' >'$T/light-jq.json' && '$A' compare '$T/light.json' '$T/light-jq.json' -q --json '$T/jq-cmp.json'"
t_json "a buffer late: a probability and the run to see it (ceil(ln 0.05 / ln(1 - p)))" \
	'.total.tail.buffer_late | .latency_ns == 4000000 and .source == "fit" and
	 .run_periods_95 == ((-2.995732273553991 / (1 - .per_period_probability | log)) | ceil)' "$T/a.json"

# 2 s: 1500 periods, 15 above the 99th percentile
"$GEN" --seed 4 --duration 2 -o "$T/short.json"
t_json "too few exceedances: said so, no number" \
	'.total.tail | .status == "too few exceedances" and .predicted_1h.max_ns == null and .shape == null' "$T/short.json"
"$GEN" --seed 4 --duration 60 --tail 1.6,200,0.02 -o "$T/wild.json"
t_json "a shape out of range: said so, no number" \
	'.total.tail | .status == "shape out of range" and .shape > 1 and .predicted_24h.max_ns == null' "$T/wild.json"

t_exit 0 "import" "$A" import --db "$T/db" "$T/a.json" "$T/short.json"
t_exit 0 "show" "$A" show --db "$T/db" 1
t_grep "$OUT" "^tail beyond the run" "the text has the tail"
t_grep "$OUT" "^whole run +[0-9.]+ [mu]?s +[0-9.]+ [mu]?s \([0-9.]+ [mu]?s - [0-9.]+ [mu]?s\)" \
	"the whole run: observed max, predicted 1 h with its interval"
t_grep "$OUT" "^hack " "a row per phase"
t_grep "$OUT" "^a wake-up a whole buffer \(4000.0 us\) late: .* per period" "the buffer line"
t_exit 0 "show the short run" "$A" show --db "$T/db" 2
t_grep "$OUT" "^whole run .*too few exceedances" "the short run says too few exceedances"

t_exit 0 "report" "$A" report "$T/a.json" "$T/short.json" -o "$T/r.html"
t_grep "$T/r.html" '<table class="tail">' "the HTML report has the tail table"
t_grep "$T/r.html" "<th>observed max</th><th>predicted 1 h</th><th>predicted 24 h</th>" \
	"its columns: observed max, predicted 1 h, predicted 24 h"
t_grep "$T/r.html" "<td>whole run</td>.*too few exceedances" "the short run's row says why"

# a document written before the tail: the readers fit it the same
jq 'del(.total.tail) | del(.phases[].tail)' "$T/a.json" >"$T/old.json"
t_exit 0 "compare" "$A" compare --json "$T/c.json" "$T/a.json" "$T/old.json"
t_json "compare's rows carry the tail, the same for the old document" \
	'.scopes[0].rows | .[0].tail == .[1].tail and .[0].tail.status == "ok" and
	 (.[0].tail.predicted_1h | has("max_ns") and has("low_ns") and has("high_ns"))' "$T/c.json"
t_json "and no verdict on it" \
	'[.scopes[].comparisons[].statistics[].name] | unique == ["max", "p50", "p99"]' "$T/c.json"
t_exit 0 "compare (text)" "$A" compare "$T/a.json" "$T/short.json"
t_grep "$OUT" "^   tail beyond the run +observed max +predicted 1 h \(95 %\)" "the text has the tail rows"
t_grep "$OUT" "^B .*too few exceedances" "B's says too few exceedances"
jq '.config.period_ns = null | del(.total.tail)' "$T/a.json" >"$T/noperiod.json"
t_exit 0 "report without a period" "$A" report "$T/noperiod.json" -o "$T/np.html"
t_grep "$T/np.html" "<td>whole run</td>.*period unknown" "no period: said so"

# the sim backend's known tail
t_exit 2 "--sim-tail: three parts" "$A" run --sim-tail 0.25,100us --no-db -q
t_grep "$ERR" "sim-tail.*XI,SIGMA,P" "the usage line names its form"
t_exit 2 "--sim-tail: P in (0, 1]" "$A" run --sim-tail 0.25,100us,0 --no-db -q
t_exit 2 "--sim-tail: a positive scale" "$A" run --sim-tail 0.25,0,0.1 --no-db -q
t_exit 2 "--sim-tail: sim only" "$A" run -b alsa --sim-tail 0.25,100us,0.1 --no-db -q
t_grep "$ERR" "sim-tail: not with the alsa backend" "it says so"
t_exit 0 "--help lists it" "$A" run --help
t_grep "$OUT" "--sim-tail XI,SIGMA,P" "--help has --sim-tail"
t_exit 0 "a 1 s run with a tail" "$A" run -d 1s --sim-tail 0.25,50us,0.05 --no-db --json "$T/s.json" -q
t_json "the document says what was injected" \
	'.config.sim_tail == {"shape": 0.25, "scale_ns": 50000, "probability": 0.05} and (.total.tail | has("status"))' \
	"$T/s.json"
t_done
