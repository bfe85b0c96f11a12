/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "roundtrip.h"

const char *
al_mtdm_status_name(enum al_mtdm_status s)
{
	switch (s) {
	case AL_MTDM_VALID:
		return "valid";
	case AL_MTDM_NO_SIGNAL:
		return "no-signal";
	case AL_MTDM_UNSTABLE:
		return "unstable";
	}
	return "?";
}

const char *
al_roundtrip_why_text(enum al_roundtrip_why why)
{
	switch (why) {
	case AL_ROUNDTRIP_OK:
		return "the readings agree";
	case AL_ROUNDTRIP_NEVER_VALID:
		return "no valid reading in the whole run";
	case AL_ROUNDTRIP_NOT_SETTLED:
		return "the run ended before the readings settled (1 s after the first valid one)";
	case AL_ROUNDTRIP_LOST:
		return "some readings after settling were not valid";
	case AL_ROUNDTRIP_SPREAD:
		return "the readings after settling spread over more than 1 frame";
	case AL_ROUNDTRIP_POLARITY:
		return "the readings after settling disagree about polarity";
	}
	return "?";
}
