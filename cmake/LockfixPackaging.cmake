# `cpack -G DEB` from a build configured with -DCMAKE_INSTALL_PREFIX=/usr: one
# Debian package, lockfix, holding everything `cmake --install` installs:
#   /usr/bin/lockfix
#   /usr/lib/<multiarch>/liblockrt.so.0* (+ liblockrt.so, liblockrt.a)
#   /usr/include/lockrt.h, /usr/lib/<multiarch>/pkgconfig/lockrt.pc,
#   /usr/lib/<multiarch>/cmake/lockrt/ (find_package(lockrt))
#   /usr/lib/python3/dist-packages/lockrt.py (LOCKFIX_PYTHON_INSTALL_DIR)
# Dependencies come from dpkg-shlibdeps (dpkg-dev); the shlibs file and the
# ldconfig trigger from CPack. scripts/package-deb.sh builds it;
# tests/package installs it with dpkg -i in a debootstrapped Debian.

set(CPACK_PACKAGE_NAME lockfix)
set(CPACK_PACKAGE_VENDOR "lockfix")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "find and fix unsafe lock fallbacks; lockrt, the lock library its fixes use")
string(CONCAT CPACK_PACKAGE_DESCRIPTION
    "lockfix scans Python and TypeScript/JavaScript for broken locking around shared\n"
    "state files (unlocked fallbacks, realpath guards, shared temp names, lock\n"
    "removal by name) and applies the safe fixes. lockrt is the C lock library\n"
    "(with its Python binding) that the fixes swap in.")
# Debian requires a maintainer address; set yours when you publish packages.
set(CPACK_PACKAGE_CONTACT "lockfix maintainers <maintainers@lockfix.invalid>")
set(CPACK_PACKAGE_HOMEPAGE_URL "https://github.com/lockfix/lockfix")
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # lockfix_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY "=")
# The Python binding works without its native library (pure-Python backend), and
# lockfix works without Python.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

include(CPack)
