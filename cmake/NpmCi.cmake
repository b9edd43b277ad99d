# `npm ci --ignore-scripts` a pinned package set (a directory with package.json,
# package-lock.json and an optional .npmrc) into DST, once per lock file: a stamp
# holds the lock file's hash, and the install is redone when it changes or when
# MARKER (a path under DST/node_modules that a complete install has) is missing.
# --ignore-scripts: none of the packages' own code runs at install time.
# Usage: cmake -DSRC=<deps/x> -DDST=<build>/x -DMARKER=<pkg/file> -P NpmCi.cmake
foreach(_v SRC DST MARKER)
  if(NOT DEFINED ${_v})
    message(FATAL_ERROR "NpmCi.cmake: pass -D${_v}=...")
  endif()
endforeach()
file(SHA256 ${SRC}/package-lock.json _hash)
set(_stamp ${DST}/.lockfix-npm-ci-stamp)
if(EXISTS ${_stamp})
  file(READ ${_stamp} _have)
  if(_have STREQUAL _hash AND EXISTS ${DST}/node_modules/${MARKER})
    return()
  endif()
endif()
find_program(NPM npm)
if(NOT NPM)
  message(FATAL_ERROR "npm not found: install it with `sudo apt-get install -y nodejs npm`")
endif()
file(MAKE_DIRECTORY ${DST})
foreach(f package.json package-lock.json .npmrc)
  if(EXISTS ${SRC}/${f})
    configure_file(${SRC}/${f} ${DST}/${f} COPYONLY)
  endif()
endforeach()
execute_process(COMMAND ${NPM} ci --ignore-scripts --no-audit --no-fund
                WORKING_DIRECTORY ${DST} RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "`npm ci --ignore-scripts` failed in ${DST}: is the npm registry reachable?")
endif()
file(WRITE ${_stamp} ${_hash})
