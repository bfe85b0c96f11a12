/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * /metrics over HTTP, by hand: a library (libmicrohttpd) would bring
 * threads, TLS and options this one page needs none of. Limits: a request
 * of 4 KiB read within 2 s, one connection at a time, GET and HEAD.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/clock.h"
#include "prom.h"

#define REQ_MAX 4096
#define REQ_TIMEOUT_NS (2 * AL_NS_PER_SEC)

struct al_prom_http {
	int fd;
	int wake[2];   /* a pipe: stop */
	int port;
	pthread_t thread;
	pthread_mutex_t lock;
	char *page;
};

static void
send_all(int fd, const char *s, size_t len)
{
	while (len) {
		ssize_t n = send(fd, s, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		s += n;
		len -= (size_t)n;
	}
}

static void
reply(int fd, const char *status, const char *type, const char *body, bool head)
{
	char hdr[256];
	size_t len = body ? strlen(body) : 0;
	int n = snprintf(hdr, sizeof(hdr),
			 "HTTP/1.1 %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
			 "Connection: close\r\n\r\n",
			 status, type, len);

	send_all(fd, hdr, (size_t)n);
	if (!head && len)
		send_all(fd, body, len);
}

/* Read the request head (up to the blank line) within the limits; its length, or -1/-2. */
static int
read_head(int fd, char *req, size_t size)
{
	int64_t deadline_ns = al_clock_now_ns() + REQ_TIMEOUT_NS;
	size_t len = 0;

	for (;;) {
		int64_t left_ns = deadline_ns - al_clock_now_ns();
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (left_ns <= 0 || poll(&p, 1, (int)(left_ns / AL_NS_PER_MS) + 1) <= 0)
			return -1; /* too slow */
		n = recv(fd, req + len, size - 1 - len, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		len += (size_t)n;
		req[len] = '\0';
		if (strstr(req, "\r\n\r\n") || strstr(req, "\n\n"))
			return (int)len;
		if (len >= size - 1)
			return -2; /* too large */
	}
}

int
al_prom_http_route(const char *req, bool *head)
{
	char method[8], path[256];

	*head = false;
	if (sscanf(req, "%7s %255s HTTP/1.", method, path) != 2 || !strstr(req, " HTTP/1."))
		return 400;
	*head = !strcmp(method, "HEAD");
	if (strcmp(method, "GET") && !*head)
		return 405;
	if (strcmp(path, "/metrics") && strncmp(path, "/metrics?", 9))
		return 404;
	return 200;
}

static void
serve(struct al_prom_http *h, int fd)
{
	char req[REQ_MAX + 1];
	int n = read_head(fd, req, sizeof(req));
	bool head;

	if (n == -2) {
		reply(fd, "431 Request Header Fields Too Large", "text/plain", "too large\n", false);
		return;
	}
	if (n < 0) {
		reply(fd, "408 Request Timeout", "text/plain", "timeout\n", false);
		return;
	}
	switch (al_prom_http_route(req, &head)) {
	case 400:
		reply(fd, "400 Bad Request", "text/plain", "bad request\n", false);
		return;
	case 405:
		reply(fd, "405 Method Not Allowed", "text/plain", "GET only\n", false);
		return;
	case 404:
		reply(fd, "404 Not Found", "text/plain", "see /metrics\n", head);
		return;
	default:
		break;
	}
	pthread_mutex_lock(&h->lock);
	reply(fd, "200 OK", "text/plain; version=0.0.4; charset=utf-8", h->page ? h->page : "",
	      head);
	pthread_mutex_unlock(&h->lock);
}

static void *
http_thread(void *arg)
{
	struct al_prom_http *h = arg;

	for (;;) {
		struct pollfd p[2] = { { .fd = h->fd, .events = POLLIN },
				       { .fd = h->wake[0], .events = POLLIN } };
		int c;

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[1].revents)
			break;
		if (!(p[0].revents & POLLIN))
			continue;
		c = accept4(h->fd, NULL, NULL, SOCK_CLOEXEC);
		if (c < 0)
			continue;
		serve(h, c);
		shutdown(c, SHUT_WR);
		close(c);
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
		return -ENOMEM;
	}
	h->wake[0] = h->wake[1] = -1;
	h->fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (h->fd < 0)
		goto fail;
	setsockopt(h->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(h->fd, ai->ai_addr, ai->ai_addrlen) || listen(h->fd, 8))
		goto fail;
	if (getsockname(h->fd, (struct sockaddr *)&ss, &sl) == 0)
		h->port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
							 : ((struct sockaddr_in *)&ss)->sin_port);
	if (pipe2(h->wake, O_CLOEXEC))
		goto fail;
	pthread_mutex_init(&h->lock, NULL);
	rc = pthread_create(&h->thread, NULL, http_thread, h);
	if (rc) {
		errno = rc;
		pthread_mutex_destroy(&h->lock);
		goto fail;
	}
	freeaddrinfo(ai);
	*out = h;
	return 0;
fail:
	rc = -errno;
	snprintf(err, err_size, "%s: %s", addr, strerror(errno));
	if (h->fd >= 0)
		close(h->fd);
	if (h->wake[0] >= 0) {
		close(h->wake[0]);
		close(h->wake[1]);
	}
	free(h);
	freeaddrinfo(ai);
	return rc;
}

int
al_prom_http_set(struct al_prom_http *h, const char *text)
{
	char *copy = strdup(text);

	if (!copy)
		return -ENOMEM;
	pthread_mutex_lock(&h->lock);
	free(h->page);
	h->page = copy;
	pthread_mutex_unlock(&h->lock);
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
	if (!h)
		return;
	if (write(h->wake[1], "x", 1) < 0) {
		/* the thread is not woken: it holds nothing but the socket */
	}
	pthread_join(h->thread, NULL);
	close(h->fd);
	close(h->wake[0]);
	close(h->wake[1]);
	pthread_mutex_destroy(&h->lock);
	free(h->page);
	free(h);
}
