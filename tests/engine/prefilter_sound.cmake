# Prefilter soundness on a real corpus: scanning CORPUS (directories separated
# by '|') with and without prefilters must give the same findings (a prefilter
# may only skip files that could never produce one). Anchored query sites
# likewise: without prefilters (every rule's query on every file), running each
# query only where its anchor words occur (lf_anchor.h) must give the same
# findings, messages included, as walking the whole tree. A missing directory is a
# failure, not a pass: the comparison would prove less than it claims
# (Debian: apt-get install python3.11 python3-pytest).
string(REPLACE "|" ";" _dirs "${CORPUS}")
set(CORPUS "")
foreach(_d IN LISTS _dirs)
  if(NOT IS_DIRECTORY "${_d}")
    if(NOT HINT)
      set(HINT "install it: apt-get install python3.11 python3-pytest")
    endif()
    message(FATAL_ERROR "prefilter soundness: the corpus directory ${_d} is missing, so nothing was compared "
                        "(${HINT})")
  endif()
  list(APPEND CORPUS "${_d}")
endforeach()
if(NOT CORPUS)
  message(FATAL_ERROR "prefilter soundness: no corpus given")
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
# Agreeing on nothing would prove nothing: the corpus must give findings (pytest's
# _pytest/pathlib.py gives LF301 and LF302: a lock judged stale by age, unlinked by name).
if(_n EQUAL 0)
  message(FATAL_ERROR "no findings on ${CORPUS} with or without prefilters: the comparison has no teeth")
endif()
execute_process(COMMAND ${SCAN} --no-prefilter --messages ${CORPUS} OUTPUT_VARIABLE _anchored ERROR_QUIET
                RESULT_VARIABLE _rc3)
execute_process(COMMAND ${SCAN} --no-prefilter --whole-tree --messages ${CORPUS} OUTPUT_VARIABLE _whole ERROR_QUIET
                RESULT_VARIABLE _rc4)
if(NOT _rc3 EQUAL 0 OR NOT _rc4 EQUAL 0)
  message(FATAL_ERROR "scan failed (${_rc3}, ${_rc4})")
endif()
if(NOT _anchored STREQUAL _whole)
  message(FATAL_ERROR "anchored query sites differ from whole-tree walks on ${CORPUS}\n--- whole tree\n${_whole}"
                      "--- anchored\n${_anchored}")
endif()
message(STATUS "prefilter soundness: ${CORPUS}: same ${_n} findings with and without prefilters, "
               "and with anchored query sites or whole-tree walks")
