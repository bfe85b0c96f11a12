#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The bash completion (contrib/completion/audiolat.bash), sourced in bash and
# asked as bash asks it on Tab: it offers every option each --help lists
# (read by a regex of this test's own, not the completion's parser) and
# nothing --help does not name; it reads them from the binary at run time
# (a stub audiolat with made-up commands and options gets those); backend
# names are the devices document's, -D the devices of that backend, result
# ids the database's (and another --db's), load names the loads.
. "$(dirname "$0")/../lib.sh"
COMP="$TESTS_DIR/../contrib/completion/audiolat.bash"
command -v jq >/dev/null || t_skip_all "jq not installed (scripts/packages.txt)"
BIN="$T_TMP/bin"
mkdir -p "$BIN"
ln -s "$AUDIOLAT" "$BIN/audiolat"
PATH="$BIN:$PATH"
export XDG_DATA_HOME="$T_TMP/data"
# shellcheck disable=SC1090
. "$COMP" 2>"$ERR" || t_bail "$COMP sources in bash"
t_empty "$ERR" "sourcing it prints nothing"
t_true "it is registered for audiolat" eval 'complete -p audiolat | grep -q -- "-F _audiolat audiolat$"'

# comp LINE: COMPREPLY for Tab at the end of LINE, one a line, sorted, in $T_TMP/c
comp() {
	COMP_LINE=$1
	COMP_POINT=${#1}
	COMP_WORDBREAKS=$' \t\n"\'><=;|&(:'
	COMPREPLY=()
	_audiolat
	printf '%s\n' "${COMPREPLY[@]}" | grep -v '^$' | LC_ALL=C sort -u >"$T_TMP/c"
}
# same FILE WORD...: the sorted set in FILE is exactly the WORDs
same() {
	local f=$1
	shift
	printf '%s\n' "$@" | grep -v '^$' | LC_ALL=C sort -u >"$T_TMP/want"
	diff "$T_TMP/want" "$f" >"$T_TMP/diff" && return 0
	sed 's/^/# want<, got>: /' "$T_TMP/diff" | head -n 20
	return 1
}

# rc_and RC CMD...: 0 when RC is 0 and CMD is true, else 1 (for t_result)
rc_and() {
	local rc=$1
	shift
	[ "$rc" -eq 0 ] && "$@" && echo 0 || echo 1
}

# ---- subcommands and options, from --help ----
mapfile -t cmds < <("$AUDIOLAT" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')
[ ${#cmds[@]} -ge 10 ] || t_bail "audiolat --help lists the commands (found ${#cmds[@]})"
comp "audiolat "
same "$T_TMP/c" "${cmds[@]}"
t_result $? "audiolat <Tab>: the ${#cmds[@]} commands of --help"
comp "audiolat ru"
same "$T_TMP/c" run
t_result $? "audiolat ru<Tab>: run"

# opts_of CMD...: the options --help lists at the start of its lines, by a
# regex of this test ("  -b, --backend NAME", "      --json FILE"), and on
# its usage line where it has no option lines (audiolat midi thru)
opts_of() {
	"$AUDIOLAT" "$@" --help >"$T_TMP/help"
	grep -oE '^ {1,8}(-[A-Za-z0-9], )?--?[A-Za-z0-9][a-z0-9-]*' "$T_TMP/help" |
		sed -E 's/^ +//; s/, / /' | tr ' ' '\n' | grep . && return 0
	grep -E "^usage: audiolat $* " "$T_TMP/help" | grep -oE -- '(^|[ []) *--?[A-Za-z][a-z0-9-]*' |
		tr -d ' ['
}
# every option COMPLETION offers is named in the --help text
named_in_help() {
	local o bad=0
	"$AUDIOLAT" "$@" --help >"$T_TMP/help"
	while read -r o; do
		grep -qE -- "(^|[^A-Za-z0-9-])$o([^A-Za-z0-9-]|\$)" "$T_TMP/help" || {
			echo "# offered but not in --help: $o"
			bad=1
		}
	done <"$T_TMP/c"
	return $bad
}
# the commands with subcommands (midi): the words of their usage lines
targets=()
for c in "${cmds[@]}"; do
	targets+=("$c")
	while read -r s; do
		targets+=("$c $s")
	done < <("$AUDIOLAT" "$c" --help | sed -nE "s/^(usage:)? +audiolat $c ([a-z][a-z-]*)( .*)?$/\2/p" | sort -u)
done
for t in "${targets[@]}"; do
	# shellcheck disable=SC2086
	mapfile -t want < <(opts_of $t)
	comp "audiolat $t -"
	missing=$(printf '%s\n' "${want[@]}" | LC_ALL=C sort -u | comm -23 - "$T_TMP/c")
	[ -z "$missing" ] || echo "# not offered: $(echo $missing)"
	# (a command of subcommands, midi, may have no option of its own)
	t_result $({ [ ${#want[@]} -gt 0 ] || [[ " ${targets[*]} " == *" $t "[a-z]* ]]; } &&
		[ -z "$missing" ] && echo 0 || echo 1) \
		"audiolat $t -<Tab> offers the ${#want[@]} options its --help lists"
	# shellcheck disable=SC2086
	named_in_help $t
	t_result $? "audiolat $t -<Tab> offers nothing its --help does not name"
done
comp "audiolat midi "
same "$T_TMP/c" analyze send record loop thru
t_result $? "audiolat midi <Tab>: its subcommands"
comp "audiolat run --dur"
same "$T_TMP/c" --duration
t_result $? "audiolat run --dur<Tab>: --duration"

# ---- arguments ----
"$AUDIOLAT" devices --json - >"$T_TMP/dev.json"
mapfile -t want < <(jq -r '.backends[] | select(.available) | .backend' "$T_TMP/dev.json")
comp "audiolat run -b "
same "$T_TMP/c" "${want[@]}"
t_result $(rc_and $? [ ${#want[@]} -gt 0 ]) "audiolat run -b <Tab>: the backends built in (${want[*]})"
comp "audiolat run --backend a"
same "$T_TMP/c" alsa
t_result $? "audiolat run --backend a<Tab>: alsa"
mapfile -t want < <(jq -r '.backends[] | select(.backend == "alsa") | .devices[].name' "$T_TMP/dev.json")
comp "audiolat run -b alsa -D "
same "$T_TMP/c" "${want[@]}"
t_result $(rc_and $? [ ${#want[@]} -gt 0 ]) "audiolat run -b alsa -D <Tab>: the ALSA PCMs of audiolat devices (${#want[@]})"
comp "audiolat run -b alsa -D nu"
t_grep "$T_TMP/c" '^null$' "audiolat run -b alsa -D nu<Tab>: null"
comp "audiolat load "
t_grep "$T_TMP/c" '^hackbench$' "audiolat load <Tab>: the loads (hackbench ...)"
t_grep "$T_TMP/c" '^disk-write$' "... and disk-write"
comp "audiolat run --load pro"
same "$T_TMP/c" procfs
t_result $? "audiolat run --load pro<Tab>: procfs"
: >"$T_TMP/result-a.json"
comp "audiolat run --json $T_TMP/result-"
same "$T_TMP/c" "$T_TMP/result-a.json"
t_result $? "audiolat run --json DIR/result-<Tab>: the file"
comp "audiolat midi analyze $T_TMP/result-"
same "$T_TMP/c" "$T_TMP/result-a.json"
t_result $? "audiolat midi analyze DIR/result-<Tab>: the file"

# result ids: the default database, and the one --db names
for i in 1 2 3; do
	"$AUDIOLAT" run -d 100ms -q -p 0 >/dev/null 2>&1
done
"$AUDIOLAT" run -d 100ms -q -p 0 --db "$T_TMP/other.db" >/dev/null 2>&1
"$AUDIOLAT" history --json - >"$T_TMP/h.json"
mapfile -t want < <(jq -r '.results[].id' "$T_TMP/h.json")
comp "audiolat show "
same "$T_TMP/c" "${want[@]}"
t_result $(rc_and $? [ ${#want[@]} -eq 3 ]) "audiolat show <Tab>: the ${#want[@]} ids of history (3 runs saved)"
mapfile -t want < <("$AUDIOLAT" history --db "$T_TMP/other.db" --json - | jq -r '.results[].id')
comp "audiolat export --db $T_TMP/other.db "
same "$T_TMP/c" "${want[@]}"
t_result $(rc_and $? [ ${#want[@]} -eq 1 ]) "audiolat export --db OTHER <Tab>: OTHER's one id"

# ---- read at run time: a stub audiolat with made-up commands and options ----
STUB="$T_TMP/stub"
mkdir -p "$STUB"
cat >"$STUB/audiolat" <<'EOF'
#!/bin/sh
case "$1 $2" in
"--help "*) printf 'usage: audiolat <command>\n\ncommands:\n  frob       frobnicate\n  zap        zap it\n\nexit status: 0\n' ;;
"--version "*) printf 'audiolat 9\nbackends: fake1 fake2\n' ;;
"frob --help") printf 'usage: audiolat frob [options] FILE\n\n  -z, --zap-it FILE      zap\n      --quux             no argument\n' ;;
esac
EOF
chmod +x "$STUB/audiolat"
PATH="$STUB:$PATH"
comp "audiolat "
same "$T_TMP/c" frob zap
t_result $? "a stub audiolat: its commands (frob zap)"
comp "audiolat frob -"
same "$T_TMP/c" -z --zap-it --quux
t_result $? "a stub audiolat: frob's options (-z --zap-it --quux)"
comp "audiolat frob -z $T_TMP/result-"
same "$T_TMP/c" "$T_TMP/result-a.json"
t_result $? "a stub audiolat: -z FILE completes a file name"
comp "audiolat frob --quux "
mapfile -t want < <(compgen -f -- "")
same "$T_TMP/c" "${want[@]}"
t_result $? "a stub audiolat: after --quux (no argument) a FILE positional"

t_done
