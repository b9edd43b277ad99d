# Every finding over the rule cases names a lock by its path expression: never
# by a call standing for it, never by a helper's `return None` (a guard's way
# out that names no path). Run with LOCKFIX (the CLI) and ROOT.
execute_process(COMMAND ${LOCKFIX} scan tests/rules/cases --no-config --no-cache --format text
                WORKING_DIRECTORY ${ROOT} OUTPUT_VARIABLE _out ERROR_VARIABLE _err RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 1)
  message(FATAL_ERROR "lockfix scan tests/rules/cases exited ${_rc} (findings expected): ${_err}")
endif()
string(REGEX MATCHALL "[^\n]*(the lock|the lock file) None [^\n]*" _bad "${_out}")
if(_bad)
  message(FATAL_ERROR "findings name a lock None:\n${_bad}")
endif()
string(REGEX MATCH "path_helper_none_guard_bad.py:35:9: LF301 os.remove\\(path\\) removes the lock os.path.join\\(lock_dir, name \\+ \".lock\"\\) by name"
       _named "${_out}")
if(NOT _named)
  message(FATAL_ERROR "path_helper_none_guard_bad.py:35 does not name the path its helper returns")
endif()
message(STATUS "every finding over tests/rules/cases names its lock by a path")
