#!/usr/bin/env bash
# A longer fuzz campaign over the libFuzzer targets in fuzz/ (docs/robustness.md).
#
#   scripts/fuzz-campaign.sh [--time SECONDS | --runs N] [--jobs N] [--nice N] [--build DIR] [TARGET[:SECONDS]...]
#
# Builds DIR (default build-fuzz: clang, -DLOCKFIX_FUZZ=ON, its own tree) if
# needed, regenerates the seed corpora from the fixtures, then runs each target
# (default all: python ts fix fix_ts rule config record) for SECONDS (default 300; a
# TARGET:SECONDS argument sets one target's own) or N executions, under `nice -n N` (default 19; libFuzzer's
# -timeout=30 is wall time, so on a loaded machine a niced run reports slow units as
# timeouts: use --nice 0 there), JOBS targets at a time (default 1). Each
# target's corpus lives in DIR/fuzz/campaign/<target>: seeded from the generated
# corpus, fuzz/seeds and fuzz/reproducers, grown by the run, then merged (libFuzzer
# -merge=1) to a minimal set covering the same features, so repeated campaigns
# build on each other. Crashes, leaks, sanitizer reports and timeouts land in
# DIR/fuzz/artifacts/<target>/. Prints executions, executions per second and
# seconds per target, and the totals; writes the same table to
# DIR/fuzz/campaign-report.txt. Exit 1 when any target left an artifact.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-fuzz
time_budget=300
runs=
jobs=1
niceness=19
targets=()
while [ $# -gt 0 ]; do
  case $1 in
    --time) time_budget=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --nice) niceness=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    -*) echo "fuzz-campaign: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(python ts fix fix_ts rule config record)
declare -A dict=([python]=python [fix]=python [fix_ts]=ts [ts]=ts [rule]=rule [config]=config [record]=record)
declare -A seconds=()
for i in "${!targets[@]}"; do
  t=${targets[$i]%%:*}
  [ "$t" = "${targets[$i]}" ] || seconds[$t]=${targets[$i]#*:}
  targets[$i]=$t
  [ -n "${dict[$t]:-}" ] || { echo "fuzz-campaign: unknown target $t" >&2; exit 2; }
done

clang=${CC:-/usr/bin/clang}
if [ ! -f "$build/CMakeCache.txt" ]; then
  nice -n "$niceness" cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER="$clang" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DLOCKFIX_FUZZ=ON -DLOCKFIX_BUILD_TESTS=OFF -DLOCKRT_BUILD_TOOLS=OFF >/dev/null
fi
nice -n "$niceness" cmake --build "$build" -j"$(nproc)" --target fuzz_all >/dev/null
fz=$build/fuzz
/usr/bin/python3 "$root/fuzz/make_corpus.py" "$root" "$fz/corpus" >/dev/null

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/fuzz/lsan.supp}

run_one() {
  local t=$1 bin=$fz/fuzz_$1 camp=$fz/campaign/$1 art=$fz/artifacts/$1 log=$fz/campaign-logs/$1.log
  mkdir -p "$camp" "$art" "$(dirname "$log")"
  local seeds=("$fz/corpus/$t")
  for d in "$root/fuzz/seeds/$t" "$root/fuzz/reproducers/$t"; do
    [ -d "$d" ] && seeds+=("$d")
  done
  # Seed the campaign corpus (only inputs that add coverage are copied in).
  nice -n "$niceness" "$bin" -merge=1 -timeout=30 -rss_limit_mb=2048 -max_len=65536 -artifact_prefix="$art/merge-" "$camp" "${seeds[@]}" \
    >"$log.merge-in" 2>&1 || true
  local budget=(-max_total_time="${seconds[$t]:-$time_budget}")
  [ -n "$runs" ] && budget=(-runs="$runs")
  local start end rc=0
  start=$(date +%s)
  nice -n "$niceness" "$bin" "${budget[@]}" -dict="$root/fuzz/dict/${dict[$t]}.dict" -timeout=30 -rss_limit_mb=2048 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="$art/" "$camp" >"$log" 2>&1 || rc=$?
  end=$(date +%s)
  # Keep the corpus minimal for the next campaign.
  rm -rf "$camp.min" && mkdir -p "$camp.min"
  nice -n "$niceness" "$bin" -merge=1 -timeout=30 -rss_limit_mb=2048 -max_len=65536 -artifact_prefix="$art/merge-" "$camp.min" "$camp" \
    >"$log.merge-out" 2>&1 && { rm -rf "$camp"; mv "$camp.min" "$camp"; } || rm -rf "$camp.min"
  local execs rate
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  printf '%s %s %s %s %s %s\n' "$t" "${execs:-0}" "${rate:-0}" "$((end - start))" \
    "$(find "$camp" -type f | wc -l)" "$rc" >"$fz/campaign-logs/$t.result"
}

mkdir -p "$fz/campaign-logs"
for t in "${targets[@]}"; do
  rm -f "$fz/campaign-logs/$t.result"
done
running=0
for t in "${targets[@]}"; do
  run_one "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n || true
    running=$((running - 1))
  fi
done
wait

report=$fz/campaign-report.txt
{
  printf '%-8s %12s %10s %8s %8s %10s\n' target execs execs/s seconds corpus artifacts
  total=0
  for t in "${targets[@]}"; do
    read -r name execs rate secs corpus rc <"$fz/campaign-logs/$t.result"
    n_art=$(find "$fz/artifacts/$t" -type f | wc -l)
    printf '%-8s %12s %10s %8s %8s %10s\n' "$name" "$execs" "$rate" "$secs" "$corpus" "$n_art"
    total=$((total + execs))
  done
  printf '%-8s %12s\n' total "$total"
} | tee "$report"
failed=$(for t in "${targets[@]}"; do awk '$6 != 0 {print $1}' "$fz/campaign-logs/$t.result"; done)
if [ -n "$failed" ] || [ -n "$(find "${targets[@]/#/$fz/artifacts/}" -type f)" ]; then
  echo "fuzz-campaign: failed: ${failed:-(none)}; artifacts in $fz/artifacts, logs in $fz/campaign-logs" >&2
  exit 1
fi
