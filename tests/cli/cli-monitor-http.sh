#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# audiolat monitor --listen when clients misbehave (docs/monitor.md): a
# client that connects and sends nothing, one that asks and never reads,
# 200 at once, and SIGTERM with clients connected. The monitor keeps
# measuring and publishing on time, and stops within 1 s.
#
# Two runs of the monitor on the sim backend, 1 s windows, the page made
# every 200 ms: a quiet one, and one under the clients above. In both a
# sampler scrapes /metrics every 100 ms and takes the page's lag: the time
# of the request, less the stream's start and the periods the page counts
# (audiolat_start_time_seconds, audiolat_periods_total). The page is made
# every 200 ms, so a controlling thread kept on time keeps the lag under
# 200 ms plus a tenth of a window; one stalled by a client (the old
# server wrote the page under the lock al_prom_http_set takes) lets it
# grow without bound. The windows of each run's result are all there, and
# their wake-up jitter (the longest interval less the period) is printed
# for both runs.
. "$(dirname "$0")/../lib.sh"

A=$AUDIOLAT
P_NS=1333333           # 64 frames at 48 kHz
W_NS=1000000000        # --window 1s
LAG_MAX_NS=$((200000000 + W_NS / 10))

command -v curl >/dev/null || t_bail "curl is installed (scripts/packages.txt)"
command -v python3 >/dev/null || t_bail "python3 is installed"

# every process started here is stopped on the way out
BG=()
cleanup() {
	local p
	for p in "${BG[@]}"; do
		kill "$p" 2>/dev/null
	done
	for p in "${BG[@]}"; do
		wait "$p" 2>/dev/null
	done
	rm -rf "$T_TMP"
}
trap cleanup EXIT

# The clients, in Python (threads: 200 clients without 200 processes).
#   http.py sample PORT STOPFILE: a scrape every 100 ms until STOPFILE
#     exists; a line per scrape: "lag NS", or "fail WHAT".
#   http.py burst PORT N: N clients at once (a barrier), each one GET with
#     "Connection: close", read to the end; a line each: "200" (the whole
#     page, Content-Length bytes), "refused", "closed" (no answer, the
#     connection closed), or anything else (a failure).
cat >"$T_TMP/http.py" <<'PY'
import os, re, socket, sys, threading, time

def scrape(port, timeout):
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    try:
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        data = b""
        while True:
            b = s.recv(65536)
            if not b:
                return data
            data += b
    finally:
        s.close()

def whole_200(data):
    head, sep, body = data.partition(b"\r\n\r\n")
    m = re.search(rb"\r\ncontent-length: *(\d+)", head, re.I)
    return (sep and head.startswith(b"HTTP/1.1 200 ") and m is not None
            and int(m.group(1)) == len(body) and b"\naudiolat_periods_total{" in body)

def sample(port, stopfile):
    while not os.path.exists(stopfile):
        t0 = time.time_ns()
        try:
            data = scrape(port, 2)
        except OSError as e:
            print("fail", type(e).__name__, flush=True)
        else:
            p = re.search(rb"\naudiolat_periods_total\{[^}]*\} (\d+)\n", data)
            s = re.search(rb"\naudiolat_start_time_seconds\{[^}]*\} ([0-9.]+)\n", data)
            if p and s:
                start_ns = int(round(float(s.group(1)) * 1000)) * 1000000
                print("lag", t0 - start_ns - int(p.group(1)) * int(os.environ["P_NS"]), flush=True)
            else:
                print("fail page", flush=True)
        time.sleep(0.1)

def burst(port, n):
    res = [None] * n
    barrier = threading.Barrier(n)
    def one(i):
        barrier.wait()
        try:
            data = scrape(port, 10)
            res[i] = "200" if whole_200(data) else ("closed" if not data else "bad " + repr(data[:40]))
        except ConnectionRefusedError:
            res[i] = "refused"
        except ConnectionResetError:
            res[i] = "closed"
        except OSError as e:
            res[i] = "error " + type(e).__name__
    ts = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    for r in res:
        print(r)

