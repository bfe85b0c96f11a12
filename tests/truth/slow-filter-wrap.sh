#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# slow-filter-wrap.sh SLOW-FILTER BUSY_US PATTERN: the truth matrix's
# lateness for -b pipewire, as a `cmd` load. Finds the PipeWire input port
# matching PATTERN (pw-link -i; audiolat's node, linked before its phases
# begin), starts the slow filter (truth-slow-filter -u BUSY_US, a pw_filter
# spinning BUSY_US of every cycle) and links its output to that port, so
# that PipeWire runs it ahead of audiolat's node every cycle. Runs until
# SIGTERM (the load's end), then stops the filter and passes on its line.
port=
for _ in $(seq 50); do
	port=$(pw-link -i 2>/dev/null | grep -m 1 -E -- "$3")
	[ -n "$port" ] && break
	sleep 0.1
done
[ -n "$port" ] || { echo "slow-filter-wrap: no PipeWire input port matches '$3'" >&2; exit 1; }
out=$(mktemp)
trap 'kill -TERM "$pid" 2>/dev/null; wait "$pid"; cat "$out"; rm -f "$out"; exit 0' TERM INT
"$1" -n truth-slow -u "$2" >"$out" &
pid=$!
for _ in $(seq 100); do
	grep -q '^ready' "$out" && break
	kill -0 "$pid" 2>/dev/null || { cat "$out" >&2; rm -f "$out"; exit 1; }
	sleep 0.05
done
grep -q '^ready' "$out" || { echo "slow-filter-wrap: the filter did not run" >&2; exit 1; }
pw-link truth-slow:out "$port" || { echo "slow-filter-wrap: cannot link truth-slow:out to $port" >&2; exit 1; }
wait "$pid"
