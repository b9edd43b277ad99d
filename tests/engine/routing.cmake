# One combined query per language: each match must reach the rule owning its
# pattern. Two rules sharing capture names (@fn, @finding) with different
# predicates give, loaded together, exactly the findings each gives alone; a rule
# whose prefilter fails, or that --select leaves out, gives none although its
# patterns match. Builtin rules stay loaded, so LF9xx patterns sit behind theirs.
# Args: LOCKFIX (binary), DIR (tests/engine/routing), WORK (scratch dir).
function(scan _out)
  execute_process(COMMAND ${LOCKFIX} scan --no-config ${ARGN} t.py WORKING_DIRECTORY ${DIR}
                  OUTPUT_VARIABLE _got ERROR_VARIABLE _err RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0 AND NOT _rc EQUAL 1)
    message(FATAL_ERROR "lockfix scan ${ARGN} failed (${_rc}): ${_err}")
  endif()
  # Keep the finding lines, drop the source excerpts and the summary.
  string(REGEX MATCHALL "t\\.py:[0-9]+:[0-9]+: [^\n]*" _lines "${_got}")
  string(REPLACE ";" "\n" _lines "${_lines}")
  set(${_out} "${_lines}" PARENT_SCOPE)
endfunction()

function(expect _what _got _want)
  if(NOT _got STREQUAL _want)
    message(FATAL_ERROR "${_what}\n--- want\n${_want}\n--- got\n${_got}")
  endif()
endfunction()

file(REMOVE_RECURSE ${WORK})
foreach(_id LF901 LF902)
  file(GLOB _f ${DIR}/rules/${_id}-*.json)
  file(COPY ${_f} DESTINATION ${WORK}/only-${_id})
endforeach()

set(A "t.py:1:6: LF901 A lock(a)\nt.py:3:1: LF901 A y(lkx)")
set(B "t.py:2:8: LF902 B unlock(b)\nt.py:4:1: LF902 B z(q)\nt.py:6:8: LF902 B unlock(lkw)")
set(AB "t.py:1:6: LF901 A lock(a)\nt.py:2:8: LF902 B unlock(b)\nt.py:3:1: LF901 A y(lkx)\n")
string(APPEND AB "t.py:4:1: LF902 B z(q)\nt.py:6:8: LF902 B unlock(lkw)")

scan(_a --rules ${WORK}/only-LF901 --select LF901)
expect("LF901 loaded alone" "${_a}" "${A}")
scan(_b --rules ${WORK}/only-LF902 --select LF902)
expect("LF902 loaded alone" "${_b}" "${B}")
scan(_ab --rules ${DIR}/rules --select LF9)
expect("LF901..LF903 loaded together (LF903's prefilter fails)" "${_ab}" "${AB}")
scan(_sa --rules ${DIR}/rules --select LF901)
expect("all loaded, --select LF901" "${_sa}" "${A}")
scan(_sb --rules ${DIR}/rules --select LF902,LF903)
expect("all loaded, --select LF902,LF903" "${_sb}" "${B}")
scan(_ib --rules ${DIR}/rules --select LF9 --ignore LF901)
expect("all loaded, --ignore LF901" "${_ib}" "${B}")
message(STATUS "combined-query routing: each rule gives exactly its own findings")
