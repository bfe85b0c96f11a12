#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The results database on both engines: a real PostgreSQL (initdb + the
# server as an unprivileged user, Unix socket in $T_TMP, scram passwords)
# and an SQLite file get the same store checks (round trip, duplicates,
# filters, an SQL-injection label, 8 concurrent writers x 50). Then what is
# PostgreSQL's own: a least-privilege role (INSERT, SELECT) used by every
# check, the password never printed or stored, an unreachable server and a
# bad URL (exit 4, the host named), a newer schema, push (idempotent by
# UUID, the server killed mid-push, the next push sends the rest).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../servers.sh"

A=$AUDIOLAT
command -v jq >/dev/null || t_bail "jq is installed"
start_postgres || t_bail "a PostgreSQL server starts (initdb, postgres): $SRV_WHY"
t_result 0 "a PostgreSQL server started in $PG_HOST"

# the owner makes the schema; the tests write as a role that may only
# INSERT and SELECT (docs/store.md shows the same statements)
OWNER_PW='owner-pw-4711'
WRITER_PW='Wr1ter:s3cret@pw'   # ':' and '@' in it: percent-encoded in URLs
WRITER_PW_URL='Wr1ter%3As3cret%40pw'
pg_sql -c "CREATE ROLE al_owner LOGIN PASSWORD '$OWNER_PW'" \
	-c "CREATE ROLE al_writer LOGIN PASSWORD '$WRITER_PW'" \
	-c "CREATE DATABASE audiolat OWNER al_owner" >/dev/null ||
	t_bail "the roles and the database are created"
Q="host=$PG_HOST&port=$PG_PORT"
OWNER_URL="postgresql://al_owner:$OWNER_PW@/audiolat?$Q"
URL="postgresql://al_writer:$WRITER_PW_URL@/audiolat?$Q"
SHOWN="postgresql://al_writer@/audiolat?$Q"   # what a line may show of it

J="$T_TMP/run.json"
t_exit 0 "a sim run to store" "$A" run -d 300ms -q --no-db --json "$J"
t_json "a run's document has a UUID" '.uuid | test("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")' "$J"

# --- the schema: created by the owner, used by the writer
t_exit 4 "the writer cannot create the schema: exit 4 (not permitted)" "$A" import --db "$URL" "$J"
t_grep "$ERR" "must be created or migrated by the database's owner" "it says the owner must create it"
t_exit 0 "the owner makes the schema: a push of nothing" \
	env XDG_DATA_HOME="$T_TMP/empty" "$A" push --to "$OWNER_URL"
t_grep "$ERR" 'nothing to push' "it says there was nothing to push"
PG_DB=audiolat pg_sql -c "SELECT version FROM audiolat_schema" >"$T_TMP/v" 2>&1
t_grep "$T_TMP/v" '^3$' "audiolat_schema holds version 3"
PG_DB=audiolat pg_sql -c "GRANT SELECT, INSERT ON results TO al_writer" \
	-c "GRANT SELECT ON audiolat_schema TO al_writer" >/dev/null ||
	t_bail "the writer is granted INSERT and SELECT"
PG_DB=audiolat pg_sql -c "SELECT string_agg(privilege_type, ',' ORDER BY privilege_type)
	FROM information_schema.role_table_grants WHERE grantee = 'al_writer'" >"$T_TMP/g"
t_grep "$T_TMP/g" '^INSERT,SELECT,SELECT$' "the writer has INSERT and SELECT only"

# --- the same checks on both engines
docs() { # docs DIR N BASE PREFIX: N documents, labels PREFIX0.., UUIDs from BASE on
	mkdir -p "$1"
	jq -c --argjson n "$2" --argjson b "$3" --arg p "$4" '. as $d | range($n) | . as $i |
		$d | .label = "\($p)\($i)" |
		.uuid = ("00000000-0000-4000-8000-" + ((1000000000000 + $b + $i) | tostring | .[1:]))' \
		"$J" | {
		local i=0 line
		while IFS= read -r line; do
			printf '%s' "$line" >"$1/$i.json"
			i=$((i + 1))
		done
	}
}
INJECT="'); DROP TABLE results; --"

