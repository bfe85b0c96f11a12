# SPDX-License-Identifier: GPL-2.0-or-later
# The truth matrix (docs/truth.md): faults of known size injected into a
# running audiolat run, and what the run's JSON says against the truth.
# Source after tests/lib.sh (and tests/servers.sh where a server is needed).
#
#	truth_start JSON CMD...        CMD (audiolat run ..., maybe under pw-jack) with
#	                               --no-histogram --no-db -q --json JSON in the
#	                               background, back once it measures (one of
#	                               its SCHED_FIFO threads waited 50 periods);
#	                               $TRUTH_PID is audiolat
#	truth_wait                     the run's end; its exit status
#	truth_end S                    S s of audio more, then SIGINT (the run
#	                               ends there, results kept); its exit status
#	truth_stall MS                 SIGSTOP for MS ms: $STALL_NS, $STOP_REAL_NS
#	truth_hog CPU MS               SCHED_FIFO 90 on CPU for MS ms: $HOG_NS, $HOG_REAL_NS
#	truth_random LO HI             a number in [LO, HI]
#	truth_pin_rt CPU OP PRIO       audiolat's SCHED_FIFO threads whose priority is
#	                               (OP eq) or is not (OP ne) PRIO to CPU, all its
#	                               other threads to the other CPUs
#	tjq DESC FILTER FILE [jq args] a check: FILTER on FILE is true (FILE must
#	                               be non-empty JSON); when false the values
#	                               named in $TRUTH_SHOW are printed
: "${T_TMP:?source tests/lib.sh first}"
TRUTH_BIN=${BUILD_DIR:?}/tests/truth
TRUTH_PID=
TRUTH_LOG=

# what a failed check prints beside the filter (a jq expression on the document)
TRUTH_SHOW='{xrun_events, periods: .total.periods, missed: .total.missed_periods,
	max: .total.wake_latency_ns.max, p99: .total.wake_latency_ns.p99,
	p99_per_wakeup: .total.wake_latency_per_wakeup_ns.p99, backend: .backend.detail}'

# wait up to $2 tenths of a second for the command $1 to succeed
truth_until() {
	local i
	for i in $(seq "$2"); do
		eval "$1" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	return 1
}

# the most voluntary context switches of audiolat's SCHED_FIFO threads (one a period, waiting)
truth_switches() {
	local t pol max=0 n
	for t in /proc/"$TRUTH_PID"/task/*; do
		pol=$(awk '{ print $41 }' "$t/stat" 2>/dev/null)
		[ "$pol" = 1 ] || continue
		n=$(awk '/^voluntary_ctxt_switches/ { print $2 }' "$t/status" 2>/dev/null)
		[ "${n:-0}" -gt "$max" ] && max=$n
	done
	echo "$max"
}

truth_start() {
	local json=$1
	shift
	rm -f "$json"
	TRUTH_LOG="$T_TMP/truth-run.$RANDOM"
	"$@" --no-histogram --no-db -q --json "$json" >"$TRUTH_LOG" 2>&1 &
	TRUTH_PID=$!
	# measuring: a real-time thread of audiolat has waited for 50 periods
	truth_until '[ "$(truth_switches)" -ge 50 ]' 200 || {
		echo "# truth: no SCHED_FIFO thread of audiolat waited 50 times in 20 s:"
		tail -n 5 "$TRUTH_LOG" | sed 's/^/#   /'
		return 1
	}
	return 0
}

truth_wait() {
	local rc
	wait "$TRUTH_PID"
	rc=$?
	[ $rc -eq 0 ] || tail -n 5 "$TRUTH_LOG" | sed 's/^/# run: /'
	TRUTH_PID=
	return $rc
}

# (a run with one planted fault ends S s after the fault's end, not at a
# fixed length that must cover a slow start: at 4 s, a quiet machine's
# faults ended by 1.9 s and a loaded one's by 2.57 s, the rest waited for)
truth_end() {
	sleep "$1" # the audio measured after the fault: its size, not a wait
	kill -INT "$TRUTH_PID" 2>/dev/null
	truth_wait
}

truth_random() {
	echo $(($1 + RANDOM % ($2 - $1 + 1)))
}

truth_stall() {
	local out
	out=$("$TRUTH_BIN/truth-stall" "$TRUTH_PID" "$1") || return 1
	eval "${out// /; }"
	STALL_NS=$stall_ns
	STOP_REAL_NS=$stop_real_ns
}

truth_hog() {
	local out
	out=$("$TRUTH_BIN/truth-hog" "$1" 90 "$2") || return 1
	eval "${out// /; }"
	HOG_NS=$hog_ns
	HOG_REAL_NS=$start_real_ns
}

# audiolat's SCHED_FIFO threads whose rt priority is (eq) or is not (ne) PRIO
truth_rt_tids() {
	local t pol prio
	for t in /proc/"$TRUTH_PID"/task/*; do
		# stat fields 40 and 41: rt_priority, policy (1: SCHED_FIFO)
		read -r prio pol < <(awk '{ print $40, $41 }' "$t/stat" 2>/dev/null)
		[ "$pol" = 1 ] || continue
		case "$1:$([ "$prio" = "$2" ] && echo same || echo other)" in
		eq:same | ne:other) basename "$t" ;;
		esac
	done
}

truth_pin_rt() {
	local cpu=$1 tids rest t
	rest=$(seq 0 $(($(nproc) - 1)) | grep -vx "$cpu" | paste -sd,)
	[ -n "$rest" ] || { echo "# truth: one CPU: nothing to pin apart"; return 1; }
	tids=$(truth_rt_tids "$2" "$3")
	[ -n "$tids" ] || { echo "# truth: no SCHED_FIFO thread ($2 $3) in audiolat"; return 1; }
	taskset -a -p -c "$rest" "$TRUTH_PID" >/dev/null || return 1
	for t in $tids; do
		taskset -p -c "$cpu" "$t" >/dev/null || return 1
	done
}

tjq() {
	local desc=$1 filter=$2 file=$3 rc
	shift 3
	if [ ! -s "$file" ]; then
		echo "# $file is empty or missing"
		t_result 1 "$desc"
		return
	fi
	json_ok "$@" "$filter" "$file"
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "# false: $(echo "$filter" | tr '\n\t' '  ')"
		jq -c "$@" "$TRUTH_SHOW" "$file" 2>&1 | head -c 1500 | sed 's/^/#   /'
		echo
	fi
	t_result $rc "$desc"
}

# stop what is still running (a failed test)
truth_cleanup() {
	if [ -n "$TRUTH_PID" ]; then
		kill -CONT "$TRUTH_PID" 2>/dev/null
		kill -TERM "$TRUTH_PID" 2>/dev/null
		wait "$TRUTH_PID" 2>/dev/null
	fi
	return 0
}
