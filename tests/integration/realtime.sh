#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Real-time setup: SCHED_FIFO where permitted, one warning and SCHED_OTHER
# where not; nothing changed is left behind.
. "$(dirname "$0")/../lib.sh"

J="$T_TMP/rt.json"
if [ "$(id -u)" -ne 0 ]; then
	t_skip "SCHED_FIFO as root" "not root"
else
	t_exit 0 "a run as root" "$AUDIOLAT" run -d 300ms -q -p 70 -a 0 --json "$J"
	t_json "realtime is true" '.realtime == true and .priority == 70' "$J"
	t_json "memory is locked" '.memory_locked == true' "$J"
	t_json "affinity is recorded" '.config.affinity == 0' "$J"
	# everything made before the stream starts: a thread created during the
	# measurement has its stack populated by mlockall there (the --why
	# sampler's 8 MiB took the qemu guest's CPU 200 ms, and a SIGSTOP
	# waited for it). Every clone audiolat makes, against the run's span.
	t_exit 0 "a run under strace -f" strace -f -ttt -e trace=clone,clone3,fork,vfork -e signal=none \
		-o "$T_TMP/clones" "$AUDIOLAT" run -d 1s -q --no-db --json "$J"
	grep -E '^[0-9]+ +[0-9]+[.][0-9]+ (clone|clone3|fork|vfork)\(' "$T_TMP/clones" |
		awk '{ print $2 }' >"$T_TMP/clone-times"
	t_json "no thread or process is made during the measurement (sim, --why on; the audio and --why threads before it)" \
		--rawfile t "$T_TMP/clone-times" '
		(.started_at | capture("^(?<s>.*)[.](?<f>[0-9]+)Z$") | ((.s + "Z") | fromdateiso8601) + ("0." + .f | tonumber)) as $from
		| ($from + .duration_ns / 1e9) as $to
		| ($t | split("\n") | map(select(length > 0) | tonumber)) as $c
		| if ($c | length) < 2 then error("\($c | length) clones seen, fewer than the audio and --why threads")
		  else [$c[] | select(. >= $from and . <= $to)]
		  | if . == [] then true else error("made during the run (\($from) .. \($to)): \(.)") end end' "$J"
fi

if command -v setpriv >/dev/null && [ "$(id -u)" -eq 0 ] &&
	setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$AUDIOLAT"; then
	# no RT priority allowed: one warning, SCHED_OTHER, realtime false
	W=$(mktemp -d)
	chmod 777 "$W"
	t_exit 0 "a run without rtprio still measures" setpriv --reuid=65534 --regid=65534 \
		--clear-groups bash -c "ulimit -r 0; exec '$AUDIOLAT' run -d 300ms --json '$W/n.json' --db '$W/results.db'"
	t_grep "$OUT" 'SCHED_FIFO priority 80 not permitted' "one warning says SCHED_FIFO was refused"
	t_json "realtime is false" '.realtime == false and .priority == 0' "$W/n.json"
	t_json "the run measured periods" '.total.periods > 0' "$W/n.json"
	rm -rf "$W"
else
	t_skip "a run without rtprio" "needs root, setpriv and a binary user nobody can run"
fi

t_exit 0 "-p 0 runs at SCHED_OTHER" "$AUDIOLAT" run -d 300ms -q -p 0 --json "$J"
t_json "-p 0: realtime is false" '.realtime == false' "$J"

t_done
