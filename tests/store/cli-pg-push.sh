#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The PostgreSQL store's rows, small and quick (cli-pg.sh has the whole
# story): two pushes of the same result at the same time make one row and
# both succeed; a saved row is committed and its columns are the document's
# figures; push's line; the password kept out of the lines; a server out of
# reach exits 4, and a run's list of databases goes on to the next one.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../servers.sh"

A=$AUDIOLAT
command -v jq >/dev/null || t_bail "jq is installed"
start_postgres || t_bail "a PostgreSQL server starts (initdb, postgres): $SRV_WHY"
URL=$PG_SUPER_URL # the superuser's database: the schema is made at the first open

J="$T_TMP/run.json"
t_exit 0 "a sim run" "$A" run -d 300ms -q --no-db --json "$J"
t_json "its max and p99 wake latency and its xruns differ (the columns below tell them apart)" \
	'.total.wake_latency_ns.max != .total.wake_latency_ns.p99 and .total.xruns != .total.wake_latency_ns.max' "$J"

# --- saved is committed: another connection reads it back
t_exit 0 "import it into PostgreSQL" "$A" import --db "$URL" "$J"
t_grep "$OUT" 'saved as result [0-9]+$' "saved"
id=$(grep -Eo '[0-9]+$' "$OUT")
t_exit 0 "export it (another connection)" "$A" export --db "$URL" "$id"
t_true "byte for byte the run's document" cmp "$OUT" "$J"

# --- two pushes of the same result at the same time: one row, both succeed.
# The superuser's open transaction holds a row of the same UUID and digest:
# both pushes find nothing (it is not committed) and wait at their INSERT on
# the unique index; it rolls back, one insert goes in, and the other must
# meet that row (ON CONFLICT ... DO NOTHING: "already there"), not an error.
RACE_UUID=00000000-0000-4000-8000-00000000c001
jq --arg u "$RACE_UUID" '.uuid = $u | .label = "race"' "$J" >"$T_TMP/race.json"
L="$T_TMP/local.db"
"$A" import -q --db "$L" "$T_TMP/race.json" || t_bail "the race's result imported into a local database"
# its digest as the store computes it: saved once, read, and taken out again
"$A" import -q --db "$URL" "$T_TMP/race.json" || t_bail "the race's result saved in PostgreSQL once"
DIGEST=$(pg_sql -c "DELETE FROM results WHERE uuid = '$RACE_UUID' RETURNING digest")
[ -n "$DIGEST" ] || t_bail "the race's row read and deleted"
coproc RACE_ROW { pg_sql 2>&1; }
printf "BEGIN;\nINSERT INTO results (saved_at, document, uuid, digest) VALUES ('now', '{}', '%s', '%s');\n" \
	"$RACE_UUID" "$DIGEST" >&"${RACE_ROW[1]}"
t_wait 30 "an open transaction holds a row of the same UUID and digest" \
	eval '[ "$(pg_sql -c "SELECT count(*) FROM pg_stat_activity WHERE state = '"'idle in transaction'"'" 2>/dev/null)" = 1 ]'
pids=()
for i in 1 2; do
	"$A" push --db "$L" --to "$URL" >"$T_TMP/race$i.out" 2>"$T_TMP/race$i.err" &
	pids+=($!)
done
t_wait 60 "both pushes wait at their INSERT for that transaction" \
	eval '[ "$(pg_sql -c "SELECT count(*) FROM pg_locks WHERE locktype = '"'transactionid'"' AND NOT granted" 2>/dev/null)" = 2 ]'
printf 'ROLLBACK;\n' >&"${RACE_ROW[1]}"
row_fd=${RACE_ROW[1]} row_pid=$RACE_ROW_PID
exec {row_fd}>&-
wait "$row_pid"
for i in 1 2; do
	wait "${pids[i - 1]}"
	rc=$?
	sed 's/^/# push: /' "$T_TMP/race$i.err"
	t_result $([ $rc -eq 0 ] && echo 0 || echo 1) "concurrent push $i exits 0 (exit $rc)"
done
cat "$T_TMP/race1.out" "$T_TMP/race2.out" >"$T_TMP/race.out"
t_grep "$T_TMP/race.out" '^pushed 1 result to .* \(0 already there\)$' "one push added it"
t_grep "$T_TMP/race.out" '^pushed 0 results to .* \(1 already there\)$' "the other found it there"
pg_sql -c "SELECT count(*) FROM results WHERE uuid = '$RACE_UUID'" >"$T_TMP/count"
t_grep "$T_TMP/count" '^1$' "one row for the result pushed twice at once"

# --- the row's columns are the document's figures (what history lists)
t_exit 0 "history --label race" "$A" history --db "$URL" --label race --json -
t_json "its periods, xruns, max and p99 wake latency are the document's" --slurpfile d "$T_TMP/race.json" \
	'.matching == 1 and (.results[0] | .periods == $d[0].total.periods and .xruns == $d[0].total.xruns and
	 .wake_max_ns == $d[0].total.wake_latency_ns.max and .wake_p99_ns == $d[0].total.wake_latency_ns.p99 and
	 .within_1ms_pct == $d[0].total.within_1ms_pct)' "$OUT"

# --- the password: not in libpq's quote of a token it could not read
t_exit 4 "a URL with a bad %-escape in its password: exit 4" "$A" history --db "postgresql://u:zz9%zzpw@host/db"
t_nogrep "$ERR" "zz9" "the password is not in the line"

# --- a server out of reach: exit 4; in a run's list, the next database takes the result
GONE="postgresql://u:pw1234@127.0.0.1:9/db"
t_exit 4 "history on a server out of reach: exit 4" "$A" history --db "$GONE"
t_exit 4 "run with only that server: exit 4" "$A" run -d 200ms -q --db "$GONE" --json "$T_TMP/lost.json"
t_grep "$ERR" 'cannot connect.*the result was not saved$' "it says the result was not saved"
t_exit 0 "run --db 'URL;PATH' with the server out of reach" "$A" run -d 200ms --no-histogram --db "$GONE;$T_TMP/fallback.db"
t_grep "$ERR" 'cannot connect.*: trying the next one$' "the server's warning says the next one is tried"
t_grep "$ERR" "^saved as run 1 \\($T_TMP/fallback.db\\)\$" "saved in the local file"
t_nogrep "$ERR" "pw1234" "no password in the lines"

t_done
