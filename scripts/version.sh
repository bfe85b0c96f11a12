#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Print audiolat's version (meson's vcs_tag runs it at every build):
#   git describe of the newest v* tag, "v" dropped: 0.2.0, 0.2.0-3-g1a2b3c4(-dirty)
#   in a checkout with no such tag: FALLBACK-g1a2b3c4(-dirty)
#   in a release tarball (no git): its .tarball-version (meson dist writes it)
#   else: FALLBACK (meson's project version)
#   scripts/version.sh FALLBACK [--commit]
# --commit: the version of the commit itself, never -dirty (meson dist
# packs the commit, not the work tree).
set -u
fallback=${1:?usage: version.sh FALLBACK [--commit]}
dirty=--dirty
[ "${2:-}" = --commit ] && dirty=
cd "$(dirname "$0")/.." || exit 1
if [ -e .git ] && git rev-parse --git-dir >/dev/null 2>&1; then
	v=$(git describe --tags --match 'v[0-9]*' $dirty 2>/dev/null) && {
		echo "${v#v}"
		exit 0
	}
	h=$(git rev-parse --short=7 HEAD 2>/dev/null) && {
		d=
		[ -z "$dirty" ] || git diff-index --quiet HEAD -- 2>/dev/null || d=-dirty
		echo "$fallback-g$h$d"
		exit 0
	}
fi
if [ -s .tarball-version ]; then
	head -n 1 .tarball-version
	exit 0
fi
echo "$fallback"
