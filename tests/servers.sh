# SPDX-License-Identifier: GPL-2.0-or-later
# Sound servers for tests, started and always stopped by the test itself:
# a JACK2 server on the dummy driver (ready when jack_wait says "running"), or PipeWire (pipewire + wireplumber on a
# private D-Bus, a null sink as the driver). Source it after tests/lib.sh.
#
#	start_jackd NAME [PERIOD] [RATE]     JACKD_FLAGS: extra server options (-r: no RT)
#	stop_jackd
#	crash_jackd                          SIGKILL it (fault tests); stop_jackd or the
#	                                     exit then frees its slot in JACK's registry
#	start_pipewire [QUANTUM] [RATE]      exports XDG_RUNTIME_DIR, PIPEWIRE_LATENCY
#	stop_pipewire
#	jack_alsa_conf PCM PORT... [-- CAPTURE_PORT...]
#	                                     an ALSA config (ALSA_CONFIG_PATH) whose pcm.PCM
#	                                     is a JACK client playing to (recording from) them
#	srv_name PREFIX                      a unique server name: PREFIX-<pid>
#	start_postgres                       a PostgreSQL cluster (initdb) in $T_TMP/pg,
#	                                     Unix socket only, scram-sha-256 passwords; sets
#	                                     PG_HOST (the socket directory), PG_PORT, PG_BIN,
#	                                     PG_SUPER_URL (the superuser, password in the URL)
#	start_postgres_tls                   the same, also listening on 127.0.0.1:$PG_PORT
#	                                     (a free port) with ssl=on, a self-signed
#	                                     certificate for 127.0.0.1 made in $PG_TLS_DIR
#	                                     (server.crt, also the right root; wrong-root.crt
#	                                     a root that did not sign it); over TCP only TLS
#	                                     is accepted (hostnossl ... reject)
#	stop_postgres                        pg_ctl stop (fast), then a kill if it hangs
#	crash_postgres                       an immediate shutdown (SIGQUIT: no checkpoint)
#	restart_postgres                     start it again on the same cluster
#	pg_sql SQL...                        psql as the superuser on database $PG_DB (postgres)
#
# Nothing survives the test: the EXIT trap (which keeps lib.sh's) stops what
# was started, INT/TERM/HUP end the script through it, and every server runs
# under `setpriv --pdeathsig TERM`, so even a SIGKILLed test takes its servers
# with it. Nothing outside $T_TMP is touched but JACK's own files in /dev/shm
# for the server names used here. Failures return 1 with the reason on
# stderr (and in $SRV_WHY), the server's log lines as "# " lines on stdout.
: "${T_TMP:?source tests/lib.sh first}"
SRV_JACKD_PID=
SRV_JACKD_NAME=
SRV_JACKD_CRASHED=
SRV_PW_PIDS=()
SRV_PG_PID=
SRV_PG_AS=()
SRV_PG_TLS=
SRV_WHY=

# keep lib.sh's EXIT trap and run ours first
eval "set -- $(trap -p EXIT)"
_srv_prev_exit=${3:-}
trap 'srv_stop_all; eval "$_srv_prev_exit"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

srv_name() {
	echo "$1-$$"
}

srv_stop_all() {
	stop_postgres
	stop_pipewire
	stop_jackd
}

# srv_kill PID...: TERM, up to 5 s, then KILL; reaps our children
srv_kill() {
	local pid i
	for pid in "$@"; do
		kill -TERM "$pid" 2>/dev/null
	done
	for i in $(seq 50); do
		local alive=0
		for pid in "$@"; do
			kill -0 "$pid" 2>/dev/null && alive=1
		done
		[ $alive -eq 0 ] && break
		sleep 0.1
	done
	for pid in "$@"; do
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	return 0
}

srv_fail() {
	SRV_WHY=$1
	echo "servers.sh: $1" >&2
	[ -n "${2:-}" ] && [ -s "$2" ] && tail -n 15 "$2" | sed 's/^/# /'
	return 1
}