if sys.argv[1] == "sample":
    sample(int(sys.argv[2]), sys.argv[3])
else:
    burst(int(sys.argv[2]), int(sys.argv[3]))
PY
export P_NS

# start_monitor NAME ARGS...: the monitor in the background (its result in
# $T_TMP/NAME.json, its stderr in $T_TMP/NAME.err); MON and PORT set, and
# a sampler started (its lines in $T_TMP/NAME.lag, stopped by $T_TMP/NAME.stop)
start_monitor() {
	local name=$1
	shift
	"$A" monitor --no-db --window 1s --listen 127.0.0.1:0 --metrics-interval 200ms \
		--json "$T_TMP/$name.json" "$@" >/dev/null 2>"$T_TMP/$name.err" &
	MON=$!
	BG+=("$MON")
	# the port the kernel chose, as the monitor says it (-q would not)
	port_of() { PORT=$(sed -n 's/^metrics on .*, port \([0-9]*\): .*/\1/p' "$T_TMP/$name.err"); [ -n "$PORT" ]; }
	wait_until 10 "the monitor to say its port" port_of ||
		{ sed 's/^/# stderr: /' "$T_TMP/$name.err"; t_bail "$name: the monitor listens"; }
	# the first page is made with the first period: empty before
	wait_until 10 "the first page" eval \
		"curl -sf --max-time 1 http://127.0.0.1:$PORT/metrics | grep -q '^audiolat_periods_total{'" ||
		t_bail "$name: the monitor serves its first page"
	python3 "$T_TMP/http.py" sample "$PORT" "$T_TMP/$name.stop" >"$T_TMP/$name.lag" \
		2>"$T_TMP/$name.sampler.err" &
	SAMPLER=$!
	BG+=("$SAMPLER")
	# (Python took over 10 s to start beside the package builds of make
	# test's parallel phase once; a sampler that died is said at once)
	wait_until 30 "the sampler's first scrape" eval \
		"test -s '$T_TMP/$name.lag' || ! kill -0 $SAMPLER" &&
		test -s "$T_TMP/$name.lag" ||
		{ sed 's/^/# sampler: /' "$T_TMP/$name.sampler.err"; t_bail "$name: the sampler scrapes"; }
}

# stop_sampler NAME
stop_sampler() {
	: >"$T_TMP/$1.stop"
	wait "$SAMPLER"
}

