#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The results database from the command line: run -> database -> export
# round trip, --label, --no-db, history filters, show, import, bad ids,
# files that are not ours, the first schema, and two concurrent writers.
. "$(dirname "$0")/../lib.sh"

A=$AUDIOLAT
D="$T_TMP/db"
mkdir -p "$D"
DB="$D/results.db"
have_sqlite3=$(command -v sqlite3 >/dev/null && echo 1)

# --help of every command
for c in history show export import; do
	t_exit 0 "$c --help exits 0" "$A" "$c" --help
	t_grep "$OUT" "^usage: audiolat $c" "$c --help prints the usage"
done
t_exit 0 "audiolat --help exits 0" "$A" --help
for c in history show export import; do
	t_grep "$OUT" "^  $c " "--help lists $c"
done

# --- run -> database -> export, byte for byte
J="$T_TMP/run.json"
t_exit 0 "run --db --label saves the run" "$A" run -d 300ms -q --label "patched kernel" --db "$DB" --json "$J"
t_grep "$OUT" '^summary: ' "the summary line is still printed"
t_empty "$ERR" "-q: nothing on stderr"
t_true "the database file exists" test -f "$DB"
t_json "label is a top-level JSON field" '.label == "patched kernel"' "$J"
t_json "label is in the config" '.config.label == "patched kernel"' "$J"
t_exit 0 "history lists it" "$A" history --db "$DB"
t_grep "$OUT" '^ +1  [0-9-]+ [0-9:]+  patched kernel  ' "history shows id 1 with its label"
t_json "the run's periods and xruns differ (the columns below tell them apart)" '.total.periods > 0 and .total.xruns != .total.periods' "$J"
t_grep "$OUT" "^ +1  .*  $(jq .total.periods "$J") +$(jq .total.xruns "$J")  " "history's periods and xruns columns are the run's"
t_exit 0 "export 1" "$A" export --db "$DB" 1
t_true "export equals what run --json wrote, byte for byte" cmp "$OUT" "$J"
t_exit 0 "export -o FILE" "$A" export --db "$DB" -o "$T_TMP/exported.json" 1
t_true "export -o equals the run's JSON" cmp "$T_TMP/exported.json" "$J"

t_exit 0 "run without -q tells where it saved" "$A" run -d 200ms --no-histogram --db "$DB" --json "$T_TMP/run2.json"
t_grep "$ERR" "^saved as run 2 \\($DB\\)$" "'saved as run 2' on stderr"
t_exit 0 "export 2" "$A" export --db "$DB" 2
t_true "export 2 equals the second run's JSON" cmp "$OUT" "$T_TMP/run2.json"
t_json "a run without --label has label null" '.label == null and .config.label == null' "$T_TMP/run2.json"

# --- the default database is $XDG_DATA_HOME/audiolat/results.db
X="$T_TMP/xdg"
mkdir -p "$X"
t_exit 0 "run with the default database" env XDG_DATA_HOME="$X" "$A" run -d 200ms -q
t_true "it went to \$XDG_DATA_HOME/audiolat/results.db" test -f "$X/audiolat/results.db"
t_exit 0 "history with the default database" env XDG_DATA_HOME="$X" "$A" history
t_grep "$OUT" '^ +1  ' "the default database has the run"
H="$T_TMP/home"
mkdir -p "$H"
t_exit 0 "without XDG_DATA_HOME: ~/.local/share" env -u XDG_DATA_HOME HOME="$H" "$A" run -d 200ms -q
t_true "it went to \$HOME/.local/share/audiolat/results.db" test -f "$H/.local/share/audiolat/results.db"

# --- --no-db writes nothing
N="$T_TMP/nodb"
mkdir -p "$N"
t_exit 0 "run --no-db" env XDG_DATA_HOME="$N" HOME="$N" "$A" run -d 200ms --no-histogram --no-db --json "$T_TMP/nodb.json"
t_true "--no-db: no file was created" test -z "$(ls -A "$N")"
t_nogrep "$ERR" 'saved as' "--no-db: no 'saved as' line"
t_json "--no-db: the JSON is still written" '.schema == "audiolat.run/2"' "$T_TMP/nodb.json"

