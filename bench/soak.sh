#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# audiolat monitor for a long time at 16-frame periods with 1 s windows:
# its RSS sampled every minute must stay flat (within 1 MiB after the
# first sample), its report must render in < 2 s; then the exporter's cost:
# p50 wake latency of `monitor --metrics-file` against a plain `run` of the
# same length, alternating, in the same session (<= 2 %).
#	[CHECKPOINT=5m] bench/soak.sh [SOAK_SECONDS (3600)] [ROUNDS (3)] [ROUND_SECONDS (30)]
# The RSS is sampled between checkpoints: a checkpoint builds the result's
# JSON (transiently, up to the caps: docs/monitor.md) and gives it back.
set -eu
. "$(dirname "$0")/common.sh"
soak=${1:-3600}
rounds=${2:-3}
round_s=${3:-30}
checkpoint=${CHECKPOINT:-5m}
bench_need jq jq sqlite3 sqlite3
bench_init

# --- the soak (SOAK_SECONDS 0: only the exporter's cost) --------------------
if [ "$soak" -gt 0 ]; then
db="$tmp/soak.db"
"$A" monitor -q -b sim -P 16 -n 3 -L 0 --window 1s --checkpoint "$checkpoint" -d "${soak}s" \
	--db "$db" --json "$tmp/soak.json" --metrics-file "$tmp/soak.prom" >"$tmp/soak.out" 2>&1 &
pid=$!
interval=$((soak >= 600 ? 60 : 10))
echo "# minute  rss_kib" >"$tmp/rss"
t=0
while kill -0 "$pid" 2>/dev/null; do
	sleep "$interval"
	t=$((t + interval))
	rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status" 2>/dev/null) || break
	[ -n "$rss" ] && echo "$t $rss" >>"$tmp/rss"
done
wait "$pid"
cat "$tmp/rss"
# from the first sample after the second checkpoint (SQLite's page cache,
# at most 2 MiB, and the arena's mapping fill with the first checkpoints)
# to the last sample but one (the last may catch the final save, after the
# measurement); a sample taken during a checkpoint is transient (the
# document is built in the arena and unmapped after it)
case $checkpoint in
*m) ck_s=$((${checkpoint%m} * 60)) ;;
*s) ck_s=${checkpoint%s} ;;
*) ck_s=300 ;;
esac
awk -v from=$((2 * ck_s + interval)) -v n=0 'NR > 1 && $1 >= from { t[n] = $1; v[n++] = $2 }
     END { for (i = 0; i < n - 1; i++) { if (!i || v[i] < lo) lo = v[i]; if (v[i] > hi) hi = v[i] }
           printf "rss: %d..%d KiB from %d s to %d s: %d KiB apart (limit 1024): %s\n", lo, hi, t[0], t[n - 2],
                  hi - lo, hi - lo <= 1024 ? "flat" : "GROWS" }' "$tmp/rss"
jq -r '"periods: \(.total.periods), windows: \(.monitor.short.rows | length) x \(.monitor.short.window_ns / 1e9) s, xruns: \(.total.xruns), json bytes: \(tostring | length)"' "$tmp/soak.json"
start=$(date +%s.%N)
"$A" report "$tmp/soak.json" -o "$tmp/soak.html"
end=$(date +%s.%N)
awk -v a="$start" -v b="$end" 'BEGIN { printf "report: %.2f s (limit 2 s)\n", b - a }'
fi

# --- the exporter's cost on p50 -----------------------------------------------
# run (plain) against monitor --metrics-file, both on CPU 1, the order
# alternating per round; and run against run (the same alternation, no
# exporter): the spread the machine gives two identical measurements.
[ "$rounds" -gt 0 ] || exit 0
p50() { jq '.total.wake_latency_ns.p50' "$1"; }
plain() { "$A" run -q --no-db -P 64 -L 0 -a 1 -d "${round_s}s" --json "$1" >/dev/null; }
exporter() {
	"$A" monitor -q --no-db -P 64 -L 0 -a 1 -d "${round_s}s" --metrics-interval 1s \
		--metrics-file "$tmp/cost.prom" --json "$1" >/dev/null
}
printf "round  run_p50_us  monitor_p50_us  ratio   run_p50_us  run_p50_us  ratio(A/A)\n"
: >"$tmp/ratios"
for r in $(seq 1 "$rounds"); do
	if [ $((r % 2)) -eq 1 ]; then plain "$tmp/a.json"; exporter "$tmp/b.json"
	else exporter "$tmp/b.json"; plain "$tmp/a.json"; fi
	plain "$tmp/c.json"
	a=$(p50 "$tmp/a.json") b=$(p50 "$tmp/b.json") c=$(p50 "$tmp/c.json")
	awk -v r="$r" -v a="$a" -v b="$b" -v c="$c" 'BEGIN { printf "%-6d %10.2f  %14.2f  %5.3f   %10.2f  %10.2f  %5.3f\n",
		r, a / 1e3, b / 1e3, b / a, a / 1e3, c / 1e3, c / a }'
	awk -v a="$a" -v b="$b" -v c="$c" 'BEGIN { print b / a, c / a }' >>"$tmp/ratios"
done
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "median ratio monitor/run $(cut -d' ' -f1 "$tmp/ratios" | median) (limit 1.02);" \
	"run/run $(cut -d' ' -f2 "$tmp/ratios" | median) (the machine's own)"
