/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The processes and real-time threads of a jackd2 server's clients (jack-clients.h). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jack-clients.h"

#define SEM_PREFIX "jack_sem."
#define SOCKETS_MAX JKC_CLIENTS_MAX

/* "jack_sem.<uid>_<server>_<client>": the client, or NULL when not of this server. */
static const char *
sem_client(const char *file, const char *server)
{
	const char *p = file;
	size_t sl = strlen(server);

	if (strncmp(p, SEM_PREFIX, strlen(SEM_PREFIX)))
		return NULL;
	p += strlen(SEM_PREFIX);
	if (!isdigit((unsigned char)*p))
		return NULL;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p++ != '_' || strncmp(p, server, sl) || p[sl] != '_' || !p[sl + 1])
		return NULL;
	return p + sl + 1;
}

/* "/dev/shm/jack_<client>_<uid>_0": true when path is client's notification socket. */
static bool
is_client_socket(const char *path, const char *dir, const char *client)
{
	size_t dl = strlen(dir), cl = strlen(client);
	const char *p;

	if (strncmp(path, dir, dl) || strncmp(path + dl, "/jack_", 6) ||
	    strncmp(path + dl + 6, client, cl))
		return false;
	p = path + dl + 6 + cl;
	if (*p++ != '_' || !isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	return !strcmp(p, "_0");
}

struct sock {
	unsigned long inode;
	int client;      /* index in clients[] */
};

/* The inodes of the clients' sockets, from /proc/net/unix. */
static int
find_sockets(const char *dir, struct jkc_client *clients, int n_clients, struct sock *socks,
	     int max)
{
	char line[PATH_MAX + 128];
	unsigned long inode;
	int n = 0, pos, i;
	FILE *f = fopen("/proc/net/unix", "re");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f) && n < max) {
		char *path;

		/* Num RefCount Protocol Flags Type St Inode Path */
		if (sscanf(line, "%*s %*s %*s %*s %*s %*s %lu %n", &inode, &pos) != 1)
			continue;
		path = line + pos;
		path[strcspn(path, "\n")] = '\0';
		if (path[0] != '/')
			continue;
		for (i = 0; i < n_clients; i++)
			if (!clients[i].internal && is_client_socket(path, dir, clients[i].name)) {
				socks[n++] = (struct sock){ inode, i };
				break;
			}
	}
	fclose(f);
	return n;
}

/* Does process pid map the file path (the client's futex of this server)? */
static bool
maps_file(int pid, const char *path)
{
	char file[64], line[PATH_MAX + 128];
	bool found = false;
	size_t pl = strlen(path);
	FILE *f;

	snprintf(file, sizeof(file), "/proc/%d/maps", pid);
	f = fopen(file, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *p = strchr(line, '/');

		if (p && !strncmp(p, path, pl) && (p[pl] == '\n' || p[pl] == '\0' || p[pl] == ' '))
			found = true;
	}
	fclose(f);
	return found;
}

