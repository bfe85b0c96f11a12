#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# PostgreSQL over TCP with TLS (docs/store.md, "Engines and URLs"): a real
# server listening on 127.0.0.1 with ssl=on and a self-signed certificate
# made in $T_TMP, taking only TLS over TCP; the least-privilege role of
# docs/store.md (INSERT, SELECT). sslmode=require with the password from a
# .pgpass (PGPASSFILE), never in the URL; sslmode=verify-full against the
# right root works, against a wrong root it is exit 4 and one line naming
# the host; a password in the URL works and appears nowhere: not in
# stdout or stderr, not in the stored result, not in history, show,
# export or a --json document.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../servers.sh"

A=$AUDIOLAT
command -v jq >/dev/null || t_bail "jq is installed"
start_postgres_tls || t_bail "a PostgreSQL server with TLS starts (initdb, openssl, postgres): $SRV_WHY"
t_result 0 "a PostgreSQL server started, TLS on 127.0.0.1:$PG_PORT"

PW='tls-secret-4711'   # the writer's password; "secret" must appear nowhere
OWNER_PW='owner-pw-0815'
pg_sql -c "CREATE ROLE al_owner LOGIN PASSWORD '$OWNER_PW'" \
	-c "CREATE ROLE al_writer LOGIN PASSWORD '$PW'" \
	-c "CREATE DATABASE audiolat OWNER al_owner" >/dev/null ||
	t_bail "the roles and the database are created"
# the owner makes the schema (over the socket), then grants what docs/store.md grants
t_exit 0 "the owner makes the schema: a push of nothing" env XDG_DATA_HOME="$T_TMP/empty" \
	"$A" push --to "postgresql://al_owner:$OWNER_PW@/audiolat?host=$PG_HOST&port=$PG_PORT"
PG_DB=audiolat pg_sql -c "GRANT CONNECT ON DATABASE audiolat TO al_writer" \
	-c "GRANT SELECT, INSERT ON results TO al_writer" \
	-c "GRANT SELECT ON audiolat_schema TO al_writer" >/dev/null ||
	t_bail "the writer is granted INSERT and SELECT (docs/store.md)"

TURL="postgresql://al_writer@127.0.0.1:$PG_PORT/audiolat"   # no password in it
PASSF="$T_TMP/pgpass"
printf '127.0.0.1:%s:audiolat:al_writer:%s\n' "$PG_PORT" "$PW" >"$PASSF"
chmod 600 "$PASSF"
NOPASS="$T_TMP/no-such-pgpass"   # for the checks where the password must come from the URL
J="$T_TMP/run.json"
t_exit 0 "a sim run to store" "$A" run -d 300ms -q --no-db --label tls-import --json "$J"

# --- sslmode=require, the password from .pgpass
t_exit 0 "import --db 'URL?sslmode=require', the password from PGPASSFILE" \
	env PGPASSFILE="$PASSF" "$A" import --db "$TURL?sslmode=require" "$J"
t_grep "$OUT" 'saved as result [0-9]+$' "saved over TLS"
t_exit 0 "history --json over TLS" env PGPASSFILE="$PASSF" "$A" history --db "$TURL?sslmode=require" --json -
t_json "the run is there, the database field is the URL" --arg u "$TURL?sslmode=require" --slurpfile d "$J" \
	'.database == $u and .matching == 1 and .results[0].uuid == $d[0].uuid' "$OUT"
t_grep "$PG_HOST/server.log" 'connection authorized: user=al_writer database=audiolat .*SSL enabled' \
	"the server says the writer's connections were TLS"
t_exit 4 "the server takes only TLS over TCP: sslmode=disable is refused, exit 4" \
	env PGPASSFILE="$PASSF" "$A" history --db "$TURL?sslmode=disable"
t_grep "$ERR" 'no encryption' "libpq's reason: the server's pg_hba refuses a connection without encryption"
t_exit 4 "without the .pgpass (and no password in the URL): exit 4" \
	env PGPASSFILE="$NOPASS" "$A" history --db "$TURL?sslmode=require"
t_grep "$ERR" '\(not permitted\)$' "... as not permitted: the .pgpass is what logged in above"

# --- verify-full: the right root verifies the certificate, a wrong one does not
ROOT="$PG_TLS_DIR/server.crt"
WRONG="$PG_TLS_DIR/wrong-root.crt"
t_exit 0 "sslmode=verify-full against the server's root" \
	env PGPASSFILE="$PASSF" "$A" history --db "$TURL?sslmode=verify-full&sslrootcert=$ROOT" --limit 1
t_exit 4 "sslmode=verify-full against a wrong root: exit 4" \
	env PGPASSFILE="$PASSF" "$A" history --db "$TURL?sslmode=verify-full&sslrootcert=$WRONG"
