#!/usr/bin/env bash
# Build the Debian package: scripts/package-deb.sh [BUILD_DIR]  (default build-deb)
# A Release build installed under /usr (multiarch libdir), packed by
# `cpack -G DEB`; prints the path of the .deb on its last line.
# Needs what `scripts/bootstrap.sh build` installs, plus dpkg-dev (dpkg-shlibdeps).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-deb}
"$root/scripts/bootstrap.sh" package
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
  -DLOCKFIX_BUILD_TESTS=OFF -DLOCKFIX_SANITIZE=OFF -DLOCKRT_BUILD_TOOLS=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" >/dev/null
rm -f "$build"/lockfix_*.deb
(cd "$build" && cpack -G DEB >/dev/null)
ls "$build"/lockfix_*.deb
