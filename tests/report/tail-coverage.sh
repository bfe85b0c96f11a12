#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The tail beyond the run against a known tail (docs/tail.md, "Validation"):
# 50 seeded synthetic runs of 10 minutes at 64 frames, 48 kHz (gen-result
# --tail: with probability 0.02 a period's wake latency is 100 us plus a
# generalised Pareto draw, shape 0.25, scale 200 us). The true median of
# the largest wake latency of 1 h is 100 us + sigma / xi ((0.02 / pi)^xi - 1),
# pi = 1 - 2^(-1/N), N = 2 700 000 periods; the 95 % interval must hold it
# in at least 45 of the 50 runs (90 %). No sleeping: the runs are drawn.
# $1: gen-result. TAIL_SEEDS=N runs N seeds instead of 50 (at least 10).
. "$(dirname "$0")/../lib.sh"
GEN=${1:?gen-result}
T=$T_TMP
SEEDS=${TAIL_SEEDS:-50}
XI=0.25 SIGMA_US=200 P=0.02 FROM_US=100

truth() { # PERIODS: the true median max of that many periods, ns
	awk -v n="$1" -v xi=$XI -v s=$((SIGMA_US * 1000)) -v p=$P -v u=$((FROM_US * 1000)) \
		'BEGIN { pi = 1 - exp(-log(2) / n); printf "%.0f", u + s / xi * ((p / pi)^xi - 1) }'
}
T1=$(truth 2700000)
T24=$(truth 64800000)
echo "# true median max: 1 h $T1 ns, 24 h $T24 ns"

covered=0 covered24=0 ok=0
for ((seed = 1; seed <= SEEDS; seed++)); do
	"$GEN" --seed "$seed" --duration 600 --tail "$XI,$SIGMA_US,$P,$FROM_US" -o "$T/r.json" || break
	jq -r '.total.tail | [.status, .predicted_1h.low_ns, .predicted_1h.max_ns,
		.predicted_1h.high_ns, .predicted_24h.low_ns, .predicted_24h.high_ns,
		.shape, .exceedances] | map(tostring) | join(" ")' "$T/r.json" >"$T/line"
	read -r status lo mx hi lo24 hi24 xi k <"$T/line"
	[ "$status" = ok ] && ok=$((ok + 1))
	in1=no in24=no
	if [ "$status" = ok ] && [ "$lo" -le "$T1" ] && { [ "$hi" = null ] || [ "$T1" -le "$hi" ]; }; then
		covered=$((covered + 1)) in1=yes
	fi
	if [ "$status" = ok ] && [ "$lo24" -le "$T24" ] && { [ "$hi24" = null ] || [ "$T24" -le "$hi24" ]; }; then
		covered24=$((covered24 + 1)) in24=yes
	fi
	echo "# seed $seed: $status xi=$xi k=$k 1 h $mx [$lo, $hi] $in1; 24 h [$lo24, $hi24] $in24"
done
echo "# the interval held the true 1 h median max in $covered of $SEEDS runs (24 h: $covered24)"
t_eq() { # DESC GOT WANT
	[ "$2" = "$3" ] || echo "# got '$2', expected '$3'"
	t_result $([ "$2" = "$3" ] && echo 0 || echo 1) "$1"
}
t_eq "every run was fitted ($SEEDS)" "$ok" "$SEEDS"
t_true "the 1 h interval holds the truth in >= 90 % of $SEEDS runs ($covered)" \
	test $((covered * 10)) -ge $((SEEDS * 9))
t_true "the 24 h interval holds the truth in >= 90 % of $SEEDS runs ($covered24)" \
	test $((covered24 * 10)) -ge $((SEEDS * 9))
t_done