# check_run NAME: the lag of the page and the windows of the result
check_run() {
	local name=$1 n fails max mean
	n=$(grep -c '^lag ' "$T_TMP/$name.lag")
	fails=$(grep -vc '^lag ' "$T_TMP/$name.lag")
	read -r max mean < <(awk '$1 == "lag" { if (n == 0 || $2 > m) m = $2; s += $2; n++ }
		END { printf "%d %d\n", m, n ? s / n : 0 }' "$T_TMP/$name.lag")
	[ "$fails" -eq 0 ] || grep -v '^lag ' "$T_TMP/$name.lag" | sort | uniq -c | sed 's/^ */# sampler: /'
	echo "# $name: the page's lag over $n scrapes: max $((max / 1000000)) ms, mean $((mean / 1000000)) ms ($fails failed)"
	t_true "$name: the sampler scraped at least 10 times, none failed ($n, $fails failed)" \
		test "$n" -ge 10 -a "$fails" -eq 0
	t_true "$name: the page was never older than 200 ms + a tenth of a window (max $((max / 1000000)) ms)" \
		test "$max" -le "$LAG_MAX_NS"
	t_json "$name: every window is there, in order, none lost" \
		--argjson w "$W_NS" '.monitor.short as $s | ($s.rows | length) as $n
		| $s.window_ns == $w and .monitor.windows_lost == 0
		and $n >= ((.duration_ns / $w) | floor)
		and ([$s.rows[][0]] == [range(0; $n) | . * $w])' "$T_TMP/$name.json"
	t_json "$name: its periods are what its duration implies (within 1 %)" \
		--argjson p "$P_NS" '(.total.periods / (.duration_ns / $p)) as $r | $r > 0.99 and $r < 1.01' \
		"$T_TMP/$name.json"
	jq -r --argjson p "$P_NS" '.monitor.short.rows | map(select(.[7] != null) | .[7] - $p) |
		"# \(input_filename | sub(".*/"; "")): wake-up jitter per window (longest interval - period): max \(max / 1000 | floor) us, windows: \(map(. / 1000 | floor) | join(" ")) us"' \
		"$T_TMP/$name.json"
}

# periods_now: the periods the page counts now (empty if none)
periods_now() {
	curl -sf --max-time 1 "http://127.0.0.1:$PORT/metrics" |
		sed -n 's/^audiolat_periods_total{[^}]*} \([0-9]*\)$/\1/p'
}

# --- quiet: no client but the sampler -------------------------------------------
start_monitor quiet -d 60s
p0=$(periods_now)
t_true "quiet: the page counts periods ($p0)" test -n "$p0"
t_wait 10 "quiet: 5 windows measured while sampled" \
	eval '[ "$(periods_now)" -ge $((${p0:-0} + 5 * W_NS / P_NS)) ]'
stop_sampler quiet
kill -TERM "$MON"
wait "$MON"
t_result $? "quiet: SIGTERM exits 0"
check_run quiet

# --- loaded: a silent client, a client that never reads, 200 at once, SIGTERM ------
start_monitor loaded -d 60s
exec 3<>"/dev/tcp/127.0.0.1/$PORT"   # connects, sends nothing, reads nothing
exec 4<>"/dev/tcp/127.0.0.1/$PORT"   # asks, never reads
printf 'GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n' >&4
t_exit 0 "with a silent client and one that never reads, a scrape is served within 1 s" \
	curl -sf --max-time 1 "http://127.0.0.1:$PORT/metrics"
t_grep "$OUT" '^audiolat_periods_total\{' "the scrape has the page"
python3 "$T_TMP/http.py" burst "$PORT" 200 >"$T_TMP/burst"
sort "$T_TMP/burst" | uniq -c | sed 's/^ */# 200 clients at once: /'
ok=$(grep -cx '200' "$T_TMP/burst")
t_true "200 clients at once: each got the whole page or was refused or closed cleanly" \
	test "$(grep -cvxE '200|refused|closed' "$T_TMP/burst")" -eq 0 -a "$(wc -l <"$T_TMP/burst")" -eq 200
t_true "at least the connection limit's 64 got the page ($ok did)" test "$ok" -ge 64
t_true "the monitor is still running" kill -0 "$MON"
exec 3<&- 4<&-
# the run goes on after the clients: 3 more windows' worth of periods
p0=$(periods_now)
t_true "the page counts periods after the clients ($p0)" test -n "$p0"
t_wait 10 "3 windows more measured" eval '[ "$(periods_now)" -ge $((${p0:-0} + 3 * W_NS / P_NS)) ]'
stop_sampler loaded
# SIGTERM with a scrape in flight (its request half sent) and a silent client connected
exec 3<>"/dev/tcp/127.0.0.1/$PORT"
exec 4<>"/dev/tcp/127.0.0.1/$PORT"
printf 'GET /metrics HTTP/1.1\r\nHost: x\r\n' >&4
t0=$(date +%s%N)
kill -TERM "$MON"
wait "$MON"
rc=$?
t1=$(date +%s%N)
exec 3<&- 4<&-
echo "# SIGTERM to exit with 2 clients connected: $(((t1 - t0) / 1000000)) ms"
t_result "$rc" "SIGTERM with clients connected: exit 0 (got $rc)"
t_true "SIGTERM with clients connected: the monitor ended within 1 s ($(((t1 - t0) / 1000000)) ms)" \
	test $((t1 - t0)) -lt 1000000000
check_run loaded

t_done
