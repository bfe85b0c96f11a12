# SPDX-License-Identifier: GPL-2.0-or-later
# What every bench script starts with: source it after `set -eu`.
#	bench_need CMD PACKAGE...   each CMD installed, or exit 4 naming its package
#	bench_init                  $A (audiolat, built), $tmp (removed by bench_cleanup)
# A script with more to stop defines cleanup() calling bench_cleanup; the
# EXIT trap calls cleanup if defined.
build=${BUILD:-build}
A=${AUDIOLAT:-$build/src/cli/audiolat}
tmp=

bench_need() {
	while [ $# -ge 2 ]; do
		command -v "$1" >/dev/null || { echo "$1 missing: apt-get install $2" >&2; exit 4; }
		shift 2
	done
}

bench_cleanup() {
	[ -z "$tmp" ] || rm -rf "$tmp"
}

bench_init() {
	[ -x "$A" ] || { echo "build audiolat first (make)" >&2; exit 1; }
	tmp=$(mktemp -d)
	trap 'if declare -F cleanup >/dev/null; then cleanup; else bench_cleanup; fi' EXIT
}