# --- run option errors
t_exit 2 "--label with a newline is a usage error" "$A" run -q --label $'a\nb'
t_grep "$ERR" '^audiolat run: --label: ' "the error names --label"
t_exit 2 "a --label too long is a usage error" "$A" run -q --label "$(printf 'x%.0s' {1..200})"
t_exit 2 "--db '' is a usage error" "$A" run -q --db ''
t_grep "$ERR" '^audiolat run: --db: ' "the error names --db"

# --- history: filters, limit, JSON
t_exit 0 "import a run with another kernel and backend label" bash -c \
	"jq '.label = \"other\" | .system.kernel_release = \"6.6.7-rt18\" | .config.backend = \"alsa\"' '$J' >'$T_TMP/other.json' && '$A' import --db '$DB' '$T_TMP/other.json'"
t_grep "$OUT" "other.json: saved as result 3$" "import says where it saved"
t_exit 0 "history --label" "$A" history --db "$DB" --label other
t_true "--label: exactly one row" test "$(grep -c '^ *[0-9]' "$OUT")" -eq 1
t_grep "$OUT" '^ +3  .* other  6\.6\.7-rt18 +alsa ' "--label: the imported run, its kernel and backend"
t_exit 0 "history --label with a glob" "$A" history --db "$DB" --label 'pat*'
t_true "--label 'pat*': one row" test "$(grep -c '^ *[0-9]' "$OUT")" -eq 1
t_exit 0 "history --kernel substring" "$A" history --db "$DB" --kernel rt18
t_true "--kernel rt18: one row" test "$(grep -c '^ *[0-9]' "$OUT")" -eq 1
t_exit 0 "history --kernel glob" "$A" history --db "$DB" --kernel '6.6.7-*'
t_true "--kernel '6.6.7-*': one row" test "$(grep -c '^ *[0-9]' "$OUT")" -eq 1
t_exit 0 "history --backend sim" "$A" history --db "$DB" --backend sim
t_true "--backend sim: two rows" test "$(grep -c '^ *[0-9]' "$OUT")" -eq 2
t_exit 0 "history --kernel that matches nothing" "$A" history --db "$DB" --kernel no-such-kernel
t_grep "$ERR" 'no saved result matches' "it says nothing matched"
t_true "no rows" test "$(grep -c '^ *[0-9]' "$OUT")" -eq 0
t_exit 0 "history -n 1" "$A" history --db "$DB" -n 1
t_grep "$ERR" 'the newest 1 of 3' "-n 1 says how many there are"
t_grep "$OUT" '^ +3  ' "-n 1: the newest"
t_true "-n 1: one row" test "$(grep -c '^ *[0-9]' "$OUT")" -eq 1
t_exit 0 "history --json -" "$A" history --db "$DB" --json -
t_json "history JSON: schema, 3 results, newest first" \
	'.schema == "audiolat.history/1" and .matching == 3 and ([.results[].id] == [3, 2, 1])' "$OUT"
t_json "history JSON: the stored statistics equal the run's" --slurpfile r "$J" \
	'.results[] | select(.id == 1) | .periods == $r[0].total.periods and .wake_max_ns == $r[0].total.wake_latency_ns.max and .wake_p99_ns == $r[0].total.wake_latency_ns.p99 and .label == "patched kernel"' "$OUT"
t_exit 2 "history -n -1 is a usage error" "$A" history --db "$DB" -n -1
t_exit 2 "history with a stray argument is a usage error" "$A" history --db "$DB" stray
t_exit 1 "history --db of a missing file exits 1" "$A" history --db "$T_TMP/none.db"
t_grep "$ERR" "^audiolat history: $T_TMP/none.db: no such file" "and names the file"
t_true "history never creates a database" test ! -e "$T_TMP/none.db"
# UTF-8 labels: the columns line up by characters, not bytes; a label that
# is too long is cut on a character with a "~"
U="$T_TMP/utf8.db"
jq '.label = "café når"' "$J" >"$T_TMP/u1.json"
jq '.label = "plain"' "$J" >"$T_TMP/u2.json"
jq '.label = ("é" * 40)' "$J" >"$T_TMP/u3.json"
jq '.label = "esc\u001b[31mred\tx"' "$J" >"$T_TMP/u4.json"
for f in u1 u2 u3 u4; do "$A" import -q --db "$U" "$T_TMP/$f.json" >/dev/null 2>&1; done
t_exit 0 "history with UTF-8 labels" "$A" history --db "$U"
# the characters before the kernel name, in every row: one value
same_column() { # FILE KERNEL
	tail -n +2 "$1" | while IFS= read -r l; do
		printf '%s' "${l%%  "$2"*}" | wc -m
	done | sort -u | wc -l | grep -qx 1
}
t_true "the kernel column starts at the same character in every row" \
	same_column "$OUT" "$(jq -r .system.kernel_release "$J")"
