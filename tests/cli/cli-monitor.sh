#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# audiolat monitor (docs/monitor.md): windows after SIGSTOP stalls of known
# length, checkpoints that survive SIGKILL, the metrics file (promtool, a
# real node_exporter), /metrics over HTTP, a threshold action.
. "$(dirname "$0")/../lib.sh"

A=$AUDIOLAT
DB="$T_TMP/results.db"
P_NS=1333333  # 64 frames at 48 kHz
B_NS=4000000  # the buffer: 3 periods

t_exit 0 "monitor --help exits 0" "$A" monitor --help
t_grep "$OUT" -- '--metrics-file' "monitor --help lists --metrics-file"
t_exit 0 "audiolat --help lists monitor" "$A" --help
t_grep "$OUT" '^  monitor ' "the command list has monitor"

bad() { # bad OPTION-NAME ARGS...
	local name=$1
	shift
	t_exit 2 "monitor $* exits 2" "$A" monitor --no-db -q "$@"
	t_grep "$ERR" "^audiolat monitor: .*$name" "monitor $* names $name"
}
bad "--window" --window 10ms
bad "--checkpoint" --checkpoint soon
bad "--checkpoint" --checkpoint -1
bad "--action-interval" --action-interval 5parsecs
bad "--on-threshold" --on-threshold nosuch
bad "--on-threshold" --on-threshold signal:NOSUCH
bad "--threshold" --threshold 5ms
bad "--on-threshold trace" --on-threshold trace
bad "--listen" --listen localhost:x
bad "--metrics-file" --metrics-file
bad "-P/--period" -P 0
# run's letters in one long cluster each come alone to run's options: room for all of them
bad "-P/--period" "-$(printf 'v%.0s' $(seq 80))" -P 0
# a PostgreSQL store cannot take a checkpoint's replaced row: refused before measuring
t_exit 2 "monitor --db postgresql://... exits 2" "$A" monitor -q -d 1s --db 'postgresql://u:s3cret@db.example/al'
t_grep "$ERR" '^audiolat monitor: --db: a monitor saves to a local database' "it says why, and push"
t_nogrep "$ERR" 's3cret' "the password is not printed"
# a list whose fallback is a server: saved to the file, and the password stored nowhere
PW="$T_TMP/pw.db"
t_exit 0 "monitor --db 'PATH;postgresql://...' measures" "$A" monitor -q -d 1s --window 1s \
	--db "$PW;postgresql://u:s3cret@db.example/al" --json "$T_TMP/pw.json"
t_json "its command line keeps the URL, without the password" \
	'.cmdline | contains("postgresql://u@db.example/al")' "$T_TMP/pw.json"
t_nogrep "$T_TMP/pw.json" 's3cret' "the password is not in the document"
t_true "nor in the database (its one row)" test "$(sqlite3 "$PW" "select count(*), sum(document like '%s3cret%') from results")" = '1|0'

# --- two stalls of known length in 1 s windows --------------------------------
J="$T_TMP/stall.json"
LOG="$T_TMP/stall.log"
run_tty "$OUT" "$LOG" "$A" monitor --db "$DB" --no-histogram --window 1s --checkpoint 1s --json "$J"
t_measuring 10 "stalls: the monitor measures (500 periods)" "$LOG" 500
declare -a FROM TO
for i in 0 1; do
	# apart by more than a long window's worth of periods
	e=$(status_elapsed_ms "$LOG")
	wait_until 10 "1.5 s more measured" eval '[ "$(status_elapsed_ms "$LOG")" -ge $((e + 1500)) ]'
	stop_for 0.3 "$LOG"
	t_result $? "stall $i: the monitor goes on after it"
	FROM[$i]=$STOP_FROM_NS
	TO[$i]=$STOP_TO_NS
done
e=$(status_elapsed_ms "$LOG")
wait_until 10 "1.5 s more measured" eval '[ "$(status_elapsed_ms "$LOG")" -ge $((e + 1500)) ]'
kill -TERM "$RUN_PID"
wait "$TTY_PID"
t_result $? "SIGTERM: exit 0"
jq -r '.xrun_events[] | "# xrun at \(.t_ns / 1e6) ms, \(.duration_ns / 1e6) ms"' "$J"
echo "# stops: ${FROM[0]}..${TO[0]}, ${FROM[1]}..${TO[1]} ns"
t_json "the result is a run document with the monitor's windows" \
	'.schema == "audiolat.run/2" and .monitor.final == true and .monitor.short.window_ns == 1000000000 and .monitor.long.window_ns == 5000000000' "$J"
