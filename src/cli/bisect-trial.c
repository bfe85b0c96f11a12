/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat bisect's trials: the user's command, its document, the database (bisect-trial.h). */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "doc/doc.h"
#include "store/store.h"
#include "bisect-trial.h"
#include "cli.h"

extern char **environ;

static const char *const scratch_files[] = { "out.json", "stdout", "commit" };

int
cli_trial_open(struct cli_trial *t)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(t->dir, sizeof(t->dir), "%s/audiolat-bisect.XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
	return mkdtemp(t->dir) ? 0 : -errno;
}

static void
scratch(const struct cli_trial *t, const char *name, char *buf, size_t size)
{
	snprintf(buf, size, "%s/%s", t->dir, name);
}

void
cli_trial_close(struct cli_trial *t)
{
	char path[PATH_MAX + 16];

	if (!t->dir[0])
		return;
	for (size_t i = 0; i < sizeof(scratch_files) / sizeof(scratch_files[0]); i++) {
		scratch(t, scratch_files[i], path, sizeof(path));
		unlink(path);
	}
	rmdir(t->dir);
	t->dir[0] = '\0';
}

/*
 * argv run with its stdout to the file out, its stderr audiolat's (quiet:
 * /dev/null): its wait status into *status. 0, or -errno (it could not
 * be started).
 */
static int
spawn_wait(char *const *argv, const char *out, bool quiet, int *status)
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int rc;

	if (posix_spawn_file_actions_init(&fa))
		return -ENOMEM;
	rc = posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, out, O_WRONLY | O_CREAT | O_TRUNC,
					      0600);
	if (!rc && quiet)
		rc = posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	if (!rc)
		rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc)
		return -rc;
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

void
cli_trial_commit(struct cli_trial *t, char *buf, size_t size)
{
	char *const argv[] = { "git", "rev-parse", "HEAD", NULL };
	char path[PATH_MAX + 16], *text = NULL;
	size_t len = 0;
	int st;

	buf[0] = '\0';
	scratch(t, "commit", path, sizeof(path));
	if (spawn_wait(argv, path, true, &st) || !WIFEXITED(st) || WEXITSTATUS(st) ||
	    al_doc_read_text(path, 256, &text, &len))
		return;
	while (len && (text[len - 1] == '\n' || text[len - 1] == '\r'))
		text[--len] = '\0';
	if (len && len < size && !strpbrk(text, " \t\n"))
		memcpy(buf, text, len + 1);
	free(text);
}

/* What the command wrote to the file path, to audiolat's stderr (its chatter, when not the document). */
static void
show_file(const char *path)
{
	char buf[4096];
	size_t n;
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, stderr);
	fclose(f);
}

/* The command of trial i: run, and its document's file into doc_path; 0 or -errno with err. */
static int
run_command(struct cli_trial *t, unsigned i, char *doc_path, size_t size, char *err,
	    size_t err_size)
{
	char out[PATH_MAX + 16], num[16];
	struct stat sb;
	bool failed;
	int st, rc;

	scratch(t, "out.json", doc_path, size);
	scratch(t, "stdout", out, sizeof(out));
	unlink(doc_path);
	snprintf(num, sizeof(num), "%u", i + 1);
	if (setenv("AUDIOLAT_BISECT_OUT", doc_path, 1) || setenv("AUDIOLAT_BISECT_TRIAL", num, 1))
		return snprintf(err, err_size, "%s", strerror(errno)), -errno;
	rc = spawn_wait(t->argv, out, false, &st);
	if (rc)
		return snprintf(err, err_size, "%s: %s", t->argv[0], strerror(-rc)), rc;
	/* no document in $AUDIOLAT_BISECT_OUT: its stdout is; else (and after a failure) chatter */
	if (stat(doc_path, &sb) || !sb.st_size)
		snprintf(doc_path, size, "%s", out);
	failed = WIFSIGNALED(st) || WEXITSTATUS(st);
	if (failed || strcmp(doc_path, out))
		show_file(out);
	if (failed)
		return snprintf(err, err_size, "the command %s %d",
				WIFSIGNALED(st) ? "was killed by signal" : "exited with",
				WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st)), -ECHILD;
	return 0;
}

/* A database that did not take the trial: one warning (cli_store_save_as()'s words). */
static void
refused(void *ud, const char *shown, int err, const char *why, bool last)
{
	(void)ud;
	(void)err;
	cli_warn("results database %s: %s: %s", shown, why,
		 last ? "the trial was not saved" : "trying the next one");
}

int
cli_trial_run(void *ud, unsigned i, json_t **doc, int64_t *id, char *err, size_t err_size)
{
	struct cli_trial *t = ud;
	char path[PATH_MAX + 16], shown[PATH_MAX], why[512];
	char *text;
	int rc;

	*doc = NULL;
	*id = 0;
	rc = run_command(t, i, path, sizeof(path), err, err_size);
	if (rc)
		return rc;
	rc = al_doc_read(path, doc, why, sizeof(why));
	if (!rc)
		rc = al_doc_check(*doc, why, sizeof(why));
	if (!rc && strncmp(al_doc_str(*doc, "schema", ""), "audiolat.run/", 13))
		rc = -EINVAL, snprintf(why, sizeof(why), "a %s, not a run",
				       al_doc_str(*doc, "schema", "?"));
	if (!rc && json_object_set_new(*doc, "label", json_string(t->label)))
		rc = -ENOMEM, snprintf(why, sizeof(why), "%s", strerror(ENOMEM));
	if (rc)
		return snprintf(err, err_size, "the command's document: %s", why), rc;
	text = al_doc_text(*doc, 0);
	if (!text)
		return snprintf(err, err_size, "%s", strerror(ENOMEM)), -ENOMEM;
	rc = al_store_save_first(t->db, text, "bisect", id, shown, sizeof(shown), refused, NULL);
	free(text);
	if (rc) {
		t->store_failed = true;
		return snprintf(err, err_size, "not saved in %s", shown[0] ? shown : "the database"),
		       rc;
	}
	if (!t->quiet)
		fprintf(stderr, "saved trial %u as run %lld (%s)\n", i + 1, (long long)*id, shown);
	return 0;
}
