#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# audiolat roundtrip -b pipewire vs jack_iodelay (Debian jackd2, through
# PipeWire's JACK: pw-jack) on the same loop, alternating, on a private
# PipeWire (null sink driving the graph) this script starts and stops. The
# loop: the null sink's playback_FL into its monitor_FL (audiolat: the
# default without --self-loop; jack_iodelay: jack_connect to "Null Sink"'s
# ports). Both should read one quantum (docs/roundtrip.md). Then audiolat's
# own --self-loop, and jack_iodelay's (out -> in: on 0.3.65 PipeWire's JACK
# carries nothing through a client's connection to itself).
# usage: bench/roundtrip-pipewire.sh [ROUNDS] [QUANTUM] [RATE] [SECONDS]
#        (default: 4 rounds, 256 frames, 48000 Hz, 3 s)
set -u
rounds=${1:-4}
quantum=${2:-256}
rate=${3:-48000}
secs=${4:-3}
here=$(cd "$(dirname "$0")" && pwd)
build=${BUILD:-$here/../build}
export AUDIOLAT=${AUDIOLAT:-$build/src/cli/audiolat}
A=$AUDIOLAT
for c in pipewire wireplumber pw-jack jack_iodelay jack_connect jq stdbuf; do
	command -v $c >/dev/null || { echo "$c missing (scripts/packages.txt)" >&2; exit 4; }
done
[ -x "$A" ] || { echo "build audiolat first (make)" >&2; exit 1; }
. "$here/../tests/lib.sh"
. "$here/../tests/servers.sh"
trap 'srv_stop_all; rm -rf "$T_TMP"' EXIT
start_pipewire "$quantum" "$rate" || exit 1

# run_audiolat [ARGS...]: "delay stddev" of one run, or "invalid -"
run_audiolat() {
	"$A" roundtrip -b pipewire "$@" -d "$secs" -q --json "$T_TMP/a.json" >/dev/null 2>&1
	jq -r 'if .valid then "\(.delay_frames) \(.stddev_frames)" else "invalid -" end' "$T_TMP/a.json"
}

# run_iodelay OUT_TO IN_FROM: jack_iodelay's last reading over the loop
run_iodelay() {
	local pid i
	stdbuf -oL pw-jack jack_iodelay >"$T_TMP/io.log" 2>&1 &
	pid=$!
	for i in $(seq 50); do
		pw-jack jack_connect jack_delay:out "$1" 2>/dev/null && break
		sleep 0.1
	done
	pw-jack jack_connect "$2" jack_delay:in 2>/dev/null
	sleep "$secs"
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	awk '/total roundtrip latency/ { v = $1 } END { print (v == "" ? "invalid" : v) }' "$T_TMP/io.log"
}

spread() { awk '$1 != "invalid" { n++; s += $1; if (n == 1 || $1 < lo) lo = $1; if (n == 1 || $1 > hi) hi = $1 }
	END { if (n) printf "mean %.6f, min %.6f, max %.6f over %d valid", s / n, lo, hi, n; else printf "no valid run" }'; }

echo "PipeWire $(pipewire --version | sed -n 's/^Linked with libpipewire //p'), null sink $quantum/$rate, $secs s a run ($(nproc) CPUs)"
echo "through the null sink (playback_FL -> monitor_FL):"
printf "%-6s %16s %10s %20s\n" round "audiolat frames" "stddev" "jack_iodelay frames"
for i in $(seq 1 "$rounds"); do
	if [ $((i % 2)) -eq 1 ]; then
		read -r a sd < <(run_audiolat)
		j=$(run_iodelay "Null Sink:playback_FL" "Null Sink:monitor_FL")
	else
		j=$(run_iodelay "Null Sink:playback_FL" "Null Sink:monitor_FL")
		read -r a sd < <(run_audiolat)
	fi
	[ "$a" != invalid ] && a=$(printf "%.6f" "$a") && sd=$(printf "%.2e" "$sd")
	printf "%-6s %16s %10s %20s\n" "$i" "$a" "$sd" "$j"
	echo "$a" >>"$T_TMP/a"
	echo "$j" >>"$T_TMP/j"
done
read -r s sd < <(run_audiolat --self-loop)
js=$(run_iodelay jack_delay:in jack_delay:out)
echo
echo "audiolat:     $(spread <"$T_TMP/a") (expected $quantum)"
echo "jack_iodelay: $(spread <"$T_TMP/j") (expected $quantum)"
[ "$s" != invalid ] && s=$(printf "%.6f" "$s") && sd=$(printf "%.2e" "$sd")
echo "self-loop: audiolat $s (stddev $sd); jack_iodelay (pw-jack, out -> in) $js, after" \
	"$(grep -c 'Signal below threshold' "$T_TMP/io.log") readings 'Signal below threshold'"