for i in 0 1; do
	a=${FROM[$i]} b=${TO[$i]}
	# the shared machine's own xruns (seen: up to 50 ms) may fall beside it: listed, not judged
	t_json "stall $i: exactly one xrun event of 100 ms or more in it (one stall, one event)" \
		--argjson a "$a" --argjson b "$b" --argjson B $B_NS --argjson P $P_NS \
		'[.xrun_events[] | select(.t_ns + .duration_ns >= $a - $B - $P and .t_ns <= $b + $B + $P and .duration_ns >= 100000000)] | length == 1' "$J"
	t_json "stall $i: the window it began in counts that xrun" \
		--argjson a "$a" --argjson b "$b" --argjson B $B_NS --argjson P $P_NS \
		'(.xrun_events[] | select(.t_ns + .duration_ns >= $a - $B - $P and .t_ns <= $b + $B + $P and .duration_ns >= 100000000) | .t_ns) as $t |
		 [.monitor.short.rows[] | select(.[0] <= $t and $t < .[0] + 1000000000) | .[8]] | length == 1 and .[0] >= 1' "$J"
	t_json "stall $i: the max of its windows is the stall (>= 300 ms - B - P, <= the stop's window)" \
		--argjson a "$a" --argjson b "$b" --argjson B $B_NS --argjson P $P_NS \
		'[.monitor.short.rows[] | select(.[0] + 1000000000 > $a and .[0] < $b) | .[6]] | max as $m |
		 $m >= 300000000 - $B - $P and $m <= $b - $a' "$J"
	t_json "stall $i: its swallowed periods are missed periods of its windows" \
		--argjson a "$a" --argjson b "$b" --argjson B $B_NS --argjson P $P_NS \
		'[.monitor.short.rows[] | select(.[0] + 1000000000 > $a and .[0] < $b) | .[3]] | add >= ((300000000 - $B) / $P | floor) - 2' "$J"
done
t_json "every period due is in exactly one short window" \
	'([.monitor.short.rows[][1]] | add) == .total.periods' "$J"
t_json "every period due is in exactly one long window" \
	'([.monitor.long.rows[][1]] | add) == .total.periods' "$J"
t_json "the windows' xruns are the xrun events" \
	'([.monitor.short.rows[][8]] | add) == .total.xruns and .total.xruns == (.xrun_events | length)' "$J"
t_json "the windows' missed periods are the run's" \
	'([.monitor.short.rows[][3]] | add) == .total.missed_periods' "$J"
t_json "a window's histogram counts its periods" \
	'(.monitor.short.rows | length) > 0 and all(.monitor.short.rows[]; (.[10] | add) == .[1])' "$J"
t_json "the short windows follow each other, 1 s apart" \
	'[.monitor.short.rows[][0]] as $t | $t == [range(0; $t | length) | . * 1000000000]' "$J"
t_json "the time series is the short windows" \
	'.timeseries.window_ns == 1000000000 and (.timeseries.rows | length) == (.monitor.short.rows | length)' "$J"
t_exit 0 "history lists the monitor result" "$A" history --db "$DB"
t_grep "$OUT" '^ +1  .*  sim  ' "history shows it (result 1, backend sim)"
t_exit 0 "the saved result renders as a report" "$A" report --db "$DB" 1 -o "$T_TMP/stall.html"
t_grep "$T_TMP/stall.html" '<h3>The long view</h3>' "the report has the long view"
t_grep "$T_TMP/stall.html" '<title>xrun at [0-9]{2}:[0-9]{2}:[0-9]{2} UTC: starved [2-9][0-9]{2}\.[0-9]+ ms</title>' \
	"the long view marks the stall's xrun with its time of day"
t_grep "$T_TMP/stall.html" '^<tr><td>[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:00</td>' \
	"the report has the per-hour heat map"
