/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * al_prom_http_route(): the /metrics handler's reading of a request head.
 * Checks: the answer is 200, 400, 404 or 405; 200 only for GET or HEAD of
 * /metrics (or /metrics?...) with an HTTP/1 version; HEAD only with HEAD.
 */
#include <stdbool.h>

#include "metrics/prom.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_strndup(data, size > 4096 ? 4096 : size);
	bool head = true;
	int r = al_prom_http_route(s, &head);
	const char *p = s;

	FUZZ_CHECK(r == 200 || r == 400 || r == 404 || r == 405, "'%s': %d", s, r);
	if (r == 200) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\v' || *p == '\f')
			p++;
		FUZZ_CHECK(!strncmp(p, "GET", 3) || !strncmp(p, "HEAD", 4), "'%s': 200", s);
		FUZZ_CHECK(strstr(s, "/metrics") && strstr(s, " HTTP/1."), "'%s': 200", s);
		FUZZ_CHECK(head == !strncmp(p, "HEAD", 4), "'%s': head %d", s, head);
	}
	if (r == 400)
		FUZZ_CHECK(!head, "'%s': 400 with head", s);
	free(s);
	return 0;
}
