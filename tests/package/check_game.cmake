# SPDX-License-Identifier: MIT
# Run with cmake -P: configure, build and run a small game-like project against Minkowski, and fail
# unless each step does what the test expects.
#
#   MK_GAME_SOURCE      the game project's folder
#   MK_WORK_DIR         scratch folder, emptied first
#   MK_CXX_COMPILER     the compiler of the build tree (and MK_CXX_LAUNCHER, its launcher, may be empty)
#   MK_BUILD_DIR        when set, the build tree's engine is first installed into MK_WORK_DIR/prefix,
#                       which the game finds through CMAKE_PREFIX_PATH
#   MK_GAME_ARGS        extra configure arguments for the game (a list)
#   MK_BUILD_TYPE       the game's CMAKE_BUILD_TYPE; unset leaves it unset
#   MK_CONFIGURE_ONLY   when ON, stop after the game's configure step (its CMakeLists makes the checks)
#   MK_TARGET           the target to build (default: all)
#   MK_RUN              the program to run afterwards, relative to the game's build folder
#   MK_EXPECT_OUTPUT    regex its output must match
#   MK_FAIL_TARGETS     targets whose builds must then FAIL (separated by commas) ...
#   MK_EXPECT_FAILURES  ... each with output matching the regex at the same place in this list (commas)
#   MK_ENGINE_ARGS      when set, this source tree (MK_SOURCE_DIR) is first configured with these
#                       arguments (separated by |) and built in MK_WORK_DIR/engine, which then serves as
#                       MK_BUILD_DIR
#   MK_LIBRARY_FILE     the library the install must hold (default lib/libminkowski.a)
#   MK_UNITY_BUILD      when ON, the game (and an engine built by MK_ENGINE_ARGS) is configured with
#                       CMAKE_UNITY_BUILD=ON, as games that build in unity batches are
#   MK_EXPORTS_FILE     a shared object (relative to the game's build folder, or absolute) whose
#                       exported mk:: symbols are counted: at most MK_EXPORTS_MAX, none matching
#                       MK_EXPORTS_FORBID (a regex over the demangled names)
file(REMOVE_RECURSE "${MK_WORK_DIR}")
set(prefix "${MK_WORK_DIR}/prefix")
set(build "${MK_WORK_DIR}/build")

function(run_step)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "step failed (${rc}): ${ARGV}\n${out}\n${err}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

set(configure_args -DCMAKE_CXX_COMPILER=${MK_CXX_COMPILER} ${MK_GAME_ARGS})
if(MK_CXX_LAUNCHER)
  list(APPEND configure_args -DCMAKE_CXX_COMPILER_LAUNCHER=${MK_CXX_LAUNCHER})
endif()
if(DEFINED MK_BUILD_TYPE)
  list(APPEND configure_args -DCMAKE_BUILD_TYPE=${MK_BUILD_TYPE})
endif()
if(MK_UNITY_BUILD)
  list(APPEND configure_args -DCMAKE_UNITY_BUILD=ON)
endif()
if(MK_ENGINE_ARGS)
  set(MK_BUILD_DIR "${MK_WORK_DIR}/engine")
  string(REPLACE "|" ";" engine_args "${MK_ENGINE_ARGS}")
  list(PREPEND engine_args -DCMAKE_CXX_COMPILER=${MK_CXX_COMPILER})
  if(MK_CXX_LAUNCHER)
    list(APPEND engine_args -DCMAKE_CXX_COMPILER_LAUNCHER=${MK_CXX_LAUNCHER})
  endif()
  if(MK_UNITY_BUILD)
    list(APPEND engine_args -DCMAKE_UNITY_BUILD=ON)
  endif()
  run_step(${CMAKE_COMMAND} -S "${MK_SOURCE_DIR}" -B "${MK_BUILD_DIR}" ${engine_args})
  run_step(${CMAKE_COMMAND} --build "${MK_BUILD_DIR}" --parallel 2)
endif()
if(NOT MK_LIBRARY_FILE)
  set(MK_LIBRARY_FILE lib/libminkowski.a)
endif()
if(MK_BUILD_DIR)
  run_step(${CMAKE_COMMAND} --install "${MK_BUILD_DIR}" --prefix "${prefix}")
  foreach(required include/minkowski/world.h include/minkowski/version.h ${MK_LIBRARY_FILE}
                   lib/cmake/minkowski/minkowskiConfig.cmake lib/cmake/minkowski/minkowskiConfigVersion.cmake)
    if(NOT EXISTS "${prefix}/${required}")
      message(FATAL_ERROR "install is missing ${required}")
    endif()
  endforeach()
  list(APPEND configure_args -DCMAKE_PREFIX_PATH=${prefix})
endif()

run_step(${CMAKE_COMMAND} -S "${MK_GAME_SOURCE}" -B "${build}" ${configure_args})
if(MK_CONFIGURE_ONLY)
  message(STATUS "configured: ${MK_GAME_SOURCE}")
  return()
endif()
set(build_args)
if(MK_TARGET)
  set(build_args --target ${MK_TARGET})
endif()

run_step(${CMAKE_COMMAND} --build "${build}" ${build_args})
if(MK_RUN)
  run_step("${build}/${MK_RUN}")
  message(STATUS "${MK_RUN} output: ${step_output}")
  if(NOT step_output MATCHES "${MK_EXPECT_OUTPUT}")
    message(FATAL_ERROR "${MK_RUN} did not print '${MK_EXPECT_OUTPUT}'")
  endif()
endif()

if(MK_EXPORTS_FILE)
  if(NOT IS_ABSOLUTE "${MK_EXPORTS_FILE}")
    set(MK_EXPORTS_FILE "${build}/${MK_EXPORTS_FILE}")
  endif()
  run_step(nm -D --defined-only -C "${MK_EXPORTS_FILE}")
  string(REGEX MATCHALL "[^\n]*mk::[^\n]*" exported "${step_output}")
  list(LENGTH exported exported_count)
  message(STATUS "${MK_EXPORTS_FILE} exports ${exported_count} mk:: symbols")
  if(exported_count GREATER MK_EXPORTS_MAX)
    message(FATAL_ERROR "${MK_EXPORTS_FILE} exports ${exported_count} mk:: symbols, more than ${MK_EXPORTS_MAX}")
  endif()
  if(MK_EXPORTS_FORBID)
    foreach(symbol IN LISTS exported)
      if(symbol MATCHES "${MK_EXPORTS_FORBID}")
        message(FATAL_ERROR "${MK_EXPORTS_FILE} exports an internal symbol: ${symbol}")
      endif()
    endforeach()
  endif()
endif()

string(REPLACE "," ";" fail_targets "${MK_FAIL_TARGETS}")
string(REPLACE "," ";" expect_failures "${MK_EXPECT_FAILURES}")
foreach(target expected IN ZIP_LISTS fail_targets expect_failures)
  execute_process(COMMAND ${CMAKE_COMMAND} --build "${build}" --target ${target}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0)
    message(FATAL_ERROR "${target} built; it must fail with: ${expected}")
  endif()
  if(NOT "${out}${err}" MATCHES "${expected}")
    message(FATAL_ERROR "${target} failed, but without '${expected}':\n${out}\n${err}")
  endif()
  message(STATUS "${target} failed to build, as it must: ${expected}")
endforeach()
