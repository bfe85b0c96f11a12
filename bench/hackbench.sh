#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# audiolat's built-in hackbench vs rt-tests hackbench, same parameters,
# alternating in one go: `audiolat load hackbench ARGS` (one run, its
# "Time:") and `hackbench ARGS`. Prints each round, the medians and the
# ratio audiolat / rt-tests (1.00 = equal; lower is faster).
# usage: bench/hackbench.sh [ROUNDS] [HACKBENCH ARGS...]
#        (default: 7 rounds of -g 10 -f 20 -l 100, the rt-tests default)
set -eu
rounds=${1:-7}
shift || true
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(-g 10 -f 20 -l 100)
. "$(dirname "$0")/common.sh"
bench_need hackbench rt-tests
bench_init

t_of() { awk '/^Time:/ { print $2 }'; }

echo "parameters: ${args[*]}  ($(nproc) CPUs)"
printf "%-6s %12s %12s\n" round "audiolat s" "rt-tests s"
for i in $(seq 1 "$rounds"); do
	# alternate which runs first, so neither always follows the other
	if [ $((i % 2)) -eq 1 ]; then
		a=$("$A" load hackbench "${args[@]}" | t_of)
		h=$(hackbench "${args[@]}" | t_of)
	else
		h=$(hackbench "${args[@]}" | t_of)
		a=$("$A" load hackbench "${args[@]}" | t_of)
	fi
	printf "%-6s %12s %12s\n" "$i" "$a" "$h"
	echo "$a" >>"$tmp/a"
	echo "$h" >>"$tmp/h"
done
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ma=$(median <"$tmp/a")
mh=$(median <"$tmp/h")
echo
echo "median over $rounds rounds: audiolat $ma s, rt-tests $mh s, ratio $(awk -v a="$ma" -v h="$mh" 'BEGIN { printf "%.3f", a / h }')"
