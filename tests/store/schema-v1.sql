-- SPDX-License-Identifier: GPL-2.0-or-later
-- The first schema of the results database (user_version 1), as the first
-- audiolat that had one created it: the fixture the migration tests start
-- from. Never change it; src/store/store.c migrates from it.
CREATE TABLE runs (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	saved_at TEXT NOT NULL,
	started_at TEXT,
	label TEXT,
	hostname TEXT,
	kernel_release TEXT,
	preempt TEXT,
	backend TEXT,
	rate_hz INTEGER,
	period_frames INTEGER,
	buffer_periods INTEGER,
	periods INTEGER,
	xruns INTEGER,
	wake_max_ns INTEGER,
	wake_p99_ns INTEGER,
	max_interval_pct REAL,
	within_1ms_pct REAL,
	within_2ms_pct REAL,
	document TEXT NOT NULL
);
CREATE INDEX runs_kernel ON runs(kernel_release);
PRAGMA application_id = 1095516500;
PRAGMA user_version = 1;
