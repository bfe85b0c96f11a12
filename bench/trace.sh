#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The cost of the flight recorder (src/trace) on the wake latency: the same
# `audiolat run` with and without an ftrace instance of ours recording its
# CPU (held by bench-trace-instance around the run), alternating, ROUNDS
# times each. Prints p50/p99/max wake latency per round, the medians and
# the ratios traced / untraced. Needs root.
# usage: bench/trace.sh [ROUNDS] [SECONDS] [CPU]
set -eu
rounds=${1:-5}
secs=${2:-10}
cpu=${3:-1}
. "$(dirname "$0")/common.sh"
H=$build/bench/bench-trace-instance
[ -x "$H" ] || { echo "build first (ninja -C $build)" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "tracing needs root" >&2; exit 4; }
bench_init

run() { # off|on -> "p50 p99 max" in us
	local pre=()
	[ "$1" = on ] && pre=("$H" -c "$cpu" --)
	"${pre[@]}" "$A" run -P 48 -L 0 -a "$cpu" -d "${secs}s" -q --json "$tmp/r.json" >/dev/null
	jq -r '.total.wake_latency_ns | "\(.p50 / 1000) \(.p99 / 1000) \(.max / 1000)"' "$tmp/r.json"
}

echo "audiolat run -P 48 -L 0 -a $cpu -d ${secs}s, with and without the trace instance on CPU $cpu"
printf "%-6s %-8s %10s %10s %10s\n" round trace "p50 us" "p99 us" "max us"
for i in $(seq 1 "$rounds"); do
	# alternate which goes first
	if [ $((i % 2)) -eq 1 ]; then order="off on"; else order="on off"; fi
	for m in $order; do
		read -r p50 p99 max <<<"$(run "$m")"
		printf "%-6s %-8s %10.1f %10.1f %10.1f\n" "$i" "$m" "$p50" "$p99" "$max"
		echo "$p50 $p99 $max" >>"$tmp/$m"
	done
done
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo
echo "medians over $rounds rounds:"
for c in 1 2 3; do
	name=$(echo "p50 p99 max" | cut -d' ' -f"$c")
	off=$(cut -d' ' -f"$c" "$tmp/off" | median)
	on=$(cut -d' ' -f"$c" "$tmp/on" | median)
	awk -v n="$name" -v a="$off" -v b="$on" \
		'BEGIN { printf "  %-4s untraced %8.1f us   traced %8.1f us   ratio %.3f\n", n, a, b, b / a }'
done
