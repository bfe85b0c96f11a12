/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which JACK client a thread is (jack-clients.c), without a server: the
 * files a jackd2 server "default" leaves in its directory (made here in a
 * temporary one), a child process standing for a client (its notification
 * socket bound, the client's futex file mapped), another for a client of
 * the same name of another server; and a /proc of made-up task stat lines
 * for the real-time threads. Our own client, another server's clients
 * and the server's own are not followed; a thread is real-time with
 * SCHED_FIFO or SCHED_RR, its priority field 40, its policy 41, counted
 * after the last ')' (a comm may hold one).
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "backend/jack-clients.h"

static char dir[80]; /* short: a socket's path holds it */

/* A temporary directory for each test, removed after it, failed or not. */
static int
setup(void **state)
{
	char tmpl[] = "/tmp/jkc-XXXXXX", real[PATH_MAX];

	(void)state;
	assert_non_null(mkdtemp(tmpl));
	/* /proc/PID/maps names a file by its real path */
	assert_non_null(realpath(tmpl, real));
	assert_true(strlen(real) < sizeof(dir));
	strcpy(dir, real);
	return 0;
}

static int
remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

static int
teardown(void **state)
{
	(void)state;
	return nftw(dir, remove_one, 8, FTW_DEPTH | FTW_PHYS);
}

static void
put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void
put_in(const char *name, const char *text)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%.64s", dir, name);
	put(path, text);
}

/*
 * A client's process: its notification socket bound in dir, the futex
 * file sem mapped. Returns its pid once it holds both; it lives until
 * the pipe's other end closes (*hold).
 */
static pid_t
client_process(const char *socket_name, const char *sem, int *hold)
{
	int go[2], stay[2];
	char c;
	pid_t pid;

	assert_int_equal(pipe(go), 0);
	assert_int_equal(pipe(stay), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct sockaddr_un a = { .sun_family = AF_UNIX };
		int s = socket(AF_UNIX, SOCK_STREAM, 0), fd;
		char path[PATH_MAX];
		void *m;

		snprintf(a.sun_path, sizeof(a.sun_path), "%s/%.24s", dir, socket_name);
		snprintf(path, sizeof(path), "%s/%.64s", dir, sem);
		fd = open(path, O_RDWR);
		if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof(a)) || fd < 0)
			_exit(1);
		m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (m == MAP_FAILED)
			_exit(1);
		close(go[0]);
		close(stay[1]);
		if (write(go[1], "x", 1) != 1)
			_exit(1);
		while (read(stay[0], &c, 1) > 0)
			;
		_exit(0);
	}
	close(go[1]);
	close(stay[0]);
	assert_int_equal(read(go[0], &c, 1), 1);
	close(go[0]);
	*hold = stay[1];
	return pid;
}

static void
end_process(pid_t pid, int hold)
{
	int st;

	close(hold);
	assert_int_equal(waitpid(pid, &st, 0), pid);
}

static const struct jkc_client *
client_named(const struct jkc_client *c, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(c[i].name, name))
			return &c[i];
	return NULL;
}

