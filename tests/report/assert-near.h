/* SPDX-License-Identifier: GPL-2.0-or-later */
/* assert_near(x, want, tol) for the cmocka tests of statistics (after <cmocka.h> and <math.h>). */
#ifndef AL_TESTS_ASSERT_NEAR_H
#define AL_TESTS_ASSERT_NEAR_H

#define assert_near(x, want, tol)                                                                  \
	do {                                                                                       \
		double x_ = (x), w_ = (want);                                                      \
		if (!(fabs(x_ - w_) <= (tol)))                                                     \
			fail_msg("%s = %.6g, want %.6g +- %.3g", #x, x_, w_, (double)(tol));       \
	} while (0)

#endif