engine_checks() { # engine_checks NAME DB UUID_BASE
	local name=$1 db=$2 i pids=() rc
	t_exit 0 "$name: import a run" "$A" import --db "$db" "$J"
	t_grep "$OUT" 'saved as result [0-9]+$' "$name: saved"
	id=$(grep -Eo '[0-9]+$' "$OUT")
	t_exit 0 "$name: export it" "$A" export --db "$db" "$id"
	t_true "$name: byte for byte what run --json wrote" cmp "$OUT" "$J"
	t_exit 0 "$name: import it again" "$A" import --db "$db" "$J"
	t_grep "$OUT" "already saved as result $id\$" "$name: the same document is not saved twice"
	jq '.label = "edited"' "$J" >"$T_TMP/edited.json"
	t_exit 0 "$name: an edited copy (the same UUID, other bytes) is saved" "$A" import --db "$db" "$T_TMP/edited.json"
	t_grep "$OUT" 'saved as result [0-9]+$' "$name: as a row of its own"
	t_exit 0 "$name: history --label edited" "$A" history --db "$db" --label edited --json -
	t_json "$name: it keeps the document's UUID" --slurpfile d "$J" '.matching == 1 and .results[0].uuid == $d[0].uuid' "$OUT"
	t_exit 0 "$name: show it" "$A" show --db "$db" "$id"
	t_grep "$OUT" "^result $id: audiolat.run/2, saved " "$name: show names the result"

	jq --arg l "$INJECT" '.label = $l | .system.hostname = "box-b" | .system.kernel_release = "6.6.7-rt18" | del(.uuid)' \
		"$J" >"$T_TMP/inject.json"
	t_exit 0 "$name: a label of SQL is saved" "$A" import --db "$db" "$T_TMP/inject.json"
	t_exit 0 "$name: history --label with it" "$A" history --db "$db" --label "$INJECT" --json -
	t_json "$name: the label is stored as text, the table is still there" \
		--arg l "$INJECT" '.matching == 1 and .results[0].label == $l' "$OUT"
	t_exit 0 "$name: history --kernel glob" "$A" history --db "$db" --kernel '6.6.*-rt*' --json -
	t_json "$name: --kernel '6.6.*-rt*' finds the one" '.matching == 1 and .results[0].kernel_release == "6.6.7-rt18"' "$OUT"
	t_exit 0 "$name: history --host" "$A" history --db "$db" --host 'box-?' --json -
	t_json "$name: --host 'box-?' finds the one" '.matching == 1 and .results[0].hostname == "box-b"' "$OUT"
	t_exit 0 "$name: history --since a day ago" "$A" history --db "$db" --since 1d --json -
	t_json "$name: --since 1d: all three" '.matching == 3' "$OUT"
	t_exit 0 "$name: history --since tomorrow" "$A" history --db "$db" --since "$(date -u -d tomorrow +%Y-%m-%d)" --json -
	t_json "$name: --since tomorrow: none" '.matching == 0' "$OUT"
	t_exit 2 "$name: --since nonsense is a usage error" "$A" history --db "$db" --since yesterdayish

	# 8 concurrent writers x 10 results (50 each took the test to 2 min
	# beside the rest of make test: one process per import; 20 each, 51
	# core-s of the 726 of make test's untimed part, until 2026-12-07)
	docs "$T_TMP/c-$name" 80 "$3" "$name"
	for i in $(seq 0 7); do
		(
			rc=0
			for j in $(seq $((i * 10)) $((i * 10 + 9))); do
				"$A" import -q --db "$db" "$T_TMP/c-$name/$j.json" || rc=1
			done
			exit $rc
		) 2>"$T_TMP/w$i.err" &
		pids+=($!)
	done
	rc=0
	for i in "${pids[@]}"; do wait "$i" || rc=1; done
	[ $rc -eq 0 ] || cat "$T_TMP"/w?.err | sed 's/^/# writer: /' | head -n 10
	t_result $rc "$name: 8 concurrent writers x 10: every import succeeded"
	t_exit 0 "$name: history --label '${name}*' --limit 0" "$A" history --db "$db" --label "${name}*" --limit 0 --json -
	t_json "$name: 80 rows, none lost, none doubled" \
		'.matching == 80 and ([.results[].label] | unique | length) == 80 and ([.results[].uuid] | unique | length) == 80' "$OUT"
}

engine_checks sqlite "$T_TMP/both.db" 0
engine_checks pg "$URL" 1000

