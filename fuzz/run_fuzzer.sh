#!/bin/sh
# Run one fuzz target for ctest (fuzz/CMakeLists.txt).
#   run_fuzzer.sh smoke FUZZER RUNS DICT WORK CORPUS SEEDS REPRO
#     RUNS executions (seed 1) over the generated corpus, the committed seeds
#     and the reproducers, which libFuzzer all executes first; new inputs go to WORK.
#   run_fuzzer.sh repro FUZZER REPRO
#     every file in REPRO once; exit 77 (ctest: skipped) when there is none.
set -eu
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$(cd "$(dirname "$0")" && pwd)/lsan.supp}"
mode=$1
fuzzer=$2
case $mode in
smoke)
  runs=$3 dict=$4 work=$5 corpus=$6 seeds=$7 repro=$8
  rm -rf "$work"
  mkdir -p "$work"
  set -- "$work" "$corpus"
  for d in "$seeds" "$repro"; do
    [ -d "$d" ] && set -- "$@" "$d"
  done
  cd "$work/.."   # a crashing input is written here (crash-<sha1>)
  exec "$fuzzer" -runs="$runs" -seed=1 -dict="$dict" -timeout=60 -rss_limit_mb=2048 -max_len=65536 \
    -print_final_stats=1 "$@"
  ;;
repro)
  repro=$3
  set --
  for f in "$repro"/*; do
    [ -f "$f" ] && set -- "$@" "$f"
  done
  if [ $# -eq 0 ]; then
    echo "no reproducers in $repro: skipped"
    exit 77
  fi
  echo "replaying $# reproducers from $repro"
  exec "$fuzzer" -timeout=60 -rss_limit_mb=2048 "$@"
  ;;
esac
echo "usage: run_fuzzer.sh smoke|repro FUZZER ..." >&2
exit 2