/* The processes holding the sockets: one pass over /proc/PID/fd. */
static void
find_pids(const char *dir, const char *server, const char *sem_uid, struct jkc_client *clients,
	  const struct sock *socks, int n_socks)
{
	char path[PATH_MAX], link[128], sem[PATH_MAX];
	struct dirent *pe, *fe;
	DIR *proc, *fds;
	unsigned long inode;
	int pid, i;
	ssize_t len;

	proc = opendir("/proc");
	if (!proc)
		return;
	while ((pe = readdir(proc))) {
		if (!isdigit((unsigned char)pe->d_name[0]))
			continue;
		pid = atoi(pe->d_name);
		if (pid <= 0 || pid == getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%d/fd", pid);
		fds = opendir(path);
		if (!fds)
			continue;
		while ((fe = readdir(fds))) {
			if (fe->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/proc/%d/fd/%s", pid, fe->d_name);
			len = readlink(path, link, sizeof(link) - 1);
			if (len <= 0)
				continue;
			link[len] = '\0';
			if (sscanf(link, "socket:[%lu]", &inode) != 1)
				continue;
			for (i = 0; i < n_socks; i++) {
				struct jkc_client *c = &clients[socks[i].client];

				if (socks[i].inode != inode || c->pid)
					continue;
				snprintf(sem, sizeof(sem), "%s/" SEM_PREFIX "%s_%s_%s", dir, sem_uid,
					 server, c->name);
				/* a client of that name of another server is not this one */
				if (maps_file(pid, sem))
					c->pid = pid;
			}
		}
		closedir(fds);
	}
	closedir(proc);
}

int
jkc_rt_threads(const char *proc_dir, int pid, const char *client, struct al_task *out, int max)
{
	char path[PATH_MAX], buf[1024];
	struct dirent *te;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), "%s/%d/task", proc_dir, pid);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((te = readdir(d)) && n < max) {
		unsigned long long rtprio = 0, policy = 0;
		char *p, *tok, *save = NULL;
		FILE *f;
		int field;

		if (!isdigit((unsigned char)te->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "%s/%d/task/%s/stat", proc_dir, pid, te->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		p = fgets(buf, sizeof(buf), f);
		fclose(f);
		if (!p || !(p = strrchr(buf, ')')))
			continue;
		/* after "pid (comm)": field 3 is the state; 40 rt_priority, 41 policy */
		for (field = 3, tok = strtok_r(p + 1, " ", &save); tok;
		     tok = strtok_r(NULL, " ", &save), field++) {
			if (field == 40)
				rtprio = strtoull(tok, NULL, 10);
			if (field == 41) {
				policy = strtoull(tok, NULL, 10);
				break;
			}
		}
		if (policy != SCHED_FIFO && policy != SCHED_RR)
			continue;
		memset(&out[n], 0, sizeof(out[n]));
		snprintf(out[n].client, sizeof(out[n].client), "%s", client);
		out[n].pid = pid;
		out[n].tid = atoi(te->d_name);
		out[n].policy = (int)policy;
		out[n].priority = (int)rtprio;
		snprintf(path, sizeof(path), "%s/%d/task/%s/comm", proc_dir, pid, te->d_name);
		f = fopen(path, "re");
		if (f) {
			if (fgets(out[n].comm, sizeof(out[n].comm), f))
				out[n].comm[strcspn(out[n].comm, "\n")] = '\0';
			fclose(f);
		}
		n++;
	}
	closedir(d);
	return n;
}

int
jkc_lookup(const char *dir, const char *server, const char *self_name, struct al_task *out,
	   int max, struct jkc_client *clients, int *n_clients)
{
	struct sock socks[SOCKETS_MAX];
	char sem_uid[32] = "";
	struct dirent *de;
	int n = 0, ns, i, k;
	DIR *d;

	*n_clients = 0;
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d)) && *n_clients < JKC_CLIENTS_MAX) {
		const char *name = sem_client(de->d_name, server);
		struct jkc_client *c;

		if (!name || strlen(name) >= sizeof(clients[0].name) ||
		    (self_name && !strcmp(name, self_name)))
			continue;
		if (!sem_uid[0])
			snprintf(sem_uid, sizeof(sem_uid), "%.*s",
				 (int)strcspn(de->d_name + strlen(SEM_PREFIX), "_"),
				 de->d_name + strlen(SEM_PREFIX));
		c = &clients[(*n_clients)++];
		memset(c, 0, sizeof(*c));
		snprintf(c->name, sizeof(c->name), "%s", name);
		/* the server's own clients: its driver and the freewheel */
		c->internal = !strcmp(name, "system") || !strcmp(name, "freewheel");
	}
	closedir(d);
	ns = find_sockets(dir, clients, *n_clients, socks, SOCKETS_MAX);
	if (ns < 0)
		return ns;
	find_pids(dir, server, sem_uid, clients, socks, ns);
	for (i = 0; i < *n_clients; i++) {
		if (!clients[i].pid)
			continue;
		k = jkc_rt_threads("/proc", clients[i].pid, clients[i].name, out + n, max - n);
		if (k > 0) {
			clients[i].n_threads = k;
			n += k;
		}
	}
	return n;
}