# --- the password: never printed, never stored
t_exit 0 "run --db URL saves to PostgreSQL" "$A" run -d 200ms --no-histogram --db "$URL" --json "$T_TMP/pgrun.json"
t_grep "$ERR" "^saved as run [0-9]+ \\(postgresql://al_writer@/audiolat\\?" "'saved as' names the URL without the password"
t_nogrep "$ERR" "s3cret" "the password is not printed"
t_nogrep "$T_TMP/pgrun.json" "s3cret" "... nor in the run's JSON (its cmdline)"
t_json "the cmdline keeps the URL without the password" '.cmdline | test("--db postgresql://al_writer@/audiolat")' "$T_TMP/pgrun.json"
t_exit 0 "history --json from PostgreSQL" "$A" history --db "$URL" --limit 1 --json -
t_nogrep "$OUT" "s3cret" "history's JSON does not hold the password"
t_json "its database field is the URL without the password" --arg u "$SHOWN" '.database == $u' "$OUT"
PG_DB=audiolat pg_sql -c "SELECT count(*) FROM results WHERE document LIKE '%s3cret%' OR document LIKE '%Wr1ter%'" >"$T_TMP/pwc"
t_grep "$T_TMP/pwc" '^0$' "no stored document holds the password"
t_exit 4 "a wrong password: exit 4" "$A" history --db "postgresql://al_writer:wrong-pw-99@/audiolat?$Q"
t_grep "$ERR" "^audiolat history: postgresql://al_writer@/audiolat.*: cannot connect to the PostgreSQL server at socket directory $PG_HOST.*password authentication failed.*\\(not permitted\\)$" \
	"one line: the URL without the password, the host, why"
t_nogrep "$ERR" "wrong-pw-99" "the wrong password is not printed"
t_true "one line" test "$(wc -l <"$ERR")" -eq 1
PASSF="$T_TMP/pgpass"
printf '*:*:audiolat:al_writer:%s\n' "$WRITER_PW" | sed 's/:s3cret@/\\:s3cret@/' >"$PASSF"
chmod 600 "$PASSF"
t_exit 0 "a .pgpass (PGPASSFILE) works: no password in the URL" \
	env PGPASSFILE="$PASSF" "$A" history --db "$SHOWN" --limit 1
# (the server holds the 80 of the concurrent writers and more; the local
# database of this test, none of them)
t_exit 0 "AUDIOLAT_DB is taken where --db is not given" env AUDIOLAT_DB="$URL" "$A" history --limit 1 --json -
t_json "AUDIOLAT_DB: the PostgreSQL store" --arg u "$SHOWN" '.database == $u and .matching > 80' "$OUT"
t_exit 0 "sslmode=disable is libpq's, passed on unchanged" "$A" history --db "$URL&sslmode=disable" --limit 1

# --- a server that is not there, a URL that is no URL: exit 4, the host named
t_exit 4 "a server that refuses: exit 4" "$A" history --db "postgresql://al_writer:$WRITER_PW_URL@127.0.0.1:9/audiolat"
t_grep "$ERR" '^audiolat history: postgresql://al_writer@127\.0\.0\.1:9/audiolat: cannot connect to the PostgreSQL server at 127\.0\.0\.1:9: .*\(no such device or server\)$' \
	"one line naming the host and port"
t_nogrep "$ERR" "s3cret" "the password is not in it"
t_true "one line" test "$(wc -l <"$ERR")" -eq 1
t_exit 4 "a socket directory with no server: exit 4" "$A" history --db "postgresql://x:pw1234@/audiolat?host=$T_TMP/nowhere"
t_grep "$ERR" "socket directory $T_TMP/nowhere" "it names the socket directory"
t_nogrep "$ERR" "pw1234" "no password"
t_exit 4 "a bad URL: exit 4" "$A" history --db "postgresql://al_writer:$WRITER_PW_URL@host/audiolat?nosuchparam=1"
t_grep "$ERR" '^audiolat history: postgresql://al_writer@host/audiolat\?nosuchparam=1: not a PostgreSQL URL libpq accepts: .*nosuchparam.*\(no such device or server\)$' "one line saying so"
t_nogrep "$ERR" "s3cret" "the password is not in it"
t_exit 4 "a URL with a bad %-escape in its password: exit 4" "$A" history --db "postgresql://al_writer:zz9%zzpw@host/audiolat"
t_grep "$ERR" 'not a PostgreSQL URL libpq accepts' "it says so"
t_nogrep "$ERR" "zz9" "the password is not in it, not even in libpq's quote of the bad token"
t_exit 4 "run with an unreachable store: exit 4" "$A" run -d 200ms -q --db "postgresql://al_writer:$WRITER_PW_URL@127.0.0.1:9/audiolat" --json "$T_TMP/lost.json"
t_grep "$ERR" 'results database postgresql://al_writer@127\.0\.0\.1:9/audiolat: cannot connect.*the result was not saved$' "the warning names the server, not the password"
t_json "... its JSON is still written" '.schema == "audiolat.run/2"' "$T_TMP/lost.json"

