#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The cost of JACK blame's interrupt events (docs/jack.md): `audiolat run -b
# jack --trace` on a jackd (dummy driver) this script starts, with the
# clients' instance recording the IRQ, softirq and vector events (the
# default) against the same run without them ($AUDIOLAT_CLIENTS_IRQS=0:
# sched_switch and sched_waking only, what JACK blame recorded before),
# alternating (the first of each round alternates too), ROUNDS times each,
# with jack-slow-client as a second client (busy 0.5 of a period in every
# cycle, so that there is a thread to follow). Per round the wake latency
# of audiolat's own client (p50, p99, max), the events the instance
# decoded per second (graph.note has none: from $AUDIOLAT_CLIENTS_DUMP's
# lines), the medians and ratios with / without, the load average before
# and after (a shared machine moves both sides). Needs root.
# usage: bench/jack-blame.sh [ROUNDS] [SECONDS]      (default 6 10)
set -u
rounds=${1:-6}
secs=${2:-10}
here=$(cd "$(dirname "$0")" && pwd)
build=${BUILD:-$here/../build}
export AUDIOLAT=${AUDIOLAT:-$build/src/cli/audiolat}
slow=${JACK_SLOW_CLIENT:-$build/tests/jack-slow-client}
for c in jackd jq; do
	command -v $c >/dev/null || { echo "$c missing (scripts/packages.txt)" >&2; exit 4; }
done
[ "$(id -u)" -eq 0 ] || { echo "tracing needs root" >&2; exit 4; }
[ -x "$AUDIOLAT" ] && [ -x "$slow" ] || { echo "build audiolat and its tests first (make)" >&2; exit 1; }
. "$here/../tests/lib.sh"
. "$here/../tests/servers.sh"

name=$(srv_name al-bench-jblame)
start_jackd "$name" 256 48000 || exit 1
export JACK_DEFAULT_SERVER=$name JACK_NO_START_SERVER=1
"$slow" bench-busy 1 0.5 system:playback_1 >"$T_TMP/busy.out" 2>&1 &
busy_pid=$!
wait_until 10 "jack-slow-client" grep -q '^ready' "$T_TMP/busy.out" || { echo "jack-slow-client did not start" >&2; exit 1; }

loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
run() { # on|off -> "p50 p99 max events/s" (us, us, us, count)
	local irqs=1
	[ "$1" = off ] && irqs=0
	AUDIOLAT_CLIENTS_IRQS=$irqs AUDIOLAT_CLIENTS_DUMP="$T_TMP/dump" "$AUDIOLAT" run -b jack \
		-d "${secs}s" -q --no-db --trace --json "$T_TMP/r.json" >/dev/null 2>&1
	echo "$(jq -r '.total.wake_latency_ns | "\(.p50 / 1000) \(.p99 / 1000) \(.max / 1000)"' "$T_TMP/r.json")" \
		"$(($(wc -l <"$T_TMP/dump") / secs))"
}

echo "audiolat run -b jack -d ${secs}s --trace, jackd -d dummy -r 48000 -p 256, a client busy 0.5 of each period;"
echo "the clients' instance with its IRQ/softirq/vector events (on) and without (off), $(date -u '+%F %H:%M UTC')"
echo "load average before: $(loadavg)"
printf "%-6s %-5s %10s %10s %10s %10s\n" round irqs "p50 us" "p99 us" "max us" "events/s"
for i in $(seq 1 "$rounds"); do
	if [ $((i % 2)) -eq 1 ]; then order="off on"; else order="on off"; fi
	for m in $order; do
		read -r p50 p99 max ev <<<"$(run "$m")"
		printf "%-6s %-5s %10.1f %10.1f %10.1f %10s\n" "$i" "$m" "$p50" "$p99" "$max" "$ev"
		echo "$p50 $p99 $max $ev" >>"$T_TMP/$m"
	done
done
kill -TERM "$busy_pid"
wait "$busy_pid"
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo
echo "load average after: $(loadavg)"
echo "medians over $rounds rounds:"
for c in 1 2 3 4; do
	n=$(echo "p50 p99 max events/s" | cut -d' ' -f"$c")
	off=$(cut -d' ' -f"$c" "$T_TMP/off" | median)
	on=$(cut -d' ' -f"$c" "$T_TMP/on" | median)
	awk -v n="$n" -v a="$off" -v b="$on" \
		'BEGIN { printf "  %-8s without %10.1f   with %10.1f   ratio %.3f\n", n, a, b, (a > 0 ? b / a : 0) }'
done
stop_jackd
