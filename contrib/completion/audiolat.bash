# SPDX-License-Identifier: GPL-2.0-or-later
# bash completion for audiolat (installed as
# /usr/share/bash-completion/completions/audiolat; or: source this file).
#
# Nothing is listed here: everything offered is read from audiolat itself
# when Tab is pressed, so it follows the binary it completes for:
#   subcommands             `audiolat --help` (the "commands:" section)
#   sub-subcommands         `audiolat CMD --help` (its "usage: audiolat CMD WORD" lines)
#   options, and which      `audiolat CMD [SUB] --help` (the option column:
#   take an argument          "-b, --backend NAME", "    --json FILE|-"; and
#                             the options of its usage lines)
#   backend names (-b)      `audiolat --version` (the "backends:" line)
#   -D, --port, --in, --out `audiolat devices` (PCMs, JACK servers and ports, MIDI ports)
#   result ids (ID, RESULT) `audiolat history`
#   load names (--load)     `audiolat load --help` (the "loads:" section)
# A FILE, PATH or DIR argument completes file or directory names.

# _audiolat_opts: the options of the --help text on stdin, one a line:
# "OPTION<TAB>METAVAR" (METAVAR empty when it takes no argument). An option
# line is indented by at most 8 columns and starts with '-'; its options
# end where two spaces or ": " start the description.
_audiolat_opts() {
	awk '
	/^ +-/ && match($0, /^ +/) && RLENGTH <= 8 {
		spec = $0
		sub(/^ +/, "", spec)
		i = index(spec, "  "); if (i) spec = substr(spec, 1, i - 1)
		i = index(spec, ": "); if (i) spec = substr(spec, 1, i - 1)
		sub(/:$/, "", spec)
		# "-b, --backend NAME": NAME is the argument of both
		n = split(spec, item, /, */)
		arg = ""
		if (split(item[n], w, / +/) > 1 && w[2] ~ /^[A-Z]/) arg = w[2]
		for (k = 1; k <= n; k++) {
			if (split(item[k], w, / +/) < 1 || w[1] !~ /^--?[A-Za-z0-9]/) continue
			sub(/[,=]$/, "", w[1])
			printf "%s\t%s\n", w[1], (w[2] ~ /^[A-Z]/ ? w[2] : arg)
		}
	}'
}

# _audiolat_usage_opts CMD [SUB]: the options on the --help text's (on
# stdin) "usage: audiolat CMD [SUB] ..." lines, as _audiolat_opts prints
# them ("audiolat midi thru --in P --out Q [--server NAME] [-d TIME]")
_audiolat_usage_opts() {
	awk -v c="$1" -v s="${2:-}" '
	/^(usage:)? +audiolat / || /^usage: audiolat / {
		sub(/^(usage:)? */, "")
		gsub(/[][]/, " ")
		n = split($0, w, / +/)
		if (w[1] != "audiolat" || w[2] != c) next
		k = 3
		if (s != "") { if (w[3] != s) next; k = 4 }
		else if (w[3] ~ /^[a-z]/) next
		for (; k <= n; k++) {
			if (w[k] !~ /^--?[A-Za-z0-9]/) continue
			split(w[k], o, /=/)
			printf "%s\t%s\n", o[1], (w[k + 1] ~ /^[A-Z]/ ? w[k + 1] : "")
		}
	}'
}

# _audiolat_commands: the subcommands in `audiolat --help`
_audiolat_commands() {
	"$1" --help 2>/dev/null | awk '/^commands:/ { f = 1; next } f && /^$/ { f = 0 }
		f && /^  [a-z][a-z0-9-]* / { print $1 }'
}

# _audiolat_subcommands BIN CMD: the WORDs of its "audiolat CMD WORD" usage lines
_audiolat_subcommands() {
	"$1" "$2" --help 2>/dev/null | awk -v c="$2" '
		/^(usage:)? +audiolat / || /^usage: audiolat / {
			for (i = 1; i < NF; i++)
				if ($i == "audiolat" && $(i + 1) == c && $(i + 2) ~ /^[a-z][a-z0-9-]*$/) {
					if (!seen[$(i + 2)]++) print $(i + 2)
					break
				}
		}'
}

_audiolat_backends() {
	"$1" --version 2>/dev/null | sed -n 's/^backends: *//p' | tr ' ' '\n' | grep -v '^$'
}

