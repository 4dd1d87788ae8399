# SPDX-License-Identifier: MIT
# Run with cmake -P after a test program is built (MkDiscoverTests.cmake): lists its doctest cases with
# their suites in one run and writes CTEST_FILE, one add_test and its label per case.
#   TEST_EXECUTABLE   the doctest program
#   TEST_WORKING_DIR  where its tests run
#   CTEST_FILE        the script CTest includes
#   FIRST             a regular expression (may be empty): matching cases, and those of the suite
#                     "long", get COST 1 so that `ctest -j` starts them first
execute_process(COMMAND ${TEST_EXECUTABLE} --list-test-cases --reporters=xml
  OUTPUT_VARIABLE listing RESULT_VARIABLE status WORKING_DIRECTORY ${TEST_WORKING_DIR})
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${TEST_EXECUTABLE} --list-test-cases --reporters=xml failed (${status}):\n${listing}")
endif()

# An argument of the written script in a bracket argument, which takes every character as it is.
function(mk_quote out value)
  set(${out} "[==[${value}]==]" PARENT_SCOPE)
endfunction()

# The five entities doctest's XML writer escapes in attribute values, as they stand in the listing
# (each ';' there already replaced, see below); &amp; last, so "&amp;lt;" stays "&lt;".
function(mk_xml_unescape out value)
  foreach(entity "lt|<" "gt|>" "quot|\"" "apos|'" "amp|&")
    string(FIND "${entity}" "|" bar)
    string(SUBSTRING "${entity}" 0 ${bar} code)
    math(EXPR bar "${bar} + 1")
    string(SUBSTRING "${entity}" ${bar} -1 character)
    string(REPLACE "&${code}<semicolon>" "${character}" value "${value}")
  endforeach()
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

set(script "")
set(count 0)
mk_quote(program "${TEST_EXECUTABLE}")
mk_quote(directory "${TEST_WORKING_DIR}")
# One element per line: a line holding ';' would otherwise split, so such lines are refused below.
string(REPLACE ";" "<semicolon>" listing "${listing}")
string(REPLACE "\n" ";" lines "${listing}")
foreach(line IN LISTS lines)
  if(NOT line MATCHES "<TestCase ")
    continue()
  endif()
  if(NOT line MATCHES " name=\"([^\"]*)\"")
    message(FATAL_ERROR "${TEST_EXECUTABLE}: a test case line not understood: ${line}")
  endif()
  mk_xml_unescape(name "${CMAKE_MATCH_1}")
  set(suite "")  # a case outside any suite has no testsuite attribute
  if(line MATCHES " testsuite=\"([^\"]*)\"")
    mk_xml_unescape(suite "${CMAKE_MATCH_1}")
  endif()
  if(name MATCHES "<semicolon>" OR suite MATCHES "<semicolon>")
    message(FATAL_ERROR "${TEST_EXECUTABLE}: a test case or suite name holds a semicolon: ${name}")
  endif()
  # doctest reads a comma in --test-case as a separator between filters: escaped, it is the name's own.
  string(REPLACE "," "\\," filter "${name}")
  mk_quote(test "${name}")
  mk_quote(argument "--test-case=${filter}")
  string(APPEND script "add_test(${test} ${program} ${argument})\n")
  string(APPEND script "set_tests_properties(${test} PROPERTIES WORKING_DIRECTORY ${directory}")
  if(NOT suite STREQUAL "")
    mk_quote(label "${suite}")
    string(APPEND script " LABELS ${label}")
  endif()
  if(suite STREQUAL "long" OR (NOT FIRST STREQUAL "" AND name MATCHES "${FIRST}"))
    string(APPEND script " COST 1")
  endif()
  string(APPEND script ")\n")
  math(EXPR count "${count} + 1")
endforeach()
if(count EQUAL 0)
  message(FATAL_ERROR "${TEST_EXECUTABLE} lists no test case:\n${listing}")
endif()
file(WRITE "${CTEST_FILE}" "${script}")
