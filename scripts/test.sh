#!/usr/bin/env bash
# Build and run every test: the full suite in a normal build, then the C tests
# again under AddressSanitizer + UndefinedBehaviorSanitizer, then the fuzz
# targets (clang + libFuzzer, their own build tree): a short smoke run of each
# and every saved reproducer (ctest label fuzz; docs/robustness.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/bootstrap.sh" test
jobs=$(nproc)
build=${LOCKFIX_BUILD_DIR:-$root/build}
asan=${LOCKFIX_ASAN_BUILD_DIR:-$root/build-asan}
fuzz=${LOCKFIX_FUZZ_BUILD_DIR:-$root/build-fuzz}

# Every pytest the tests start logs its skips here (tests/pytest_plugins/lockfix_skiplog.py):
# ctest prints a passing test's output to nobody, and .ci/run's count-skips must see them.
skiplog=$(mktemp)
export LOCKFIX_SKIP_LOG="$skiplog" LOCKFIX_SKIP_ROOT="$root" PYTEST_PLUGINS=lockfix_skiplog
export PYTHONPATH="$root/tests/pytest_plugins${PYTHONPATH:+:$PYTHONPATH}"
report_skips() {
  local runs
  runs=$(cat "$skiplog.runs" 2>/dev/null | wc -l)
  echo "== pytest cases skipped inside ctest: $(wc -l < "$skiplog") (in $runs pytest runs)"
  cat "$skiplog"
  # no run logged at all: the plugin did not load, and a skip would go unseen
  if [ "$runs" -eq 0 ]; then
    echo "SKIPPED [1] scripts/test.sh: tests/pytest_plugins/lockfix_skiplog.py was loaded by no pytest run"
  fi
}
trap 'report_skips; rm -f "$skiplog" "$skiplog.runs"' EXIT

echo "== build ($build)"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLOCKFIX_BUILD_TESTS=ON -DLOCKFIX_SANITIZE=OFF >/dev/null
cmake --build "$build" -j"$jobs"
echo "== tests"
ctest --test-dir "$build" --output-on-failure -j"$jobs"

echo "== build with ASan+UBSan ($asan)"
cmake -S "$root" -B "$asan" -DCMAKE_BUILD_TYPE=Debug -DLOCKFIX_BUILD_TESTS=ON -DLOCKFIX_SANITIZE=ON >/dev/null
cmake --build "$asan" -j"$jobs"
echo "== tests under ASan+UBSan"
# Everything again against the sanitized analyzer and runtime, except the Wine
# run (it cross-compiles its own unsanitized Windows build) and the tests
# labelled install, which build their own Release lockfix (the Action, the
# self-installing pre-commit hook, the .deb); both already ran above. The scans
# of real corpora (labels accuracy, realcorpus: a million lines of Debian
# packages, the Python standard library) and the mutation suite (582 generated
# integrations through the same fixers) run only above: under ASan they take
# most of CI's budget and exercise the same code the fixture scans do.
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir "$asan" --output-on-failure -j"$jobs" -LE '^(windows|install|accuracy|realcorpus|mutation)$'

echo "== fuzz build with clang + libFuzzer ($fuzz)"
# Nothing is shared with the gcc trees above: own build dir, own grammar fetch.
cmake -S "$root" -B "$fuzz" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLOCKFIX_FUZZ=ON \
  -DLOCKFIX_BUILD_TESTS=OFF -DLOCKRT_BUILD_TOOLS=OFF >/dev/null
cmake --build "$fuzz" -j"$jobs" --target fuzz_all
echo "== fuzz smoke runs and reproducers"
ctest --test-dir "$fuzz" --output-on-failure -j"$jobs" -L fuzz
