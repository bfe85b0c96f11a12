# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the backend tests: lib.sh, servers.sh, and the checks that the
# backends are built and the servers installed (scripts/packages.txt has them).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../servers.sh"

# need_backend NAME PACKAGE: skip the script when meson built audiolat
# without it (PACKAGE was not installed: lib.sh's built); a backend meson
# built in that audiolat --version does not list is a failure
need_backend() {
	built "$1" || t_skip_all "audiolat built without the $1 backend ($2 was not installed)"
	"$AUDIOLAT" --version | grep -Eq "^backends:.* $1( |$)" ||
		t_bail "audiolat --version lists the $1 backend, which meson built in"
}

# need_cmd CMD PACKAGE
need_cmd() {
	command -v "$1" >/dev/null || t_skip_all "$1 not installed ($2, scripts/packages.txt)"
}

# a server that does not start is a failure, not a skip: report and end
server_failed() {
	t_bail "$1 (${SRV_WHY:-unknown reason})"
}
