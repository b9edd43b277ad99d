#!/usr/bin/env bash
# The Debian package in a clean Debian: build it (scripts/package-deb.sh),
# install it with `dpkg -i` in a freshly debootstrapped bookworm (minbase plus
# what the checks use: python3, pkgconf, gcc), then use every part of it there:
# lockfix --version and a scan, the Python binding from dist-packages with its
# native library, pkg-config, a C program built against lockrt.h and
# liblockrt; then `dpkg -r` removes it all.
#   tests/package/test_deb.sh SRC_DIR WORK_DIR
# The debootstrapped base is kept in WORK_DIR/debian-base and reused (delete it
# to refresh); each run installs into a copy. Needs root (chroot), debootstrap,
# dpkg-dev and the Debian mirror (LOCKFIX_DEBIAN_MIRROR, default deb.debian.org).
set -euo pipefail
# Output is captured before grep -q reads it: in a pipeline under pipefail, grep -q
# exiting at its first match can kill the writer with SIGPIPE and fail the check
# (it did once on a loaded CI machine, ldd's third line).
src=$(cd "$1" && pwd)
work=$2
mkdir -p "$work"
work=$(cd "$work" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || fail "needs root (chroot, dpkg -i into the chroot)"
command -v debootstrap >/dev/null || fail "debootstrap is missing: apt-get install -y debootstrap"

echo "== build the package"
deb=$("$src/scripts/package-deb.sh" "$work/build-deb" | tail -1)
[ -f "$deb" ] || fail "package-deb.sh printed no .deb ($deb)"
version=$(sed -n 's/^project(lockfix VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
lockrt_version=$(sed -n 's/^set(LOCKRT_VERSION \([0-9.]*\))/\1/p' "$src/runtime/CMakeLists.txt")

echo "== the package's files"
contents=$(dpkg-deb --fsys-tarfile "$deb" | tar -t | sed 's|^\./|/|' | grep -v '/$' | sort)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
want=$(printf '%s\n' /usr/bin/lockfix /usr/include/lockrt.h \
  /usr/lib/python3/dist-packages/lockrt.py \
  "/usr/lib/$multiarch/liblockrt.so" "/usr/lib/$multiarch/liblockrt.so.0" "/usr/lib/$multiarch/liblockrt.so.$lockrt_version" \
  "/usr/lib/$multiarch/liblockrt_static.a" "/usr/lib/$multiarch/pkgconfig/lockrt.pc" \
  "/usr/lib/$multiarch/cmake/lockrt/lockrtConfig.cmake" "/usr/lib/$multiarch/cmake/lockrt/lockrtConfigVersion.cmake" \
  "/usr/lib/$multiarch/cmake/lockrt/lockrtTargets-release.cmake" "/usr/lib/$multiarch/cmake/lockrt/lockrtTargets.cmake" \
  | sort)
[ "$contents" = "$want" ] || fail "package contents differ:$(diff <(echo "$want") <(echo "$contents"))"
depends=$(dpkg-deb --field "$deb" Depends)
grep -q 'libcjson1' <<<"$depends" || fail "Depends does not name libcjson1"

base=$work/debian-base
packages=libcjson1,python3,pkgconf,gcc,libc6-dev
suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
if [ "$(cat "$base/.lockfix-base" 2>/dev/null)" != "$suite $packages" ]; then
  echo "== debootstrap $suite (minbase + $packages), once"
  rm -rf "$base" "$base.tmp"
  debootstrap --variant=minbase --include="$packages" "$suite" "$base.tmp" \
    "${LOCKFIX_DEBIAN_MIRROR:-http://deb.debian.org/debian}" >"$work/debootstrap.log" 2>&1 \
    || fail "debootstrap failed: see $work/debootstrap.log"
  echo "$suite $packages" >"$base.tmp/.lockfix-base"
  mv "$base.tmp" "$base"
fi

root=$work/root
rm -rf "$root"
cp -a "$base" "$root"
trap 'rm -rf "$root"' EXIT
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 "$@"; }

echo "== dpkg -i"
cp "$deb" "$root/tmp/lockfix.deb"
in_root dpkg -i /tmp/lockfix.deb
status=$(in_root dpkg-query -W -f '${Status}\n' lockfix)
grep -qx 'install ok installed' <<<"$status" || fail "not installed"

echo "== lockfix"
got=$(in_root lockfix --version)
[ "$got" = "lockfix $version" ] || fail "lockfix --version printed '$got', want 'lockfix $version'"
mkdir -p "$root/tmp/proj"
cat >"$root/tmp/proj/state.py" <<'PY'
import os


def write_state(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as fh:
        fh.write(text)
    os.replace(tmp, path)
PY
set +e
out=$(cd / && in_root sh -c 'cd /tmp/proj && lockfix scan .')
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "lockfix scan exited $rc, want 1: $out"
grep -q '^state.py:5:11: LF401 ' <<<"$out" || fail "scan output lacks the LF401 finding: $out"

echo "== Python binding"
got=$(in_root python3 -c '
import lockrt
with lockrt.exclusive_lock("/tmp/state.lock", timeout=5) as acquired:
    assert acquired
print(lockrt.__file__, lockrt.LIBRARY)')
[ "$got" = "/usr/lib/python3/dist-packages/lockrt.py liblockrt.so" ] \
  || fail "python3 import lockrt: '$got' (want the dist-packages file using the native liblockrt.so)"

echo "== pkg-config and a C program"
got=$(in_root pkg-config --modversion lockrt)
[ "$got" = "$lockrt_version" ] || fail "pkg-config --modversion lockrt: '$got'"
cat >"$root/tmp/use_lockrt.c" <<'C'
#include <lockrt.h>
#include <stdio.h>

int main(void) {
    lockrt_options opts;
    lockrt_options_init(&opts);
    lockrt_lock *lock = NULL;
    int st = lockrt_acquire("/tmp/c.lock", &opts, &lock);
    if (st != LOCKRT_OK) {
        fprintf(stderr, "acquire: %s\n", lockrt_strerror(st));
        return 1;
    }
    st = lockrt_release(lock);
    printf("acquired and released: %s\n", lockrt_strerror(st));
    return st == LOCKRT_OK ? 0 : 1;
}
C
in_root sh -c 'cc -o /tmp/use_lockrt /tmp/use_lockrt.c $(pkg-config --cflags --libs lockrt)'
got=$(in_root /tmp/use_lockrt)
[ "$got" = "acquired and released: $(in_root python3 -c 'import lockrt; print(lockrt.strerror(0))')" ] \
  || fail "C program: '$got'"
# (/lib is /usr/lib on a merged-/usr system: the loader may name either.)
libs=$(in_root sh -c 'ldd /tmp/use_lockrt')
grep -Eq "liblockrt\.so\.0 => (/usr)?/lib/$multiarch/liblockrt\.so\.0 " <<<"$libs" \
  || fail "the C program does not load the installed liblockrt.so.0"

echo "== dpkg -r"
in_root dpkg -r lockfix
for f in $want; do
  [ ! -e "$root$f" ] && [ ! -L "$root$f" ] || fail "$f is still there after dpkg -r"
done
cache=$(in_root ldconfig -p)
grep -q liblockrt <<<"$cache" && fail "ldconfig still lists liblockrt after dpkg -r"
echo "OK: $(basename "$deb") installs, works and uninstalls in a clean $suite"
