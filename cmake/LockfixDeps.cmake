# Third-party dependencies of the analyzer.
#
#  - tree-sitter runtime + grammars: from the npm registry, pinned by
#    deps/grammars/package-lock.json, fetched at configure time with
#    `npm ci --ignore-scripts` into the build tree (never into the source tree).
#  - cJSON: Debian's libcjson-dev.
#
# A missing dependency stops configuration with the exact command to install it.

find_program(LOCKFIX_NPM npm)
if(NOT LOCKFIX_NPM)
  message(FATAL_ERROR "lockfix: npm not found. Install it with:\n  sudo apt-get install -y nodejs npm")
endif()

set(LOCKFIX_NPM_DIR ${CMAKE_BINARY_DIR}/_deps/grammars)
set(_lf_lock_src ${PROJECT_SOURCE_DIR}/deps/grammars/package-lock.json)
set(_lf_stamp ${LOCKFIX_NPM_DIR}/.lockfix-stamp)
file(SHA256 ${_lf_lock_src} _lf_lock_hash)
set(_lf_have "")
if(EXISTS ${_lf_stamp})
  file(READ ${_lf_stamp} _lf_have)
endif()
if(NOT _lf_have STREQUAL _lf_lock_hash OR NOT EXISTS ${LOCKFIX_NPM_DIR}/node_modules/tree-sitter/vendor/tree-sitter/lib/src/lib.c)
  message(STATUS "lockfix: fetching pinned tree-sitter sources (npm ci --ignore-scripts)")
  file(MAKE_DIRECTORY ${LOCKFIX_NPM_DIR})
  foreach(f package.json package-lock.json .npmrc)
    configure_file(${PROJECT_SOURCE_DIR}/deps/grammars/${f} ${LOCKFIX_NPM_DIR}/${f} COPYONLY)
  endforeach()
  execute_process(COMMAND ${LOCKFIX_NPM} ci --ignore-scripts --no-audit --no-fund
                  WORKING_DIRECTORY ${LOCKFIX_NPM_DIR}
                  RESULT_VARIABLE _lf_rc OUTPUT_VARIABLE _lf_out ERROR_VARIABLE _lf_err)
  if(NOT _lf_rc EQUAL 0)
    message(FATAL_ERROR "lockfix: `npm ci --ignore-scripts` failed in ${LOCKFIX_NPM_DIR}:\n${_lf_err}\n"
                        "Check that the npm registry is reachable, then re-run cmake.")
  endif()
  file(WRITE ${_lf_stamp} ${_lf_lock_hash})
endif()

set(_ts ${LOCKFIX_NPM_DIR}/node_modules/tree-sitter/vendor/tree-sitter/lib)
add_library(lf_tree_sitter STATIC ${_ts}/src/lib.c)
target_include_directories(lf_tree_sitter SYSTEM PUBLIC ${_ts}/include PRIVATE ${_ts}/src ${_ts}/src/wasm)
target_compile_definitions(lf_tree_sitter PRIVATE _POSIX_C_SOURCE=200112L _DEFAULT_SOURCE)
set_target_properties(lf_tree_sitter PROPERTIES POSITION_INDEPENDENT_CODE ON)

set(_g ${LOCKFIX_NPM_DIR}/node_modules)
add_library(lf_grammars STATIC
  ${_g}/tree-sitter-python/src/parser.c
  ${_g}/tree-sitter-python/src/scanner.c
  ${_g}/tree-sitter-typescript/typescript/src/parser.c
  ${_g}/tree-sitter-typescript/typescript/src/scanner.c
  ${_g}/tree-sitter-typescript/tsx/src/parser.c
  ${_g}/tree-sitter-typescript/tsx/src/scanner.c)
# The two TypeScript scanners share a file name and include "../../common/scanner.h".
target_include_directories(lf_grammars PRIVATE ${_g}/tree-sitter-python/src)
target_compile_options(lf_grammars PRIVATE -w)
target_link_libraries(lf_grammars PUBLIC lf_tree_sitter)

find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(CJSON QUIET IMPORTED_TARGET libcjson)
endif()
if(TARGET PkgConfig::CJSON)
  add_library(lf_cjson INTERFACE)
  target_link_libraries(lf_cjson INTERFACE PkgConfig::CJSON)
else()
  find_path(CJSON_INCLUDE_DIR cjson/cJSON.h)
  find_library(CJSON_LIBRARY cjson)
  if(NOT CJSON_INCLUDE_DIR OR NOT CJSON_LIBRARY)
    message(FATAL_ERROR "lockfix: cJSON not found. Install it with:\n  sudo apt-get install -y libcjson-dev")
  endif()
  add_library(lf_cjson INTERFACE)
  target_include_directories(lf_cjson INTERFACE ${CJSON_INCLUDE_DIR})
  target_link_libraries(lf_cjson INTERFACE ${CJSON_LIBRARY})
endif()
