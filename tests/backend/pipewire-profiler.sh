#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# audiolat import of a real pw-profiler capture (docs/interchange.md):
# PipeWire with the test's null sink, `pw-profiler -o FILE` capturing while
# `audiolat run -b pipewire` plays into it. The imported document is held
# to the capture's own lines, read here with awk (not with our parser):
# as many points as lines, our node's max BUSY that of its column; it has
# no wake latency and no xrun count (null, never 0); show, compare (with
# the audiolat run) and export say so; a damaged copy is refused with its
# line and nothing of it saved.
. "$(dirname "$0")/common.sh"
need_backend pipewire libpipewire-0.3-dev
need_cmd pipewire pipewire
need_cmd wireplumber wireplumber
need_cmd pw-profiler pipewire-bin
need_cmd dbus-daemon dbus
need_cmd stdbuf coreutils

A=$AUDIOLAT
T=$T_TMP
DB=$T/results.db
CAP=$T/profiler.log
start_pipewire 256 48000 || server_failed "PipeWire with a null sink starts"

# audiolat first: pw-profiler logs the first driver it sees, and our node
# is driven by another until it is linked to the null sink
"$A" run -b pipewire -d 4s --no-db -q --json "$T/run.json" >"$T/run.out" 2>"$T/run.err" &
RUN_PID=$!
t_wait 10 "audiolat's node is linked to the null sink" \
	sh -c 'pw-link -l | grep -A3 "^null-sink:playback_FL" | grep -q "audiolat-[0-9]*:"'
# The null sink's id: the driver pw-profiler must follow
sink=$(pw-dump 2>/dev/null | jq -r '[.[] | select(.type == "PipeWire:Interface:Node" and
	.info.props["node.name"] == "null-sink") | .id][0] // empty')
[ -n "$sink" ] || t_bail "pw-dump lists the null sink's node"
# pw-profiler (0.3.65) follows the first driver it sees, for good, and
# our node is linked to the null sink before it moves there from the
# dummy driver (once in 3 runs it followed driver 28 and logged 3 points):
# the capture begins with a pw-profiler that follows the null sink, which
# is a condition of the setup awaited (up to 10 s), not a verdict retried.
# pw-profiler writes its gnuplot scripts into its working directory at exit
mkdir -p "$T/prof"
PROF_PID=
follows=1
for _ in $(seq 20); do
	rm -f "$CAP"
	(cd "$T/prof" && exec stdbuf -oL pw-profiler -o "$CAP" >"$T/prof.out" 2>"$T/prof.err") &
	PROF_PID=$!
	wait_until 5 "pw-profiler follows a driver" grep -q '^logging driver ' "$T/prof.out"
	if grep -q "^logging driver $sink\$" "$T/prof.out"; then
		follows=0
		break
	fi
	echo "# pw-profiler followed $(sed -n 's/^logging driver //p' "$T/prof.out" | head -n 1), not the null sink ($sink): started again"
	kill -INT "$PROF_PID" 2>/dev/null
	wait "$PROF_PID"
	PROF_PID=
done
t_result $follows "pw-profiler follows the null sink ($sink), the driver of our node (within 20 starts)"
[ -n "$PROF_PID" ] || t_bail "a pw-profiler that follows the null sink"
t_wait 10 "the capture fills (100 points)" sh -c "[ \$(wc -l <'$CAP') -ge 100 ]"
wait "$RUN_PID"
t_result $? "audiolat run -b pipewire, 4 s, while pw-profiler captured: exits 0"
kill -INT "$PROF_PID"
wait "$PROF_PID"
t_result $? "pw-profiler ended on SIGINT (exit 0)"
self=$(jq -r '.graph.self_id // empty' "$T/run.json")
driver=$(jq -r '.graph.driver.id // empty' "$T/run.json")
[ -n "$self" ] && [ -n "$driver" ] || t_bail "the run names its node's and its driver's ids (.graph)"
t_grep "$T/prof.out" "^logging driver $driver$" "pw-profiler logged the null sink ($driver), our driver"
t_grep "$T/prof.out" "^logging follower $self \(\"audiolat-[0-9]+\"\)" \
	"pw-profiler logged our node ($self) as a follower"

# the capture's own figures: its lines, our node's max BUSY where it finished
# (4 driver columns, then per node: id signal awake finish wait busy status 0)
lines=$(wc -l <"$CAP")
maxbusy=$(awk -F'\t' -v id="$self" '{ for (k = 5; k + 7 <= NF; k += 8)
	if ($k == id && $(k + 6) == 3 && $(k + 5) > m) m = $(k + 5) } END { print m + 0 }' "$CAP")