t_grep "$OUT" '^ +[0-9]+  [0-9-]+ [0-9:]+  é+~  ' "a long UTF-8 label is cut on a character with a ~"
t_grep "$OUT" '  esc\?\[31mred\?x  ' "control characters in a label print as '?'"
t_result $(grep -q "$(printf '\033')" "$OUT" && echo 1 || echo 0) "no escape character reaches the terminal"
t_exit 0 "show of the imported result with control characters" "$A" show --db "$U" 4
t_grep "$OUT" '^label: +esc\?\[31mred\?x$' "show prints the label's control characters as '?'"
t_result $(grep -q "$(printf '\033')" "$OUT" && echo 1 || echo 0) "show lets no escape character reach the terminal"
E="$T_TMP/empty-xdg"
mkdir -p "$E"
t_exit 0 "history with no default database yet exits 0" env XDG_DATA_HOME="$E" "$A" history
t_grep "$ERR" 'no results saved yet' "and says nothing was saved yet"

# --- show
t_exit 0 "show 1" "$A" show --db "$DB" 1
t_grep "$OUT" '^result 1: audiolat.run/2, saved ' "show: the header line"
t_grep "$OUT" '^label: +patched kernel$' "show: the label"
t_grep "$OUT" '^max latency=[0-9.]+ ms  factor=' "show: the latencytest line"
t_grep "$OUT" '^wake latency +[0-9.]+' "show: the percentile table"
p99_us=$(jq -r '.total.wake_latency_ns.p99 / 1000 | . * 10 | round / 10' "$J")
t_true "show: p99 wake latency is the run's ($p99_us us)" \
	awk -v want="$p99_us" '$1 == "wake" && $2 == "latency" { found = 1; exit !($7 + 0 == want + 0) } END { if (!found) exit 1 }' "$OUT"

# --- report --db ID: the HTML report of a saved result, read from the database
t_exit 0 "report --db DB 1 writes the report of result 1" "$A" report --db "$DB" 1 -o "$T_TMP/r1.html"
t_grep "$T_TMP/r1.html" 'patched kernel' "report --db: the result's label"
t_grep "$T_TMP/r1.html" "$(jq -r '.total.wake_latency_ns.p99' "$J" |
	awk '{ v = $1; a = v < 0 ? -v : v
		if (a < 1000) s = sprintf("%d ns", v); else if (a < 1000000) s = sprintf("%.1f µs", v / 1e3)
		else s = sprintf("%.3f ms", v / 1e6)
		printf "<b>%s</b><span>p99 wake latency", s }')" "report --db: the result's p99 wake latency (in the unit the report picks)"
if [ -n "$(command -v xmllint)" ]; then
	t_true "report --db: well-formed XML" xmllint --noout --nonet "$T_TMP/r1.html"
fi
t_exit 1 "report --db of an id not there exits 1" "$A" report --db "$DB" 999 -o "$T_TMP/r999.html"
t_grep "$ERR" "^audiolat report: 999: no such file, and no result 999 in " "... naming the id"

