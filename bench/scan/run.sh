#!/usr/bin/env bash
# Benchmark: lockfix scan vs ast-grep scan (equivalent rules in bench/scan/ast-grep)
# over the machine's CPython standard library, or (--lang ts) over a pinned TS/JS
# corpus (deps/bench-corpus-ts). Not a test; prints figures.
# Method, caveats and the latest figures: docs/benchmarks.md.
#
# Usage: bench/scan/run.sh [--lang py|ts] [--reps N] [--corpus DIR] [--stdlib-only] [--main-only] [--skip-build]
#   --lang ts       scan .ts/.mts/.cts/.js/.mjs/.cjs/.tsx/.jsx with the TS/JS rules and
#                   the TS/JS ast-grep stand-ins (bench/scan/ast-grep/ts); default corpus:
#                   deps/bench-corpus-ts installed with `npm ci --ignore-scripts`
#   --corpus DIR    tree to scan (default: the lib/python3.X directory of the
#                   `python3` first on PATH; env CORPUS works too)
#   --stdlib-only   prune site-packages/dist-packages (third-party code) for both tools
#   --main-only     time only lockfix and ast-grep (skip the diagnostic rows: lockfix
#                   --jobs 1 / without prefilter / no-op rule, bare tree-sitter parse,
#                   ast-grep no-op rule)
#   --skip ROW      leave out one diagnostic row (repeatable), e.g. --skip 'lockfix --jobs 1'
#   --no-warmup     no untimed run of each row before the timed ones
# Env: BENCH_BUILD_DIR (default <repo>/build-bench), NPM (default npm).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=${BENCH_BUILD_DIR:-$repo/build-bench}
reps=5
corpus=${CORPUS:-}
skip_build=0
exclude=()
extra=()
label=full
lang=py
sg_config=$here/ast-grep/sgconfig.yml

while [ $# -gt 0 ]; do
    case "$1" in
        --reps) reps=$2; shift 2 ;;
        --lang) lang=$2; shift 2 ;;
        --corpus) corpus=$2; shift 2 ;;
        --stdlib-only) exclude=(--exclude-dir site-packages --exclude-dir dist-packages); label=stdlib-only; shift ;;
        --skip-build) skip_build=1; shift ;;
        --main-only) extra+=(--main-only); shift ;;
        --skip) extra+=(--skip "$2"); shift 2 ;;
        --no-warmup) extra+=(--no-warmup); shift ;;
        -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
        *) echo "run.sh: unknown argument: $1" >&2; exit 2 ;;
    esac
done

need() { command -v "$1" >/dev/null 2>&1 || { echo "run.sh: '$1' not found; $2" >&2; exit 2; }; }
need cmake "install it: apt-get install cmake"
need npm "install it: apt-get install npm (or Node.js 20 with npm)"
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3)

case "$lang" in
    py) ;;
    ts) sg_config=$here/ast-grep/ts/sgconfig.yml; [ "$label" = full ] && label=ts ;;
    *) echo "run.sh: --lang must be py or ts" >&2; exit 2 ;;
esac

# --- corpus -------------------------------------------------------------------
# TS/JS: real packages pinned by deps/bench-corpus-ts/package-lock.json, installed
# without their install scripts; the scan root is node_modules itself (lockfix
# prunes node_modules directories below a root, not the root).
if [ "$lang" = ts ] && [ -z "$corpus" ]; then
    tsc=$build/corpus-ts
    mkdir -p "$tsc"
    if ! cmp -s "$repo/deps/bench-corpus-ts/package-lock.json" "$tsc/package-lock.json" || [ ! -d "$tsc/node_modules" ]; then
        cp "$repo/deps/bench-corpus-ts/package.json" "$repo/deps/bench-corpus-ts/package-lock.json" "$tsc/"
        (cd "$tsc" && "${NPM:-npm}" ci --ignore-scripts --no-audit --no-fund >/dev/null)
    fi
    corpus=$tsc/node_modules
fi
if [ -z "$corpus" ]; then
    corpus=$(python3 -c 'import sysconfig; print(sysconfig.get_path("stdlib"))' 2>/dev/null || true)