F="$T_TMP/fallback.db"
t_exit 0 "run --db 'URL;PATH' with the server out of reach: saved locally" \
	"$A" run -d 200ms --no-histogram --db "postgresql://al_writer:$WRITER_PW_URL@127.0.0.1:9/audiolat;$F"
t_grep "$ERR" 'results database postgresql://al_writer@127\.0\.0\.1:9/audiolat: cannot connect.*: trying the next one$' "a warning for the server"
t_grep "$ERR" "^saved as run 1 \\($F\\)\$" "saved in the local file"
t_nogrep "$ERR" "s3cret" "no password in the lines"
t_exit 0 "history of the local file" "$A" history --db "$F" --json -
t_json "one run in it" '.matching == 1' "$OUT"
t_exit 0 "then a push sends it" "$A" push --db "$F" --to "$URL"
t_grep "$OUT" '^pushed 1 result to ' "pushed 1"

# --- a newer schema on the server: a clear refusal
PG_DB=audiolat pg_sql -c "UPDATE audiolat_schema SET version = 4" >/dev/null
t_exit 1 "a store of a newer audiolat: refused" "$A" history --db "$URL"
t_grep "$ERR" 'written by a newer audiolat \(schema version 4; this audiolat reads up to 3\)' "it says so"
PG_DB=audiolat pg_sql -c "UPDATE audiolat_schema SET version = 3" >/dev/null

