/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A libFuzzer stand-in for the normal (gcc) build: feeds every file of the
 * corpus, and a deterministic set of mutations of each, to the target's
 * LLVMFuzzerTestOneInput() and prints TAP, one line per corpus file.
 *
 *	fuzz-NAME [-n MUTATIONS] [-s SEED] CORPUS_DIR|FILE...
 *
 * For each corpus file: the file itself, every truncation, one bit flip
 * per byte, then MUTATIONS (default 300) stacked random edits (bit flips,
 * interesting bytes, insertions of bytes and tokens, deletions,
 * duplications, splices from the other corpus files) from a xorshift PRNG
 * seeded with SEED and the file's name, so a run is reproducible and does
 * not depend on the other files. -n 0 runs the files alone (reproducers).
 *
 * A target reports a broken invariant with abort(); the signal handler then
 * prints the input (C-escaped) and writes it to NAME-crash.bin in the
 * current directory (meson: the build directory) before dying, so the test
 * fails with a reproducer.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"

#define FUZZ_MAX_INPUT 4096
#define FUZZ_MAX_PREFIXES 256

struct corpus_file {
	char *path;
	const char *name; /* basename, in path */
	uint8_t *data;
	size_t size;
};

struct corpus {
	struct corpus_file *f;
	size_t n, cap;
};

static const char *target = "fuzz";

/* What runs now, for the crash handler. */
static const char *volatile cur_file;
static volatile unsigned long cur_index;
static const uint8_t *volatile cur_data;
static volatile size_t cur_size;

static uint64_t rng_state;
static char crash_path[4096]; /* set before the first input */

static const char *const tokens[] = {
	"0", "1", "-1", "+", "-", ".", ",", ":", "=", " ", "'", "\"", "\n", "--", "-0",
	"00000000000000000000", "9223372036854775807", "9223372036854775808",
	"-9223372036854775808", "18446744073709551616", "2147483647", "2147483648",
	"4294967296", "999999999999", "0.000000000000001", ".5", "1.", "ns", "us", "ms", "s",
	"m", "min", "h", "sec",
};

static const uint8_t interesting[] = {
	'0', '1', '9', '.', ',', ':', '+', '-', '=', ' ', '\t', '\n', '\0', '\'', '"', 'h', 's',
	0x7f, 0x80, 0xff,
};

