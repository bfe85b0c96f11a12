/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Prometheus exposition (src/metrics/prom.c): a cumulative histogram
 * whose +Inf bucket is _count, escaped labels, and a file a reader never
 * sees half-written while it is rewritten 1000 times, a new file put in
 * place by rename (a reader that opened the old one still reads all of
 * it), and a failing one said once. /metrics over HTTP
 * (src/metrics/prom-http.c): which requests get the page, a client that
 * never reads delays neither al_prom_http_set() nor the stop, the
 * connection limit queues the others, EMFILE does not spin.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/clock.h"
#include "core/why.h"
#include "metrics/prom.h"

static void
test_text(void **state)
{
	struct al_mw_totals t = { 0 };
	struct al_mw w;
	struct al_prom_input in = { .backend = "alsa", .device = "hw:\"0\"\\x", .period_frames = 64,
				    .t = &t, .last_short = &w };
	char *text, *line, *save;
	unsigned long long prev = 0, inf = 0, count = 0, v;
	int buckets = 0;

	(void)state;
	t.wake_buckets[0] = 5;
	t.wake_buckets[3] = 7;
	t.wake_buckets[AL_MW_BOUNDS] = 2; /* above 10 s */
	t.wake_sum_ns = 1500 * AL_NS_PER_MS;
	t.xruns = 3;
	al_mw_init(&w, 0, 60 * AL_NS_PER_SEC);
	al_mw_add(&w, 2500 * AL_NS_PER_US);
	text = al_prom_text(&in);
	assert_non_null(text);
	assert_non_null(strstr(text, "device=\"hw:\\\"0\\\"\\\\x\""));
	assert_non_null(strstr(text, "# TYPE audiolat_wake_latency_seconds histogram\n"));
	assert_non_null(strstr(text, "audiolat_xruns_total{backend=\"alsa\","));
	assert_non_null(strstr(text, "} 3\n"));
	assert_non_null(strstr(text, "audiolat_wake_latency_seconds_sum{backend=\"alsa\",device="
				     "\"hw:\\\"0\\\"\\\\x\",period=\"64\"} 1.500000000\n"));
	assert_non_null(strstr(text, "audiolat_window_wake_latency_max_seconds{backend=\"alsa\","
				     "device=\"hw:\\\"0\\\"\\\\x\",period=\"64\"} 0.002500000\n"));
	/* no long window yet: absent, not 0 */
	assert_null(strstr(text, "audiolat_long_window"));
	/* causes not collected (--no-why): absent, not 0 */
	assert_null(strstr(text, "audiolat_why_events_total"));
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *sp = strrchr(line, ' ');

		if (strncmp(line, "audiolat_wake_latency_seconds_", 30))
			continue;
		v = strtoull(sp + 1, NULL, 10);
		if (!strncmp(line, "audiolat_wake_latency_seconds_bucket", 36)) {
			assert_true(v >= prev); /* cumulative */
			prev = v;
			buckets++;
			if (strstr(line, "le=\"+Inf\""))
				inf = v;
		} else if (!strncmp(line, "audiolat_wake_latency_seconds_count", 35)) {
			count = v;
		}
	}
	assert_int_equal(buckets, AL_MW_BUCKETS);
	assert_int_equal(inf, 14);
	assert_int_equal(count, inf);
	free(text);
}

/* The causes: one series per class, each always there once collected. */
static void
test_causes(void **state)
{
	struct al_mw_totals t = { 0 };
	uint64_t why[AL_WHY_CLASSES] = { 0 };
	struct al_prom_input in = { .backend = "sim", .device = "", .period_frames = 64, .t = &t,
				    .why_counts = why };
	char *text, *p;
	int series = 0;

	(void)state;
	why[AL_WHY_PREEMPTED] = 4;
	why[AL_WHY_PAGE_FAULT] = 12;
	text = al_prom_text(&in);
	assert_non_null(text);
	assert_non_null(strstr(text, "# TYPE audiolat_why_events_total counter\n"));
	for (p = text; (p = strstr(p, "\naudiolat_why_events_total{")); p++)
		series++;
	assert_int_equal(series, AL_WHY_CLASSES);
	assert_non_null(strstr(text, "audiolat_why_events_total{backend=\"sim\",device=\"\","
				     "period=\"64\",cause=\"preempted\"} 4\n"));
	assert_non_null(strstr(text, ",cause=\"page-fault\"} 12\n"));
	assert_non_null(strstr(text, ",cause=\"unattributed\"} 0\n"));
	free(text);
}