# --- bad ids
t_exit 2 "show abc exits 2" "$A" show --db "$DB" abc
t_grep "$ERR" "'abc' is not a result id" "show abc says so"
t_exit 2 "show without an id exits 2" "$A" show --db "$DB"
t_exit 2 "show with two ids exits 2" "$A" show --db "$DB" 1 2
t_grep "$ERR" "unexpected argument '2'" "show 1 2 names the second"
t_exit 1 "show 999 exits 1" "$A" show --db "$DB" 999
t_grep "$ERR" '^audiolat show: .*no result with id 999$' "show 999 says there is none"
t_exit 1 "export 0 exits 1" "$A" export --db "$DB" 0
t_exit 2 "export 1x exits 2" "$A" export --db "$DB" 1x
t_exit 2 "export of an id past int64 exits 2" "$A" export --db "$DB" 99999999999999999999
t_exit 1 "show on a missing default database exits 1" env XDG_DATA_HOME="$E" "$A" show 1
t_grep "$ERR" 'no result with id 1 \(no database' "and says there is no database"
t_exit 1 "export to an unwritable path exits 1" "$A" export --db "$DB" -o "$T_TMP/no/such/dir/x.json" 1

# --- import
t_exit 0 "importing the same file again" "$A" import --db "$DB" "$T_TMP/other.json"
t_grep "$OUT" 'already saved as result 3$' "it is not saved twice"
printf '{\n  "schema": "audiolat.run/1",\n  "total": [1, 2,\n}\n' >"$T_TMP/bad.json"
t_exit 1 "import of bad JSON exits 1" "$A" import --db "$DB" "$T_TMP/bad.json"
t_grep "$ERR" "^audiolat import: $T_TMP/bad.json:4:1: invalid JSON: " "it names the file, line and column"
echo '{"hello": "world"}' >"$T_TMP/foreign.json"
t_exit 1 "import of a JSON file that is not ours exits 1" "$A" import --db "$DB" "$T_TMP/foreign.json"
t_grep "$ERR" "foreign.json: not an audiolat document: no \"schema\" string" "it says why"
jq 'del(.total.periods)' "$J" >"$T_TMP/incomplete.json"
t_exit 1 "import of a run without total.periods exits 1" "$A" import --db "$DB" "$T_TMP/incomplete.json"
t_grep "$ERR" 'no total.periods \(an integer or null\)' "it names the missing field"
t_exit 1 "import of a missing file exits 1" "$A" import --db "$DB" "$T_TMP/missing.json"
t_grep "$ERR" 'missing.json: No such file or directory' "it names the file"
t_exit 1 "one bad file among good ones: exit 1, the good one saved" \
	"$A" import --db "$DB" "$T_TMP/bad.json" "$T_TMP/run2.json" "$T_TMP/nodb.json"
t_grep "$OUT" 'nodb.json: saved as result 4$' "the good file after the bad one is saved"
t_exit 0 "import from standard input" bash -c "jq '.label = \"stdin\"' '$J' | '$A' import --db '$DB' -"
t_grep "$OUT" '^<stdin>: saved as result 5$' "stdin is saved"
echo '{"schema": "audiolat.midi-record/1", "label": "midi"}' >"$T_TMP/midi.json"
t_exit 0 "any audiolat document can be imported" "$A" import --db "$DB" "$T_TMP/midi.json"
t_exit 0 "history --schema" "$A" history --db "$DB" --schema audiolat.midi-record/1
t_grep "$OUT" '^ +6  .* midi .*midi-record/1' "it is listed with its kind"
t_exit 0 "show of a document that is not a run" "$A" show --db "$DB" 6
t_grep "$OUT" 'bytes of JSON; audiolat export 6 prints it' "show points to export"
t_exit 2 "import without files exits 2" "$A" import --db "$DB"

# --- files that are not ours: exit 1 and one clear line, never a crash
head -c 16384 /dev/urandom >"$T_TMP/random.db"
for c in "history" "show 1" "export 1"; do
	t_exit 1 "$c on random bytes exits 1" "$A" $c --db "$T_TMP/random.db"
	t_grep "$ERR" "^audiolat ${c%% *}: $T_TMP/random.db: not an SQLite database" "$c names the file and the problem"
