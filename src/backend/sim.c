/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The "sim" backend: a simulated playback card (simcard.c) that needs no
 * hardware. The thread sleeps with clock_nanosleep(TIMER_ABSTIME) until one
 * period of space is free, as a real playback application blocks in
 * poll()/snd_pcm_wait().
 */
#include <errno.h>

#include "core/clock.h"
#include "sim.h"
#include "simcard.h"

struct sim {
	struct al_simcard card;
};

static int
sim_open(void *priv, struct al_config *cfg)
{
	struct sim *s = priv;

	al_simcard_init(&s->card, cfg->rate_hz, cfg->period_frames, cfg->periods);
	return 0;
}

static int
sim_start(void *priv, int64_t *start_ns)
{
	struct sim *s = priv;

	*start_ns = al_clock_now_ns();
	al_simcard_start(&s->card, *start_ns);
	return 0;
}

static int
sim_wait(void *priv, struct al_wake *w)
{
	struct sim *s = priv;
	int rc;

	w->boundary_ns = al_simcard_next_boundary_ns(&s->card);
	do
		rc = al_clock_sleep_until_ns(w->boundary_ns);
	while (rc == -EINTR);
	if (rc)
		return rc;
	w->wake_ns = al_clock_now_ns();
	return 0;
}

static int
sim_write(void *priv, int64_t now_ns, struct al_write_info *wi)
{
	struct sim *s = priv;

	al_simcard_write(&s->card, now_ns, wi);
	return 0;
}

static int
sim_stop(void *priv)
{
	(void)priv;
	return 0;
}

static void
sim_close(void *priv)
{
	(void)priv;
}

const struct al_backend_ops al_backend_sim = {
	.name = "sim",
	.summary = "simulated playback card drained by CLOCK_MONOTONIC (no hardware)",
	.caps = 0, /* playback only, no devices: -D is refused */
	.priv_size = sizeof(struct sim),
	.open = sim_open,
	.start = sim_start,
	.wait = sim_wait,
	.write = sim_write,
	.stop = sim_stop,
	.close = sim_close,
};
