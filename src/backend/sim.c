/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The "sim" backend: a simulated playback card (simcard.c) that needs no
 * hardware. The thread sleeps with clock_nanosleep(TIMER_ABSTIME) until one
 * period of space is free, as a real playback application blocks in
 * poll()/snd_pcm_wait(). --sim-tail XI,SIGMA,P puts off a period's
 * wake-up, with probability P, by a generalised Pareto draw (a known tail
 * for docs/tail.md; a fixed seed, at most 1 s).
 */
#include <errno.h>
#include <math.h>

#include "core/clock.h"
#include "sim.h"
#include "simcard.h"

#define SIM_TAIL_SEED 0x5eed7a11ULL
#define SIM_TAIL_MAX_NS AL_NS_PER_SEC

struct sim {
	struct al_simcard card;
	double xi, sigma_ns, p; /* --sim-tail; p = 0: none */
	uint64_t rng;
};

/* splitmix64: a uniform in (0, 1) */
static double
sim_uniform(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

/* How long this period's wake-up is put off: 0, or sigma / xi (U^-xi - 1) with probability p. */
static int64_t
sim_tail_ns(struct sim *s)
{
	double u, y;

	if (!(s->p > 0) || sim_uniform(&s->rng) >= s->p)
		return 0;
	u = sim_uniform(&s->rng);
	y = fabs(s->xi) < 1e-12 ? -s->sigma_ns * log(u) : s->sigma_ns / s->xi * (pow(u, -s->xi) - 1);
	return y < (double)SIM_TAIL_MAX_NS ? (int64_t)y : SIM_TAIL_MAX_NS;
}

static int
sim_open(void *priv, struct al_config *cfg)
{
	struct sim *s = priv;

	al_simcard_init(&s->card, cfg->rate_hz, cfg->period_frames, cfg->periods);
	s->xi = cfg->sim_tail_xi;
	s->sigma_ns = (double)cfg->sim_tail_sigma_ns;
	s->p = cfg->sim_tail_p;
	s->rng = SIM_TAIL_SEED;
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
	int64_t until_ns = w->boundary_ns + sim_tail_ns(s);

	do
		rc = al_clock_sleep_until_ns(until_ns);
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
