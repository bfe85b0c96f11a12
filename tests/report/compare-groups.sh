#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# compare --group-by: one row per group with the run-to-run min-max, the
# verdict from the spread between runs (a hierarchical bootstrap), "not
# enough data" below 3, Holm's correction over every verdict, the gate
# (--fail-on-worse, --gate, exit 5), from files and from the database, a
# baseline.
# Synthetic runs (gen-result, seeded): two groups from one distribution,
# one 50 % slower, one of two runs only.
. "$(dirname "$0")/../lib.sh"

A=$AUDIOLAT
GEN=$1
T="$T_TMP/g"
mkdir -p "$T"
gen() { # gen FILE KERNEL SEED [gen-result options]
	local f=$1 k=$2 s=$3
	shift 3
	"$GEN" --seed "$s" --duration 5 "$@" -o - | jq --arg k "$k" '.system.kernel_release = $k' >"$f"
}
for s in 1 2 3 4; do gen "$T/a$s.json" 6.6-a $s; done
for s in 5 6 7 8; do gen "$T/b$s.json" 6.6-b $s; done
for s in 9 10 11 12; do gen "$T/c$s.json" 6.6-slow $s --scale 1.5; done
for s in 13 14; do gen "$T/d$s.json" 6.6-two $s; done
t_true "14 synthetic runs" test "$(ls "$T" | wc -l)" -eq 14

t_exit 0 "compare --group-by kernel over files" "$A" compare --group-by kernel "$T"/a*.json "$T"/b*.json "$T"/c*.json "$T"/d*.json --json "$T_TMP/g.json"
t_grep "$OUT" '^6\.6-a +4  [0-9.]+ us \([0-9.]+ us-[0-9.]+ us\)' "a row per group: runs, mean (run-to-run min-max)"
t_json "four groups, the first the baseline" '.schema == "audiolat.compare-groups/1" and .baseline == "6.6-a" and ([.groups[].group] == ["6.6-a", "6.6-b", "6.6-slow", "6.6-two"])' "$T_TMP/g.json"
t_json "the same distribution: no significant difference at p50 and p99" \
	'[.verdicts[] | select(.group == "6.6-b" and .statistic != "max") | .verdict] == ["no significant difference", "no significant difference"]' "$T_TMP/g.json"
t_json "50 % slower: worse at p50 and p99" \
	'[.verdicts[] | select(.group == "6.6-slow" and .statistic != "max") | .verdict] == ["worse", "worse"]' "$T_TMP/g.json"
t_json "two runs: not enough data, no interval, and why" \
	'[.verdicts[] | select(.group == "6.6-two")] | length > 0 and all(.verdict == "not enough data" and .ci_ns == null and .why == "2 runs of 6.6-two, 3 needed")' "$T_TMP/g.json"
t_json "Holm over the six verdicts that could be made" '.multiple_testing == {"method": "holm", "tests": 6, "family_confidence": 0.95}' "$T_TMP/g.json"
t_json "... the rejected r at the levels 0.05/6 .. 0.05/(7-r), one each, the rest at the stop's 0.05/(6-r)" \
	'[.verdicts[] | select(.p_value != null)] | (map(select(.verdict != "no significant difference")) | length) as $r | $r >= 2 and ([.[] | select(.verdict != "no significant difference") | 0.05 / (1 - .confidence) | round] | sort) == [range(7 - $r; 7)] and all(.[] | select(.verdict == "no significant difference"); (0.05 / (1 - .confidence) | round) == 6 - $r)' "$T_TMP/g.json"
t_json "... a worse one decided at its step: p <= 1 - its interval's level" \
	'[.verdicts[] | select(.verdict == "worse")] | length >= 2 and all(.p_value <= 1 - .confidence + 1e-12)' "$T_TMP/g.json"
t_json "... no difference: p above its level, and what it would have seen" \
	'[.verdicts[] | select(.verdict == "no significant difference")] | length >= 2 and all(.p_value > 1 - .confidence and .detectable_ns > 0)' "$T_TMP/g.json"
