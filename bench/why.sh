#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The cost of the causes' evidence (docs/why.md) on the wake latency, as a
# user pays it: `audiolat run` (evidence collected, the default) against
# `audiolat run --no-why`, alternating (the first of each round
# alternates too), ROUNDS times each. Prints p50/p99/max per round and the
# events the collecting runs classified, the medians, the ratios with /
# without, and the median of the rounds' own p50 and p99 ratios (the two
# runs of a round are next to each other in time: steadier on a shared
# machine than the ratio of the medians). No root needed.
# usage: bench/why.sh [ROUNDS] [SECONDS] [CPU]     (default 8 10 1)
set -eu
rounds=${1:-8}
secs=${2:-10}
cpu=${3:-1}
. "$(dirname "$0")/common.sh"
bench_need jq jq
bench_init

run() { # on|off -> "p50 p99 max events" (us, us, us, count)
	local opt=()
	[ "$1" = off ] && opt=(--no-why)
	"$A" run -a "$cpu" -d "${secs}s" -q --no-db "${opt[@]}" --json "$tmp/r.json" >/dev/null
	jq -r '"\(.total.wake_latency_ns | "\(.p50 / 1000) \(.p99 / 1000) \(.max / 1000)") \(.why.events_total // "-")"' "$tmp/r.json"
}

echo "audiolat run -a $cpu -d ${secs}s --no-db, with and without --no-why, $(date -u '+%F %H:%M UTC')"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-6s %-8s %10s %10s %10s %7s\n" round evidence "p50 us" "p99 us" "max us" events
for i in $(seq 1 "$rounds"); do
	if [ $((i % 2)) -eq 1 ]; then order="off on"; else order="on off"; fi
	for m in $order; do
		read -r p50 p99 max n <<<"$(run "$m")"
		printf "%-6s %-8s %10.1f %10.1f %10.1f %7s\n" "$i" "$m" "$p50" "$p99" "$max" "$n"
		echo "$p50 $p99 $max" >>"$tmp/$m"
	done
	for c in 1 2; do
		awk -v a="$(tail -n 1 "$tmp/off" | cut -d' ' -f$c)" -v b="$(tail -n 1 "$tmp/on" | cut -d' ' -f$c)" \
			'BEGIN { print b / a }' >>"$tmp/ratio$c"
	done
done
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "medians over $rounds rounds:"
for c in 1 2 3; do
	name=$(echo "p50 p99 max" | cut -d' ' -f"$c")
	off=$(cut -d' ' -f"$c" "$tmp/off" | median)
	on=$(cut -d' ' -f"$c" "$tmp/on" | median)
	awk -v n="$name" -v a="$off" -v b="$on" \
		'BEGIN { printf "  %-5s --no-why %8.1f us   evidence %8.1f us   ratio %.3f\n", n, a, b, b / a }'
done
printf "median of the rounds' own ratios: p50 %.3f, p99 %.3f\n" "$(median <"$tmp/ratio1")" "$(median <"$tmp/ratio2")"
