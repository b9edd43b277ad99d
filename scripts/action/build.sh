#!/usr/bin/env bash
# Action step "build" (cache miss only): a Release build of the analyzer,
# installed into LOCKFIX_PREFIX, which the cache step then saves.
set -euo pipefail
src=${GITHUB_ACTION_PATH:?}
prefix=${LOCKFIX_PREFIX:?}
build=${RUNNER_TEMP:?}/lockfix-action-build
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DLOCKFIX_BUILD_TESTS=OFF \
  -DLOCKFIX_BUILD_RUNTIME=OFF -DLOCKFIX_SANITIZE=OFF -DCMAKE_INSTALL_PREFIX="$prefix"
cmake --build "$build" -j"$(nproc)" --target lockfix
cmake --install "$build"
"$prefix/bin/lockfix" --version
