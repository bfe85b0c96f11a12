#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# audiolat vs cyclictest, side by side in one go, alternating:
#   audiolat run -P 48 -r 48000 -L 0 -p 80 (a 1 ms period, no work)
#   cyclictest -m -p 80 -i 1000 (-h for percentiles)
# Prints median and p99 wake latency of both per round, the medians over
# rounds, the ratio, and audiolat's per-period bookkeeping cost.
# usage: bench/vs-cyclictest.sh [ROUNDS] [SECONDS]
set -eu
rounds=${1:-5}
secs=${2:-20}
build=${BUILD:-build}
A=$build/src/cli/audiolat
command -v cyclictest >/dev/null || { echo "cyclictest missing: apt-get install rt-tests" >&2; exit 4; }
[ -x "$A" ] || { echo "build audiolat first (make)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# percentile (nearest rank) of a cyclictest histogram file, in us
ct_pct() { # file q
	awk -v q="$2" '!/^#/ && NF >= 2 { c[$1+0] += $2; n += $2 }
		END { r = int(q * n); if (r < q * n) r++; s = 0
		      for (v = 0; v <= 100000; v++) { s += c[v]; if (s >= r) { print v; exit } } }' "$1"
}

printf "%-6s %12s %12s %12s %12s\n" round "al p50 us" "ct p50 us" "al p99 us" "ct p99 us"
: >"$tmp/rows"
for i in $(seq 1 "$rounds"); do
	"$A" run -P 48 -r 48000 -L 0 -p 80 -n 3 -d "${secs}s" -q --json "$tmp/al.json" >/dev/null
	al50=$(jq '.total.wake_latency_ns.p50 / 1000' "$tmp/al.json")
	al99=$(jq '.total.wake_latency_ns.p99 / 1000' "$tmp/al.json")
	cyclictest -m -p 80 -i 1000 -D "$secs" -q -h 20000 --histfile="$tmp/ct.hist" >/dev/null
	ct50=$(ct_pct "$tmp/ct.hist" 0.5)
	ct99=$(ct_pct "$tmp/ct.hist" 0.99)
	printf "%-6s %12.1f %12.1f %12.1f %12.1f\n" "$i" "$al50" "$ct50" "$al99" "$ct99"
	echo "$al50 $ct50 $al99 $ct99" >>"$tmp/rows"
done
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
m_al50=$(cut -d' ' -f1 "$tmp/rows" | median)
m_ct50=$(cut -d' ' -f2 "$tmp/rows" | median)
m_al99=$(cut -d' ' -f3 "$tmp/rows" | median)
m_ct99=$(cut -d' ' -f4 "$tmp/rows" | median)
echo
echo "median over $rounds rounds of ${secs}s:"
echo "  p50: audiolat $m_al50 us, cyclictest $m_ct50 us, ratio $(awk -v a="$m_al50" -v c="$m_ct50" 'BEGIN { printf "%.3f", a / c }')"
echo "  p99: audiolat $m_al99 us, cyclictest $m_ct99 us, ratio $(awk -v a="$m_al99" -v c="$m_ct99" 'BEGIN { printf "%.3f", a / c }')"
echo "  (cyclictest truncates to whole us; audiolat reports ns, shown here in us)"
"$build/bench/bench-bookkeeping"
