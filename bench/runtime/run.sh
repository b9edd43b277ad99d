#!/usr/bin/env bash
# lockrt benchmark (not a test): lockrt in C, Python and Node against raw flock,
# filelock, portalocker, proper-lockfile and lockfile (npm), side by side in one run.
#
#   bench/runtime/run.sh [--build DIR] [--skip-build] [--quick] [-- bench.py options]
#   bench/runtime/run.sh --series [--build DIR] [--skip-build] [-- contended_series.py options]
#
# --series: contended throughput of the C OS lock only, against raw flock (a
# descriptor per acquisition; a held one; each with lockrt's two checks), at 1, 2,
# 4 and 8 contenders, 3 interleaved rounds each, medians (contended_series.py).
# Needs: cmake + gcc, node + npm, python3 with filelock and portalocker
# (Debian: python3-filelock python3-portalocker). The npm peers come from
# deps/tools (npm ci --ignore-scripts into DIR/tools). Figures also go to
# DIR/bench-runtime.json.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=$repo/build
skip_build=0
series=0
extra=()
while [ $# -gt 0 ]; do
    case $1 in
        --build) build=$(realpath -m "$2"); shift 2 ;;
        --skip-build) skip_build=1; shift ;;
        --series) series=1; shift ;;
        --quick) extra+=(--rounds 1 --seconds 0.3 --ops 200 --repeats 1); shift ;;
        --) shift; extra+=("$@"); break ;;
        -h|--help) sed -n 2,15p "$0"; exit 0 ;;
        *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
python=/usr/bin/python3
[ -x "$python" ] || python=$(command -v python3)
if [ "$series" = 1 ]; then
    if [ "$skip_build" = 0 ]; then
        cmake -S "$repo" -B "$build" >/dev/null
        cmake --build "$build" -j2 --target lockrt lockrt_bench >/dev/null
    fi
    exec "$python" "$repo/bench/runtime/contended_series.py" --cbench "$build/runtime/lockrt_bench" \
        --library "this=$build/runtime/liblockrt.so" --procs 1,2,4,8 --rounds 3 --ops 20000 \
        --methods C:raw-flock-held,C:raw-flock-open,C:raw-flock-checked,C:raw-flock-kept-checked,C:lockrt-oslock,C:lockrt-oslock-nokeep \
        --json-out "$build/bench-runtime-series.json" "${extra[@]}"
fi
missing=()
"$python" -c 'import filelock' 2>/dev/null || missing+=(python3-filelock)
"$python" -c 'import portalocker' 2>/dev/null || missing+=(python3-portalocker)
if [ ${#missing[@]} -gt 0 ]; then
    echo "run.sh: missing ${missing[*]}; install with: sudo apt-get install -y ${missing[*]}" >&2
    exit 2
fi

if [ "$skip_build" = 0 ]; then
    cmake -S "$repo" -B "$build" >/dev/null
    cmake --build "$build" -j2 --target lockrt lockrt_bench lockrt_node >/dev/null
fi
lib=$build/runtime/liblockrt.so
addon=$build/runtime/node/lockrt.node
cbench=$build/runtime/lockrt_bench
for f in "$lib" "$addon" "$cbench"; do
    [ -e "$f" ] || { echo "run.sh: $f not built (run without --skip-build)" >&2; exit 2; }
done

tools=$build/tools
if ! cmp -s "$repo/deps/tools/package-lock.json" "$tools/package-lock.json" || [ ! -d "$tools/node_modules/proper-lockfile" ]; then
    mkdir -p "$tools"
    cp "$repo/deps/tools/package.json" "$repo/deps/tools/package-lock.json" "$repo/deps/tools/.npmrc" "$tools/"
    (cd "$tools" && "${NPM:-npm}" ci --ignore-scripts --no-audit --no-fund >/dev/null)
fi

exec "$python" "$repo/bench/runtime/bench.py" --library "$lib" --addon "$addon" --cbench "$cbench" \
    --tools "$tools" --json-out "$build/bench-runtime.json" "${extra[@]}"