fi
if [ -z "$corpus" ] || [ ! -d "$corpus" ]; then
    corpus=$(ls -d /usr/lib/python3.[0-9]* 2>/dev/null | sort -V | tail -n 1 || true)
fi
[ -n "$corpus" ] && [ -d "$corpus" ] || { echo "run.sh: no Python stdlib found; pass --corpus DIR" >&2; exit 2; }

# --- lockfix (Release) ------------------------------------------------------------
lf_build=$build/lockfix-release
log=$build/lockfix-release.log
if [ "$skip_build" = 0 ]; then
    mkdir -p "$build"
    cmake -S "$repo" -B "$lf_build" -DCMAKE_BUILD_TYPE=Release \
        -DLOCKFIX_BUILD_TESTS=OFF -DLOCKFIX_BUILD_RUNTIME=OFF >"$log" 2>&1 \
        || { cat "$log" >&2; exit 2; }
    cmake --build "$lf_build" --target lockfix -j2 >>"$log" 2>&1 \
        || { tail -n 40 "$log" >&2; exit 2; }
fi
lockfix=$lf_build/analyzer/lockfix
[ -x "$lockfix" ] || { echo "run.sh: $lockfix was not built" >&2; exit 2; }

# --- bare-parse: read + tree-sitter parse only, the same runtime and grammars as
# lockfix (the Release build's static libraries), the floor's baseline ----------
bare=$build/bare-parse
ts_inc=$lf_build/_deps/grammars/node_modules/tree-sitter/vendor/tree-sitter/lib/include
if [ "$skip_build" = 0 ] || [ ! -x "$bare" ]; then
    ${CC:-cc} -O2 -Wall -Wextra -Werror -I"$ts_inc" "$here/bare-parse/bare_parse.c" \
        "$lf_build/liblf_grammars.a" "$lf_build/liblf_tree_sitter.a" -o "$bare" \
        || { echo "run.sh: bare-parse did not build" >&2; exit 2; }
fi

# --- ast-grep, pinned by deps/tools/package-lock.json ------------------------------
# --ignore-scripts skips @ast-grep/cli's postinstall (which only links the
# platform binary into place), so the binary is taken straight from the
# platform package npm selected by os/cpu/libc (@ast-grep/cli-<platform>).
tools=$build/tools
if [ "$skip_build" = 0 ] || [ ! -d "$tools/node_modules" ]; then
    mkdir -p "$tools"
    if ! cmp -s "$repo/deps/tools/package-lock.json" "$tools/package-lock.json" || [ ! -d "$tools/node_modules" ]; then
        cp "$repo/deps/tools/package.json" "$repo/deps/tools/package-lock.json" "$tools/"
        (cd "$tools" && "${NPM:-npm}" ci --ignore-scripts --no-audit --no-fund >/dev/null)
    fi
fi
astgrep=
for cand in "$tools"/node_modules/@ast-grep/cli-*/ast-grep; do
    if [ -x "$cand" ] && "$cand" --version >/dev/null 2>&1; then astgrep=$cand; break; fi
done
[ -n "$astgrep" ] || { echo "run.sh: no runnable ast-grep binary under $tools/node_modules/@ast-grep/" >&2; exit 2; }

echo "== lockfix scan vs ast-grep scan ($label corpus), $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "machine: $(nproc) cpus, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(uname -sr)"
echo "lockfix: $("$lockfix" --version 2>&1 | head -n 1) (git $(git -C "$repo" rev-parse --short HEAD), Release, $lockfix)"
echo "ast-grep: $("$astgrep" --version) ($astgrep), rules: $(dirname "$sg_config")/rules"

exec "$py" "$here/measure.py" --corpus "$corpus" "${exclude[@]}" \
    --lockfix "$lockfix" --rules-dir "$repo/rules" "${extra[@]}" \
    --ast-grep "$astgrep" --sg-config "$sg_config" --lang "$lang" --bare-parse "$bare" \
    --reps "$reps" --out-dir "$build/scan-results-$label" --label "$label"
