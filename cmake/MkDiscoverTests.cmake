# SPDX-License-Identifier: MIT
# mk_discover_tests(target): every doctest TEST_CASE of a test program becomes a CTest test named as
# the case and labelled with its suite, as doctest's own doctest_discover_tests(... ADD_LABELS 1)
# does, but with one run of the program after each build instead of one per case. doctest's module
# starts the program once more per case to ask for its suite: 600 starts, 55 s at the end of the
# sanitizer build (a 170 MB program whose every start maps ASan's shadow memory), and 2 s in Release.
# Here one `--list-test-cases --reporters=xml` gives every case with its suite (MkAddTests.cmake).
set(MK_ADD_TESTS_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/MkAddTests.cmake)

# `ctest -j` starts tests in order of their COST property (then in the order they were added), and a
# fresh build has no measured times: a long case that starts last keeps one core busy alone at the
# end. So the cases of the suite "long", and those whose names match the regular expression FIRST,
# get COST 1 (the others 0) and start first.
#   mk_discover_tests(target [FIRST regex])
function(mk_discover_tests target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "FIRST" "")
  set(ctest_file ${CMAKE_CURRENT_BINARY_DIR}/${target}_tests.cmake)
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${CMAKE_COMMAND} -D TEST_EXECUTABLE=$<TARGET_FILE:${target}>
      -D TEST_WORKING_DIR=${CMAKE_CURRENT_BINARY_DIR} -D CTEST_FILE=${ctest_file} "-D FIRST=${arg_FIRST}"
      -P ${MK_ADD_TESTS_SCRIPT}
    VERBATIM)
  # CTest reads the file when it runs; before the first build it does not exist yet, which CTest allows.
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${ctest_file})
endfunction()
