#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The cost of the flight recorder (src/trace) on the wake latency, as a user
# pays it: `audiolat run --trace` against the same `audiolat run` without
# --trace, alternating (the first of each round alternates too), ROUNDS
# times each. Prints p50/p99/max wake latency per round (and the spikes the
# traced runs explained), the medians, the ratios traced / untraced and the
# load average before and after (a shared machine inflates both sides, not
# the ratio alone: say it beside the figures). Under a load that changes
# from minute to minute the median of the rounds' own ratios (the two runs
# of a round are next to each other in time) is steadier than the ratio of
# the medians; both are printed. Needs root.
# usage: bench/trace.sh [ROUNDS] [SECONDS] [CPU]     (default 8 10 1)
set -eu
rounds=${1:-8}
secs=${2:-10}
cpu=${3:-1}
. "$(dirname "$0")/common.sh"
[ "$(id -u)" -eq 0 ] || { echo "tracing needs root" >&2; exit 4; }
bench_need jq jq
bench_init

loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

# floor: the median over the run's 100 ms windows of their minimum wake
# latency, in us: the fixed cost of a wake-up (the events on its path), which
# other engineers' load moves far less than the p50
run() { # off|on -> "p50 p99 max floor spikes" (us, us, us, us, count)
	local opt=()
	[ "$1" = on ] && opt=(--trace)
	"$A" run -P 48 -L 0 -a "$cpu" -d "${secs}s" -q --no-db "${opt[@]}" --json "$tmp/r.json" >/dev/null
	if [ "$1" = on ] && [ "$(jq -r '.trace_threshold_ns // 0' "$tmp/r.json")" = 0 ]; then
		echo "run --trace ran untraced: $(jq -r '.warnings[]?' "$tmp/r.json" | grep -- --trace)" >&2
		exit 4
	fi
	jq -r '(.timeseries.columns | index("wake_min_ns")) as $c
		| ([.timeseries.rows[][$c] | numbers] | sort) as $m
		| "\(.total.wake_latency_ns | "\(.p50 / 1000) \(.p99 / 1000) \(.max / 1000)")"
		  + " \(if ($m | length) > 0 then $m[($m | length) / 2 | floor] / 1000 else "null" end)"
		  + " \(.spikes | length)"' "$tmp/r.json"
}

echo "audiolat run -P 48 -L 0 -a $cpu -d ${secs}s --no-db, with and without --trace, $(date -u '+%F %H:%M UTC')"
echo "load average before: $(loadavg)"
printf "%-6s %-8s %10s %10s %10s %10s %7s\n" round trace "p50 us" "p99 us" "max us" "floor us" spikes
for i in $(seq 1 "$rounds"); do
	if [ $((i % 2)) -eq 1 ]; then order="off on"; else order="on off"; fi
	for m in $order; do
		read -r p50 p99 max floor n <<<"$(run "$m")"
		[ "$m" = on ] || n=-
		printf "%-6s %-8s %10.1f %10.1f %10.1f %10.1f %7s\n" "$i" "$m" "$p50" "$p99" "$max" "$floor" "$n"
		echo "$p50 $p99 $max $floor" >>"$tmp/$m"
	done
	awk -v a="$(tail -n 1 "$tmp/off" | cut -d' ' -f1)" -v b="$(tail -n 1 "$tmp/on" | cut -d' ' -f1)" \
		'BEGIN { print b / a }' >>"$tmp/ratio"
done
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo
echo "load average after: $(loadavg)"
echo "medians over $rounds rounds:"
for c in 1 2 3 4; do
	name=$(echo "p50 p99 max floor" | cut -d' ' -f"$c")
	off=$(cut -d' ' -f"$c" "$tmp/off" | median)
	on=$(cut -d' ' -f"$c" "$tmp/on" | median)
	awk -v n="$name" -v a="$off" -v b="$on" \
		'BEGIN { printf "  %-5s untraced %8.1f us   traced %8.1f us   ratio %.3f\n", n, a, b, b / a }'
done
printf "median of the rounds' own p50 ratios: %.3f\n" "$(median <"$tmp/ratio")"