t_grep "$OUT" '^6\.6-b vs 6\.6-a, p99 wake latency: .* across runs: no significant difference \(would have seen \+-[0-9.]+ [mun]?s\)$' "the text says what no difference could have seen"
t_grep "$OUT" '^6\.6-two vs 6\.6-a, p99 wake latency: not enough data \(2 runs of 6\.6-two, 3 needed\)$' "... and why there is no verdict"
t_json "the min-max holds the geometric mean" '(.groups | length) > 0 and all(.groups[].p99_ns; .min <= .gmean and .gmean <= .max)' "$T_TMP/g.json"
t_grep "$OUT" '^6\.6-slow vs 6\.6-a, p99 wake latency: \+[0-9.]+ us \(\+[0-9.]+ %\), [0-9.]+ % CI \[\+[0-9.]+ us, \+[0-9.]+ us\] across runs: worse$' "a verdict line per statistic"
t_exit 0 "the same again: the same bytes" "$A" compare --group-by kernel "$T"/a*.json "$T"/b*.json "$T"/c*.json "$T"/d*.json --json "$T_TMP/g2.json" -q
t_true "deterministic for a seed" cmp "$T_TMP/g.json" "$T_TMP/g2.json"
t_exit 3 "--fail-on-worse: exit 3" "$A" compare --group-by kernel "$T"/a*.json "$T"/c*.json --fail-on-worse -q
t_grep "$ERR" "group 6\.6-slow is significantly worse than 6\.6-a \(p99 wake latency\)" "... naming the group and the statistic"
t_exit 0 "--fail-on-worse, the same distribution: exit 0" "$A" compare --group-by kernel "$T"/a*.json "$T"/b*.json --fail-on-worse -q
t_exit 5 "--fail-on-worse with a group of two runs: not enough data, exit 5" "$A" compare --group-by kernel "$T"/a*.json "$T"/d*.json --fail-on-worse -q
t_grep "$ERR" "not enough data to decide: group 6\.6-two against 6\.6-a, p99 wake latency: not enough data \(2 runs of 6\.6-two, 3 needed\)" "... saying which group had too few"
t_exit 0 "... --allow-insufficient: exit 0" "$A" compare --group-by kernel "$T"/a*.json "$T"/d*.json --fail-on-worse --allow-insufficient -q
t_exit 5 "--fail-on-worse with one group only: exit 5" "$A" compare --group-by kernel "$T"/a*.json --fail-on-worse -q
t_grep "$ERR" "one group only \(6\.6-a\)" "... saying so"
# a group worse at max only: the default gate (p99) passes it, --gate max fails it
for s in 15 16 17 18; do
	gen "$T/m$s.json" 6.6-spiky $s
	jq '.total.wake_latency_ns.max *= 5' "$T/m$s.json" >"$T/m$s.tmp" && mv "$T/m$s.tmp" "$T/m$s.json"
done
t_exit 0 "a group worse at max only, default gate p99: exit 0" "$A" compare --group-by kernel "$T"/a*.json "$T"/m*.json --fail-on-worse -q --json "$T_TMP/m.json"
t_json "... though its max verdict is worse" '[.verdicts[] | select(.statistic == "max") | .verdict] == ["worse"]' "$T_TMP/m.json"
t_exit 3 "--gate p99,max: exit 3" "$A" compare --group-by kernel "$T"/a*.json "$T"/m*.json --fail-on-worse --gate p99,max -q
t_grep "$ERR" "\(max wake latency\)" "... on the max"
rm -f "$T"/m*.json
t_exit 0 "--baseline 6.6-slow" "$A" compare --group-by kernel --baseline 6.6-slow "$T"/a*.json "$T"/c*.json --json -
t_json "against the slow group the others are better" '.baseline == "6.6-slow" and ([.verdicts[] | select(.statistic == "p99") | .verdict] == ["better"])' "$OUT"
t_exit 2 "--baseline that is no group: a usage error" "$A" compare --group-by kernel --baseline 9.9 "$T"/a*.json
t_exit 2 "--group-by something else" "$A" compare --group-by cpu "$T"/a1.json

# from the database: every run in it
DB="$T_TMP/results.db"
"$A" import -q --db "$DB" "$T"/*.json || t_bail "the runs are imported"
t_exit 0 "compare --db --group-by kernel" "$A" compare --db "$DB" --group-by kernel --baseline 6.6-a --json -
t_json "the same four groups from the database" '([.groups[] | .group] | sort) == ["6.6-a", "6.6-b", "6.6-slow", "6.6-two"] and ([.groups[].runs] | add) == 14' "$OUT"
t_json "... and the same verdict for the slow one" \
	'[.verdicts[] | select(.group == "6.6-slow" and .statistic == "p99") | .verdict] == ["worse"]' "$OUT"
t_exit 0 "--group-by label over local files" "$A" compare --group-by label "$T"/a1.json "$T"/a2.json "$T"/a3.json
t_grep "$OUT" '^\(none\) +3 ' "runs without a label are one group, (none)"

# report --group-by: one page comparing the groups
t_exit 0 "report --db --group-by kernel -o FILE" "$A" report --db "$DB" --group-by kernel --baseline 6.6-a -o "$T_TMP/g.html"
if command -v xmllint >/dev/null; then
	t_true "the page is well-formed" xmllint --noout "$T_TMP/g.html"
	t_true "a dot per run (14)" test "$(xmllint --xpath 'count(//*[local-name()="circle"])' "$T_TMP/g.html")" -eq 14
else
	t_bail "xmllint is installed (libxml2-utils)"
fi
t_grep "$T_TMP/g.html" '6\.6-slow vs 6\.6-a, p99 wake latency: \+[0-9.]+ %.*<span class="worse">worse</span>' "the verdicts are on the page"
t_grep "$T_TMP/g.html" '<td>6\.6-two</td>' "a row per group"
t_exit 2 "report --group-by without -o" "$A" report --db "$DB" --group-by kernel

t_done
