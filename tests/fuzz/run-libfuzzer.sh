#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Build every fuzz target (fuzz-<name>.c) with clang and libFuzzer
# (-fsanitize=fuzzer,address,undefined; any UB is fatal) and run each for
# SECONDS (default 10) on a copy of its seed corpus; prints TAP.
#
#     tests/fuzz/run-libfuzzer.sh [SECONDS]
#
# The sources of src/core, src/doc, src/backend, src/load and src/midi are compiled directly
# (no meson needed) into build-fuzz/ under $BUILD_DIR when meson runs the
# script, else under the source root; FUZZ_OUT overrides. CLANG names the
# compiler (default clang). A crash leaves its input in
# build-fuzz/artifacts/; replay it with build-fuzz/fuzz-<name> FILE, or with
# the gcc build's fuzz-<name> -n 0 FILE. Without clang or its libFuzzer
# runtime (Debian: libclang-rt-14-dev) it prints "1..0 # SKIP".
set -u

secs=${1:-10}
case $secs in
    '' | *[!0-9]*)
        echo "usage: $0 [SECONDS]" >&2
        exit 2
        ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
if [ -n "${FUZZ_OUT:-}" ]; then
    out=$FUZZ_OUT
elif [ -n "${BUILD_DIR:-}" ]; then
    out=$BUILD_DIR/build-fuzz
else
    out=$src/build-fuzz
fi
cc=${CLANG:-clang}
jobs=$(nproc 2>/dev/null || echo 2)

common="-std=gnu11 -D_GNU_SOURCE -I$src/src -gline-tables-only -O0 -fno-omit-frame-pointer
    -Wall -Wextra -Wno-missing-field-initializers -fno-sanitize-recover=all"
# PipeWire's headers as system ones (spa's are not -Wextra clean): pw-json's spa_json
pw_inc=$(pkg-config --cflags-only-I libpipewire-0.3 2>/dev/null | sed 's/-I/-isystem /g')
lib_flags="$common $pw_inc -DAL_VERSION=\"fuzz\" -fsanitize=fuzzer-no-link,address,undefined"
exe_flags="$common -fsanitize=fuzzer,address,undefined"

if ! command -v "$cc" >/dev/null 2>&1; then
    echo "1..0 # SKIP $cc not found"
    exit 0
fi
mkdir -p "$out/obj" "$out/artifacts" "$out/corpus" || exit 1

# Does this clang link libFuzzer programs?
cat >"$out/probe.c" <<'PROBE'
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { (void)data; (void)size; return 0; }
PROBE
if ! $cc -fsanitize=fuzzer,address,undefined "$out/probe.c" -o "$out/probe" \
        >"$out/probe.log" 2>&1; then
    echo "1..0 # SKIP $cc cannot link -fsanitize=fuzzer (libFuzzer runtime missing?" \
        "Debian: libclang-rt-14-dev): $(grep -m1 -i error "$out/probe.log")"
    exit 0
fi

