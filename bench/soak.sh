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

# --- the soak -------------------------------------------------------------
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
# from the 5th minute (SQLite's page cache, at most 2 MiB, fills with the
# first checkpoints) to the last sample but one (the last may catch the
# final save, after the measurement)
awk -v from=$((interval * 5)) -v n=0 'NR > 1 && $1 >= from { t[n] = $1; v[n++] = $2 }
     END { for (i = 0; i < n - 1; i++) { if (!i || v[i] < lo) lo = v[i]; if (v[i] > hi) hi = v[i] }
           printf "rss: %d..%d KiB from %d s to %d s: %d KiB apart (limit 1024): %s\n", lo, hi, t[0], t[n - 2],
                  hi - lo, hi - lo <= 1024 ? "flat" : "GROWS" }' "$tmp/rss"
jq -r '"periods: \(.total.periods), windows: \(.monitor.short.rows | length) x \(.monitor.short.window_ns / 1e9) s, xruns: \(.total.xruns), json bytes: \(tostring | length)"' "$tmp/soak.json"
start=$(date +%s.%N)
"$A" report "$tmp/soak.json" -o "$tmp/soak.html"
end=$(date +%s.%N)
awk -v a="$start" -v b="$end" 'BEGIN { printf "report: %.2f s (limit 2 s)\n", b - a }'

# --- the exporter's cost on p50 -----------------------------------------------
printf "round  run_p50_us  monitor_p50_us  ratio\n"
for r in $(seq 1 "$rounds"); do
	"$A" run -q --no-db -P 64 -L 0 -d "${round_s}s" --json "$tmp/run.json" >/dev/null
	"$A" monitor -q --no-db -P 64 -L 0 -d "${round_s}s" --metrics-interval 1s \
		--metrics-file "$tmp/cost.prom" --json "$tmp/mon.json" >/dev/null
	a=$(jq '.total.wake_latency_ns.p50' "$tmp/run.json")
	b=$(jq '.total.wake_latency_ns.p50' "$tmp/mon.json")
	awk -v r="$r" -v a="$a" -v b="$b" 'BEGIN { printf "%-6d %10.2f  %14.2f  %5.3f\n", r, a / 1e3, b / 1e3, b / a }'
done