done
t_exit 1 "import into random bytes exits 1" "$A" import --db "$T_TMP/random.db" "$J"
t_grep "$ERR" 'not an SQLite database' "import says why"
cp "$T_TMP/random.db" "$T_TMP/random.copy"
t_exit 1 "run into random bytes: exit 1" "$A" run -d 200ms -q --db "$T_TMP/random.db" --json "$T_TMP/r.json"
t_grep "$ERR" '^audiolat: warning: results database .*random.db: not an SQLite database.*the result was not saved$' "a warning says it was not saved"
t_result $([ "$(wc -l <"$ERR")" -eq 1 ] && echo 0 || echo 1) "one line on stderr"
t_grep "$OUT" '^summary: ' "the run's summary is still printed"
t_json "the run's JSON is still written" '.schema == "audiolat.run/2"' "$T_TMP/r.json"
t_true "the random file is untouched" cmp "$T_TMP/random.db" "$T_TMP/random.copy"

if [ -n "$have_sqlite3" ]; then
	F="$T_TMP/foreign.db"
	sqlite3 "$F" "CREATE TABLE songs (title TEXT); INSERT INTO songs VALUES ('x');"
	cp "$F" "$T_TMP/foreign.copy"
	t_exit 1 "history on another program's SQLite database exits 1" "$A" history --db "$F"
	t_grep "$ERR" 'an SQLite database, but not an audiolat results database' "it says so"
	t_exit 1 "run into it exits 1" "$A" run -d 200ms -q --db "$F"
	t_true "the foreign database is untouched" cmp "$F" "$T_TMP/foreign.copy"

	Nw="$T_TMP/newer.db"
	cp "$DB" "$Nw"
	sqlite3 "$Nw" "PRAGMA user_version = 4;"
	t_exit 1 "history on a database of a newer audiolat exits 1" "$A" history --db "$Nw"
	t_grep "$ERR" 'written by a newer audiolat \(schema version 4; this audiolat reads up to 3\)' "it says so"
	t_exit 1 "import into it exits 1" "$A" import --db "$Nw" "$J"

	# a truncated database: fold the WAL in, cut the file in half
	Tr="$T_TMP/truncated.db"
	cp "$DB" "$Tr"
	[ -f "$DB-wal" ] && cp "$DB-wal" "$Tr-wal"
	sqlite3 "$Tr" "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE;" >/dev/null
	size=$(stat -c %s "$Tr")
	truncate -s $((size / 2)) "$Tr"
	rc_sum=0
	for c in "history" "history --json -" "show 1" "export 1" "show 2" "export 2" "show 5" "export 5"; do
		"$A" $c --db "$Tr" >"$OUT" 2>"$ERR"
		rc=$?
		if [ $rc -ne 0 ] && [ $rc -ne 1 ] || [ $rc -eq 1 ] && ! grep -Eq "^audiolat ${c%% *}: $Tr: " "$ERR"; then
			echo "# $c: exit $rc"; sed 's/^/#   /' "$ERR"
			rc_sum=1
		fi
		[ $rc -eq 1 ] && [ "$(wc -l <"$ERR")" -ne 1 ] && rc_sum=1
	done
	t_result $rc_sum "a truncated database: every command exits 0 or 1 (one line naming the file)"
	"$A" export --db "$Tr" 5 >"$OUT" 2>"$ERR"
	rc=$?
	[ $rc -eq 1 ] && grep -q 'damaged' "$ERR"
	t_result $? "export of a row in the cut-off half exits 1: 'damaged' (exit $rc)"

	# the first schema (user_version 1): migrated on open, its rows kept
	V1="$T_TMP/v1.db"
	sqlite3 "$V1" <"$(dirname "$0")/schema-v1.sql"
	sqlite3 "$V1" "INSERT INTO runs (saved_at, started_at, label, kernel_release, backend, document)
		VALUES ('2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 'from v1', '6.1.0', 'sim', CAST(readfile('$J') AS TEXT));"
	t_exit 0 "history on a first-schema database" "$A" history --db "$V1"
	t_grep "$OUT" '^ +1  .* from v1 ' "its run is listed"
	t_true "it was migrated to schema version 3" test "$(sqlite3 "$V1" 'PRAGMA user_version')" -eq 3
	t_exit 0 "export of the migrated run" "$A" export --db "$V1" 1
	t_true "the migrated document is byte for byte the same" cmp "$OUT" "$J"
	t_exit 0 "import into the migrated database" "$A" import --db "$V1" "$J"
	t_grep "$OUT" 'already saved as result 1$' "the migration computed the digest"
else
	t_skip "foreign, newer, truncated and first-schema databases" "no sqlite3 command"
fi

# --- two concurrent writers: 2 x 20 imports in parallel processes
C="$T_TMP/concurrent.db"
mkdir -p "$T_TMP/docs"
for i in $(seq 1 40); do
	jq -c ".label = \"w$i\"" "$J" >"$T_TMP/docs/$i.json"
done
writer() { # writer FIRST LAST
	local i rc=0
	for i in $(seq "$1" "$2"); do
		"$A" import -q --db "$C" "$T_TMP/docs/$i.json" || rc=1
	done
	return $rc
}
writer 1 20 2>"$T_TMP/w1.err" &
p1=$!
writer 21 40 2>"$T_TMP/w2.err" &
p2=$!
wait $p1
r1=$?
wait $p2
r2=$?
[ $r1 -eq 0 ] && [ $r2 -eq 0 ] || sed 's/^/# writer: /' "$T_TMP/w1.err" "$T_TMP/w2.err" | head -n 20
[ $r1 -eq 0 ] && [ $r2 -eq 0 ]
t_result $? "two concurrent writers: every import succeeded"
cat "$T_TMP/w1.err" "$T_TMP/w2.err" | sed 's/^/# /' | head -n 10
t_exit 0 "history of the concurrent database" "$A" history --db "$C" --json -
t_json "40 rows, 40 distinct labels" '.matching == 40 and ([.results[].label] | unique | length) == 40' "$OUT"
if [ -n "$have_sqlite3" ]; then
	t_true "PRAGMA integrity_check is ok" test "$(sqlite3 "$C" 'PRAGMA integrity_check')" = ok
	t_true "the database is in WAL mode" test "$(sqlite3 "$C" 'PRAGMA journal_mode')" = wal
fi
# and runs writing at the same time as imports
"$A" run -d 500ms -q --db "$C" >/dev/null 2>"$T_TMP/run-c.err" &
p1=$!
"$A" import -q --db "$C" "$T_TMP/run2.json" "$T_TMP/nodb.json" 2>"$T_TMP/imp-c.err"
r2=$?
wait $p1
r1=$?
[ $r1 -eq 0 ] && [ $r2 -eq 0 ]
t_result $? "a run and an import at the same time both save"
t_exit 0 "history after them" "$A" history --db "$C" --json -
t_json "43 rows" '.matching == 43' "$OUT"

# --- history --limit N (-n): the newest N; the default is 50, 0 lists all
for i in $(seq 41 48); do
	jq -c ".label = \"w$i\"" "$J" >"$T_TMP/docs/$i.json"
	"$A" import -q --db "$C" "$T_TMP/docs/$i.json" >/dev/null 2>&1
done
t_exit 0 "history of 51 results" "$A" history --db "$C"
t_true "by default the newest 50" test "$(grep -c '^ *[0-9]' "$OUT")" -eq 50
t_grep "$ERR" 'the newest 50 of 51' "... and a line says how many there are"
t_grep "$OUT" '^ +51  .* w48  ' "... the newest first"
t_exit 0 "history --limit 0" "$A" history --db "$C" --limit 0
t_true "--limit 0 lists all 51" test "$(grep -c '^ *[0-9]' "$OUT")" -eq 51
t_empty "$ERR" "--limit 0: no 'newest N of' line"
t_exit 0 "history --limit 2" "$A" history --db "$C" --limit 2
t_true "--limit 2: two rows" test "$(grep -c '^ *[0-9]' "$OUT")" -eq 2
t_grep "$OUT" '^ +50  .* w47  ' "--limit 2: the second newest is there"
t_grep "$ERR" 'the newest 2 of 51' "--limit 2: says how many there are"
t_exit 0 "history --limit 2 --json -" "$A" history --db "$C" --limit 2 --json -
t_json "--limit 2 --json: two results, 51 matching, newest first" \
	'.matching == 51 and ([.results[].id] == [51, 50])' "$OUT"

t_done
