# Scan fixtures/ with the engine alone, with and without prefilters, and compare
# both against the expected findings file byte for byte.
foreach(_mode prefilter no-prefilter)
  if(_mode STREQUAL "prefilter")
    set(_args fixtures)
  else()
    set(_args --no-prefilter fixtures)
  endif()
  execute_process(COMMAND ${SCAN} ${_args} WORKING_DIRECTORY ${ROOT}
                  OUTPUT_VARIABLE _got RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "scan (${_mode}) failed (${_rc}): ${_err}")
  endif()
  file(READ ${EXPECTED} _want)
  if(NOT _got STREQUAL _want)
    message(FATAL_ERROR "scan (${_mode}) of fixtures/ differs from ${EXPECTED}\n--- want\n${_want}--- got\n${_got}")
  endif()
endforeach()
message(STATUS "fixtures/: findings match ${EXPECTED} with and without prefilters")