static void
the_clients_of_the_server(void **state)
{
	static const char *const files[] = {
		"jack_sem.1000_default_system", "jack_sem.1000_default_freewheel",
		"jack_sem.1000_default_slow", "jack_sem.1000_default_audiolat-42",
		"jack_sem.1000_default_twin", "jack_sem.1000_other_twin",
		"jack_sem.1000_default2_x", "jack_sem.1000_defaultish", "jack_default_0",
	};
	struct jkc_client clients[JKC_CLIENTS_MAX];
	struct al_task tasks[8];
	const struct jkc_client *c;
	int n_clients = -1, n, hold_slow, hold_twin;
	pid_t slow, twin;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		put_in(files[i], "futex");
	slow = client_process("jack_slow_1000_0", "jack_sem.1000_default_slow", &hold_slow);
	/* a client named twin of the server "other": its socket, the other server's futex */
	twin = client_process("jack_twin_1000_0", "jack_sem.1000_other_twin", &hold_twin);

	n = jkc_lookup(dir, "default", "audiolat-42", tasks, 8, clients, &n_clients);
	assert_true(n >= 0);
	/* system, freewheel, slow, twin: not ours, not the other server's */
	assert_int_equal(n_clients, 4);
	assert_null(client_named(clients, n_clients, "audiolat-42"));
	c = client_named(clients, n_clients, "slow");
	assert_non_null(c);
	assert_false(c->internal);
	assert_int_equal(c->pid, slow);
	c = client_named(clients, n_clients, "twin");
	assert_non_null(c);
	assert_int_equal(c->pid, 0);
	assert_true(client_named(clients, n_clients, "system")->internal);
	assert_true(client_named(clients, n_clients, "freewheel")->internal);

	/* twin first: it holds a copy of slow's end of the pipe */
	end_process(twin, hold_twin);
	end_process(slow, hold_slow);
}

/* A task's stat line: fields 3..39 (state, then zeros), 40 rt_priority, 41 policy, more. */
static void
put_task(const char *proc, int pid, int tid, const char *comm, int prio, int policy)
{
	char path[PATH_MAX], line[512];
	int len, f;

	assert_true(strlen(proc) < 64 && strlen(comm) < 16);

	snprintf(path, sizeof(path), "%.64s/%d/task/%d", proc, pid, tid);
	assert_int_equal(mkdir(path, 0755), 0);
	len = snprintf(line, sizeof(line), "%d (%.15s) S", tid, comm);
	for (f = 4; f <= 39; f++)
		len += snprintf(line + len, sizeof(line) - (size_t)len, " %d", f == 18 ? 20 - prio : 7);
	snprintf(line + len, sizeof(line) - (size_t)len, " %d %d 0 0 0\n", prio, policy);
	snprintf(path, sizeof(path), "%.64s/%d/task/%d/stat", proc, pid, tid);
	put(path, line);
	snprintf(path, sizeof(path), "%.64s/%d/task/%d/comm", proc, pid, tid);
	snprintf(line, sizeof(line), "%.15s\n", comm);
	put(path, line);
}

static int
by_tid(const void *a, const void *b)
{
	return ((const struct al_task *)a)->tid - ((const struct al_task *)b)->tid;
}

static void
the_real_time_threads(void **state)
{
	const char *proc = dir;
	char path[PATH_MAX];
	struct al_task t[8];
	int n;

	(void)state;
	snprintf(path, sizeof(path), "%s/700", proc);
	assert_int_equal(mkdir(path, 0755), 0);
	strcat(path, "/task");
	assert_int_equal(mkdir(path, 0755), 0);
	put_task(proc, 700, 700, "slow", 0, SCHED_OTHER);
	put_task(proc, 700, 701, "slow:(rt) 1", 70, SCHED_FIFO);
	put_task(proc, 700, 702, "slow rr", 65, SCHED_RR);
	put_task(proc, 700, 703, "batch", 0, SCHED_BATCH);

	n = jkc_rt_threads(proc, 700, "slow", t, 8);
	assert_int_equal(n, 2);
	qsort(t, (size_t)n, sizeof(t[0]), by_tid);
	assert_int_equal(t[0].tid, 701);
	assert_int_equal(t[0].pid, 700);
	assert_int_equal(t[0].policy, SCHED_FIFO);
	assert_int_equal(t[0].priority, 70);
	assert_string_equal(t[0].client, "slow");
	assert_string_equal(t[0].comm, "slow:(rt) 1");
	assert_int_equal(t[1].tid, 702);
	assert_int_equal(t[1].policy, SCHED_RR);
	assert_int_equal(t[1].priority, 65);
	assert_int_equal(jkc_rt_threads(proc, 701, "slow", t, 8), -ENOENT);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(the_clients_of_the_server, setup, teardown),
		cmocka_unit_test_setup_teardown(the_real_time_threads, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