echo "# capture: $lines lines, node $self's max busy ${maxbusy} us"
[ "$lines" -gt 200 ] && [ "$maxbusy" -gt 0 ]
t_result $? "the capture holds the run's cycles (up to 4 s at 5.3 ms) and our node's busy time"

t_exit 0 "import the capture" "$A" import --db "$DB" "$CAP"
t_grep "$OUT" "profiler.log: saved as result [0-9]+$" "it says the result's id"
id=$(sed -n 's/.*saved as result \([0-9]*\)$/\1/p' "$OUT")
# (the saved document, as the store gives it back: t_json wants exactly one)
"$A" export --db "$DB" "$id" >"$T/imp.json"
t_json "one point per line of the capture, our node's max busy the capture's" \
	--argjson n "$lines" --argjson self "$self" --argjson busy "$maxbusy" \
	'.schema == "audiolat.run/2" and .source.tool == "pw-profiler" and
	 .source.file == "profiler.log" and .source.points == $n and .source.node_columns == 64 and
	 ([.source.nodes[] | select(.id == $self)] | length == 1) and
	 (.source.nodes[] | select(.id == $self) | .busy_ns.max == $busy * 1000 and
	  .points > 200 and .busy_ns.count + .unfinished == .points)' "$T/imp.json"
t_json "the driver: its interval counted over the points, the period the quantum's" \
	'.total.interval_ns.count + .source.clamped_points + .source.incomplete_points == .source.points and
	 (.config.period_ns / 1000 | floor) == 5333 and .total.interval_ns.max > 0' "$T/imp.json"
t_json "no wake latency, no xrun count: null, never 0" \
	'.total.wake_latency_ns == null and .total.histogram.wake_latency_ns == null and
	 .total.xruns == null and .total.periods == null and .config.backend == null and
	 (.total | has("wake_latency_ns"))' "$T/imp.json"

t_exit 0 "show the imported run" "$A" show --db "$DB" "$id"
t_grep "$OUT" "^imported from pw-profiler \(pw-profiler, profiler.log\)" "show says where it came from"
t_grep "$OUT" "^wake latency +not measured$" "show: wake latency not measured"
t_grep "$OUT" "^max latency=not measured " "show: no max latency"
t_grep "$OUT" "^node $self: [0-9]+ points, [0-9]+ unfinished; wait p50 [0-9.]+ " \
	"show lists our node's wait and busy"
t_grep "$OUT" "^not measured by pw-profiler: .*xruns.*wake latency" "show names what it lacks"

t_exit 0 "compare the capture with the audiolat run" "$A" compare --db "$DB" "$id" "$T/run.json"
t_grep "$OUT" "^B vs A, whole run, p99 wake latency: not measured \(A lacks it\)$" \
	"compare: the p99 is not measured, A lacks it"
t_grep "$OUT" "^   A: imported from pw-profiler \(no wake latency\); not measured:.* wake latency" \
	"compare names the figures the capture lacks"
t_exit 0 "compare --json" "$A" compare --db "$DB" "$id" "$T/run.json" --json "$T/cmp.json"
t_json "every statistic's verdict is 'not measured', no 0 difference" \
	'[.scopes[0].comparisons[0].statistics[]] | length >= 3 and
	 all(.verdict == "not measured" and .diff_ns == null and .baseline_ns == null and
	     (.value_ns | type) == "number")' "$T/cmp.json"
t_json "the capture's row has no max latency, the run's has" \
	'.scopes[0].rows | length == 2 and .[0].max_latency_ns == null and
	 .[0].view == "not measured" and (.[1].max_latency_ns | type) == "number"' "$T/cmp.json"

t_exit 1 "export --format cyclictest refuses it (exit 1)" \
	"$A" export --db "$DB" --format cyclictest "$id"
t_grep "$ERR" "no wake latency histogram \(pw-profiler does not measure it\)" "and says why"
t_empty "$OUT" "nothing written"

# a damaged copy: one line naming the file and the line; nothing saved
n_before=$("$A" history --db "$DB" --json - | jq '.matching')
bad=$((lines / 2))
awk -F'\t' -v OFS='\t' -v l="$bad" 'NR == l { $2 = "x" } { print }' "$CAP" >"$T/bad.log"
t_exit 1 "a damaged capture is refused" "$A" import --db "$DB" "$T/bad.log"
t_grep "$ERR" "^audiolat import: $T/bad.log:$bad: expected the driver's end \(a whole number\) in column 2, found 'x'$" \
	"it names the file, the line and what was expected"
[ "$(wc -l <"$ERR")" -eq 1 ]
t_result $? "in one line"
t_json "nothing of it was saved" --argjson n "$n_before" '.matching == $n' \
	<("$A" history --db "$DB" --json -)
stop_pipewire
t_done
