#!/bin/sh
# Cross-compile lockrt, lockrt_harness and lockrt_wintest with mingw-w64 and run
# them under Wine: the Windows code paths (LockFileEx, CREATE_NEW records,
# delete-by-handle, MoveFileExW, CreateProcessW workers) against real processes.
#
#   run_wine_tests.sh SOURCE_DIR MINGW_BUILD_DIR
#
# Exit 77 (ctest SKIP_RETURN_CODE) only when mingw-w64 or wine is not installed.
set -u
SRC=$1
B=$2

if ! command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1; then
    echo "SKIP: x86_64-w64-mingw32-gcc not found (Debian: apt-get install gcc-mingw-w64-x86-64)"
    exit 77
fi
WINE=$(command -v wine64 2>/dev/null || command -v wine 2>/dev/null || true)
if [ -z "$WINE" ]; then
    echo "SKIP: wine not found (Debian: apt-get install wine wine64)"
    exit 77
fi

echo "== configure + build (mingw-w64) in $B"
cmake -S "$SRC" -B "$B" -DCMAKE_TOOLCHAIN_FILE="$SRC/cmake/toolchain-mingw64.cmake" \
      -DLOCKFIX_BUILD_ANALYZER=OFF -DLOCKFIX_BUILD_TESTS=OFF -DLOCKFIX_SANITIZE=OFF \
      -DCMAKE_BUILD_TYPE=Release >"$B.configure.log" 2>&1 || { cat "$B.configure.log"; exit 1; }
cmake --build "$B" -j2 --target lockrt lockrt_static lockrt_harness lockrt_wintest || exit 1

# A private prefix inside the build dir; the first start creates it (~30 s).
export WINEPREFIX="$B/wineprefix"
export WINEDEBUG=-all
export WINEDLLOVERRIDES="mscoree,mshtml="
BIN="$B/runtime"
WORK="$B/wine-work"
rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK" || exit 1
"$WINE" cmd /c exit >/dev/null 2>&1

status=0
echo "== lockrt_wintest"
"$WINE" "$BIN/lockrt_wintest.exe" || status=1

run_harness() { # name, then harness arguments
    name=$1
    shift
    out=$("$WINE" "$BIN/lockrt_harness.exe" run --file "$name.json" --lock "$name.lock" "$@")
    rc=$?
    echo "$name: $out"
    if [ $rc -ne 0 ]; then
        echo "FAIL $name (exit $rc)"
        status=1
    fi
}
echo "== lost-update harness under Wine"
for strategy in oslock lockfile; do
    run_harness "win_${strategy}_3x50" --procs 3 --iters 50 --strategy $strategy
    run_harness "win_${strategy}_6x40" --procs 6 --iters 40 --strategy $strategy
    run_harness "win_${strategy}_8x100" --procs 8 --iters 100 --strategy $strategy
done
run_harness win_control_3x50 --procs 3 --iters 50 --strategy none --hold-us 2000 --expect-loss
run_harness win_control_6x40 --procs 6 --iters 40 --strategy none --hold-us 2000 --expect-loss

wineserver -k >/dev/null 2>&1 || true
[ $status -eq 0 ] && echo "all Windows tests passed"
exit $status
