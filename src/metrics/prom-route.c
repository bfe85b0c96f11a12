/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which requests get the /metrics page: the routing of prom-http.c's
 * handler without libmicrohttpd, so that a unit test and a fuzz target
 * can call it alone.
 */
#include <stdbool.h>
#include <string.h>

#include "prom.h"

int
al_prom_http_route(const char *method, const char *url, bool *head)
{
	*head = !strcmp(method, "HEAD");
	if (strcmp(method, "GET") && !*head)
		return 405;
	if (strcmp(url, "/metrics") && strncmp(url, "/metrics?", 9))
		return 404;
	return 200;
}
