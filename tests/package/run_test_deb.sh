#!/usr/bin/env bash
# ctest entry for test_deb.sh: exit 77 (skipped) where it cannot run at all.
if [ "$(id -u)" -ne 0 ]; then
  echo "package.deb: skipped: installing into a chroot needs root" >&2
  exit 77
fi
if ! command -v debootstrap >/dev/null 2>&1 || ! command -v dpkg-shlibdeps >/dev/null 2>&1; then
  echo "package.deb: skipped: needs debootstrap and dpkg-dev (scripts/bootstrap.sh test installs them)" >&2
  exit 77
fi
exec "$(dirname "$0")/test_deb.sh" "$@"