# JACK2 leaves its socket and semaphores in /dev/shm when killed
srv_jack_clean() {
	rm -f "/dev/shm/jack_$1_$(id -u)_0" /dev/shm/jack_sem.*_"$1"_* 2>/dev/null
	return 0
}

# srv_jackd_once NAME PERIOD RATE LOG: 0 ready, 1 failed, 2 no server slot free
srv_jackd_once() {
	local i
	# shellcheck disable=SC2086
	JACK_NO_AUDIO_RESERVATION=1 setpriv --pdeathsig TERM \
		jackd -n "$1" ${JACKD_FLAGS:-} -d dummy -r "$3" -p "$2" >"$4" 2>&1 &
	SRV_JACKD_PID=$!
	SRV_JACKD_NAME=$1
	for i in $(seq 100); do
		if ! kill -0 "$SRV_JACKD_PID" 2>/dev/null; then
			wait "$SRV_JACKD_PID" 2>/dev/null
			SRV_JACKD_PID=
			grep -q "Too many servers already active" "$4" && return 2
			return 1
		fi
		# jack_wait -c exits 0 either way: read what it says
		[ "$(jack_wait -s "$1" -c 2>/dev/null)" = running ] && return 0
		sleep 0.1
	done
	return 1
}

start_jackd() {
	local name=$1 period=${2:-256} rate=${3:-48000} log tries rc
	command -v jackd >/dev/null || { srv_fail "jackd not installed (jackd2)"; return 1; }
	[ -z "$SRV_JACKD_PID" ] || stop_jackd
	log="$T_TMP/jackd-$name.log"
	srv_jack_clean "$name"
	# with no jackd running at all, every registry slot is stale (servers
	# killed elsewhere keep theirs): start from an empty registry
	if ! pgrep -x jackd >/dev/null && ! pgrep -x jackdbus >/dev/null; then
		rm -f /dev/shm/jack-shm-registry /dev/shm/jack-[0-9]* 2>/dev/null
	fi
	# JACK2 runs at most 8 servers on a machine: wait up to 30 s for a slot
	for tries in $(seq 30); do
		srv_jackd_once "$name" "$period" "$rate" "$log"
		rc=$?
		[ $rc -eq 0 ] && return 0
		[ $rc -eq 2 ] || break
		sleep 1
	done
	if [ $rc -eq 2 ]; then
		srv_fail "jackd -n $name: too many JACK servers on this machine for $tries s" "$log"
	elif [ -n "$SRV_JACKD_PID" ]; then
		srv_fail "jackd -n $name not ready after 10 s" "$log"
	else
		srv_fail "jackd -n $name exited at start" "$log"
	fi
	stop_jackd
	return 1
}

stop_jackd() {
	local name
	[ -n "$SRV_JACKD_PID" ] && srv_kill "$SRV_JACKD_PID"
	[ -n "$SRV_JACKD_NAME" ] && srv_jack_clean "$SRV_JACKD_NAME"
	SRV_JACKD_PID=
	SRV_JACKD_NAME=
	# a killed jackd keeps its slot in /dev/shm/jack-shm-registry (8 a
	# machine) until a server of the same name starts: start and stop one
	if [ -n "$SRV_JACKD_CRASHED" ]; then
		name=$SRV_JACKD_CRASHED
		SRV_JACKD_CRASHED=
		if srv_jackd_once "$name" 256 48000 "$T_TMP/jackd-$name-reclaim.log"; then
			srv_kill "$SRV_JACKD_PID"
		fi
		srv_jack_clean "$name"
		SRV_JACKD_PID=
		SRV_JACKD_NAME=
	fi
	return 0
}

# SIGKILL the server (the fault tests); its registry slot is freed by stop_jackd
crash_jackd() {
	[ -n "$SRV_JACKD_PID" ] || return 1
	kill -KILL "$SRV_JACKD_PID" 2>/dev/null
	wait "$SRV_JACKD_PID" 2>/dev/null
	SRV_JACKD_CRASHED=$SRV_JACKD_NAME
	SRV_JACKD_PID=
	return 0
}

