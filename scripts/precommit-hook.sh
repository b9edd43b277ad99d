#!/usr/bin/env bash
# The `lockfix` pre-commit hook (.pre-commit-hooks.yaml, language: script).
#
# pre-commit runs this from its own clone of the lockfix repository, at the rev
# the user's .pre-commit-config.yaml names. On first use it builds lockfix
# inside that clone (.lockfix-hook-build/, Release, analyzer only) and reuses
# that build on every later run; a new rev is a new clone, hence a new build.
# Then: lockfix scan --force-exclude FILES (exit 1 on findings).
#
# The machine needs what a lockfix build needs: CMake >= 3.20, a C compiler,
# make, npm with access to the npm registry (the first build fetches the pinned
# tree-sitter sources) and cJSON (Debian: libcjson-dev). Nothing is installed
# outside pre-commit's cache; `pre-commit clean` removes it all.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build=$repo/.lockfix-hook-build
lockfix=$build/analyzer/lockfix
done_stamp=$build/.lockfix-hook-built

build_once() {
  [ -x "$lockfix" ] && [ -e "$done_stamp" ] && return 0
  local missing=() log=$build.log
  command -v cmake >/dev/null 2>&1 || missing+=(cmake)
  command -v cc >/dev/null 2>&1 || missing+=("a C compiler (cc)")
  command -v make >/dev/null 2>&1 || missing+=(make)
  command -v npm >/dev/null 2>&1 || missing+=(npm)
  if [ ${#missing[@]} -gt 0 ]; then
    printf 'lockfix hook: cannot build lockfix: missing %s\n' "${missing[*]}" >&2
    echo "  Debian/Ubuntu: sudo apt-get install -y cmake gcc make npm libcjson-dev" >&2
    echo "  (or install lockfix yourself and use the hook id lockfix-system)" >&2
    return 2
  fi
  echo "lockfix hook: first use: building lockfix in $build (once per hook revision)" >&2
  if ! { cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=Release -DLOCKFIX_BUILD_TESTS=OFF \
           -DLOCKFIX_BUILD_RUNTIME=OFF -DLOCKFIX_SANITIZE=OFF &&
         cmake --build "$build" --target lockfix -j "$(nproc 2>/dev/null || echo 2)"; } >"$log" 2>&1; then
    echo "lockfix hook: building lockfix failed; the end of $log:" >&2
    tail -n 20 "$log" >&2
    return 2
  fi
  : >"$done_stamp"
}

# One build even when several commits run the hook at once: they wait here.
if command -v flock >/dev/null 2>&1; then
  exec 9>>"$repo/.lockfix-hook-build.lock"
  flock 9
fi
build_once || exit $?
if command -v flock >/dev/null 2>&1; then
  flock -u 9
  exec 9>&-
fi
exec "$lockfix" scan --force-exclude "$@"
