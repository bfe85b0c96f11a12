/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * /metrics over HTTP with libmicrohttpd (MHD). The hand-written server it
 * replaces served one connection at a time and wrote the page while
 * holding the lock al_prom_http_set() takes: a client that never read
 * stalled the monitor's controlling thread and its shutdown.
 *
 * Threads. MHD runs one internal polling thread (epoll on Linux, chosen
 * by MHD_USE_AUTO) that reads and writes every connection without
 * blocking: a client that never reads only fills its own socket buffer
 * while the others are served. One thread is enough: the handler never
 * waits (it copies the page, a few KiB, under the lock and returns), and
 * a thread per connection would mean up to CONN_MAX threads, and a pool
 * would only add threads to a task one does at a scrape's rate.
 *
 * Accepting is ours (a second thread, MHD_USE_NO_LISTEN_SOCKET and
 * MHD_add_connection()): MHD 0.9.75 stops polling its listen socket when
 * accept() fails with EMFILE or ENFILE only while it has a connection
 * open; with none it retries at once, for as long as the process has no
 * descriptor to spare (it says "busy waiting" in daemon.c). Here such an
 * error waits ACCEPT_BACKOFF_MS, or until a connection closes. We also
 * stop accepting at CONN_MAX connections, so that the others wait in the
 * listen queue (and are served when a connection closes) instead of
 * being accepted and closed. MHD's own limit is only a backstop, twice
 * ours: it tells of a connection's end (our count) a moment before it
 * counts it out, and a connection added in that moment would be refused.
 *
 * Binding is ours too: "host:port" is parsed and resolved here (IPv6
 * "[::1]:0" too), the errors are the socket calls' own, and the port the
 * kernel chose for port 0 is read with getsockname().
 *
 * Limits: CONN_MAX connections, each closed after TIMEOUT_S seconds
 * without progress (MHD's timeout is reset by each byte read or written),
 * a request head of REQ_MAX bytes (MHD's per-connection memory: over it,
 * 431). MHD's own messages are off (no MHD_USE_ERROR_LOG): library code
 * prints nothing.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h>

#include "prom.h"

#define CONN_MAX 64
#define TIMEOUT_S 2u
#define REQ_MAX 4096
#define ACCEPT_BACKOFF_MS 100
/* At CONN_MAX, how long before the count of open connections is taken from MHD again. */
#define RESYNC_MS (2 * TIMEOUT_S * 1000)
#define LISTEN_BACKLOG 256

struct al_prom_http {
	int fd;        /* the listening socket */
	int wake[2];   /* a pipe: stop */
	int closed[2]; /* a pipe, non-blocking: a connection was closed */
	int port;
	atomic_int open; /* connections handed to MHD and not closed yet */
	pthread_t thread; /* accepts */
	bool thread_started;
	struct MHD_Daemon *d;
	pthread_mutex_t lock; /* page, page_len */
	char *page;
	size_t page_len;
};

static const char TEXT_PLAIN[] = "text/plain";
static const char EXPOSITION[] = "text/plain; version=0.0.4; charset=utf-8";

static enum MHD_Result
on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
	   const char *version, const char *upload_data, size_t *upload_data_size, void **req_cls)
{
	static const char not_found[] = "see /metrics\n", not_allowed[] = "GET only\n";
	struct al_prom_http *h = cls;
	struct MHD_Response *r;
	enum MHD_Result ret;
	bool head;
	int code = al_prom_http_route(method, url, &head);

	(void)version;
	(void)upload_data;
	(void)upload_data_size;
	(void)req_cls;
	/* the answer on the first call, before any body: a body is not read */
	switch (code) {
	case 200:
		/* the lock for the copy only: MHD writes the copy later, without it */
		pthread_mutex_lock(&h->lock);
		r = MHD_create_response_from_buffer(h->page_len, h->page ? h->page : (char *)"",
						    MHD_RESPMEM_MUST_COPY);
		pthread_mutex_unlock(&h->lock);
		break;
	case 405:
		r = MHD_create_response_from_buffer(strlen(not_allowed), (char *)not_allowed,
						    MHD_RESPMEM_PERSISTENT);
		break;
	default:
		r = MHD_create_response_from_buffer(strlen(not_found), (char *)not_found,
						    MHD_RESPMEM_PERSISTENT);
		break;
	}
	if (!r)
		return MHD_NO; /* out of memory: MHD closes the connection */
	if (MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				    code == 200 ? EXPOSITION : TEXT_PLAIN) != MHD_YES ||
	    (code == 405 && MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD") != MHD_YES)) {
		MHD_destroy_response(r);
		return MHD_NO;
	}
	/* MHD leaves out the body of an answer to HEAD */
	ret = MHD_queue_response(c, (unsigned int)code, r);
	MHD_destroy_response(r);
	return ret;
}