# wait up to $2 tenths of a second for the command $1 to succeed
srv_until() {
	local i
	for i in $(seq "$2"); do
		eval "$1" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	return 1
}

start_pipewire() {
	local quantum=${1:-256} rate=${2:-48000} dir p
	for p in pipewire wireplumber dbus-daemon pw-jack; do
		command -v $p >/dev/null || { srv_fail "$p not installed"; return 1; }
	done
	[ ${#SRV_PW_PIDS[@]} -eq 0 ] || stop_pipewire
	dir="$T_TMP/pw"
	mkdir -p "$dir/run" "$dir/config/pipewire/pipewire.conf.d" "$dir/config/wireplumber" \
		"$dir/state"
	chmod 700 "$dir/run"
	# a null sink that drives the graph, and the quantum asked for (also in a VM)
	cat >"$dir/config/pipewire/pipewire.conf.d/50-audiolat-test.conf" <<EOF
context.properties = {
    default.clock.rate = $rate
    default.clock.quantum = $quantum
    default.clock.min-quantum = 16
    vm.overrides = { default.clock.min-quantum = 16 }
}
context.objects = [
    { factory = adapter
      args = {
          factory.name   = support.null-audio-sink
          node.name      = "null-sink"
          node.description = "Null Sink"
          media.class    = "Audio/Sink"
          audio.position = [ FL FR ]
          object.linger  = true
      }
    }
]
EOF
	export XDG_RUNTIME_DIR="$dir/run" XDG_CONFIG_HOME="$dir/config" XDG_STATE_HOME="$dir/state"
	export PIPEWIRE_RUNTIME_DIR="$dir/run" PIPEWIRE_LATENCY="$quantum/$rate"
	export DBUS_SESSION_BUS_ADDRESS="unix:path=$dir/run/bus"
	unset PIPEWIRE_REMOTE
	# the private bus WirePlumber needs (what dbus-run-session starts)
	setpriv --pdeathsig TERM dbus-daemon --session --nofork --nopidfile \
		--address="$DBUS_SESSION_BUS_ADDRESS" >"$dir/dbus.log" 2>&1 &
	SRV_PW_PIDS+=($!)
	srv_until "[ -S '$dir/run/bus' ]" 50 || { srv_fail "dbus-daemon did not start" "$dir/dbus.log"; stop_pipewire; return 1; }
	setpriv --pdeathsig TERM pipewire >"$dir/pipewire.log" 2>&1 &
	SRV_PW_PIDS+=($!)
	srv_until "[ -S '$dir/run/pipewire-0' ]" 100 || { srv_fail "pipewire did not start" "$dir/pipewire.log"; stop_pipewire; return 1; }
	setpriv --pdeathsig TERM wireplumber >"$dir/wireplumber.log" 2>&1 &
	SRV_PW_PIDS+=($!)
	# ready when a JACK client sees the null sink's ports
	if ! srv_until "pw-jack jack_lsp 2>/dev/null | grep -q 'playback_F[LR]'" 150; then
		srv_fail "PipeWire's null sink did not appear to JACK clients" "$dir/pipewire.log"
		stop_pipewire
		return 1
	fi
	return 0
}

stop_pipewire() {
	local i
	[ ${#SRV_PW_PIDS[@]} -eq 0 ] && return 0
	# wireplumber, then pipewire, then the bus
	for ((i = ${#SRV_PW_PIDS[@]} - 1; i >= 0; i--)); do
		srv_kill "${SRV_PW_PIDS[$i]}"
	done
	SRV_PW_PIDS=()
	return 0
}

# jack_alsa_conf PCM PLAYBACK_PORT... [-- CAPTURE_PORT...]: write
# $T_TMP/asound.conf (the system's alsa.conf, then pcm.PCM: a JACK client of
# JACK_DEFAULT_SERVER playing to and recording from those ports) and export
# ALSA_CONFIG_PATH to it. No file outside $T_TMP is changed.
jack_alsa_conf() {
	local pcm=$1 i=0 conf="$T_TMP/asound.conf"
	shift
	{
		echo "</usr/share/alsa/alsa.conf>"
		echo "pcm.$pcm {"
		echo "    type jack"
		echo "    playback_ports {"
		for port in "$@"; do
			if [ "$port" = "--" ]; then
				echo "    }"
				echo "    capture_ports {"
				i=0
				continue
			fi
			echo "        $i \"$port\""
			i=$((i + 1))
		done
		echo "    }"
		echo "    hint { show on description \"audiolat test: JACK server ${JACK_DEFAULT_SERVER:-default}\" }"
		echo "}"
	} >"$conf"
	export ALSA_CONFIG_PATH="$conf"
}

# --- PostgreSQL: Debian's server binaries, a cluster of our own in $T_TMP/pg

PG_SUPER_PASSWORD=audiolat-test-superuser

start_postgres() {
	local dir i
	PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
	[ -n "$PG_BIN" ] && [ -x "$PG_BIN/initdb" ] ||
		{ srv_fail "PostgreSQL's initdb not installed (postgresql)"; return 1; }
	[ -z "$SRV_PG_PID" ] || stop_postgres
	dir="$T_TMP/pg"
	mkdir -p "$dir"
	# initdb and the server refuse to run as root: as the postgres user (the
	# Debian package's), who needs to reach $T_TMP/pg (search, not read)
	SRV_PG_AS=()
	if [ "$(id -u)" -eq 0 ]; then
		id postgres >/dev/null 2>&1 || { srv_fail "no postgres user to run the server as"; return 1; }
		SRV_PG_AS=(setpriv --reuid=postgres --regid=postgres --init-groups)
		chown postgres: "$dir"
		chmod 711 "$T_TMP"
	fi
	echo "$PG_SUPER_PASSWORD" >"$dir/pwfile"
	chmod 644 "$dir/pwfile"
	if ! "${SRV_PG_AS[@]}" "$PG_BIN/initdb" -D "$dir/data" -U postgres --pwfile="$dir/pwfile" \
		-A scram-sha-256 -E UTF8 --locale=C --no-sync >"$dir/initdb.log" 2>&1; then
		srv_fail "initdb failed" "$dir/initdb.log"
		return 1
	fi
	rm -f "$dir/pwfile"
	PG_HOST=$dir
	PG_PORT=5432
	if [ -n "$SRV_PG_TLS" ]; then
		srv_pg_tls "$dir" || return 1
		# a TCP port no other test's server has: try a few at random
		for i in 1 2 3 4 5 6 7 8; do
			PG_PORT=$(shuf -i 20000-59999 -n 1)
			srv_pg_launch && break
			grep -q 'could not bind\|already in use' "$dir/server.log" || return 1
			: >"$dir/server.log"
		done
		[ -n "$SRV_PG_PID" ] || return 1
	else
		srv_pg_launch || return 1
	fi
	PG_SUPER_URL="postgresql://postgres:$PG_SUPER_PASSWORD@/postgres?host=$dir&port=$PG_PORT"
	PG_DB=postgres
	export PG_HOST PG_PORT PG_BIN PG_SUPER_URL
	return 0
}

start_postgres_tls() {
	SRV_PG_TLS=1
	start_postgres
}

# srv_pg_tls DIR: a self-signed certificate for 127.0.0.1 (the server's,
# and the root that verifies it), another that did not sign it, and
# pg_hba.conf lines taking only TLS over TCP
srv_pg_tls() {
	local dir=$1 hba
	command -v openssl >/dev/null || { srv_fail "openssl is not installed (openssl)"; return 1; }
	PG_TLS_DIR=$dir/tls
	mkdir -p "$PG_TLS_DIR"
	if ! openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
		-addext subjectAltName=IP:127.0.0.1 -keyout "$PG_TLS_DIR/server.key" \
		-out "$PG_TLS_DIR/server.crt" >"$dir/openssl.log" 2>&1 ||
		! openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=not-this-one \
			-keyout "$PG_TLS_DIR/wrong-root.key" -out "$PG_TLS_DIR/wrong-root.crt" \
			>>"$dir/openssl.log" 2>&1; then
		srv_fail "openssl could not make the test certificates" "$dir/openssl.log"
		return 1
	fi
	chmod 600 "$PG_TLS_DIR/server.key"
	[ ${#SRV_PG_AS[@]} -eq 0 ] || chown -R postgres: "$PG_TLS_DIR"
	hba=$dir/data/pg_hba.conf
	{ printf 'hostssl all all 127.0.0.1/32 scram-sha-256\nhostnossl all all 127.0.0.1/32 reject\n'
	  cat "$hba"; } >"$hba.new" && cat "$hba.new" >"$hba" && rm -f "$hba.new"
	export PG_TLS_DIR
}

# the server on the cluster start_postgres made; ready when pg_isready says so
srv_pg_launch() {
	local dir=$T_TMP/pg i net=(-c listen_addresses=)
	# TLS on 127.0.0.1 when start_postgres_tls made certificates, else
	# no TCP: the socket in $T_TMP/pg; fsync off (a test cluster)
	[ -z "$SRV_PG_TLS" ] ||
		net=(-c listen_addresses=127.0.0.1 -c ssl=on -c "ssl_cert_file=$PG_TLS_DIR/server.crt"
			-c "ssl_key_file=$PG_TLS_DIR/server.key" -c log_connections=on)
	"${SRV_PG_AS[@]}" setpriv --pdeathsig TERM "$PG_BIN/postgres" -D "$dir/data" -k "$dir" \
		-p "$PG_PORT" "${net[@]}" -c fsync=off -c synchronous_commit=off \
		-c full_page_writes=off -c max_connections=40 >>"$dir/server.log" 2>&1 &
	SRV_PG_PID=$!
	for i in $(seq 300); do
		if ! kill -0 "$SRV_PG_PID" 2>/dev/null; then
			wait "$SRV_PG_PID" 2>/dev/null
			SRV_PG_PID=
			srv_fail "postgres exited at start" "$dir/server.log"
			return 1
		fi
		"$PG_BIN/pg_isready" -q -h "$dir" -p "$PG_PORT" && return 0
		sleep 0.1
	done
	srv_fail "postgres not ready after 30 s" "$dir/server.log"
	stop_postgres
	return 1
}

# start the server again after crash_postgres (crash recovery runs)
restart_postgres() {
	[ -z "$SRV_PG_PID" ] || stop_postgres
	srv_pg_launch
}

# pg_sql SQL...: psql as the superuser on $PG_DB; stops at the first error
pg_sql() {
	PGPASSWORD=$PG_SUPER_PASSWORD "$PG_BIN/psql" -X -q -A -t -v ON_ERROR_STOP=1 \
		-h "$PG_HOST" -p "$PG_PORT" -U postgres -d "${PG_DB:-postgres}" "$@"
}

stop_postgres() {
	[ -n "$SRV_PG_PID" ] || return 0
	if kill -0 "$SRV_PG_PID" 2>/dev/null; then
		"${SRV_PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$T_TMP/pg/data" -m fast -w -t 20 stop \
			>/dev/null 2>&1
	fi
	srv_kill "$SRV_PG_PID"
	SRV_PG_PID=
	return 0
}

crash_postgres() {
	[ -n "$SRV_PG_PID" ] || return 1
	# an immediate shutdown (SIGQUIT): every backend ends at once, no
	# checkpoint, what a power cut leaves; the next start recovers
	kill -QUIT "$SRV_PG_PID" 2>/dev/null
	srv_kill "$SRV_PG_PID"
	SRV_PG_PID=
	return 0
}
