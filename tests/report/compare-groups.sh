#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# compare --group-by: one row per group with the run-to-run min-max, the
# verdict from the spread between runs (a hierarchical bootstrap), "not
# enough runs" below 3, from files and from the database, a baseline.
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
t_json "two runs: not enough runs, no interval" \
	'[.verdicts[] | select(.group == "6.6-two")] | length > 0 and all(.verdict == "not enough runs" and .ci_ns == null)' "$T_TMP/g.json"
t_json "the min-max holds the geometric mean" '(.groups | length) > 0 and all(.groups[].p99_ns; .min <= .gmean and .gmean <= .max)' "$T_TMP/g.json"
t_grep "$OUT" '^6\.6-slow vs 6\.6-a, p99 wake latency: \+[0-9.]+ us \(\+[0-9.]+ %\), 98\.3 % CI \[\+[0-9.]+ us, \+[0-9.]+ us\] across runs: worse$' "a verdict line per statistic"
t_exit 0 "the same again: the same bytes" "$A" compare --group-by kernel "$T"/a*.json "$T"/b*.json "$T"/c*.json "$T"/d*.json --json "$T_TMP/g2.json" -q
t_true "deterministic for a seed" cmp "$T_TMP/g.json" "$T_TMP/g2.json"
t_exit 3 "--fail-on-worse: exit 3" "$A" compare --group-by kernel "$T"/a*.json "$T"/c*.json --fail-on-worse -q
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
