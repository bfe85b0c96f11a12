#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The calibration of compare --group-by on real runs (docs/compare.md,
# "Groups of runs"): N repeated sim runs (whatever else the machine is
# doing), split at random into two groups of N/2, 20 times: how many
# splits come out "no significant difference"; then a planted load in
# every run of a third group of N/2 against the repeated runs. The planted
# runs are taken between the repeated ones (two repeated, one planted, ...)
# so that the machine's other work falls on both alike. Keeps the runs in
# DIR (default a temp directory) for a rerun with --reuse.
#	bench/group-calibration.sh [-n RUNS] [-d SECONDS] [--plant LOAD]
#	                           [--plant-policy POLICY] [--keep DIR] [--reuse DIR]
# --plant: the planted runs' --load (default hackbench:Ds); --plant-policy:
# their --load-policy (default rr:10, seed 002's `chrt -r 10 hackbench`:
# for the planted runs' time it takes the CPUs from everything not
# real-time on the machine; `other` is the weak plant of bench/README.md).
set -eu
. "$(dirname "$0")/common.sh"
n=20 d=5 keep= reuse= plant= policy=rr:10
while [ $# -gt 0 ]; do
	case $1 in
	-n) n=$2; shift 2 ;;
	-d) d=$2; shift 2 ;;
	--plant) plant=$2; shift 2 ;;
	--plant-policy) policy=$2; shift 2 ;;
	--keep) keep=$2; shift 2 ;;
	--reuse) reuse=$2; shift 2 ;;
	*) echo "usage: $0 [-n RUNS] [-d SECONDS] [--plant LOAD] [--plant-policy POLICY] [--keep DIR] [--reuse DIR]" >&2; exit 2 ;;
	esac
done
plant=${plant:-hackbench:${d}s}
bench_need jq jq shuf coreutils
bench_init
R=${reuse:-${keep:-$tmp/runs}}
mkdir -p "$R"
if [ -z "$reuse" ]; then
	echo "# before: $(uptime)" >"$R/load"
	h=0
	for i in $(seq "$n"); do
		"$A" run -q --no-db -d "${d}s" --label quiet --json "$R/q$i.json" >/dev/null
		if [ $((i % 2)) -eq 0 ]; then
			h=$((h + 1))
			"$A" run -q --no-db -d "${d}s" --load "$plant" --load-policy "$policy" \
				--label planted --json "$R/h$h.json" >/dev/null
		fi
	done
	printf '%s\n' "$plant (--load-policy $policy)" >"$R/plant"
	echo "# after: $(uptime)" >>"$R/load"
fi
cat "$R/load" 2>/dev/null || true
echo "# $n repeated runs of $d s, $((n / 2)) planted ($(cat "$R/plant" 2>/dev/null || echo "$plant")), in $R"
same=0 same2=0
splits=20
for s in $(seq $splits); do
	mkdir -p "$tmp/s$s"
	i=0
	for f in $(ls "$R"/q*.json | shuf --random-source=<(yes "$s")); do
		g=$([ $i -lt $((n / 2)) ] && echo a || echo b)
		jq --arg g "$g" '.label = $g' "$f" >"$tmp/s$s/$i.json"
		i=$((i + 1))
	done
	"$A" compare --group-by label --baseline a "$tmp/s$s"/*.json --json "$tmp/s$s.cmp" -q
	v=$(jq -r '[.verdicts[] | "\(.statistic)=\(.verdict)"] | join(" ")' "$tmp/s$s.cmp")
	echo "split $s: $v"
	# the group's verdict is p50, p99 and max together (Bonferroni): "same"
	# only when the document has all three verdicts and none differs
	ok=$(jq -r '[.verdicts[] | select(.statistic == "p50" or .statistic == "p99" or .statistic == "max") | .verdict] |
		if length == 3 and all(. == "no significant difference") then "yes" else "no" end' "$tmp/s$s.cmp")
	[ "$ok" = yes ] && same=$((same + 1))
	ok=$(jq -r '[.verdicts[] | select(.statistic == "p50" or .statistic == "p99") | .verdict] |
		if length == 2 and all(. == "no significant difference") then "yes" else "no" end' "$tmp/s$s.cmp")
	[ "$ok" = yes ] && same2=$((same2 + 1))
done
echo "no significant difference at p50, p99 and max (the group's verdict): $same of $splits splits"
echo "no significant difference at p50 and p99: $same2 of $splits splits"
"$A" compare --group-by label --baseline quiet "$R"/q*.json "$R"/h*.json --json "$tmp/plant.cmp" -q
"$A" compare --group-by label --baseline quiet "$R"/q*.json "$R"/h*.json
jq -r '.verdicts[] | "planted vs quiet, \(.statistic): \(.verdict) (\(.difference_pct // "null") %)"' "$tmp/plant.cmp"