/* MHD's thread: a connection closed frees a place for the accepting thread. */
static void
on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
	      enum MHD_ConnectionNotificationCode code)
{
	struct al_prom_http *h = cls;

	(void)c;
	(void)socket_context;
	if (code != MHD_CONNECTION_NOTIFY_CLOSED)
		return;
	atomic_fetch_sub(&h->open, 1);
	if (write(h->closed[1], "x", 1) < 0) {
		/* full (EAGAIN): the accepting thread is woken already */
	}
}

/*
 * Wait for stop (-1), a closed connection or a connection to accept on
 * listen_fd (-1: none awaited) (1; *acceptable says which), or for
 * timeout_ms (-1: no limit) to pass (0).
 */
static int
wait_for(struct al_prom_http *h, int listen_fd, int timeout_ms, bool *acceptable)
{
	struct pollfd p[3] = { { .fd = h->wake[0], .events = POLLIN },
			       { .fd = h->closed[0], .events = POLLIN },
			       { .fd = listen_fd, .events = POLLIN } };
	char buf[64];
	int n = poll(p, 3, timeout_ms);

	*acceptable = false;
	if (n <= 0)
		return n < 0 ? 1 : 0; /* EINTR: the caller looks again */
	if (p[0].revents)
		return -1;
	if (p[1].revents && read(h->closed[0], buf, sizeof(buf)) < 0) {
		/* EAGAIN: drained already */
	}
	*acceptable = listen_fd >= 0 && (p[2].revents & POLLIN);
	return 1;
}

static bool
low_on_resources(int e)
{
	return e == EMFILE || e == ENFILE || e == ENOBUFS || e == ENOMEM;
}

