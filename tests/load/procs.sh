# SPDX-License-Identifier: GPL-2.0-or-later
# Finding load processes from the shell tests: every load lives in a
# process group led by its supervisor, a child of audiolat. The checks on
# them are lib.sh's: procs_alive, t_gone (which fails on an empty set).

# find_loads PID [N]: set LOADS to the process groups of the loads of
# audiolat PID (its children lead them); false while it has fewer than N (1).
# A phase of hackbench+disk-write has 2: they start one after the other.
find_loads() {
	LOADS=$(ps -o pid= --ppid "$1" 2>/dev/null | xargs)
	[ -n "$LOADS" ] && [ "$(echo "$LOADS" | wc -w)" -ge "${2:-1}" ]
}

# t_loads DESC PID [N]: a check that audiolat PID has started its N loads
# (default 1; waited for up to 10 s); sets LOADS to their process groups.
t_loads() {
	LOADS=
	t_wait 10 "$1" find_loads "$2" "${3:-1}"
}

# at_least N KIND ID...: at least N live processes of these IDs.
at_least() {
	local want=$1 n
	shift
	n=$(procs_alive "$@") || return 1
	[ "$n" -ge "$want" ]
}

# pids_named COMM PGID...: the live processes named COMM in these groups
pids_named() {
	local c=$1
	shift
	ps -eo pid=,pgid=,stat=,comm= | awk -v c="$c" -v g=" $* " \
		'index(g, " " $2 " ") && $3 !~ /^Z/ && $4 == c { print $1 }'
}

# named_in COMM PGID...: a live process named COMM runs in one of the groups
named_in() {
	[ -n "$(pids_named "$@")" ]
}

# at_least_named N COMM PGID...: at least N live processes named COMM in the groups
at_least_named() {
	local n=$1
	shift
	[ "$(pids_named "$@" | wc -l)" -ge "$n" ]
}

# wrote_in COMM PGID...: a process named COMM in these groups has written (wchar > 0)
wrote_in() {
	local p
	for p in $(pids_named "$@"); do
		awk '$1 == "wchar:" && $2 > 0 { f = 1 } END { exit !f }' "/proc/$p/io" 2>/dev/null && return 0
	done
	return 1
}

empty_dir() {
	[ -z "$(ls -A "$1")" ] || { echo "# left in $1:"; ls -la "$1" | sed 's/^/#   /'; return 1; }
}