if command -v xmllint >/dev/null; then
	t_true "the report is well-formed XML" xmllint --noout --nonet "$T_TMP/stall.html"
fi
t_exit 0 "compare takes monitor results" "$A" compare "$J" "$J"
t_true "the saved one is the final one" sh -c \
	"sqlite3 '$DB' \"select json_extract(document, '\$.monitor.final') from results\" | grep -qx 1"

# --- SIGKILL loses at most one checkpoint ----------------------------------------
DB2="$T_TMP/kill.db"
LOG="$T_TMP/kill.log"
ckpts() { sqlite3 "$DB2" "select json_extract(document, '\$.monitor.checkpoints') from results" 2>/dev/null; }
run_tty "$OUT" "$LOG" "$A" monitor --db "$DB2" --no-histogram --window 1s --checkpoint 1s
t_measuring 10 "SIGKILL: the monitor measures" "$LOG" 100
t_wait 15 "two checkpoints saved" eval '[ "$(ckpts)" -ge 2 ] 2>/dev/null'
e=$(status_elapsed_ms "$LOG")
kill -KILL "$RUN_PID"
wait "$TTY_PID"
sqlite3 "$DB2" "select count(*) from results" >"$T_TMP/count"
t_grep "$T_TMP/count" '^1$' "SIGKILL: one result in the database"
sqlite3 "$DB2" "select document from results" >"$T_TMP/kill.json"
t_json "SIGKILL: the result lacks at most one checkpoint (1 s) of the $e ms measured" \
	--argjson e "$e" '.duration_ns >= ($e - 1000 - 400) * 1000000' "$T_TMP/kill.json"
t_json "SIGKILL: the saved result says it was cut short" \
	'.interrupted == true and .monitor.final == false and .total.periods > 0' "$T_TMP/kill.json"
t_json "SIGKILL: its closed windows hold its periods but the last second's" \
	'(.total.periods - ([.monitor.short.rows[][1]] | add)) as $d | $d >= 0 and $d <= 1500' "$T_TMP/kill.json"

# --- the metrics file: promtool, node_exporter ------------------------------------
MD="$T_TMP/textfile"
mkdir -p "$MD"
M="$MD/audiolat.prom"
LOG="$T_TMP/metrics.log"
# (a cause of known kind planted: 400 fresh pages every 100 ms, page-fault)
run_tty "$OUT" "$LOG" "$A" monitor --no-db --no-histogram --window 1s --metrics-file "$M" --metrics-interval 200ms \
	--fault-pages 400
t_measuring 10 "metrics: the monitor measures" "$LOG" 100
t_wait 10 "the metrics file is written" test -s "$M"
mcount() { sed -n 's/^audiolat_wake_latency_seconds_count{.*} \([0-9]*\)$/\1/p' "$1"; }
c0=$(mcount "$M")
t_wait 10 "the metrics file is rewritten (count grows)" eval '[ "$(mcount "$M")" -gt "${c0:-0}" ]'
pfcount() { sed -n 's/^audiolat_why_events_total{.*,cause="page-fault"} \([0-9]*\)$/\1/p' "$1"; }
t_wait 10 "the planted page faults are counted under cause=\"page-fault\"" eval '[ "$(pfcount "$M")" -gt 0 ]'
cp "$M" "$T_TMP/m1.prom"
t_result "$([ "$(grep -c '^audiolat_why_events_total{' "$T_TMP/m1.prom")" -eq 9 ] && echo 0 || echo 1)" \
	"audiolat_why_events_total: one series per cause, nine ($(grep -c '^audiolat_why_events_total{' "$T_TMP/m1.prom"))"
if command -v promtool >/dev/null; then
	t_true "promtool check metrics passes" sh -c "promtool check metrics <'$T_TMP/m1.prom'"
	# the check can fail: a counter without _total, a histogram without +Inf
	sed -e 's/audiolat_xruns_total/audiolat_xruns/g' -e '/le="+Inf"/d' "$T_TMP/m1.prom" >"$T_TMP/bad.prom"
	promtool check metrics <"$T_TMP/bad.prom" >/dev/null 2>&1
	t_result $([ $? -ne 0 ] && echo 0 || echo 1) "promtool refuses a broken file"