# _audiolat_devices BIN WHAT [BACKEND]: WHAT is pcm (what -D takes: ALSA
# PCMs, JACK servers, OSS device files) or port (MIDI and JACK ports)
_audiolat_devices() {
	local -a b=()
	[ -n "${3:-}" ] && b=(-b "$3")
	"$1" devices "${b[@]}" 2>/dev/null | awk -v what="$2" '
		/^[a-z]+: / { sect = $1; next }
		$1 ~ /^(no|not|none|cannot|\()/ { next }
		sect == "midi:" { if (what == "port") print $2; next }
		/^    / { if (what == "port") print $1; next }
		/^  server / { if (what == "pcm") print $2; next }
		/^  [^ ]/ { if (what == "pcm") print $1 }'
}

# _audiolat_ids BIN [--db PATH]: the ids in `audiolat history`
_audiolat_ids() {
	local bin=$1
	shift
	"$bin" history -n 0 "$@" 2>/dev/null | awk '$1 ~ /^[0-9]+$/ { print $1 }'
}

_audiolat_loads() {
	"$1" load --help 2>/dev/null | awk '/^loads:/ { f = 1; next } f && /^$/ { f = 0 }
		f && /^  [a-z][a-z0-9-]* / { print $1 }'
}

# _audiolat_reply CUR WORD...: COMPREPLY = the WORDs starting with CUR; what
# bash already took as a word break (":" in hw:0,0 or system:playback_1,
# "=") is cut from each, as bash-completion's __ltrim_colon_completions does
_audiolat_reply() {
	local cur=$1 w pre=
	local -A seen=()
	shift
	COMPREPLY=()
	for w in "$@"; do
		[[ $w == "$cur"* && -z ${seen[$w]:-} ]] && COMPREPLY+=("$w") && seen[$w]=1
	done
	if [[ $cur == *[:=]* && $COMP_WORDBREAKS == *:* ]]; then
		pre=${cur%"${cur##*[:=]}"}
		COMPREPLY=("${COMPREPLY[@]#"$pre"}")
	fi
}

_audiolat() {
	local line=${COMP_LINE:0:COMP_POINT} cur prev bin cmd= sub= i w opt arg
	local -a words opts lines db=() pos=()
	# words as the shell splits them at blanks (not at ':' or '=')
	read -ra words <<<"$line"
	if [[ $line == *[[:blank:]] || ${#words[@]} -eq 0 ]]; then
		cur=
	else
		cur=${words[${#words[@]} - 1]}
		unset 'words[${#words[@]}-1]'
	fi
	prev=${words[${#words[@]} - 1]:-}
	bin=${words[0]:-audiolat}
	bin=${bin/#\~/$HOME}
	COMPREPLY=()

	if [ ${#words[@]} -le 1 ]; then
		if [[ $cur == -* ]]; then
			_audiolat_reply "$cur" --help --version
		else
			mapfile -t lines < <(_audiolat_commands "$bin")
			_audiolat_reply "$cur" "${lines[@]}"
		fi
		return 0
	fi
	cmd=${words[1]}
	local -a subs
	mapfile -t subs < <(_audiolat_subcommands "$bin" "$cmd")
	if [ ${#words[@]} -gt 2 ]; then
		for w in "${subs[@]}"; do
			[ "$w" = "${words[2]}" ] && sub=$w
		done
	fi
	# the options of this (sub)command, and the metavariable of each
	local help
	help=$("$bin" "$cmd" ${sub:+"$sub"} --help 2>/dev/null)
	mapfile -t lines < <(_audiolat_usage_opts "$cmd" "$sub" <<<"$help"; _audiolat_opts <<<"$help")
	opts=()
	declare -A meta=()
	for w in "${lines[@]}"; do
		opt=${w%%$'\t'*}
		opts+=("$opt")
		meta[$opt]=${w#*$'\t'}
	done
	# --opt=value: the value of --opt
	if [[ $cur == --*=* ]]; then
		prev=${cur%%=*}
		cur=${cur#*=}
	fi
	# the -b and --db given so far, and the positional words
	local backend=
	for ((i = 2; i < ${#words[@]}; i++)); do
		w=${words[i]}
		case $w in
		-b | --backend) backend=${words[i + 1]:-} ;;
		--db) db=(--db "${words[i + 1]:-}") ;;
		esac
	done

	arg=
	[[ $prev == -* ]] && arg=${meta[$prev]:-}
	if [ -n "$arg" ]; then
		case $prev in
		-b | --backend)
			mapfile -t lines < <(_audiolat_backends "$bin")
			_audiolat_reply "$cur" "${lines[@]}"
			return 0
			;;
		-D | --device | -C | --capture-device)
			mapfile -t lines < <(_audiolat_devices "$bin" pcm "$backend")
			_audiolat_reply "$cur" "${lines[@]}"
			return 0
			;;
		--port | --in | --out)
			mapfile -t lines < <(_audiolat_devices "$bin" port)
			_audiolat_reply "$cur" "${lines[@]}"
			return 0
			;;
		--load)
			mapfile -t lines < <(_audiolat_loads "$bin")
			_audiolat_reply "$cur" "${lines[@]}"
			return 0
			;;
		esac
		case $arg in
		*DIR*)
			compopt -o filenames 2>/dev/null
			mapfile -t COMPREPLY < <(compgen -d -- "$cur")
			;;
		*FILE* | *PATH* | *.mid*)
			compopt -o filenames 2>/dev/null
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
			;;
		esac
		return 0
	fi
	if [[ $cur == -* ]]; then
		_audiolat_reply "$cur" "${opts[@]}"
		return 0
	fi
	# a positional word: a subcommand, or what the usage line names (ID,
	# RESULT, FILE, NAME)
	local usage
	usage=$("$bin" "$cmd" ${sub:+"$sub"} --help 2>/dev/null | sed -n '1s/^usage: //p')
	if [ ${#words[@]} -eq 2 ] && [ ${#subs[@]} -gt 0 ]; then
		_audiolat_reply "$cur" "${subs[@]}"
		[[ $usage == "audiolat $cmd "[A-Z]* ]] || return 0
		subs=("${COMPREPLY[@]}")
	else
		subs=()
	fi
	case $usage in
	*" ID"* | *RESULT* | *BASELINE*)
		mapfile -t lines < <(_audiolat_ids "$bin" "${db[@]}")
		_audiolat_reply "$cur" "${lines[@]}"
		if [[ $usage != *" ID"* ]]; then
			compopt -o filenames 2>/dev/null
			mapfile -t -O ${#COMPREPLY[@]} COMPREPLY < <(compgen -f -- "$cur")
		fi
		;;
	"audiolat load NAME"*)
		mapfile -t lines < <(_audiolat_loads "$bin")
		_audiolat_reply "$cur" "${lines[@]}"
		;;
	*FILE*)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		;;
	esac
	# the subcommands too, where the usage names a word beside them
	[ ${#subs[@]} -eq 0 ] || _audiolat_reply "$cur" "${subs[@]}" "${COMPREPLY[@]}"
	return 0
}
complete -F _audiolat audiolat
