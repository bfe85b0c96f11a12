#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# slow-wrap.sh SLOW-CLIENT BUSY_US PATTERN: the truth matrix's lateness as a
# `cmd` load. Finds the JACK port matching PATTERN (jack_lsp; audiolat's
# input, registered before its phases begin) and runs the slow client
# feeding it, so that JACK runs it ahead of audiolat's client every cycle.
port=
for _ in $(seq 50); do
	port=$(jack_lsp 2>/dev/null | grep -m 1 -E -- "$3")
	[ -n "$port" ] && break
	sleep 0.1
done
[ -n "$port" ] || { echo "slow-wrap: no JACK port matches '$3'" >&2; exit 1; }
exec "$1" "$2" "$port"