t_grep "$ERR" "^audiolat history: postgresql://al_writer@127\\.0\\.0\\.1:$PG_PORT/audiolat\\?sslmode=verify-full.*: cannot connect to the PostgreSQL server at 127\\.0\\.0\\.1:$PG_PORT: .*certificate verify failed.*\\(no such device or server\\)$" \
	"one line: the URL, the host and port, the certificate that did not verify"
t_true "one line" test "$(wc -l <"$ERR")" -eq 1
t_nogrep "$ERR" 'secret' "no password in it"
t_exit 4 "the same with the password in the URL: exit 4" env PGPASSFILE="$NOPASS" \
	"$A" history --db "postgresql://al_writer:$PW@127.0.0.1:$PG_PORT/audiolat?sslmode=verify-full&sslrootcert=$WRONG"
t_grep "$ERR" "^audiolat history: postgresql://al_writer@127\\.0\\.0\\.1:$PG_PORT/audiolat\\?.*certificate verify failed" \
	"the line shows the URL without the password"
t_nogrep "$ERR" 'secret' "the password is not in it"

# --- the password in the URL: it works and appears nowhere
PURL="postgresql://al_writer:$PW@127.0.0.1:$PG_PORT/audiolat?sslmode=require"
SHOWN="$TURL?sslmode=require"
P="$T_TMP/pw"
mkdir -p "$P"
# every command's stdout and stderr is kept, to be searched at the end
pw_cmd() { # pw_cmd NAME EXIT DESC CMD...: t_exit, stdout and stderr kept as $P/NAME.out, .err
	local name=$1 want=$2 desc=$3
	shift 3
	t_exit "$want" "$desc" env PGPASSFILE="$NOPASS" "$@"
	cp "$OUT" "$P/$name.out"
	cp "$ERR" "$P/$name.err"
}
pw_cmd run 0 "run --db URL-with-password over TLS" "$A" run -d 300ms --label tls-run --db "$PURL" --json "$P/run.json"
t_grep "$ERR" "^saved as run [0-9]+ \\($(printf '%s' "$SHOWN" | sed 's/[?.]/\\&/g')\\)\$" "'saved as' names the URL without the password"
id=$(grep -Eo '^saved as run [0-9]+' "$ERR" | grep -Eo '[0-9]+$')
t_json "the run's JSON keeps the cmdline without the password" \
	--arg u "$SHOWN" '.cmdline | contains("--db " + $u)' "$P/run.json"
pw_cmd import 0 "import with the password in the URL" "$A" import --db "$PURL" "$J"
t_grep "$OUT" "already saved as result [0-9]+\$" "the first import is found again (the same store)"
pw_cmd history 0 "history" "$A" history --db "$PURL"
t_grep "$OUT" 'tls-run' "history lists the run"
pw_cmd history-json 0 "history --json -" "$A" history --db "$PURL" --json -
t_json "history's JSON: the database is the URL without the password, both results" \
	--arg u "$SHOWN" '.database == $u and .matching == 2' "$OUT"
pw_cmd history-file 0 "history --json FILE" "$A" history --db "$PURL" --json "$P/history.json"
t_json "... the same in the file" --arg u "$SHOWN" '.database == $u' "$P/history.json"
pw_cmd show 0 "show ID" "$A" show --db "$PURL" "$id"
t_grep "$OUT" "^result $id: audiolat.run/2, saved " "show names the result"
pw_cmd export 0 "export ID" "$A" export --db "$PURL" "$id"
t_true "export gives the run's document byte for byte" cmp "$OUT" "$P/run.json"
pw_cmd kcidb 0 "export --format kcidb ID" "$A" export --db "$PURL" --format kcidb "$id"
t_json "10 KCIDB tests" '(.tests | length) == 10' "$OUT"
pw_cmd compare 0 "compare --db URL ID ID --json -" "$A" compare --db "$PURL" 1 "$id" --json - -q
t_json "a comparison of the two" '.schema == "audiolat.compare/1"' "$OUT"
pw_cmd wrong 4 "a wrong password in the URL: exit 4" "$A" history --db "postgresql://al_writer:wrong-secret-99@127.0.0.1:$PG_PORT/audiolat?sslmode=require"
t_grep "$ERR" '\(not permitted\)$' "as not permitted"
t_true "every output was kept ($(ls "$P" | wc -l) files)" test "$(ls "$P" | wc -l)" -eq 22
for f in "$P"/*; do
	t_nogrep "$f" 'secret' "no 'secret' in $(basename "$f")"
done
PG_DB=audiolat pg_sql -c "SELECT count(*) FROM results" -c "SELECT count(*) FROM results r WHERE r::text LIKE '%secret%'" >"$T_TMP/rows"
t_true "the server holds the 2 results" test "$(head -n 1 "$T_TMP/rows")" -eq 2
t_true "no stored row holds 'secret' in any column" test "$(tail -n 1 "$T_TMP/rows")" -eq 0

t_done