# --- push: idempotent by UUID
L="$T_TMP/local.db"
docs "$T_TMP/p" 300 2000 push
"$A" import -q --db "$L" "$T_TMP/p"/*.json || t_bail "300 documents imported into a local database"
t_exit 0 "push 300 local results" "$A" push --db "$L" --to "$URL"
t_grep "$OUT" "^pushed 300 results to $(printf '%s' "$SHOWN" | sed 's/[?.]/\\&/g') \\(0 already there\\)$" "pushed 300, the URL shown without the password"
t_exit 0 "push again" "$A" push --db "$L" --to "$URL"
t_grep "$OUT" '^pushed 0 results to .* \(300 already there\)$' "the second push adds nothing"
t_exit 0 "history --label 'push*' on the server" "$A" history --db "$URL" --label 'push*' --limit 0 --json -
t_json "300 rows on the server, 300 UUIDs" '.matching == 300 and ([.results[].uuid] | unique | length) == 300' "$OUT"
t_exit 0 "push --label filters" "$A" push --db "$T_TMP/both.db" --to "$URL" --label 'sqlite1?'
t_grep "$OUT" '^pushed 10 results ' "push --label 'sqlite1?': the 10 that match (sqlite10..19)"
t_exit 2 "push without --to is a usage error" "$A" push --db "$L"

# push keys by the document's UUID whatever its kind: a MIDI and a
# roundtrip document with theirs, one written before UUIDs (known by its bytes)
L3="$T_TMP/local-kinds.db"
printf '{"schema": "audiolat.midi/1", "uuid": "00000000-0000-4000-8000-00000000a001", "label": "kinds-midi"}' >"$T_TMP/k-midi.json"
printf '{"schema": "audiolat.roundtrip/1", "uuid": "00000000-0000-4000-8000-00000000a002", "label": "kinds-rt"}' >"$T_TMP/k-rt.json"
printf '{"schema": "audiolat.midi/1", "label": "kinds-old"}' >"$T_TMP/k-old.json"
"$A" import -q --db "$L3" "$T_TMP"/k-*.json || t_bail "three documents of other kinds imported into a local database"
t_exit 0 "push documents other than runs" "$A" push --db "$L3" --to "$URL"
t_grep "$OUT" '^pushed 3 results to .* \(0 already there\)$' "pushed 3"
t_exit 0 "push them again" "$A" push --db "$L3" --to "$URL"
t_grep "$OUT" '^pushed 0 results to .* \(3 already there\)$' "the second push adds nothing: known by their UUIDs"
t_exit 0 "history --label 'kinds-*' on the server" "$A" history --db "$URL" --label 'kinds-*' --limit 0 --json -
t_json "the server's rows keep each document's schema and UUID" \
	'.matching == 3 and ([.results[] | select(.label == "kinds-midi")][0] | .schema == "audiolat.midi/1" and .uuid == "00000000-0000-4000-8000-00000000a001") and
	 ([.results[] | select(.label == "kinds-rt")][0] | .schema == "audiolat.roundtrip/1" and .uuid == "00000000-0000-4000-8000-00000000a002")' "$OUT"

# the server killed in the middle of a push: whole results only, the next push sends the rest
docs "$T_TMP/k" 400 3000 kill
L2="$T_TMP/local2.db"
"$A" import -q --db "$L2" "$T_TMP/k"/*.json || t_bail "400 documents imported into a second local database"
count_kill() { PG_DB=audiolat pg_sql -c "SELECT count(*) FROM results WHERE label LIKE 'kill%'"; }
"$A" push --db "$L2" --to "$URL" >"$T_TMP/push.out" 2>"$T_TMP/push.err" &
pp=$!
t_wait 60 "the push has sent 50 results" eval '[ "$(count_kill 2>/dev/null)" -ge 50 ]'
crash_postgres
wait $pp
prc=$?
t_result $([ $prc -eq 4 ] && echo 0 || echo 1) "the push whose server went away exits 4 (exit $prc)"
sed 's/^/# push: /' "$T_TMP/push.err"
t_grep "$T_TMP/push.err" 'push again to send the rest' "it says to push again"
t_nogrep "$T_TMP/push.err" "s3cret" "no password in its lines"
restart_postgres || t_bail "the server starts again after the crash"
n1=$(count_kill)
PG_DB=audiolat pg_sql -c "SELECT count(*) FROM results WHERE label LIKE 'kill%' AND (document::jsonb->>'uuid' IS DISTINCT FROM uuid OR document::jsonb->>'label' IS DISTINCT FROM label)" >"$T_TMP/half"
t_grep "$T_TMP/half" '^0$' "nothing half-written: every row's columns match its document ($n1 rows)"
t_true "some but not all were sent before the crash ($n1)" test "$n1" -gt 0 -a "$n1" -lt 400
t_exit 0 "the next push" "$A" push --db "$L2" --to "$URL"
t_grep "$OUT" "^pushed $((400 - n1)) results to .* \\($n1 already there\\)\$" "it sends the rest"
t_true "400 rows after it" test "$(count_kill)" -eq 400

# --- the readers of the store on PostgreSQL: compare and report by id, export --format
t_exit 0 "history --json of the pushed runs" "$A" history --db "$URL" --label 'push1?' --json -
ids=$(jq -r '[.results[].id] | .[0:2] | join(" ")' "$OUT")
# shellcheck disable=SC2086
t_exit 0 "compare --db URL ID ID" "$A" compare --db "$URL" $ids --json "$T_TMP/pgcmp.json" -q
t_json "a comparison of the two" '.schema == "audiolat.compare/1"' "$T_TMP/pgcmp.json"
# shellcheck disable=SC2086
t_exit 0 "report --db URL ID" "$A" report --db "$URL" $ids -o "$T_TMP/pg.html"
t_grep "$T_TMP/pg.html" 'push1' "the page has the runs' labels"
# shellcheck disable=SC2086
t_exit 0 "export --format kcidb --db URL ID" "$A" export --db "$URL" --format kcidb $ids
t_json "20 KCIDB tests" '(.tests | length) == 20' "$OUT"
t_exit 0 "compare --db URL --group-by label over the push* runs' database" "$A" compare --db "$L" --group-by label --json -
t_json "300 groups of one run: not enough data" '(.groups | length) == 300 and all(.verdicts[]; .verdict == "not enough data")' "$OUT"

t_done
