# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the backend tests: lib.sh, servers.sh, and the checks that the
# backends are built and the servers installed (scripts/packages.txt has them).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../servers.sh"

# need_backend NAME: skip the script when audiolat was built without it
need_backend() {
	"$AUDIOLAT" --version | grep -Eq "^backends:.* $1( |$)" ||
		t_skip_all "audiolat built without the $1 backend (install $2)"
}

# need_cmd CMD PACKAGE
need_cmd() {
	command -v "$1" >/dev/null || t_skip_all "$1 not installed ($2, scripts/packages.txt)"
}

# a server that does not start is a failure, not a skip: report and end
server_failed() {
	t_bail "$1 (${SRV_WHY:-unknown reason})"
}