targets=""
for f in "$here"/fuzz-*.c; do
    name=${f##*/fuzz-}
    targets="$targets ${name%.c}"
done
# shellcheck disable=SC2086 # one word per target
set -- $targets
echo "1..$#"

# The libraries: every source that compiles goes into lib<dir>.a; the linker
# takes only what a target needs. compile_one OBJDIR SOURCE CC FLAGS (in sh -c):
# shellcheck disable=SC2016 # expanded by that sh
compile_one='o="$1/$(basename "$2" .c).o"; $3 $4 -c "$2" -o "$o" 2>"$o.log" || rm -f "$o"'
for dir in core doc backend load midi; do
    rm -rf "$out/obj/$dir"
    mkdir -p "$out/obj/$dir"
    for f in "$src/src/$dir"/*.c; do
        [ -e "$f" ] && echo "$f"
    done | xargs -r -P "$jobs" -I{} sh -c "$compile_one" sh "$out/obj/$dir" {} "$cc" "$lib_flags"
    for f in "$src/src/$dir"/*.c; do
        [ -e "$f" ] || continue
        o="$out/obj/$dir/$(basename "$f" .c).o"
        if [ ! -e "$o" ]; then
            echo "# src/$dir/${f##*/} does not compile, left out:"
            head -n 5 "$o.log" | sed 's/^/#   /'
        elif [ -s "$o.log" ]; then
            echo "# src/$dir/${f##*/}: warnings:"
            head -n 10 "$o.log" | sed 's/^/#   /'
        fi
    done
    rm -f "$out/lib$dir.a"
    set -- "$out/obj/$dir"/*.o
    [ -e "$1" ] && ar rcs "$out/lib$dir.a" "$@"
done
libs=""
for dir in midi load backend doc core; do
    [ -e "$out/lib$dir.a" ] && libs="$libs $out/lib$dir.a"
done

# extras NAME: what target NAME needs beside the libraries: sources (their
# globs expand where the words are used) and link flags
extras() {
    extra=""
    case $1 in
        run-args)
            extra="$src/src/args/run-opts.c $src/src/args/common-opts.c"
            ;;
        trace-analyze)
            extra=$src/src/trace/analyze.c
            ;;
        jack-clients)
            # src/trace/clients.c is included by the target itself; no tracefs
            extra="$src/src/trace/analyze.c"
            ;;
        pw-json)
            # spa_json is header-only: PipeWire's include paths (lib_flags) alone
            extra=$src/src/backend/pipewire-json.c
            ;;
        khist)
            # the hist file's parser alone: no tracefs
            extra=$src/src/trace/khist-parse.c
            ;;
        store-doc)
            extra="$src/src/store/store-doc.c $src/src/store/store.c $src/src/store/store-nopg.c -ljansson -lsqlite3"
            ;;
        report)
            # every file of the report rooms (the globs expand where $extra is used)
            # (src/metrics/prom-http.c needs libmicrohttpd)
            extra="$src/src/report/*.c $src/src/compare/*.c $src/src/html/*.c $src/src/export/*.c $src/src/metrics/*.c -ljansson $(pkg-config --cflags --libs libmicrohttpd)"
            ;;
        prom-http)
            # the routing alone: no server, no libmicrohttpd
            extra=$src/src/metrics/prom-route.c
            ;;
        sweep-args)
            extra="$src/src/args/sweep-opts.c $src/src/args/run-opts.c $src/src/args/common-opts.c"
            ;;
        monitor-args)
            extra="$src/src/args/monitor-opts.c $src/src/args/run-opts.c $src/src/args/common-opts.c $src/src/run/action.c"
            ;;
        roundtrip-args)
            # the glob expands where $extra is used
            extra="$src/src/args/roundtrip-opts.c $src/src/args/common-opts.c $src/src/run/roundtrip.c $src/src/roundtrip/*.c"
            ;;
        midi-args)
            extra="$src/src/args/midi-opts.c $src/src/args/common-opts.c"
            ;;
        ct-hist | ct-json | pw-profiler)
            # the glob expands where $extra is used
            extra="$src/src/interchange/*.c -ljansson"
            ;;
    esac
    echo "$extra"
}

# obj_of SOURCE: where an extra source's object goes (src/report/json.c:
# report_json.o)
obj_of() {
    echo "$out/obj/extra/$(echo "${1#"$src"/src/}" | tr / _ | sed 's/\.c$/.o/')"
}
# every extra source compiled once (the report rooms, the interchange
# parsers and the option tables serve several targets), in parallel: the
# list holds each source, then its object
mkdir -p "$out/obj/extra"
rm -f "$out/obj/extra/"*.o
for name in $targets; do
    for w in $(extras "$name"); do
        case $w in *.c) echo "$w" ;; esac
    done
done | sort -u | while IFS= read -r f; do
    printf '%s\n%s\n' "$f" "$(obj_of "$f")"
done >"$out/obj/extra/sources"
# shellcheck disable=SC2016 # expanded by that sh
xargs -r -d '\n' -n 2 -P "$jobs" sh -c '$1 $2 -c "$3" -o "$4" 2>"$4.log" || rm -f "$4"' \
    sh "$cc" "$lib_flags" <"$out/obj/extra/sources"
# extra_objs NAME: the words of extras NAME, each source as its object
extra_objs() {
    for w in $(extras "$1"); do
        case $w in
            *.c) obj_of "$w" ;;
            *) echo "$w" ;;
        esac
    done
}

n=0
failed=0
for name in $targets; do
    n=$((n + 1))
    exe=$out/fuzz-$name
    log=$out/fuzz-$name.log
    extra=$(extra_objs "$name" | paste -sd' ')
    rm -f "$exe"
    for w in $extra; do
        case $w in
            "$out/obj/extra/"*.o)
                [ -e "$w" ] || { echo "# ${w##*/} does not compile:"; head -n 5 "$w.log" | sed 's/^/#   /'; }
                ;;
        esac
    done
    # shellcheck disable=SC2086
    if ! $cc $exe_flags "$here/fuzz-$name.c" $extra -Wl,--start-group $libs -Wl,--end-group \
            -lm -lpthread -o "$exe" >"$log" 2>&1; then
        echo "not ok $n - libfuzzer $name: does not build"
        head -n 20 "$log" | sed 's/^/#   /'
        failed=$((failed + 1))
        continue
    fi
    [ -s "$log" ] && { echo "# fuzz-$name: warnings:"; head -n 10 "$log" | sed 's/^/#   /'; }

    rm -rf "$out/corpus/$name"
    cp -r "$here/corpus/$name" "$out/corpus/$name"
    dict=""
    [ -e "$here/fuzz-$name.dict" ] && dict="-dict=$here/fuzz-$name.dict"
    rm -f "$out/artifacts/$name-"*
    # shellcheck disable=SC2086
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
        "$exe" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$out/artifacts/$name-" $dict "$out/corpus/$name" >"$log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    if [ $rc -eq 0 ]; then
        echo "ok $n - libfuzzer $name (${runs:-?} runs in ${secs} s)"
        continue
    fi
    failed=$((failed + 1))
    echo "not ok $n - libfuzzer $name (exit $rc after ${runs:-?} runs)"
    grep -E 'ERROR|runtime error|invariant failed|SUMMARY|^    #[0-9]' "$log" |
        grep -vE 'fuzzer::|libc_start|in _start ' | head -n 25 | sed 's/^/#   /'
    for a in "$out/artifacts/$name-"*; do
        [ -e "$a" ] || continue
        echo "# input: $a"
        od -An -c "$a" | head -n 8 | sed 's/^/#   /'
    done
    echo "# full log: $log"
done
[ $failed -eq 0 ]
