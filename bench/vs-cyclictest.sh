#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# audiolat vs cyclictest, side by side in one go, alternating, at a 1 ms
# period with no work, in two settings that must match between the tools:
#   untouched: audiolat run -P 48 -r 48000 -L 0 -p 80 (memory always locked)
#              cyclictest -m -p 80 -i 1000 --default-system
#   dma0:      the same with /dev/cpu_dma_latency held at 0
#              (audiolat --dma-latency 0; cyclictest's default)
# cyclictest's percentiles come from its 1-us histogram (-h); it truncates
# to whole us, audiolat reports ns (shown in us).
# Prints median and p99 wake latency per round and setting, the medians
# over rounds, the ratios, and audiolat's per-period bookkeeping cost.
# With AA=1: the control instead, in the dma0 setting: cyclictest twice per
# round (A before audiolat, B after) beside audiolat, to show what the
# machine gives the same tool twice (p50 and p99 per run, their medians).
# usage: [AA=1] bench/vs-cyclictest.sh [ROUNDS] [SECONDS]
set -eu
rounds=${1:-5}
secs=${2:-10}
. "$(dirname "$0")/common.sh"
bench_need cyclictest rt-tests
bench_init

# percentile (nearest rank) of a cyclictest histogram file, in us
ct_pct() { # file q
	awk -v q="$2" '!/^#/ && NF >= 2 { c[$1+0] += $2; n += $2 }
		END { r = int(q * n); if (r < q * n) r++; s = 0
		      for (v = 0; v <= 100000; v++) { s += c[v]; if (s >= r) { print v; exit } } }' "$1"
}
al() { # setting -> "p50 p99" in us
	local extra=""
	[ "$1" = dma0 ] && extra="--dma-latency 0"
	# shellcheck disable=SC2086
	"$A" run -P 48 -r 48000 -L 0 -p 80 -n 3 -d "${secs}s" -q $extra --json "$tmp/al.json" >/dev/null
	# the per-wake-up view: cyclictest counts wake-ups, never the periods a stall swallowed
	jq -r '"\(.total.wake_latency_per_wakeup_ns.p50 / 1000) \(.total.wake_latency_per_wakeup_ns.p99 / 1000)"' "$tmp/al.json"
}
ct() {
	local extra="--default-system"
	[ "$1" = dma0 ] && extra=""
	# shellcheck disable=SC2086
	cyclictest -m -p 80 -i 1000 -D "$secs" -q -h 20000 --histfile="$tmp/ct.hist" $extra >/dev/null
	echo "$(ct_pct "$tmp/ct.hist" 0.5) $(ct_pct "$tmp/ct.hist" 0.99)"
}

if [ "${AA:-0}" = 1 ]; then
	printf "%-6s %10s %10s %10s %10s %10s %10s\n" round "ctA p50" "ctA p99" "al p50" "al p99" "ctB p50" "ctB p99"
	for i in $(seq 1 "$rounds"); do
		read -r a50 a99 <<<"$(ct dma0)"
		read -r l50 l99 <<<"$(al dma0)"
		read -r b50 b99 <<<"$(ct dma0)"
		printf "%-6s %10.1f %10.1f %10.1f %10.1f %10.1f %10.1f\n" "$i" "$a50" "$a99" "$l50" "$l99" "$b50" "$b99"
		echo "$a50 $a99 $l50 $l99 $b50 $b99" >>"$tmp/aa"
	done
	med() { cut -d' ' -f"$1" "$tmp/aa" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
	echo "medians over $rounds rounds: p99 cyclictest A $(med 2) us, audiolat $(med 4) us, cyclictest B $(med 6) us;" \
		"p50 $(med 1), $(med 3), $(med 5) us"
	exit 0
fi
printf "%-6s %-10s %12s %12s %12s %12s\n" round setting "al p50 us" "ct p50 us" "al p99 us" "ct p99 us"
for i in $(seq 1 "$rounds"); do
	for s in untouched dma0; do
		read -r a50 a99 <<<"$(al $s)"
		read -r c50 c99 <<<"$(ct $s)"
		printf "%-6s %-10s %12.1f %12.1f %12.1f %12.1f\n" "$i" "$s" "$a50" "$c50" "$a99" "$c99"
		echo "$a50 $c50 $a99 $c99" >>"$tmp/$s"
	done
done
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v c="$2" 'BEGIN { printf "%.3f", a / c }'; }
echo
echo "medians over $rounds rounds of ${secs}s each:"
for s in untouched dma0; do
	m_a50=$(cut -d' ' -f1 "$tmp/$s" | median)
	m_c50=$(cut -d' ' -f2 "$tmp/$s" | median)
	m_a99=$(cut -d' ' -f3 "$tmp/$s" | median)
	m_c99=$(cut -d' ' -f4 "$tmp/$s" | median)
	echo "  $s: p50 audiolat $m_a50 us, cyclictest $m_c50 us, ratio $(ratio "$m_a50" "$m_c50");" \
		"p99 audiolat $m_a99 us, cyclictest $m_c99 us, ratio $(ratio "$m_a99" "$m_c99")"
done
"$build/bench/bench-bookkeeping"