static void *
accept_thread(void *arg)
{
	struct al_prom_http *h = arg;

	for (;;) {
		bool room = atomic_load(&h->open) < CONN_MAX, acceptable;
		struct sockaddr_storage ss;
		socklen_t sl = sizeof(ss);
		int c, w;

		w = wait_for(h, room ? h->fd : -1, room ? -1 : (int)RESYNC_MS, &acceptable);
		if (w < 0)
			break;
		if (!w) {
			/*
			 * CONN_MAX for RESYNC_MS and none closed: MHD's own count, in
			 * case it lost one before it started (no notice of its end)
			 */
			const union MHD_DaemonInfo *info =
				MHD_get_daemon_info(h->d, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);

			if (info)
				atomic_store(&h->open, (int)info->num_connections);
			continue;
		}
		if (!acceptable)
			continue;
		c = accept4(h->fd, (struct sockaddr *)&ss, &sl, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (c < 0) {
			/* out of descriptors or memory: wait, never retry at once */
			if (low_on_resources(errno) &&
			    wait_for(h, -1, ACCEPT_BACKOFF_MS, &acceptable) < 0)
				break;
			continue; /* EAGAIN, EINTR, ECONNABORTED: the next one */
		}
		atomic_fetch_add(&h->open, 1);
		/* MHD's thread takes it from here; on failure MHD has closed it */
		if (MHD_add_connection(h->d, c, (struct sockaddr *)&ss, sl) != MHD_YES)
			atomic_fetch_sub(&h->open, 1);
	}
	return NULL;
}

/* HOST:PORT, [V6]:PORT */
static int
split_addr(const char *addr, char *host, size_t hsize, char *port, size_t psize)
{
	const char *colon;
	size_t n;

	if (addr[0] && strspn(addr, "0123456789") == strlen(addr)) {
		/* a port alone: loopback */
		snprintf(host, hsize, "127.0.0.1");
		if (strlen(addr) >= psize || atol(addr) > 65535)
			return -EINVAL;
		snprintf(port, psize, "%s", addr);
		return 0;
	}
	if (addr[0] == '[') {
		const char *end = strchr(addr, ']');

		if (!end || end[1] != ':')
			return -EINVAL;
		n = (size_t)(end - addr - 1);
		if (n >= hsize)
			return -EINVAL;
		memcpy(host, addr + 1, n);
		host[n] = '\0';
		colon = end + 1;
	} else {
		colon = strrchr(addr, ':');
		if (!colon)
			return -EINVAL;
		n = (size_t)(colon - addr);
		if (!n || n >= hsize)
			return -EINVAL;
		memcpy(host, addr, n);
		host[n] = '\0';
	}
	if (!colon[1] || strlen(colon + 1) >= psize || strspn(colon + 1, "0123456789") !=
								 strlen(colon + 1) ||
	    atol(colon + 1) > 65535)
		return -EINVAL;
	snprintf(port, psize, "%s", colon + 1);
	return 0;
}

static void
close_pair(int p[2])
{
	if (p[0] >= 0) {
		close(p[0]);
		close(p[1]);
	}
	p[0] = p[1] = -1;
}

/* Everything start made, in the reverse order; h itself too. */
static void
teardown(struct al_prom_http *h)
{
	if (h->thread_started) {
		if (write(h->wake[1], "x", 1) < 0) {
			/* a pipe with room for it: cannot fail */
		}
		pthread_join(h->thread, NULL);
	}
	/* closes every connection: MHD's writes never block, so this is prompt */
	if (h->d)
		MHD_stop_daemon(h->d);
	if (h->fd >= 0)
		close(h->fd);
	close_pair(h->wake);
	close_pair(h->closed);
	pthread_mutex_destroy(&h->lock);
	free(h->page);
	free(h);
}

int
al_prom_http_start(const char *addr, struct al_prom_http **out, char *err, size_t err_size)
{
	struct addrinfo hints = { .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE,
				  .ai_socktype = SOCK_STREAM },
			*ai = NULL;
	struct al_prom_http *h;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char host[128], port[8];
	int one = 1, rc;

	*out = NULL;
	if (split_addr(addr, host, sizeof(host), port, sizeof(port))) {
		snprintf(err, err_size, "'%s' is not ADDRESS:PORT (a numeric address)", addr);
		return -EINVAL;
	}
	if (getaddrinfo(host, port, &hints, &ai)) {
		snprintf(err, err_size, "'%s' is not a numeric IPv4 or IPv6 address", host);
		return -EINVAL;
	}
	h = calloc(1, sizeof(*h));
	if (!h) {
		freeaddrinfo(ai);
		snprintf(err, err_size, "%s: %s", addr, strerror(ENOMEM));
		return -ENOMEM;
	}
	h->wake[0] = h->wake[1] = h->closed[0] = h->closed[1] = -1;
	pthread_mutex_init(&h->lock, NULL);
	atomic_init(&h->open, 0);
	h->fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (h->fd < 0)
		goto fail;
	setsockopt(h->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(h->fd, ai->ai_addr, ai->ai_addrlen) || listen(h->fd, LISTEN_BACKLOG))
		goto fail;
	if (getsockname(h->fd, (struct sockaddr *)&ss, &sl) == 0)
		h->port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
							 : ((struct sockaddr_in *)&ss)->sin_port);
	if (pipe2(h->wake, O_CLOEXEC) || pipe2(h->closed, O_CLOEXEC | O_NONBLOCK))
		goto fail;
	errno = 0;
	h->d = MHD_start_daemon(MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_NO_LISTEN_SOCKET |
					MHD_USE_ITC,
				0, NULL, NULL, on_request, h,
				MHD_OPTION_CONNECTION_LIMIT, (unsigned int)(2 * CONN_MAX),
				MHD_OPTION_CONNECTION_TIMEOUT, TIMEOUT_S,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)REQ_MAX,
				MHD_OPTION_NOTIFY_CONNECTION, on_connection, h,
				MHD_OPTION_END);
	if (!h->d) {
		if (!errno)
			errno = ENOMEM; /* MHD says no more than NULL */
		goto fail;
	}
	rc = pthread_create(&h->thread, NULL, accept_thread, h);
	if (rc) {
		errno = rc;
		goto fail;
	}
	h->thread_started = true;
	freeaddrinfo(ai);
	*out = h;
	return 0;
fail:
	rc = -errno;
	snprintf(err, err_size, "%s: %s", addr, strerror(errno));
	teardown(h);
	freeaddrinfo(ai);
	return rc;
}

int
al_prom_http_set(struct al_prom_http *h, const char *text)
{
	size_t len = strlen(text);
	char *copy = malloc(len + 1), *old;

	if (!copy)
		return -ENOMEM;
	memcpy(copy, text, len + 1);
	pthread_mutex_lock(&h->lock);
	old = h->page;
	h->page = copy;
	h->page_len = len;
	pthread_mutex_unlock(&h->lock);
	free(old);
	return 0;
}

int
al_prom_http_port(const struct al_prom_http *h)
{
	return h->port;
}

void
al_prom_http_stop(struct al_prom_http *h)
{
	if (h)
		teardown(h);
}