/* Two whole contents, of very different sizes: a reader must only ever see one of them. */
static void
test_atomic_rewrites(void **state)
{
	char dir[] = "/tmp/audiolat-prom.XXXXXX", path[512], *a, *b, *buf;
	size_t big = 256 * 1024, i;
	int stop[2], res[2], status, rc;
	long reads = 0, bad = 0;
	pid_t pid;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/audiolat.prom", dir);
	a = malloc(big + 64);
	b = malloc(64);
	buf = malloc(2 * big);
	assert_true(a && b && buf);
	for (i = 0; i < big; i++)
		a[i] = (char)('a' + i % 26);
	strcpy(a + big, "\n# the end of A\n");
	strcpy(b, "x 1\n# the end of B\n");
	assert_int_equal(al_prom_write_file(path, b), 0);
	assert_int_equal(pipe(stop), 0);
	assert_int_equal(pipe(res), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char c;

		close(stop[1]);
		/* read until the parent closes the pipe, checking each whole read */
		for (;;) {
			FILE *f = fopen(path, "r");
			size_t n;

			if (f) {
				n = fread(buf, 1, 2 * big - 1, f);
				fclose(f);
				buf[n] = '\0';
				reads++;
				if (strcmp(buf, a) && strcmp(buf, b))
					bad++;
			} else {
				bad++;
			}
			struct timeval tv = { 0, 0 };
			fd_set fs;

			FD_ZERO(&fs);
			FD_SET(stop[0], &fs);
			if (select(stop[0] + 1, &fs, NULL, NULL, &tv) > 0 && read(stop[0], &c, 1) <= 0)
				break;
		}
		long out[2] = { reads, bad };

		rc = write(res[1], out, sizeof(out)) == sizeof(out) ? 0 : 1;
		_exit(rc);
	}
	close(stop[0]);
	for (i = 0; i < 1000; i++)
		assert_int_equal(al_prom_write_file(path, i % 2 ? a : b), 0);
	close(stop[1]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	long out[2];

	assert_int_equal(read(res[0], out, sizeof(out)), (ssize_t)sizeof(out));
	printf("# %ld reads during 1000 rewrites, %ld not a whole file\n", out[0], out[1]);
	assert_true(out[0] > 0);
	assert_int_equal(out[1], 0);
	/* nothing left beside it */
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
	free(a);
	free(b);
	free(buf);
}

/* Entries of dir other than . and .. */
static int
entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/*
 * A rewrite is a new file renamed over the old one, never the old one
 * truncated and written again: a scraper that opened the old file before
 * the rewrite reads the old content to its end, the path names another
 * inode after it, and no temporary file is left beside it.
 */
static void
test_rewrite_is_a_rename(void **state)
{
	char dir[] = "/tmp/audiolat-prom.XXXXXX", path[512], buf[64];
	struct stat before, after;
	ssize_t n;
	int fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/audiolat.prom", dir);
	assert_int_equal(al_prom_write_file(path, "old 1\n"), 0);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &before), 0);
	assert_int_equal(al_prom_write_file(path, "new 22\n"), 0);
	n = read(fd, buf, sizeof(buf) - 1);
	assert_true(n >= 0);
	buf[n] = '\0';
	assert_string_equal(buf, "old 1\n"); /* the old file, whole */
	close(fd);
	assert_int_equal(stat(path, &after), 0);
	assert_true(after.st_ino != before.st_ino);
	assert_int_equal(after.st_mode & 0777, 0644);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	n = read(fd, buf, sizeof(buf) - 1);
	assert_true(n >= 0);
	buf[n] = '\0';
	close(fd);
	assert_string_equal(buf, "new 22\n");
	assert_int_equal(entries(dir), 1); /* no temporary file left */
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
}

/* /metrics (and /metrics?QUERY) by GET or HEAD; nothing else. */
static void
test_http_route(void **state)
{
	static const struct {
		const char *method, *url;
		int code;
		bool head;
	} cases[] = {
		{ "GET", "/metrics", 200, false },
		{ "HEAD", "/metrics", 200, true },
		{ "GET", "/metrics?name[]=x", 200, false },
		{ "GET", "/metricsx", 404, false },
		{ "GET", "/metrics/", 404, false },
		{ "GET", "/", 404, false },
		{ "GET", "", 404, false },
		{ "HEAD", "/other", 404, true },
		{ "POST", "/metrics", 405, false },
		{ "get", "/metrics", 405, false },
		{ "", "/metrics", 405, false },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool head = !cases[i].head;
		int code = al_prom_http_route(cases[i].method, cases[i].url, &head);

		if (code != cases[i].code || head != cases[i].head)
			fail_msg("'%s %s': %d (head %d), want %d (head %d)", cases[i].method,
				 cases[i].url, code, head, cases[i].code, cases[i].head);
	}
}

