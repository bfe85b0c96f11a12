/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat midi analyze (measure.h): read a Standard MIDI File, parse it
 * (smf.h) and take the statistics of its deltas (analyze.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/clock.h"
#include "core/url.h"
#include "analyze.h"
#include "measure.h"

#define SMF_MAX_BYTES (64 * 1024 * 1024)

/* The whole file at path into a new *buf; 0, or -errno with one line in err. */
static int
read_file(const char *path, uint8_t **buf, size_t *len, char *err, size_t err_size)
{
	struct stat st;
	uint8_t *b;
	size_t n = 0;
	FILE *f;

	f = fopen(path, "rbe");
	if (!f)
		return snprintf(err, err_size, "%s: %s", path, strerror(errno)), -errno;
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		fclose(f);
		snprintf(err, err_size, "%s: not a regular file", path);
		return -EINVAL;
	}
	if (st.st_size > SMF_MAX_BYTES) {
		fclose(f);
		snprintf(err, err_size, "%s: %lld bytes, more than a MIDI file of %d MiB", path,
			 (long long)st.st_size, SMF_MAX_BYTES >> 20);
		return -EFBIG;
	}
	b = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!b) {
		fclose(f);
		snprintf(err, err_size, "%s: out of memory", path);
		return -ENOMEM;
	}
	n = fread(b, 1, (size_t)st.st_size, f);
	if (ferror(f)) {
		fclose(f);
		free(b);
		snprintf(err, err_size, "%s: read error", path);
		return -EIO;
	}
	fclose(f);
	*buf = b;
	*len = n;
	return 0;
}

static void
file_info(const struct al_smf *smf, size_t bytes, struct al_midi_file_info *fi)
{
	fi->bytes = bytes;
	fi->rmid = smf->rmid;
	fi->format = smf->format;
	fi->n_tracks = smf->n_tracks;
	fi->division = smf->division;
	fi->ppq = smf->ppq;
	fi->smpte_fps = smf->smpte_fps;
	fi->ticks_per_frame = smf->ticks_per_frame;
	fi->n_tempos = smf->n_tempos;
	fi->n_events = smf->n_events;
	fi->duration_ns = smf->duration_ns;
	fi->tick_ns_min = smf->tick_ns_min;
}

int
al_midi_analyze_file(const struct al_midi_config *cfg, struct al_midi_result *r)
{
	struct al_smf_error serr;
	struct al_smf smf;
	uint8_t *buf = NULL;
	size_t len = 0;
	int rc;

	memset(r, 0, sizeof(*r));
	r->cfg = *cfg;
	r->stage = AL_MIDI_STAGE_INPUT;
	rc = read_file(cfg->file, &buf, &len, r->err, sizeof(r->err));
	if (rc)
		return rc;
	rc = al_smf_parse(buf, len, &smf, &serr);
	if (rc) {
		free(buf);
		snprintf(r->err, sizeof(r->err), "%s: byte %zu: %s", cfg->file, serr.offset, serr.msg);
		return rc;
	}
	r->stage = AL_MIDI_STAGE_NONE;
	r->has_file = true;
	file_info(&smf, len, &r->file);
	r->tick_ns = smf.tick_ns_max;
	r->st = malloc(sizeof(*r->st));
	if (!r->st || al_midi_analyze_smf(&smf, &cfg->filter, cfg->interval_ns, r->st)) {
		al_smf_free(&smf);
		free(buf);
		r->stage = AL_MIDI_STAGE_RUN;
		snprintf(r->err, sizeof(r->err), "out of memory");
		return -ENOMEM;
	}
	al_smf_free(&smf);
	free(buf);
	al_sysinfo_read("/", &r->sys);
	r->started_at_ns = al_clock_realtime_ns();
	if (al_uuid_random(r->uuid))
		r->uuid[0] = '\0'; /* the store makes one of the document's bytes */
	if (cfg->max_jitter_ns && r->st->deltas && r->st->jitter_abs_max_ns > cfg->max_jitter_ns)
		r->threshold = AL_MIDI_THRESH_JITTER_ABS;
	return 0;
}
