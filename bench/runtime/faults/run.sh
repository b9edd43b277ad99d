#!/usr/bin/env bash
# Fault comparison (not a test): lockrt vs filelock, portalocker, proper-lockfile
# and lockfile (npm) under the fault scenarios of issue 3; prints the Markdown
# table of docs/lockrt-comparison.md.
#
#   bench/runtime/faults/run.sh [--build DIR] [--skip-build] [-- faults.py options]
#     e.g. -- --trials 10 --only kill symlink --libs lockrt-lockfile proper-lockfile
#
# Needs python3-filelock, python3-portalocker, node + npm; run as root for the
# EPERM scenario (it drops to uid 65534 for the contender).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../../.." && pwd)
build=$repo/build
skip_build=0
extra=()
while [ $# -gt 0 ]; do
    case $1 in
        --build) build=$(realpath -m "$2"); shift 2 ;;
        --skip-build) skip_build=1; shift ;;
        --) shift; extra+=("$@"); break ;;
        -h|--help) sed -n 2,10p "$0"; exit 0 ;;
        *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
python=/usr/bin/python3
[ -x "$python" ] || python=$(command -v python3)
for mod in filelock portalocker; do
    "$python" -c "import $mod" 2>/dev/null || { echo "run.sh: install python3-$mod (apt-get install -y python3-$mod)" >&2; exit 2; }
done
if [ "$skip_build" = 0 ]; then
    cmake -S "$repo" -B "$build" >/dev/null
    cmake --build "$build" -j2 --target lockrt lockrt_testhooks >/dev/null
fi
lib=$build/runtime/liblockrt.so
[ -e "$lib" ] || { echo "run.sh: $lib not built" >&2; exit 2; }
tools=$build/tools
if ! cmp -s "$repo/deps/tools/package-lock.json" "$tools/package-lock.json" || [ ! -d "$tools/node_modules/proper-lockfile" ]; then
    mkdir -p "$tools"
    cp "$repo/deps/tools/package.json" "$repo/deps/tools/package-lock.json" "$repo/deps/tools/.npmrc" "$tools/"
    (cd "$tools" && "${NPM:-npm}" ci --ignore-scripts --no-audit --no-fund >/dev/null)
fi
exec "$python" "$repo/bench/runtime/faults/faults.py" --library "$lib" --tools "$tools" \
    --json-out "$build/faults-runtime.json" "${extra[@]}"
