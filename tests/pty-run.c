/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pty-run: run a command with its stderr on a pseudo-terminal, so that it
 * draws what it draws on a terminal (audiolat's live status line), and copy
 * what it writes there to a file as it comes.
 *
 *	pty-run [-o OUT] LOG CMD [ARG...]
 *
 * CMD's stdin is /dev/null, its stdout OUT (default: the terminal too), its
 * stderr the terminal. Exits with CMD's exit status (128 + the signal if a
 * signal ended it). A stopped CMD (SIGSTOP) is not an end: script(1) stops
 * itself when its child stops and may never wake, which is why this exists.
 * Descendants of CMD that keep the terminal open do not keep pty-run: once
 * CMD has ended, what is left to read is copied and pty-run exits.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void
usage(void)
{
	fprintf(stderr, "usage: pty-run [-o OUT] LOG CMD [ARG...]\n");
	exit(2);
}

/* Copy what the terminal has for us now to log; false at its end. */
static int
copy_once(int master, int log, int timeout_ms)
{
	struct pollfd p = { .fd = master, .events = POLLIN };
	char buf[4096];
	ssize_t n;

	if (poll(&p, 1, timeout_ms) <= 0)
		return 1;
	n = read(master, buf, sizeof(buf));
	if (n <= 0)
		return 0; /* EIO: every slave side is closed */
	if (write(log, buf, (size_t)n) != n)
		return 0;
	return 1;
}

int
main(int argc, char **argv)
{
	const char *out = NULL;
	int master, log, st, opt, fd;
	pid_t pid, r;

	while ((opt = getopt(argc, argv, "+o:")) != -1) {
		if (opt != 'o')
			usage();
		out = optarg;
	}
	if (argc - optind < 2)
		usage();
	log = open(argv[optind], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (log < 0) {
		fprintf(stderr, "pty-run: %s: %s\n", argv[optind], strerror(errno));
		return 1;
	}
	pid = forkpty(&master, NULL, NULL, NULL);
	if (pid < 0) {
		fprintf(stderr, "pty-run: forkpty: %s\n", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		fd = open("/dev/null", O_RDONLY);
		if (fd >= 0 && fd != 0) {
			dup2(fd, 0);
			close(fd);
		}
		if (out) {
			fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			if (fd < 0) {
				fprintf(stderr, "pty-run: %s: %s\n", out, strerror(errno));
				_exit(127);
			}
			dup2(fd, 1);
			close(fd);
		}
		execvp(argv[optind + 1], argv + optind + 1);
		fprintf(stderr, "pty-run: %s: %s\n", argv[optind + 1], strerror(errno));
		_exit(127);
	}
	for (;;) {
		r = waitpid(pid, &st, WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			fprintf(stderr, "pty-run: waitpid: %s\n", strerror(errno));
			return 1;
		}
		if (!copy_once(master, log, 50)) {
			/* the terminal is closed: only the exit status is left */
			while (waitpid(pid, &st, 0) < 0)
				if (errno != EINTR)
					return 1;
			break;
		}
	}
	/* CMD has ended: what it wrote last, not what its descendants go on writing */
	while (copy_once(master, log, 0))
		;
	close(log);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}
