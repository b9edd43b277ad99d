#!/bin/sh
# Install lockrt from BUILD_DIR into a fresh prefix, then build and run a consumer
# against the installed copy with pkg-config and with find_package(lockrt).
#   run_install_test.sh BUILD_DIR WORK_DIR CONSUMER_SRC_DIR "EXTRA_C_FLAGS"
set -eu
BUILD=$1
WORK=$2
CONSUMER=$3
EXTRA=${4:-}
CC=${CC:-cc}

rm -rf "$WORK"
mkdir -p "$WORK/run"
PREFIX="$WORK/prefix"
cmake --install "$BUILD" --prefix "$PREFIX" --component lockrt
test -f "$PREFIX/include/lockrt.h"
LIBDIR=$(dirname "$(find "$PREFIX" -name 'liblockrt.so' | head -n1)")
test -f "$LIBDIR/liblockrt_static.a"
test -f "$LIBDIR/pkgconfig/lockrt.pc"
test -f "$LIBDIR/cmake/lockrt/lockrtConfig.cmake"

echo "== exported symbols (visibility hidden by default: only the lockrt_ API)"
if command -v nm >/dev/null 2>&1; then
    extra=$(nm -D --defined-only "$LIBDIR/liblockrt.so" | awk '$2 ~ /^[TDBR]$/ && $3 !~ /^lockrt_/ {print $3}')
    if [ -n "$extra" ]; then
        echo "unexpected exports: $extra"
        exit 1
    fi
    nm -D --defined-only "$LIBDIR/liblockrt.so" | grep -q ' T lockrt_acquire$'
fi

echo "== pkg-config"
if command -v pkg-config >/dev/null 2>&1; then
    export PKG_CONFIG_PATH="$LIBDIR/pkgconfig"
    pkg-config --exists lockrt
    test "$(pkg-config --variable=prefix lockrt | xargs realpath)" = "$(realpath "$PREFIX")"
    # shellcheck disable=SC2046,SC2086
    $CC $EXTRA "$CONSUMER/consumer.c" $(pkg-config --cflags --libs lockrt) \
        -Wl,-rpath,"$LIBDIR" -o "$WORK/consumer_pc"
    "$WORK/consumer_pc" "$WORK/run"
    # it must have loaded the installed library, not the build tree's
    ldd "$WORK/consumer_pc" | grep -q "$LIBDIR/liblockrt.so"
else
    echo "pkg-config not installed (Debian: pkg-config): pkg-config half not run"
    exit 1
fi

echo "== find_package(lockrt)"
cmake -S "$CONSUMER" -B "$WORK/cbuild" -DCMAKE_PREFIX_PATH="$PREFIX" \
      -DCMAKE_C_FLAGS="$EXTRA" -DCMAKE_EXE_LINKER_FLAGS="$EXTRA" >/dev/null
cmake --build "$WORK/cbuild"
"$WORK/cbuild/consumer_shared" "$WORK/run"
"$WORK/cbuild/consumer_static" "$WORK/run"
ldd "$WORK/cbuild/consumer_shared" | grep -q "$LIBDIR/liblockrt.so"
echo "install test passed"
