#!/usr/bin/env bash
# Action step "scan": lockfix scan with the action's inputs (INPUT_* below).
# Writes the outputs exit-code and sarif-file; fails the step only on a usage
# or I/O error (exit 2), so that the SARIF is uploaded before the last step
# fails the job per fail-on.
set -euo pipefail
lockfix=${LOCKFIX:?}
format=${INPUT_FORMAT:-sarif}
fail_on=${INPUT_FAIL_ON:-}
sarif=${INPUT_SARIF_FILE:-lockfix.sarif}
args=()
case "$format" in
  sarif|github) ;;
  *) echo "::error title=lockfix::format must be sarif or github, got '$format'"; exit 2 ;;
esac
case "$fail_on" in
  ''|never) ;;
  error|warning|info) args+=(--fail-on "$fail_on") ;;
  *) echo "::error title=lockfix::fail-on must be error, warning, info or never, got '$fail_on'"; exit 2 ;;
esac
[ -z "${INPUT_CONFIG:-}" ] || args+=(--config "$INPUT_CONFIG")
[ -z "${INPUT_BASELINE:-}" ] || args+=(--baseline "$INPUT_BASELINE")
# paths: whitespace- or newline-separated, never glob-expanded.
read -r -d '' -a paths <<<"${INPUT_PATHS:-.}" || true
[ ${#paths[@]} -gt 0 ] || paths=(.)

[ "$format" != sarif ] || mkdir -p "$(dirname "$sarif")"
set +e
if [ "$format" = sarif ]; then
  # The readable report in the log, then the SARIF file the upload step sends.
  "$lockfix" scan "${args[@]}" -- "${paths[@]}"
  "$lockfix" scan "${args[@]}" --format sarif --output "$sarif" -- "${paths[@]}"
  rc=$?
else
  "$lockfix" scan "${args[@]}" --format github -- "${paths[@]}"
  rc=$?
fi
set -e
[ "$fail_on" != never ] || [ "$rc" -ne 1 ] || rc=0
{
  echo "exit-code=$rc"
  if [ "$format" = sarif ]; then echo "sarif-file=$sarif"; fi
} >>"${GITHUB_OUTPUT:?}"
if [ "$rc" -ge 2 ]; then
  echo "::error title=lockfix::lockfix scan failed (exit $rc): see the messages above"
  exit "$rc"
fi