else
	t_result 1 "promtool is installed (scripts/packages.txt: prometheus)"
fi
awk '/^audiolat_wake_latency_seconds_bucket\{.*le="\+Inf"\}/ { inf = $NF } /^audiolat_wake_latency_seconds_count/ { n = $NF }
     END { exit !(inf == n && n > 0) }' "$T_TMP/m1.prom"
t_result $? "+Inf bucket equals _count"
awk -F'[{}]' '/^audiolat_/ && $2 !~ /^backend="[^"]*",device="[^"]*",period="[0-9]+"(,le="[^"]*")?$/ &&
	!($1 == "audiolat_why_events_total" && $2 ~ /^backend="[^"]*",device="[^"]*",period="[0-9]+",cause="[a-z-]+"$/) { bad = 1 }
	END { exit bad }' "$T_TMP/m1.prom"
t_result $? "labels are backend, device and period only (le on buckets, cause on the causes)"
if command -v prometheus-node-exporter >/dev/null; then
	NE_PORT=
	for try in 1 2 3 4 5; do
		port=$((20000 + RANDOM % 20000))
		prometheus-node-exporter --web.listen-address="127.0.0.1:$port" \
			--collector.disable-defaults --collector.textfile \
			--collector.textfile.directory="$MD" >"$T_TMP/ne.log" 2>&1 &
		NE_PID=$!
		if wait_until 10 "node_exporter listens" curl -sf -o /dev/null "http://127.0.0.1:$port/metrics"; then
			NE_PORT=$port
			break
		fi
		kill "$NE_PID" 2>/dev/null
		wait "$NE_PID" 2>/dev/null
	done
	if [ -n "$NE_PORT" ]; then
		curl -sf "http://127.0.0.1:$NE_PORT/metrics" >"$T_TMP/scrape"
		t_grep "$T_TMP/scrape" '^audiolat_wake_latency_seconds_bucket{backend="sim",device="",period="64",le="\+Inf"} [1-9]' \
			"node_exporter's scrape shows the histogram"
		t_grep "$T_TMP/scrape" '^node_textfile_scrape_error 0' "node_exporter read the file without error"
		t_grep "$T_TMP/scrape" '^audiolat_xruns_total{' "the scrape has the xrun counter"
		kill "$NE_PID"
		wait "$NE_PID" 2>/dev/null
		t_gone "node_exporter is stopped" 5 pid "$NE_PID"
	else
		t_bail "node_exporter started on a loopback port"
	fi
else
	t_result 1 "prometheus-node-exporter is installed (scripts/packages.txt)"
fi
kill -TERM "$RUN_PID"
wait "$TTY_PID"
t_result $? "metrics: SIGTERM exits 0"
ls -a "$MD" >"$T_TMP/ls"
t_nogrep "$T_TMP/ls" '^\.audiolat\.prom\.' "no temp file is left beside the metrics file"

# --- /metrics over HTTP -------------------------------------------------------
LOG="$T_TMP/http.log"
# (--no-why: the causes are not collected, so their counter is absent, not 0)
run_tty "$OUT" "$LOG" "$A" monitor --no-db --no-histogram --window 1s --listen 127.0.0.1:0 --metrics-interval 200ms \
	--no-why
t_measuring 10 "--listen: the monitor measures" "$LOG" 100
port=$(tty_text "$LOG" | sed -n 's/^metrics on .*, port \([0-9]*\): .*/\1/p' | head -n 1)
t_true "--listen says its port" test -n "$port"
t_wait 10 "/metrics answers with the histogram" eval \
	"curl -sf http://127.0.0.1:${port:-1}/metrics | grep -q '^audiolat_wake_latency_seconds_count{'"
curl -sf "http://127.0.0.1:${port:-1}/metrics" >"$T_TMP/http.prom"
t_grep "$T_TMP/http.prom" '^audiolat_xruns_total{' "/metrics: the page has the xrun counter"
t_nogrep "$T_TMP/http.prom" 'audiolat_why_events_total' "--no-why: no causes counter (not collected, not 0)"
if command -v promtool >/dev/null; then
	t_true "promtool check metrics passes on /metrics" sh -c "promtool check metrics <'$T_TMP/http.prom'"
