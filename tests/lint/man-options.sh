#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every man page names the options of its subcommand's table, no more and
# no fewer (issue 32): `audiolat --option-names CMD [SUB]` prints, from the
# table --help is printed from, "option --NAME" for each option --help
# names and "accepts --NAME" for one taken but not listed (hidden, or
# included from run's table by monitor and sweep); docs/man/audiolat-CMD.1
# names an option in the head of an item (the line after .TP). Each
# option --help names must head an item of the page; each item's option
# must be one the table takes. audiolat midi's page covers its
# subcommands (analyze, send, ...) together. No command or option found
# is a failure.
. "$(dirname "$0")/../lib.sh"
top="$TESTS_DIR/.."
: "${AUDIOLAT:?}"

mapfile -t cmds < <("$AUDIOLAT" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')
t_result $([ "${#cmds[@]}" -ge 10 ] && echo 0 || echo 1) "audiolat --help lists the commands (${#cmds[@]})"

# names CMD [SUB...]: what the table(s) say, "option|accepts --NAME", sorted
names() {
	local cmd=$1 sub
	shift
	if [ $# -eq 0 ]; then
		"$AUDIOLAT" --option-names "$cmd"
	else
		for sub in "$@"; do "$AUDIOLAT" --option-names "$cmd" "$sub"; done
	fi | LC_ALL=C sort -u
}

for cmd in "${cmds[@]}"; do
	page="$top/docs/man/audiolat-$cmd.1"
	if [ ! -r "$page" ]; then
		t_result 1 "$cmd: it has a man page (docs/man/audiolat-$cmd.1)"
		continue
	fi
	subs=()
	[ "$cmd" = midi ] && mapfile -t subs < <("$AUDIOLAT" midi --help | sed -n 's/^ *\(usage: \)\{0,1\}audiolat midi \([a-z][a-z]*\) .*/\2/p' | grep -v '^SUBCOMMAND$' | sort -u)
	names "$cmd" "${subs[@]}" >"$T_TMP/names" 2>"$T_TMP/names.err"
	sed -n 's/^option //p' "$T_TMP/names" | sort -u >"$T_TMP/listed"
	sed -n 's/^\(option\|accepts\) //p' "$T_TMP/names" | sort -u >"$T_TMP/taken"
	awk '/^\.TP/ { getline; print }' "$page" | grep -oE '\\-\\-[a-z0-9][a-z0-9\\-]*' |
		sed 's/\\//g' | LC_ALL=C sort -u >"$T_TMP/man"
	if [ ! -s "$T_TMP/listed" ]; then
		t_result 1 "$cmd${subs:+ (${subs[*]})}: the table names options ($(head -c 200 "$T_TMP/names.err"))"
		continue
	fi
	missing=$(LC_ALL=C comm -23 "$T_TMP/listed" "$T_TMP/man" | paste -sd' ')
	extra=$(LC_ALL=C comm -13 "$T_TMP/taken" "$T_TMP/man" | paste -sd' ')
	t_result $([ -z "$missing" ] && echo 0 || echo 1) \
		"$cmd: the man page has an item for each of the $(wc -l <"$T_TMP/listed") options --help names${missing:+ (missing: $missing)}"
	t_result $([ -z "$extra" ] && echo 0 || echo 1) \
		"$cmd: each of its $(wc -l <"$T_TMP/man") items names an option the table takes${extra:+ (not taken: $extra)}"
done
t_done