/* A connected TCP socket to 127.0.0.1:port, or -1. */
static int
http_connect(int port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Send req on fd and read the answer until the server closes or timeout_ms
 * passes: into buf (NUL-terminated); its status code, or -1 (nothing
 * complete within the time: *buf says what came).
 */
static int
http_exchange(int fd, const char *req, char *buf, size_t size, int timeout_ms)
{
	int64_t deadline_ns = al_clock_now_ns() + timeout_ms * AL_NS_PER_MS;
	size_t len = 0;
	int code;

	buf[0] = '\0';
	if (send(fd, req, strlen(req), MSG_NOSIGNAL) != (ssize_t)strlen(req))
		return -1;
	for (;;) {
		int64_t left_ns = deadline_ns - al_clock_now_ns();
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (left_ns <= 0 || poll(&p, 1, (int)(left_ns / AL_NS_PER_MS) + 1) <= 0)
			return -1;
		n = recv(fd, buf + len, size - 1 - len, 0);
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		len += (size_t)n;
		buf[len] = '\0';
		if (len == size - 1)
			return -1;
	}
	if (sscanf(buf, "HTTP/1.%*d %d", &code) != 1)
		return -1;
	return code;
}

/* A request with "Connection: close" on a new connection; the status code or -1. */
static int
http_get(int port, const char *method, const char *path, const char *extra, char *buf,
	 size_t size, int timeout_ms)
{
	char req[9000];
	int fd = http_connect(port), code;

	if (fd < 0)
		return -1;
	snprintf(req, sizeof(req), "%s %s HTTP/1.1\r\nHost: x\r\n%sConnection: close\r\n\r\n",
		 method, path, extra);
	code = http_exchange(fd, req, buf, size, timeout_ms);
	close(fd);
	return code;
}

/* The server answers each kind of request as prom.h says; port 0 is the kernel's. */
static void
test_http_answers(void **state)
{
	struct al_prom_http *h;
	char err[256], buf[20000], big[6000];
	const char *body;
	int port;

	(void)state;
	assert_int_equal(al_prom_http_start("localhost:x", &h, err, sizeof(err)), -EINVAL);
	assert_null(h);
	assert_string_equal(err, "'localhost:x' is not ADDRESS:PORT (a numeric address)");
	assert_int_equal(al_prom_http_start("localhost:1", &h, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "'localhost' is not a numeric IPv4 or IPv6 address");
	assert_int_equal(al_prom_http_start("[::1", &h, err, sizeof(err)), -EINVAL);
	assert_int_equal(al_prom_http_start("127.0.0.1:0", &h, err, sizeof(err)), 0);
	port = al_prom_http_port(h);
	assert_true(port > 0);
	/* before the first al_prom_http_set: an empty page */
	assert_int_equal(http_get(port, "GET", "/metrics", "", buf, sizeof(buf), 1000), 200);
	assert_int_equal(al_prom_http_set(h, "audiolat_x 1\n"), 0);
	assert_int_equal(http_get(port, "GET", "/metrics", "", buf, sizeof(buf), 1000), 200);
	assert_non_null(strcasestr(buf, "\r\nContent-Type: text/plain; version=0.0.4"));
	body = strstr(buf, "\r\n\r\n");
	assert_non_null(body);
	assert_string_equal(body + 4, "audiolat_x 1\n");
	assert_int_equal(http_get(port, "HEAD", "/metrics", "", buf, sizeof(buf), 1000), 200);
	assert_non_null(strcasestr(buf, "\r\nContent-Length: 13\r\n"));
	assert_string_equal(strstr(buf, "\r\n\r\n"), "\r\n\r\n"); /* no body */
	assert_int_equal(http_get(port, "GET", "/metrics?x=1", "", buf, sizeof(buf), 1000), 200);
	assert_int_equal(http_get(port, "GET", "/other", "", buf, sizeof(buf), 1000), 404);
	assert_int_equal(http_get(port, "POST", "/metrics", "Content-Length: 0\r\n", buf,
				  sizeof(buf), 1000),
			 405);
	assert_non_null(strcasestr(buf, "\r\nAllow: GET, HEAD\r\n"));
	/* a head over 4 KiB: 431; one just under it is served */
	memset(big, 'a', sizeof(big));
	memcpy(big, "X-Big: ", 7);
	strcpy(big + 5000, "\r\n");
	assert_int_equal(http_get(port, "GET", "/metrics", big, buf, sizeof(buf), 1000), 431);
	strcpy(big + 3500, "\r\n");
	assert_int_equal(http_get(port, "GET", "/metrics", big, buf, sizeof(buf), 1000), 200);
	al_prom_http_stop(h);
	/* IPv6 where the machine has ::1 */
	if (al_prom_http_start("[::1]:0", &h, err, sizeof(err)) == 0) {
		assert_true(al_prom_http_port(h) > 0);
		al_prom_http_stop(h);
	} else {
		assert_non_null(strstr(err, "[::1]:0: "));
	}
}

struct set_call {
	struct al_prom_http *h;
	const char *text;
};

static void *
set_thread(void *arg)
{
	struct set_call *c = arg;

	al_prom_http_set(c->h, c->text);
	return NULL;
}

static void *
stop_thread(void *arg)
{
	al_prom_http_stop(arg);
	return NULL;
}

/* fn(arg) on a thread, given timeout_ms to end: its time in ns, or -1 (still running, left so). */
static int64_t
timed_call(void *(*fn)(void *), void *arg, int timeout_ms)
{
	int64_t t0_ns = al_clock_now_ns();
	int64_t end_ns = al_clock_realtime_ns() + timeout_ms * AL_NS_PER_MS;
	struct timespec end = { .tv_sec = end_ns / AL_NS_PER_SEC, .tv_nsec = end_ns % AL_NS_PER_SEC };
	pthread_t t;

	assert_int_equal(pthread_create(&t, NULL, fn, arg), 0);
	if (pthread_timedjoin_np(t, NULL, &end)) {
		pthread_detach(t);
		return -1;
	}
	return al_clock_now_ns() - t0_ns;
}

/* The bytes waiting to be read on fd. */
static int
pending(int fd)
{
	int n = 0;

	return ioctl(fd, FIONREAD, &n) ? -1 : n;
}

/*
 * A client that asked for a 32 MiB page and reads none of it, and one
 * that connected and sent nothing: al_prom_http_set() takes no longer
 * than without them, another scrape is served, and al_prom_http_stop()
 * returns within 1 s with both still connected.
 */
static void
test_http_stuck_clients(void **state)
{
	size_t big = 32u << 20;
	char *page = malloc(big + 1), err[256], buf[256];
	struct al_prom_http *h;
	struct set_call call;
	int64_t set_ns, stop_ns;
	int port, reader, silent, i, code;

	(void)state;
	assert_non_null(page);
	memset(page, 'x', big);
	page[big] = '\0';
	assert_int_equal(al_prom_http_start("127.0.0.1:0", &h, err, sizeof(err)), 0);
	port = al_prom_http_port(h);
	assert_int_equal(al_prom_http_set(h, page), 0);
	reader = http_connect(port);
	silent = http_connect(port);
	assert_true(reader >= 0 && silent >= 0);
	assert_int_equal(send(reader, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", 34, MSG_NOSIGNAL),
			 34);
	/* the answer has begun: the page is far larger than both socket buffers */
	for (i = 0; i < 200 && pending(reader) <= 0; i++)
		poll(NULL, 0, 5);
	assert_true(pending(reader) > 0);
	call = (struct set_call){ .h = h, .text = "audiolat_x 2\n" };
	set_ns = timed_call(set_thread, &call, 1000);
	print_message("# al_prom_http_set with a stuck reader: %.3f ms\n", (double)set_ns / 1e6);
	assert_true(set_ns >= 0 && set_ns < 100 * AL_NS_PER_MS);
	code = http_get(port, "GET", "/metrics", "", buf, sizeof(buf), 1000);
	assert_int_equal(code, 200);
	assert_non_null(strstr(buf, "\r\n\r\naudiolat_x 2\n"));
	stop_ns = timed_call(stop_thread, h, 1000);
	print_message("# al_prom_http_stop with both connected: %.3f ms\n", (double)stop_ns / 1e6);
	assert_true(stop_ns >= 0 && stop_ns < AL_NS_PER_SEC);
	close(reader);
	close(silent);
	free(page);
}

/*
 * 64 connections that send nothing take every place: a 65th client waits
 * in the listen queue (not answered within 300 ms, not refused either),
 * and is served when the idle ones time out (2 s).
 */
static void
test_http_connection_limit(void **state)
{
	struct al_prom_http *h;
	char err[256], buf[256];
	int idle[64], port, fd, i, code;
	int64_t t0_ns, waited_ns;

	(void)state;
	assert_int_equal(al_prom_http_start("127.0.0.1:0", &h, err, sizeof(err)), 0);
	port = al_prom_http_port(h);
	for (i = 0; i < 64; i++) {
		idle[i] = http_connect(port);
		assert_true(idle[i] >= 0);
	}
	fd = http_connect(port);
	assert_true(fd >= 0);
	t0_ns = al_clock_now_ns();
	code = http_exchange(fd, "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
			     buf, sizeof(buf), 300);
	assert_int_equal(code, -1);
	assert_string_equal(buf, ""); /* nothing yet, not a close */
	/* the rest of the answer, once the idle ones are closed */
	code = http_exchange(fd, "", buf, sizeof(buf), 4000);
	waited_ns = al_clock_now_ns() - t0_ns;
	print_message("# the 65th connection was served after %.0f ms\n", (double)waited_ns / 1e6);
	assert_int_equal(code, 200);
	assert_true(waited_ns >= 1500 * AL_NS_PER_MS);
	close(fd);
	for (i = 0; i < 64; i++)
		close(idle[i]);
	al_prom_http_stop(h);
}

/*
 * accept() failing with EMFILE (no descriptor left) does not spin: the
 * process uses under 20 % of a CPU meanwhile, and the waiting client is
 * served once descriptors are free again. (libmicrohttpd 0.9.75 accepting
 * by itself busy-waits here when it has no connection open.)
 */
static void
test_http_emfile(void **state)
{
	struct al_prom_http *h;
	struct rlimit old, low;
	struct timespec c0, c1;
	char err[256], buf[256];
	int fill[64], n = 0, port, fd, code;
	int64_t cpu_ns;

	(void)state;
	assert_int_equal(al_prom_http_start("127.0.0.1:0", &h, err, sizeof(err)), 0);
	port = al_prom_http_port(h);
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
	fd = dup(0);
	assert_true(fd >= 0);
	close(fd);
	low = old;
	low.rlim_cur = (rlim_t)fd + 8;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
	while (n < 64 && (fill[n] = dup(0)) >= 0)
		n++;
	assert_int_equal(errno, EMFILE);
	close(fill[--n]); /* one for the client: none is left for accept() */
	fd = http_connect(port);
	assert_true(fd >= 0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	poll(NULL, 0, 500);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
	cpu_ns = (c1.tv_sec - c0.tv_sec) * AL_NS_PER_SEC + (c1.tv_nsec - c0.tv_nsec);
	print_message("# CPU time in 500 ms of EMFILE: %.1f ms\n", (double)cpu_ns / 1e6);
	while (n)
		close(fill[--n]);
	code = http_exchange(fd, "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
			     buf, sizeof(buf), 1000);
	close(fd);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
	al_prom_http_stop(h);
	assert_true(cpu_ns < 100 * AL_NS_PER_MS);
	assert_int_equal(code, 200);
}

/* A metrics file that cannot be written is said once, tried every time, said again after a success. */
static void
test_publish_says_a_failure_once(void **state)
{
	char dir[] = "/tmp/audiolat-prom.XXXXXX", sub[512], path[600];
	struct al_mw_totals t = { 0 };
	struct al_mw none = { 0 };
	struct al_prom_input in = { .backend = "sim", .device = "", .period_frames = 64, .t = &t,
				    .last_short = &none, .last_long = &none };
	struct al_prom_sink s = { 0 };

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/d", dir);
	snprintf(path, sizeof(path), "%s/audiolat.prom", sub);
	s.file = path;
	assert_int_equal(al_prom_publish(&s, &in), -ENOENT); /* no such directory: said */
	assert_int_equal(al_prom_publish(&s, &in), 0);       /* still failing: not again */
	assert_true(s.failing);
	assert_int_equal(mkdir(sub, 0755), 0);
	assert_int_equal(al_prom_publish(&s, &in), 0);       /* tried again: written */
	assert_false(s.failing);
	assert_int_equal(access(path, R_OK), 0);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(sub), 0);
	assert_int_equal(al_prom_publish(&s, &in), -ENOENT); /* failing anew: said anew */
	assert_int_equal(rmdir(dir), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_causes),
		cmocka_unit_test(test_atomic_rewrites),
		cmocka_unit_test(test_rewrite_is_a_rename),
		cmocka_unit_test(test_http_route),
		cmocka_unit_test(test_http_answers),
		cmocka_unit_test(test_http_stuck_clients),
		cmocka_unit_test(test_http_connection_limit),
		cmocka_unit_test(test_http_emfile),
		cmocka_unit_test(test_publish_says_a_failure_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
