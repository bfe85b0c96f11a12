#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Run a cmocka test (CMOCKA_MESSAGE_OUTPUT=TAP) and pass its TAP on, with
# cmocka 1.1.5's line for a skipped test, "not ok N # SKIP name", made the
# TAP skip it means, "ok N # SKIP name": meson counts "not ok ... # SKIP" as
# a failure. Everything else, and the exit status, is the test's own.
#   cmocka-tap.sh TEST [ARGS...]
set -o pipefail
"$@" | sed -u -E 's/^not ok ([0-9]+) # (SKIP|skip)\b/ok \1 # \2/'
