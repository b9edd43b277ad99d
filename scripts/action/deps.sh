#!/usr/bin/env bash
# Action step "deps": what lockfix needs on the runner (Debian/Ubuntu, apt).
#   deps.sh build     # to build it: cmake, a C compiler, make, npm, cJSON headers
#   deps.sh runtime   # to run the cached build in $LOCKFIX: the cJSON shared library
set -euo pipefail
level=${1:-build}
missing=()
if [ "$level" = build ]; then
  command -v cmake >/dev/null 2>&1 || missing+=(cmake)
  command -v cc >/dev/null 2>&1 || missing+=(gcc)
  command -v make >/dev/null 2>&1 || missing+=(make)
  command -v npm >/dev/null 2>&1 || missing+=(npm)
  [ -e /usr/include/cjson/cJSON.h ] || missing+=(libcjson-dev)
else
  # captured first: under pipefail, grep -q leaving at its match could SIGPIPE ldd and hide it
  libs=$(ldd "${LOCKFIX:?}" 2>&1 || true)
  ! grep -q 'libcjson.* not found' <<<"$libs" || missing+=(libcjson1)
fi
[ ${#missing[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "::error title=lockfix::missing ${missing[*]}: this action installs them with apt-get (Ubuntu/Debian runners)"
  exit 2
fi
sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
echo "lockfix: installing ${missing[*]}"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
