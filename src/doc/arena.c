/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The document arena (doc.h): jansson's allocations in mmap'd chunks,
 * unmapped all at once. From the heap, a large document's memory would
 * stay resident for good in a process that called mlockall(): freed heap
 * pages stay locked, and a locked page cannot be given back (MADV_DONTNEED
 * refuses it). audiolat monitor's checkpoints (tens of MB at the caps).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "doc.h"

#define ARENA_CHUNK (4u << 20)
#define ARENA_CHUNKS_MAX 256

static struct {
	char *chunk[ARENA_CHUNKS_MAX];
	size_t size[ARENA_CHUNKS_MAX];
	size_t n, used;
} arena;

static void *
arena_malloc(size_t size)
{
	size_t cap = arena.n ? arena.size[arena.n - 1] : 0;
	void *p;

	size = (size + 15) & ~(size_t)15;
	if (!arena.n || arena.used + size > cap) {
		size_t c = size > ARENA_CHUNK ? size : ARENA_CHUNK;

		if (arena.n == ARENA_CHUNKS_MAX)
			return NULL;
		p = mmap(NULL, c, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
		arena.chunk[arena.n] = p;
		arena.size[arena.n++] = c;
		arena.used = 0;
	}
	p = arena.chunk[arena.n - 1] + arena.used;
	arena.used += size;
	return p;
}

static void
arena_free(void *p)
{
	(void)p; /* all at once, in al_doc_arena_end() */
}

void
al_doc_arena_begin(void)
{
	json_set_alloc_funcs(arena_malloc, arena_free);
}

void
al_doc_arena_end(void)
{
	json_set_alloc_funcs(malloc, free);
	for (size_t i = 0; i < arena.n; i++)
		munmap(arena.chunk[i], arena.size[i]);
	arena.n = arena.used = 0;
}

char *
al_doc_arena_text(const json_t *doc)
{
	size_t len = json_dumpb(doc, NULL, 0, JSON_INDENT(2));
	char *text = len ? arena_malloc(len + 2) : NULL;

	if (text) {
		json_dumpb(doc, text, len, JSON_INDENT(2));
		memcpy(text + len, "\n", 2);
	}
	return text;
}
