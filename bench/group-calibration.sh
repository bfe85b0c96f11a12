#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The calibration of compare --group-by on real runs (docs/compare.md,
# "Groups of runs"): N repeated sim runs (whatever else the machine is
# doing), split at random into two groups of N/2, 20 times: how many
# splits come out "no significant difference"; then a planted load
# (hackbench in every run of one group) against the quiet runs. Keeps the
# runs in DIR (default a temp directory) for a rerun with --reuse.
#	bench/group-calibration.sh [-n RUNS] [-d SECONDS] [--keep DIR] [--reuse DIR]
set -eu
. "$(dirname "$0")/common.sh"
n=20 d=5 keep= reuse=
while [ $# -gt 0 ]; do
	case $1 in
	-n) n=$2; shift 2 ;;
	-d) d=$2; shift 2 ;;
	--keep) keep=$2; shift 2 ;;
	--reuse) reuse=$2; shift 2 ;;
	*) echo "usage: $0 [-n RUNS] [-d SECONDS] [--keep DIR] [--reuse DIR]" >&2; exit 2 ;;
	esac
done
bench_need jq jq shuf coreutils
bench_init
R=${reuse:-${keep:-$tmp/runs}}
mkdir -p "$R"
if [ -z "$reuse" ]; then
	for i in $(seq "$n"); do
		"$A" run -q --no-db -d "${d}s" --label quiet --json "$R/q$i.json" >/dev/null
	done
	for i in $(seq $((n / 2))); do
		"$A" run -q --no-db -d "${d}s" --load "hackbench:${d}s" --label hackbench \
			--json "$R/h$i.json" >/dev/null
	done
fi
echo "# $(uptime)"
echo "# $n quiet runs of $d s, $((n / 2)) with hackbench, in $R"
same=0
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
	jq -e '[.verdicts[] | select(.statistic != "max") | .verdict] | all(. == "no significant difference")' \
		"$tmp/s$s.cmp" >/dev/null && same=$((same + 1))
done
echo "no significant difference at p50 and p99: $same of $splits splits"
"$A" compare --group-by label --baseline quiet "$R"/q*.json "$R"/h*.json
