/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * al_prom_http_route(): which requests get the /metrics page, given the
 * method and URL as libmicrohttpd hands them over. The input is "METHOD
 * URL": the method up to the first space (none: all of it, and an empty
 * URL), the URL after it (libmicrohttpd decodes %XX, so it may hold any
 * byte but NUL). Checks: the answer is 200, 404 or 405; 405 exactly when
 * the method is neither GET nor HEAD; 200 only for /metrics or
 * /metrics?...; head exactly for HEAD.
 */
#include <stdbool.h>

#include "metrics/prom.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_strndup(data, size > 4096 ? 4096 : size);
	char *sp = strchr(s, ' ');
	const char *method = s, *url = "";
	bool head = true; /* the route must set it */
	bool get_or_head;
	int r;

	if (sp) {
		*sp = '\0';
		url = sp + 1;
	}
	r = al_prom_http_route(method, url, &head);
	get_or_head = !strcmp(method, "GET") || !strcmp(method, "HEAD");
	FUZZ_CHECK(r == 200 || r == 404 || r == 405, "'%s' '%s': %d", method, url, r);
	FUZZ_CHECK((r == 405) == !get_or_head, "'%s' '%s': %d", method, url, r);
	FUZZ_CHECK(head == !strcmp(method, "HEAD"), "'%s' '%s': head %d", method, url, head);
	if (r == 200)
		FUZZ_CHECK(!strcmp(url, "/metrics") || !strncmp(url, "/metrics?", 9),
			   "'%s' '%s': 200", method, url);
	if (r == 404)
		FUZZ_CHECK(strcmp(url, "/metrics") && strncmp(url, "/metrics?", 9),
			   "'%s' '%s': 404", method, url);
	free(s);
	return 0;
}
