# Scan TARGET (relative to ROOT) with the engine alone, with and without
# prefilters, and without prefilters walking every query over the whole tree
# (no anchored query sites, lf_anchor.h); compare each against the EXPECTED
# findings file byte for byte.
if(NOT TARGET)
  set(TARGET fixtures)
endif()
foreach(_mode prefilter no-prefilter whole-tree)
  if(_mode STREQUAL "prefilter")
    set(_args ${TARGET})
  elseif(_mode STREQUAL "no-prefilter")
    set(_args --no-prefilter ${TARGET})
  else()
    set(_args --no-prefilter --whole-tree ${TARGET})
  endif()
  execute_process(COMMAND ${SCAN} ${_args} WORKING_DIRECTORY ${ROOT}
                  OUTPUT_VARIABLE _got RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "scan (${_mode}) failed (${_rc}): ${_err}")
  endif()
  file(READ ${EXPECTED} _want)
  if(NOT _got STREQUAL _want)
    message(FATAL_ERROR "scan (${_mode}) of ${TARGET} differs from ${EXPECTED}\n--- want\n${_want}--- got\n${_got}")
  endif()
endforeach()
message(STATUS "${TARGET}: findings match ${EXPECTED} with and without prefilters and anchored sites")
