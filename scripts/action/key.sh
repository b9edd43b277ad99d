#!/usr/bin/env bash
# Action step "key": where the action's lockfix build lives and the cache key
# for it, from the action's commit: when the action is a clean git checkout
# (`uses: ./`), the commit's tree of the action directory (commits that leave
# lockfix alone share the build); when GITHUB_ACTION_REF is a commit id, that;
# otherwise (a downloaded tag or branch) a hash of the sources that go into
# the build, which is what the commit fixes.
set -euo pipefail
src=${GITHUB_ACTION_PATH:?}
if sub=$(git -C "$src" rev-parse --show-prefix 2>/dev/null) &&
   id=$(git -C "$src" rev-parse --verify -q "HEAD:$sub" 2>/dev/null) &&
   [ -z "$(git -C "$src" status --porcelain -- . 2>/dev/null)" ]; then
  id=tree-$id
elif [[ "${GITHUB_ACTION_REF:-}" =~ ^[0-9a-f]{40}$ ]]; then
  id=$GITHUB_ACTION_REF
else
  id=src-$(cd "$src" && find CMakeLists.txt analyzer cmake deps rules runtime -type f ! -name '*.md' -print0 \
             | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-40)
fi
prefix=${RUNNER_TOOL_CACHE:?}/lockfix/$id
{
  echo "prefix=$prefix"
  echo "lockfix=$prefix/bin/lockfix"
  echo "key=lockfix-${RUNNER_OS:-Linux}-${RUNNER_ARCH:-X64}-$id"
} >>"${GITHUB_OUTPUT:?}"
