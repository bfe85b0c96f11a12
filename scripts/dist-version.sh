#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# meson dist: write the version of the commit into the tarball
# (.tarball-version), for scripts/version.sh where there is no git.
set -eu
"$MESON_SOURCE_ROOT/scripts/version.sh" "$1" --commit >"$MESON_DIST_ROOT/.tarball-version"
