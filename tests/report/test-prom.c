/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Prometheus exposition (src/metrics/prom.c): a cumulative histogram
 * whose +Inf bucket is _count, escaped labels, and a file a reader never
 * sees half-written while it is rewritten 1000 times, a new file put in
 * place by rename (a reader that opened the old one still reads all of
 * it), and a failing one said once. /metrics over HTTP: which requests
 * get the page (src/metrics/prom-http.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/clock.h"
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

/* /metrics (and /metrics?QUERY) by GET or HEAD over HTTP/1.x; nothing else. */
static void
test_http_route(void **state)
{
	static const struct {
		const char *req;
		int code;
		bool head;
	} cases[] = {
		{ "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", 200, false },
		{ "HEAD /metrics HTTP/1.0\r\n\r\n", 200, true },
		{ "GET /metrics?name[]=x HTTP/1.1\r\n\r\n", 200, false },
		{ "GET /metricsx HTTP/1.1\r\n\r\n", 404, false },
		{ "GET /metrics/ HTTP/1.1\r\n\r\n", 404, false },
		{ "GET / HTTP/1.1\r\n\r\n", 404, false },
		{ "HEAD /other HTTP/1.1\r\n\r\n", 404, true },
		{ "POST /metrics HTTP/1.1\r\n\r\n", 405, false },
		{ "GET /metrics HTTP/2.0\r\n\r\n", 400, false },
		{ "GET /metrics\r\n\r\n", 400, false },
		{ "", 400, false },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool head = !cases[i].head;
		int code = al_prom_http_route(cases[i].req, &head);

		if (code != cases[i].code || head != cases[i].head)
			fail_msg("'%s': %d (head %d), want %d (head %d)", cases[i].req, code, head,
				 cases[i].code, cases[i].head);
	}
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
		cmocka_unit_test(test_atomic_rewrites),
		cmocka_unit_test(test_rewrite_is_a_rename),
		cmocka_unit_test(test_http_route),
		cmocka_unit_test(test_publish_says_a_failure_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
