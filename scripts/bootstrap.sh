#!/usr/bin/env bash
# Install what lockfix needs on Debian 12 — only what is missing.
#   scripts/bootstrap.sh build   # compiler, cmake, node/npm, cJSON: enough to build and scan
#   scripts/bootstrap.sh demo    # + pytest (demo.sh verifies the fan-out with the fixtures' suites)
#   scripts/bootstrap.sh package # + dpkg-dev (package-deb.sh: cpack -G DEB, dpkg-shlibdeps)
#   scripts/bootstrap.sh test    # + pytest, lock peers, mingw + wine for the Windows runtime tests,
#                                #   dpkg-dev + debootstrap for the package test, clang + libFuzzer
#                                #   for the fuzz smoke runs
# As root it runs apt-get; otherwise it prints the exact command and exits 1.
set -euo pipefail
level=${1:-build}

missing=()
need_cmd() { command -v "$1" >/dev/null 2>&1 || missing+=("$2"); }
need_file() { [ -e "$1" ] || missing+=("$2"); }
need_py() { /usr/bin/python3 -c "import $1" >/dev/null 2>&1 || missing+=("$2"); }

need_cmd cc gcc
need_cmd make make
need_cmd cmake cmake
need_cmd pkg-config pkg-config
need_cmd git git
need_file /usr/include/cjson/cJSON.h libcjson-dev
# Node.js: keep whatever node/npm the machine has (e.g. a newer one); else Debian's.
need_cmd node nodejs
need_cmd npm npm

if [ "$level" = package ] || [ "$level" = test ]; then
  need_cmd dpkg-shlibdeps dpkg-dev
fi
if [ "$level" = demo ] || [ "$level" = test ]; then
  need_file /usr/bin/python3 python3
  need_py pytest python3-pytest
fi
if [ "$level" = test ]; then
  need_cmd debootstrap debootstrap
  need_cmd patch patch
  need_cmd pre-commit pre-commit
  need_file /usr/bin/python3 python3
  need_py pytest python3-pytest
  need_py filelock python3-filelock
  need_py portalocker python3-portalocker
  need_cmd x86_64-w64-mingw32-gcc gcc-mingw-w64-x86-64
  # The fuzz build (fuzz/, -DLOCKFIX_FUZZ=ON): clang and its libFuzzer runtime.
  need_cmd clang clang
  if command -v clang >/dev/null 2>&1 \
     && [ ! -e "$(clang -print-file-name="libclang_rt.fuzzer-$(uname -m).a" 2>/dev/null)" ]; then
    missing+=("libclang-rt-$(clang -dumpversion | cut -d. -f1)-dev")
  fi
  if ! command -v wine >/dev/null 2>&1 && ! command -v wine64 >/dev/null 2>&1; then
    missing+=(wine wine64)
  fi
  # N-API headers for the Node binding (nodesource's nodejs ships them; Debian's needs libnode-dev).
  if [ ! -e /usr/include/node/node_api.h ] && command -v node >/dev/null 2>&1 \
     && [ ! -e "$(dirname "$(dirname "$(command -v node)")")/include/node/node_api.h" ]; then
    missing+=(libnode-dev)
  fi
fi

# De-duplicate.
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
cmd="apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  echo "lockfix: installing: ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "lockfix: missing packages: ${missing[*]}" >&2
  echo "Install them with:" >&2
  echo "  sudo sh -c '$cmd'" >&2
  exit 1
fi
