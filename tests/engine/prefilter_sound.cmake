# Prefilter soundness on a real corpus: scanning CORPUS with and without
# prefilters must give the same findings (a prefilter may only skip files that
# could never produce one). A missing corpus is a failure, not a pass: the
# comparison would prove nothing (Debian: apt-get install python3.11).
if(NOT IS_DIRECTORY "${CORPUS}")
  message(FATAL_ERROR "prefilter soundness: the corpus ${CORPUS} is missing, so nothing was compared "
                      "(install it: apt-get install python3.11)")
endif()
execute_process(COMMAND ${SCAN} ${CORPUS} OUTPUT_VARIABLE _with ERROR_QUIET RESULT_VARIABLE _rc1)
execute_process(COMMAND ${SCAN} --no-prefilter ${CORPUS} OUTPUT_VARIABLE _without ERROR_QUIET RESULT_VARIABLE _rc2)
if(NOT _rc1 EQUAL 0 OR NOT _rc2 EQUAL 0)
  message(FATAL_ERROR "scan failed (${_rc1}, ${_rc2})")
endif()
if(NOT _with STREQUAL _without)
  message(FATAL_ERROR "prefilters hide findings on ${CORPUS}\n--- without prefilter\n${_without}--- with\n${_with}")
endif()
string(REGEX MATCHALL "\n" _lines "${_with}")
list(LENGTH _lines _n)
# Agreeing on nothing would prove nothing: the corpus must give findings (Debian's
# python3.11 gives LF301 in mailbox.py, through the refined `CALL(…WORD` literals).
if(_n EQUAL 0)
  message(FATAL_ERROR "no findings on ${CORPUS} with or without prefilters: the comparison has no teeth")
endif()
message(STATUS "prefilter soundness: ${CORPUS}: same ${_n} findings with and without prefilters")
