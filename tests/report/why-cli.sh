#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Why it dropped out through the commands, on gen-result's runs with a
# "why" (core/why.c classifies, explains and judges their events): the
# document's "why" (docs/json.md), unchanged through the results database;
# show's head line, cards (the first 10 of a run with xruns, every one with
# --why), verdict and advice; the HTML section; compare --markdown; run and
# show take --why. $1: gen-result, the synthetic result generator.
. "$(dirname "$0")/../lib.sh"
GEN=${1:?gen-result}
T=$T_TMP
A=$AUDIOLAT

# 40 events, 3 of them xruns, 2 not classified; 38 kept
"$GEN" --seed 3 --duration 5 --xruns 3 --why 40 -o "$T/w.json"
t_json "the why object has every member" \
	'.why | keys == ["classes", "events", "events_dropped", "events_kept", "events_total", "note",
	  "sample_ns", "sources", "threshold_ns", "verdict"]' "$T/w.json"
t_json "its counts: 40 seen, 2 not classified, 38 kept and in the classes" \
	'.why | .events_total == 40 and .events_dropped == 2 and .events_kept == 38 and
	 (.events | length) == 38 and ([.classes[]] | add) == 38' "$T/w.json"
t_json "the classes with events only, by their names" \
	'.why.classes == {"preempted": 23, "page-fault": 7, "irq": 4, "unattributed": 4}' "$T/w.json"
t_json "an event: its figures, kind, class and because" \
	'.why.events[0] | .t_ns > 0 and .size_ns == 1333333 and .kind == "xrun" and
	 .class == "preempted" and (.because | startswith("waited 1.20 ms to run on CPU 1 at SCHED_FIFO 80"))' \
	"$T/w.json"
t_json "the first 3 are the xruns, the rest late" \
	'[.why.events[].kind] | .[0:3] == ["xrun", "xrun", "xrun"] and (.[3:] | unique) == ["late"]' "$T/w.json"
t_json "what was not read is null, never 0: the steal, the work of every fifth" \
	'.why.events | length == 38 and all(.evidence.steal_ns == null) and
	 ([.[] | select(.work_ns == null)] | length) == 8 and .[0].evidence.irq_ns == 0' "$T/w.json"
t_json "an event without its CPU or policy: null" \
	'[.why.events[] | select(.class == "unattributed")] | length == 4 and
	 all(.evidence.cpu == null and .evidence.policy == null)' "$T/w.json"
t_json "the verdict: not suitable, the dominant class, its share, what to try" \
	'.why.verdict | .suitable == false and .xruns == 3 and .dominant == "preempted" and
	 (.dominant_share * 38 | round) == 23 and (.advice | length) == 2 and .buffer_frames == 128 and
	 (.line | startswith("not suitable: 3 xruns, dominant cause preempted"))' "$T/w.json"
"$GEN" --seed 3 --duration 5 -o "$T/none.json"
t_json "without evidence collected: null" 'has("why") and .why == null' "$T/none.json"

t_exit 0 "import" "$A" import --db "$T/db" "$T/w.json" "$T/none.json"
t_exit 0 "export" "$A" export --db "$T/db" 1
t_true "the database gives the document back byte for byte" cmp "$OUT" "$T/w.json"
t_exit 0 "show" "$A" show --db "$T/db" 1
t_grep "$OUT" "^why: 40 events later than 1333.3 us \(one period\) or xruns: preempted 23, page-fault 7, irq 4, unattributed 4, 2 not classified$" \
	"the head line: the events by class, most first, and those not classified"
t_grep "$OUT" "^  \(no steal: the kernel counts none here\)$" "the note"
t_grep "$OUT" "^ +0\.122 s  xrun +1\.33 ms  preempted +waited 1\.20 ms to run on CPU 1 " "a card: when, kind, size, class, because"
t_true "a run with xruns: the first 10 cards" test "$(grep -cE '^ +[0-9.]+ s  (xrun|late) ' "$OUT")" -eq 10
t_grep "$OUT" "^  \.\.\. 28 more \(--why lists them all\)$" "and how many more"
t_grep "$OUT" "^verdict: not suitable: 3 xruns, dominant cause preempted \(61 % of 38 events\)$" "the verdict"
t_grep "$OUT" "^  try: a task of equal or higher real-time priority ran on the audio CPU" "what to try"
t_exit 0 "show --why" "$A" show --db "$T/db" --why 1
t_true "--why: every card kept" test "$(grep -cE '^ +[0-9.]+ s  (xrun|late) ' "$OUT")" -eq 38
t_nogrep "$OUT" "more \(--why" "and no line of more"
t_exit 0 "show a run without it" "$A" show --db "$T/db" 2
t_nogrep "$OUT" "^(why|verdict):" "nothing of it"

"$GEN" --seed 5 --duration 5 --why 4 -o "$T/ok.json"
t_exit 0 "import a run without xruns" "$A" import --db "$T/db" "$T/ok.json"
t_exit 0 "show it" "$A" show --db "$T/db" 3
t_grep "$OUT" "^why: 4 events later than 1333.3 us \(one period\) or xruns: preempted 3, page-fault 1$" "its head line"
t_nogrep "$OUT" "^ +[0-9.]+ s  (xrun|late) " "no card without xruns"
t_grep "$OUT" "^verdict: suitable for [0-9]+ frames at 48000 Hz" "suitable"

t_exit 0 "report" "$A" report "$T/w.json" --db "$T/db" 3 -o "$T/r.html"
t_true "the page is well-formed" xmllint --noout "$T/r.html"
t_true "a section per run with it" test "$(grep -c '<h3>Why it dropped out</h3>' "$T/r.html")" -eq 2
t_grep "$T/r.html" '<p class="fail">not suitable: 3 xruns, dominant cause preempted' "the verdict, red"
t_grep "$T/r.html" '<p class="ok">suitable for' "a suitable one, green"
t_grep "$T/r.html" '<tr><td>preempted</td><td class="num">23</td></tr>' "the classes"
t_true "a row per event" test "$(grep -cE '^<tr><td class="num">[0-9.]+ s</td><td( class="fail")?>(xrun|late)</td>' "$T/r.html")" -eq 42
t_grep "$T/r.html" '<td class="num">-</td><td class="num">10 / 9</td><td class="small">waited' "the steal not read: -"

t_exit 0 "compare --markdown" "$A" compare "$T/ok.json" "$T/w.json" --markdown
t_grep "$OUT" '^\*\*Why B dropped out\*\* \(6\.1\.0-gen3\): 40 events later than' "the Markdown says why B dropped out"
t_grep "$OUT" '^\| preempted \| 23 \|$' "its classes in a table"

t_exit 0 "run --help" "$A" run --help
t_grep "$OUT" "^      --why " "run --help has --why"
t_exit 0 "show --help" "$A" show --help
t_grep "$OUT" "^      --why " "show --help has --why"
t_exit 0 "run --why" "$A" run -d 300ms --why --no-db -q --json "$T/run.json"
t_json "its document has a why (null or the object)" \
	'has("why") and (.why == null or (.why | type) == "object")' "$T/run.json"
t_done
