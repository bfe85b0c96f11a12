#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The results database on its two engines, side by side in one run:
# N small synthetic results (default 100000) in SQLite and in a PostgreSQL
# started here (tests/servers.sh: initdb, a Unix socket in the temp
# directory), then on each: history with a filter, compare --group-by
# kernel over 1000 results with histograms, a push of 1000 results; and
# the same server over TCP with TLS on 127.0.0.1 (start_postgres_tls): the
# push and the listing through the socket and through TLS, in one run.
#	bench/store.sh [N]
set -eu
. "$(dirname "$0")/common.sh"
N=${1:-100000}
G=1000
GEN=${GEN:-$build/tests/report/gen-result}
bench_need jq jq
bench_init
[ -x "$GEN" ] || { echo "build the tests first (gen-result)" >&2; exit 1; }
T_TMP=$tmp
# shellcheck source=../tests/servers.sh
. "$(dirname "$0")/../tests/servers.sh"
# the servers.sh helpers are not written for set -e (a reaped server exits non-zero)
cleanup() { set +e; srv_stop_all; bench_cleanup; }
start_postgres_tls >/dev/null || { echo "PostgreSQL did not start: $SRV_WHY" >&2; exit 4; }
ROUNDS=${ROUNDS:-3}
for db in bench cmp push $(seq -f 'push_s%g' "$ROUNDS") $(seq -f 'push_t%g' "$ROUNDS"); do pg_sql -c "CREATE DATABASE $db" >/dev/null; done
url() { echo "postgresql://postgres@/$1?host=$PG_HOST&port=$PG_PORT"; }
tls() { echo "postgresql://postgres@127.0.0.1:$PG_PORT/$1?sslmode=require"; }
export PGPASSWORD=$PG_SUPER_PASSWORD
now() { echo "${EPOCHREALTIME/./}"; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b - a) / 1e6 }'; }
timed() { # timed OUTVAR CMD...: run CMD, its wall time in s into OUTVAR
	local var=$1 t0 t1
	shift
	t0=$(now)
	"$@" >/dev/null
	t1=$(now)
	printf -v "$var" '%s' "$(secs "$t0" "$t1")"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (a > 0 ? b / a : 0) }'; }
t_up0=$(uptime)
# the documents: N small ones (a real run without its histograms and time
# series) over 20 kernels and 50 hosts; G with histograms over 5 kernels
"$A" run -q --no-db -d 200ms --json "$tmp/run.json" >/dev/null
mkdir -p "$tmp/small" "$tmp/big"
jq -c --argjson n "$N" '. as $d | del(.timeseries, .phases, .xrun_events, .total.histogram) |
	. as $s | range($n) | . as $i | $s | .label = "r\($i)" |
	.system.kernel_release = "6.\($i % 20).0-rt\($i % 7)" | .system.hostname = "host\($i % 50)" |
	.uuid = ("00000000-0000-4000-8000-" + ((1000000000000 + $i) | tostring | .[1:]))' \
	"$tmp/run.json" | split -l 1 -a 6 - "$tmp/small/d"
for i in $(seq $G); do
	"$GEN" --seed "$i" --duration 1 -o - | jq -c --arg k "6.$((i % 5)).0-rt" --arg u "$(printf '00000000-0000-4000-9000-%012d' "$i")" \
		'.system.kernel_release = $k | .uuid = $u'
done | split -l 1 -a 6 - "$tmp/big/g"
load() { # load DB DIR: import every file of DIR, 500 a process
	find "$2" -type f | xargs -n 500 "$A" import -q --db "$1"
}
SQ=$tmp/bench.db
timed t_load_sq load "$SQ" "$tmp/small"
timed t_load_pg load "$(url bench)" "$tmp/small"
timed t_hist_sq "$A" history --db "$SQ" --kernel '6.1?.0-rt3' --host host7 --limit 0
timed t_hist_pg "$A" history --db "$(url bench)" --kernel '6.1?.0-rt3' --host host7 --limit 0
"$A" history --db "$SQ" --kernel '6.1?.0-rt3' --host host7 --json - | jq -r '"history matches: \(.matching)"'
timed t_cmpload_sq load "$tmp/cmp.db" "$tmp/big"
timed t_cmpload_pg load "$(url cmp)" "$tmp/big"
timed t_cmp_sq "$A" compare --db "$tmp/cmp.db" --group-by kernel -q --json "$tmp/c1.json"
timed t_cmp_pg "$A" compare --db "$(url cmp)" --group-by kernel -q --json "$tmp/c2.json"
cmp -s "$tmp/c1.json" "$tmp/c2.json" && echo "compare: the same document from both engines"
timed t_push_sq "$A" push -q --db "$tmp/cmp.db" --to "$tmp/pushed.db"
timed t_push_pg "$A" push -q --db "$tmp/cmp.db" --to "$(url push)"
timed t_push2_pg "$A" push -q --db "$tmp/cmp.db" --to "$(url push)"
# socket and TLS in turns, each push into an empty database of its own,
# then again (nothing to send: the look-ups' round trips only)
tls_rows=()
for r in $(seq "$ROUNDS"); do
	timed a "$A" push -q --db "$tmp/cmp.db" --to "$(url "push_s$r")"
	timed b "$A" push -q --db "$tmp/cmp.db" --to "$(tls "push_t$r")"
	timed a2 "$A" push -q --db "$tmp/cmp.db" --to "$(url "push_s$r")"
	timed b2 "$A" push -q --db "$tmp/cmp.db" --to "$(tls "push_t$r")"
	timed h "$A" history --db "$(url bench)" --kernel '6.1?.0-rt3' --host host7 --limit 0
	timed h2 "$A" history --db "$(tls bench)" --kernel '6.1?.0-rt3' --host host7 --limit 0
	tls_rows+=("$(printf '%-7s %6s %6s %5s   %6s %6s %5s   %6s %6s %5s' "$r" "$a" "$b" "$(ratio "$a" "$b")" \
		"$a2" "$b2" "$(ratio "$a2" "$b2")" "$h" "$h2" "$(ratio "$h" "$h2")")")
done
echo "# before: $t_up0"
echo "# after:  $(uptime)"
printf '%-44s %10s %10s %8s\n' "step" "SQLite s" "PG s" "PG/SQLite"
row() { printf '%-44s %10s %10s %8s\n' "$1" "$2" "$3" "$(awk -v a="$2" -v b="$3" 'BEGIN { printf "%.2f", (a > 0 ? b / a : 0) }')"; }
row "import $N small results ($((N / 500 + 1)) processes)" "$t_load_sq" "$t_load_pg"
row "history --kernel '6.1?.0-rt3' --host host7" "$t_hist_sq" "$t_hist_pg"
row "import $G results with histograms" "$t_cmpload_sq" "$t_cmpload_pg"
row "compare --group-by kernel over $G" "$t_cmp_sq" "$t_cmp_pg"
row "push $G results" "$t_push_sq" "$t_push_pg"
echo "push $G again (nothing to send), PostgreSQL: $t_push2_pg s"
echo "PostgreSQL through its Unix socket and over TLS on 127.0.0.1 (sslmode=require), in turns:"
printf '%-7s %6s %6s %5s   %6s %6s %5s   %6s %6s %5s\n' round "push" "TLS" "ratio" "again" "TLS" "ratio" "hist" "TLS" "ratio"
printf '%s\n' "${tls_rows[@]}"
