# SPDX-License-Identifier: GPL-2.0-or-later
# Finding load processes from the shell tests: every load lives in a
# process group led by its supervisor, a child of audiolat.

# The process groups of the loads of audiolat PID (its children lead them);
# waits up to 2 s for them to appear.
load_groups() {
	local i g
	for i in $(seq 20); do
		g=$(ps -o pid= --ppid "$1" 2>/dev/null | xargs)
		[ -n "$g" ] && { echo "$g"; return 0; }
		sleep 0.1
	done
	return 1
}

# Live (not zombie) processes in the groups given.
alive_in() {
	local pat
	pat=$(echo "$*" | tr ' ' '\n' | grep . | paste -sd'|')
	[ -n "$pat" ] || { echo 0; return; }
	ps -eo pgid=,stat= | awk -v re="^($pat)\$" '$1 ~ re && $2 !~ /^Z/' | wc -l
}

# All processes of the groups gone within 1 s?
gone_within_1s() {
	local i
	for i in $(seq 10); do
		[ "$(alive_in "$@")" -eq 0 ] && return 0
		sleep 0.1
	done
	echo "# still alive after 1 s:"
	ps -eo pid,pgid,stat,comm | awk 'NR > 1' | grep -E " ($(echo "$*" | tr ' ' '|')) " | sed 's/^/#   /'
	return 1
}

empty_dir() {
	[ -z "$(ls -A "$1")" ] || { echo "# left in $1:"; ls -la "$1" | sed 's/^/#   /'; return 1; }
}

