# SPDX-License-Identifier: MIT
# Run with cmake -P by the test discovery_lists_every_case (tests/CMakeLists.txt): the CTest tests that
# mk_discover_tests made of a doctest program (cmake/MkDiscoverTests.cmake, from its XML listing)
# against what the program itself says in its other two forms. Every case the plain --list-test-cases
# prints is one test of that name, and no other test runs the program; for the first and every 10th
# case, the test's own --test-case filter selects that case alone, and its label is the suite that
# doctest's per-case query gives (--list-test-suites, what doctest's own discovery asks once per case).
#   PROGRAM    the doctest program
#   BUILD_DIR  the build tree whose tests ctest lists
#   CTEST      the ctest program

# The lines of a doctest listing between its banner lines (names hold no ';': tests/CMakeLists.txt).
function(mk_listing out)
  execute_process(COMMAND ${PROGRAM} ${ARGN} OUTPUT_VARIABLE text RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${PROGRAM} ${ARGN} failed (${status})")
  endif()
  string(REPLACE "\n" ";" lines "${text}")
  set(kept "")
  foreach(line IN LISTS lines)
    if(line MATCHES "^===+$" OR line MATCHES "^\\[doctest\\] " OR line STREQUAL "")
      continue()
    endif()
    list(APPEND kept "${line}")
  endforeach()
  set(${out} "${kept}" PARENT_SCOPE)
endfunction()

mk_listing(cases --list-test-cases)
list(LENGTH cases case_count)
if(case_count LESS 100)
  message(FATAL_ERROR "${PROGRAM} lists ${case_count} cases: too few to be the suite")
endif()

execute_process(COMMAND ${CTEST} --test-dir ${BUILD_DIR} --show-only=json-v1 OUTPUT_VARIABLE json
  RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "ctest --show-only=json-v1 failed (${status})")
endif()
string(JSON tests GET "${json}" tests)
string(JSON test_count LENGTH "${tests}")
math(EXPR last "${test_count} - 1")
set(names "")
foreach(i RANGE ${last})
  string(JSON test GET "${tests}" ${i})
  string(JSON program GET "${test}" command 0)
  if(NOT program STREQUAL PROGRAM)
    continue()
  endif()
  string(JSON name GET "${test}" name)
  list(APPEND names "${name}")
  # The test's case filter and label, kept under a key made of its name (any characters) for the
  # checks below.
  string(MD5 key "${name}")
  string(JSON argument_${key} GET "${test}" command 1)
  set(label "")
  string(JSON property_count LENGTH "${test}" properties)
  math(EXPR last_property "${property_count} - 1")
  foreach(p RANGE ${last_property})
    string(JSON property_name GET "${test}" properties ${p} name)
    if(property_name STREQUAL "LABELS")
      string(JSON label GET "${test}" properties ${p} value 0)
    endif()
  endforeach()
  set(label_${key} "${label}")
endforeach()

list(SORT cases)
list(SORT names)
if(NOT cases STREQUAL names)
  list(LENGTH names test_names)
  set(missing ${cases})
  list(REMOVE_ITEM missing ${names})
  set(extra ${names})
  list(REMOVE_ITEM extra ${cases})
  message(FATAL_ERROR "${case_count} cases, ${test_names} tests of ${PROGRAM}\n"
    "cases without a test: ${missing}\ntests without a case: ${extra}")
endif()

set(checked 0)
set(index 0)
foreach(name IN LISTS cases)
  math(EXPR index "${index} + 1")
  if(NOT index EQUAL 1 AND NOT index MATCHES "0$")  # the first, then every 10th
    continue()
  endif()
  # The test's own filter, as ctest passes it: doctest must select this one case with it.
  string(MD5 key "${name}")
  mk_listing(selected "${argument_${key}}" --list-test-cases)
  if(NOT "${selected}" STREQUAL "${name}")
    message(FATAL_ERROR "the test '${name}' (${argument_${key}}) selects: ${selected}")
  endif()
  mk_listing(suites "${argument_${key}}" --list-test-suites)
  if(NOT "${suites}" STREQUAL "${label_${key}}")
    message(FATAL_ERROR "'${name}': label '${label_${key}}', doctest's suite '${suites}'")
  endif()
  math(EXPR checked "${checked} + 1")
endforeach()
message(STATUS "${case_count} cases, each one test of its name; ${checked} filters select their case alone, with doctest's suite as label")