fi
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:${port:-1}/other")
t_result $([ "$code" = 404 ] && echo 0 || echo 1) "another path is 404 (got $code)"
code=$(curl -s -o /dev/null -w '%{http_code}' -H "X-Big: $(head -c 8000 /dev/zero | tr '\0' a)" "http://127.0.0.1:${port:-1}/metrics")
t_result $([ "$code" = 431 ] && echo 0 || echo 1) "a request over 4 KiB is refused with 431 (got $code)"
code=$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:${port:-1}/metrics")
t_result $([ "$code" = 405 ] && echo 0 || echo 1) "POST is 405 (got $code)"
kill -TERM "$RUN_PID"
wait "$TTY_PID"
t_result $? "--listen: SIGTERM exits 0"

# --- a threshold action: one stall, one event ----------------------------------------
# --action-interval 0: every event runs the action; the shared machine's own
# xruns (a few ms) are events too: listed, not judged
EV="$T_TMP/events"
LOG="$T_TMP/exec.log"
MIN=$((300000000 - B_NS - P_NS))
stall_actions() { awk -v min=$MIN '$2 >= min' "$EV" 2>/dev/null | wc -l; }
run_tty "$OUT" "$LOG" "$A" monitor --no-db --no-histogram --window 1s --threshold 100ms \
	--action-interval 0 \
	--on-threshold "exec:echo \"\$AUDIOLAT_EVENT \$AUDIOLAT_EVENT_LATENCY_NS \$AUDIOLAT_EVENT_TIME\" >>'$EV'"
t_measuring 10 "exec: the monitor measures" "$LOG" 300
stop_for 0.3 "$LOG"
t_wait 10 "the action ran for the stall" eval '[ "$(stall_actions)" -ge 1 ]'
kill -TERM "$RUN_PID"
wait "$TTY_PID"
t_result $? "exec: SIGTERM exits 0"
sed 's/^/# action: /' "$EV"
t_true "one stall, one action (latency >= $((MIN / 1000000)) ms)" eval '[ "$(stall_actions)" -eq 1 ]'
t_true "the action's environment has the event's kind and time of day" \
	grep -Eq "^(xrun|latency) [0-9]+ [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z$" "$EV"

# --- signal:USR1 goes to the parent; the rate limit holds -----------------------------
SIGF="$T_TMP/usr1"
bash -c 'trap "echo usr1 >>\"$1\"" USR1
	"$2" monitor --no-db -q -d 2s --threshold 1ns --on-threshold signal:USR1 >/dev/null &
	p=$!; while ! wait $p; do [ -e /proc/$p ] || break; done' sh "$SIGF" "$A"
t_true "signal:USR1: the parent got exactly one (every period an event, one per 60 s)" \
	eval '[ "$(wc -l <"$SIGF" 2>/dev/null)" -eq 1 ]'

# --- trace: the flight recorder's explanation saved at once ----------------------------
if [ "$(id -u)" -ne 0 ]; then
	t_skip "--on-threshold trace saves at once" "not root (ftrace instances need root)"
elif ! grep -qw tracefs /proc/filesystems; then
	t_skip "--on-threshold trace saves at once" "the kernel has no tracefs"
else
	DB3="$T_TMP/trace.db"
	LOG="$T_TMP/trace.log"
	# --action-interval 0: the machine's own xruns are events too, and would hold the stall's back
	spiked() { sqlite3 "$DB3" "select json_array_length(document, '\$.spikes') from results" 2>/dev/null; }
	run_tty "$OUT" "$LOG" "$A" monitor --db "$DB3" --no-histogram -L 0 --window 1s --checkpoint 1h \
		--trace --threshold 100ms --on-threshold trace --action-interval 0
	t_measuring 10 "trace: the monitor measures" "$LOG" 300
	stop_for 0.3 "$LOG"
	t_wait 10 "a checkpoint right after the spike holds its explanation (1 h before the next)" \
		eval '[ "$(spiked)" -ge 1 ] 2>/dev/null'
	kill -TERM "$RUN_PID"
	wait "$TTY_PID"
	t_result $? "trace: SIGTERM exits 0"
fi

t_done