static uint64_t
rng(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static size_t
rng_below(size_t n)
{
	return n ? (size_t)(rng() % n) : 0;
}

static uint64_t
fnv1a(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

/* Async-signal-safe output helpers. */
static void
put(int fd, const char *s, size_t len)
{
	ssize_t w;

	while (len) {
		w = write(fd, s, len);
		if (w <= 0)
			return;
		s += w;
		len -= (size_t)w;
	}
}

static void
puts_fd(int fd, const char *s)
{
	put(fd, s, strlen(s));
}

static void
putu_fd(int fd, unsigned long v)
{
	char buf[24];
	size_t i = sizeof(buf);

	do {
		buf[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	put(fd, buf + i, sizeof(buf) - i);
}

static void
on_crash(int sig)
{
	static const char hex[] = "0123456789abcdef";
	const uint8_t *d = cur_data;
	size_t n = cur_size, i;
	char esc[4];
	int fd;

	puts_fd(1, "# ");
	puts_fd(1, target);
	puts_fd(1, ": signal ");
	putu_fd(1, (unsigned long)sig);
	puts_fd(1, " on ");
	puts_fd(1, cur_file ? cur_file : "?");
	puts_fd(1, " input #");
	putu_fd(1, cur_index);
	puts_fd(1, " (");
	putu_fd(1, (unsigned long)n);
	puts_fd(1, " bytes): \"");
	for (i = 0; d && i < n; i++) {
		if (d[i] == '\\' || d[i] == '"') {
			esc[0] = '\\';
			esc[1] = (char)d[i];
			put(1, esc, 2);
		} else if (d[i] >= 0x20 && d[i] < 0x7f) {
			put(1, (const char *)&d[i], 1);
		} else {
			esc[0] = '\\';
			esc[1] = 'x';
			esc[2] = hex[d[i] >> 4];
			esc[3] = hex[d[i] & 15];
			put(1, esc, 4);
		}
	}
	puts_fd(1, "\"\n");
	fd = open(crash_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0) {
		if (d)
			put(fd, (const char *)d, n);
		close(fd);
		puts_fd(1, "# reproducer: ");
		puts_fd(1, crash_path);
		puts_fd(1, " (replay: ");
		puts_fd(1, target);
		puts_fd(1, " -n 0 FILE)\n");
	}
	puts_fd(1, "Bail out! ");
	puts_fd(1, target);
	puts_fd(1, " crashed\n");
	signal(sig, SIG_DFL);
	raise(sig);
}

static int
read_file(const char *path, uint8_t **data, size_t *size)
{
	uint8_t *buf = malloc(FUZZ_MAX_INPUT);
	size_t n = 0;
	FILE *f;

	if (!buf)
		return -ENOMEM;
	f = fopen(path, "rb");
	if (!f) {
		free(buf);
		return -errno;
	}
	n = fread(buf, 1, FUZZ_MAX_INPUT, f);
	fclose(f);
	*data = buf;
	*size = n;
	return 0;
}

static int
add_file(struct corpus *c, const char *path)
{
	struct corpus_file *cf;
	const char *slash;
	int r;

	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16;
		c->f = realloc(c->f, c->cap * sizeof(*c->f));
		if (!c->f)
			return -ENOMEM;
	}
	cf = &c->f[c->n];
	cf->path = strdup(path);
	if (!cf->path)
		return -ENOMEM;
	slash = strrchr(cf->path, '/');
	cf->name = slash ? slash + 1 : cf->path;
	r = read_file(path, &cf->data, &cf->size);
	if (r) {
		free(cf->path);
		return r;
	}
	c->n++;
	return 0;
}

static int
skip_dot(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

static int
add_path(struct corpus *c, const char *path)
{
	struct dirent **list;
	struct stat st;
	size_t len;
	char *p;
	int i, n, r = 0;

	if (stat(path, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return add_file(c, path);
	n = scandir(path, &list, skip_dot, alphasort);
	if (n < 0)
		return -errno;
	for (i = 0; i < n; i++) {
		len = strlen(path) + strlen(list[i]->d_name) + 2;
		p = r ? NULL : malloc(len);
		if (p) {
			snprintf(p, len, "%s/%s", path, list[i]->d_name);
			if (!stat(p, &st) && S_ISREG(st.st_mode))
				r = add_file(c, p);
			free(p);
		}
		free(list[i]);
	}
	free(list);
	return r;
}

/* Run one input from an exact-size heap copy (so overreads show under ASan). */
static void
run_one(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);

	if (!copy)
		abort();
	memcpy(copy, data, size);
	cur_data = copy;
	cur_size = size;
	LLVMFuzzerTestOneInput(copy, size);
	cur_data = NULL;
	free(copy);
	cur_index++;
}

static size_t
insert(uint8_t *buf, size_t size, size_t pos, const void *src, size_t len)
{
	if (size + len > FUZZ_MAX_INPUT)
		len = FUZZ_MAX_INPUT - size;
	memmove(buf + pos + len, buf + pos, size - pos);
	memcpy(buf + pos, src, len);
	return size + len;
}

/* One to four random edits of buf (capacity FUZZ_MAX_INPUT); the new size. */
static size_t
mutate(uint8_t *buf, size_t size, const struct corpus *c)
{
	int n_ops = 1 + (int)rng_below(4), k;
	size_t pos, len, from;
	const struct corpus_file *o;
	const char *t;
	uint8_t b;

	for (k = 0; k < n_ops; k++) {
		pos = rng_below(size + 1);
		switch (rng_below(9)) {
		case 0: /* flip a bit */
			if (size)
				buf[rng_below(size)] ^= (uint8_t)(1u << rng_below(8));
			break;
		case 1: /* overwrite with an interesting byte */
			if (size)
				buf[rng_below(size)] = interesting[rng_below(sizeof(interesting))];
			break;
		case 2: /* insert a random byte, mostly printable */
			b = rng_below(4) ? (uint8_t)(0x20 + rng_below(0x5f)) : (uint8_t)rng();
			size = insert(buf, size, pos, &b, 1);
			break;
		case 3: /* insert a token */
			t = tokens[rng_below(sizeof(tokens) / sizeof(tokens[0]))];
			size = insert(buf, size, pos, t, strlen(t));
			break;
		case 4: /* delete a range */
			if (pos < size) {
				len = 1 + rng_below(size - pos < 8 ? size - pos : 8);
				memmove(buf + pos, buf + pos + len, size - pos - len);
				size -= len;
			}
			break;
		case 5: /* duplicate a range */
			if (pos < size) {
				uint8_t tmp[64];

				len = 1 + rng_below(size - pos < sizeof(tmp) ? size - pos : sizeof(tmp));
				memcpy(tmp, buf + pos, len);
				size = insert(buf, size, rng_below(size + 1), tmp, len);
			}
			break;
		case 6: /* splice in a piece of another corpus file */
			o = &c->f[rng_below(c->n)];
			if (o->size) {
				from = rng_below(o->size);
				len = 1 + rng_below(o->size - from);
				size = insert(buf, size, pos, o->data + from, len);
			}
			break;
		case 7: /* truncate */
			size = pos;
			break;
		default: /* repeat the last byte many times */
			if (size) {
				uint8_t tmp[64];

				len = 1 + rng_below(sizeof(tmp));
				memset(tmp, buf[size - 1], len);
				size = insert(buf, size, pos, tmp, len);
			}
			break;
		}
	}
	return size;
}

static void
fuzz_file(const struct corpus *c, const struct corpus_file *cf, unsigned long n_mut,
	  uint64_t seed)
{
	static uint8_t buf[FUZZ_MAX_INPUT];
	size_t i, size;
	unsigned long m;

	cur_file = cf->name;
	run_one(cf->data, cf->size);
	if (!n_mut)
		return;
	/* every truncation */
	for (i = 0; i < cf->size && i < FUZZ_MAX_PREFIXES; i++)
		run_one(cf->data, i);
	rng_state = (seed ^ fnv1a(cf->name)) | 1;
	/* one bit flip per byte */
	for (i = 0; i < cf->size && i < FUZZ_MAX_PREFIXES; i++) {
		memcpy(buf, cf->data, cf->size);
		buf[i] ^= (uint8_t)(1u << rng_below(8));
		run_one(buf, cf->size);
	}
	/* stacked random edits */
	for (m = 0; m < n_mut; m++) {
		memcpy(buf, cf->data, cf->size);
		size = mutate(buf, cf->size, c);
		run_one(buf, size);
	}
}

static void
usage(void)
{
	fprintf(stderr, "usage: %s [-n MUTATIONS] [-s SEED] CORPUS_DIR|FILE...\n", target);
}

int
main(int argc, char **argv)
{
	struct corpus c = { 0 };
	unsigned long n_mut = 300, total = 0;
	uint64_t seed = 0x616c6c6174ULL; /* "allat" */
	struct timespec t0, t1;
	const char *slash;
	char *end;
	size_t i;
	int opt, r;

	slash = strrchr(argv[0], '/');
	target = slash ? slash + 1 : argv[0];
	while ((opt = getopt(argc, argv, "n:s:h")) != -1) {
		switch (opt) {
		case 'n':
			n_mut = strtoul(optarg, &end, 10);
			if (*end || !*optarg) {
				usage();
				return 2;
			}
			break;
		case 's':
			seed = strtoull(optarg, &end, 0);
			if (*end || !*optarg) {
				usage();
				return 2;
			}
			break;
		default:
			usage();
			return opt == 'h' ? 0 : 2;
		}
	}
	if (optind >= argc) {
		usage();
		return 2;
	}
	for (; optind < argc; optind++) {
		r = add_path(&c, argv[optind]);
		if (r) {
			printf("Bail out! %s: %s: %s\n", target, argv[optind], strerror(-r));
			return 1;
		}
	}
	if (!c.n) {
		printf("Bail out! %s: no corpus files\n", target);
		return 1;
	}
	if (!getcwd(crash_path, sizeof(crash_path) - 256))
		strcpy(crash_path, ".");
	snprintf(crash_path + strlen(crash_path), 256, "/%.200s-crash.bin", target);
	signal(SIGABRT, on_crash);
	signal(SIGSEGV, on_crash);
	signal(SIGBUS, on_crash);
	signal(SIGFPE, on_crash);
	signal(SIGILL, on_crash);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < c.n; i++) {
		fuzz_file(&c, &c.f[i], n_mut, seed);
		printf("ok %zu - %s %s\n", i + 1, target, c.f[i].name);
		fflush(stdout);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	total = cur_index;
	printf("# %s: %lu inputs from %zu corpus files in %.2f s\n", target, total, c.n,
	       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	printf("1..%zu\n", c.n);
	for (i = 0; i < c.n; i++) {
		free(c.f[i].path);
		free(c.f[i].data);
	}
	free(c.f);
	return 0;
}
