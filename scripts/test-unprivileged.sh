#!/usr/bin/env bash
# The test cases marked `unprivileged` (they need the kernel's permission
# checks, which root bypasses), run by a pytest process that is itself uid
# 65534 (nobody), dropped with setpriv from root. Uses the build of
# scripts/test.sh. .ci/run calls it after scripts/test.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${LOCKFIX_BUILD_DIR:-$root/build}
if [ "$(id -u)" -ne 0 ]; then
  echo "test-unprivileged: run as root (it drops to uid 65534 itself)" >&2
  exit 2
fi
command -v setpriv >/dev/null || { echo "test-unprivileged: setpriv missing (apt-get install util-linux)" >&2; exit 2; }
echo "== unprivileged cases as uid 65534 (setpriv)"
exec setpriv --reuid=65534 --regid=65534 --clear-groups \
  env HOME=/tmp LOCKFIX_BIN="$build/analyzer/lockfix" LOCKFIX_HOOKS_BIN="$build/tests/robust/lockfix-robusthooks" \
  LOCKFIX_SOURCE_DIR="$root" PYTHONDONTWRITEBYTECODE=1 \
  /usr/bin/python3 -m pytest -q -rs -p no:cacheprovider -m unprivileged \
  "$root/tests/cli/test_walk_cli.py" "$root/tests/robust/test_hostile_fs.py"
