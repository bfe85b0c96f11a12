#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# slow-filter-wrap.sh SLOW-FILTER BUSY_US PATTERN: the truth matrix's
# lateness for -b pipewire. Runs the slow filter (truth-slow-filter -u
# BUSY_US, a pw_filter spinning BUSY_US of every cycle), which links its
# output itself to the PipeWire input port matching PATTERN (-l: "NODE:PORT"
# as pw-link -i lists them; audiolat's node) as soon as that port is in the
# registry, so that PipeWire runs it ahead of audiolat's node every cycle.
# As a `cmd` load it finds audiolat's port at once; started before
# audiolat, it links as soon as audiolat's node has its port: the lateness
# from the start. Fails when no such port appeared in 10 s. Runs until
# SIGTERM (the load's end), then stops the filter and passes on its line.
out=$(mktemp)
trap 'kill -TERM "$pid" 2>/dev/null; wait "$pid"; cat "$out"; rm -f "$out"; exit 0' TERM INT
"$1" -n truth-slow -u "$2" -l "$3" >"$out" &
pid=$!
for _ in $(seq 200); do
	grep -q '^linked' "$out" && break
	kill -0 "$pid" 2>/dev/null || { cat "$out" >&2; rm -f "$out"; exit 1; }
	sleep 0.05
done
grep -q '^linked' "$out" || { echo "slow-filter-wrap: no PipeWire input port matching '$3' in 10 s" >&2; exit 1; }
wait "$pid"
