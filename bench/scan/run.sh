#!/usr/bin/env bash
# Benchmark: lockfix scan vs ast-grep scan (equivalent rules in bench/scan/ast-grep)
# over the machine's CPython standard library. Not a test; prints figures.
# Method, caveats and the latest figures: docs/benchmarks.md.
#
# Usage: bench/scan/run.sh [--reps N] [--corpus DIR] [--stdlib-only] [--main-only] [--skip-build]
#   --corpus DIR    tree to scan (default: the lib/python3.X directory of the
#                   `python3` first on PATH; env CORPUS works too)
#   --stdlib-only   prune site-packages/dist-packages (third-party code) for both tools
#   --main-only     time only lockfix and ast-grep (skip the diagnostic rows: lockfix
#                   --jobs 1 / without prefilter / no-op rule, ast-grep no-op rule)
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

while [ $# -gt 0 ]; do
    case "$1" in
        --reps) reps=$2; shift 2 ;;
        --corpus) corpus=$2; shift 2 ;;
        --stdlib-only) exclude=(--exclude-dir site-packages --exclude-dir dist-packages); label=stdlib-only; shift ;;
        --skip-build) skip_build=1; shift ;;
        --main-only) extra=(--main-only); shift ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) echo "run.sh: unknown argument: $1" >&2; exit 2 ;;
    esac
done

need() { command -v "$1" >/dev/null 2>&1 || { echo "run.sh: '$1' not found; $2" >&2; exit 2; }; }
need cmake "install it: apt-get install cmake"
need npm "install it: apt-get install npm (or Node.js 20 with npm)"
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3)

# --- corpus -------------------------------------------------------------------
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
echo "ast-grep: $("$astgrep" --version) ($astgrep), rules: $here/ast-grep/rules"

exec "$py" "$here/measure.py" --corpus "$corpus" "${exclude[@]}" \
    --lockfix "$lockfix" --rules-dir "$repo/rules" "${extra[@]}" \
    --ast-grep "$astgrep" --sg-config "$here/ast-grep/sgconfig.yml" \
    --reps "$reps" --out-dir "$build/scan-results-$label" --label "$label"
