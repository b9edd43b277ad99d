#!/usr/bin/env bash
# Fetch the real-code accuracy corpus: every `name=version` of LIST, downloaded
# with `apt-get download` (exact pinned versions, nothing installed on the
# system) into DEST/debs and unpacked with `dpkg -x` into DEST/pkgs/<name>/.
# Already unpacked packages are kept, so a second run costs nothing.
#   scripts/realpkgs.sh tests/accuracy/packages.txt build/accuracy
# Exit 0 when every package is there, 3 when one cannot be had (no network,
# or Debian no longer serves the pinned version: pin the one it serves).
set -euo pipefail
list=$1
dest=$2
mkdir -p "$dest/debs" "$dest/pkgs"
dest=$(cd "$dest" && pwd)
mapfile -t specs < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$list" | grep -v '^$')

deb_of() { # name=version -> the .deb apt-get download writes (epoch ':' as %3a)
  local name=${1%%=*} version=${1#*=}
  ls "$dest/debs/${name}_${version//:/%3a}_"*.deb 2>/dev/null | head -n1
}

want=()
for spec in "${specs[@]}"; do
  [ -n "$(deb_of "$spec")" ] || want+=("$spec")
done
if [ ${#want[@]} -gt 0 ]; then
  # apt-get download writes into the current directory. As root, apt's
  # sandbox user may not write there: let it, or apt warns and works unsandboxed.
  chmod 0777 "$dest/debs" 2>/dev/null || true
  if ! (cd "$dest/debs" && apt-get download -q "${want[@]}" >/dev/null 2>"$dest/download.err"); then
    # An empty or stale package list: refresh it once (root only) and retry.
    if [ "$(id -u)" -eq 0 ]; then
      apt-get update -qq >/dev/null 2>&1 || true
      (cd "$dest/debs" && apt-get download -q "${want[@]}" >/dev/null 2>"$dest/download.err") || {
        echo "realpkgs: apt-get download failed:" >&2; cat "$dest/download.err" >&2; exit 3; }
    else
      echo "realpkgs: apt-get download failed (as root, run apt-get update first):" >&2
      cat "$dest/download.err" >&2
      exit 3
    fi
  fi
fi

for spec in "${specs[@]}"; do
  name=${spec%%=*}
  deb=$(deb_of "$spec")
  if [ -z "$deb" ]; then
    echo "realpkgs: $spec was not downloaded" >&2
    exit 3
  fi
  stamp="$dest/pkgs/$name/.unpacked-from"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(basename "$deb")" ]; then
    continue
  fi
  rm -rf "$dest/pkgs/$name"
  mkdir -p "$dest/pkgs/$name"
  dpkg -x "$deb" "$dest/pkgs/$name"
  basename "$deb" > "$stamp"
done
