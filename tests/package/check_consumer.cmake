# Run with cmake -P. Installs the already-built engine into an empty prefix and builds the consumer
# against it; fails on any step, and when the consumer's own check fails.
file(REMOVE_RECURSE "${MK_WORK_DIR}")
set(prefix "${MK_WORK_DIR}/prefix")

function(run_step)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "step failed (${rc}): ${ARGV}\n${out}\n${err}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

run_step(${CMAKE_COMMAND} --install "${MK_BUILD_DIR}" --prefix "${prefix}")
foreach(required include/minkowski/geometry.h lib/libminkowski.a lib/cmake/minkowski/minkowskiConfig.cmake
                 lib/cmake/minkowski/minkowskiConfigVersion.cmake)
  if(NOT EXISTS "${prefix}/${required}")
    message(FATAL_ERROR "install is missing ${required}")
  endif()
endforeach()

run_step(${CMAKE_COMMAND} -S "${MK_CONSUMER_SOURCE}" -B "${MK_WORK_DIR}/build"
         -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${MK_CXX_COMPILER}
         -DCMAKE_BUILD_TYPE=${MK_BUILD_TYPE})
run_step(${CMAKE_COMMAND} --build "${MK_WORK_DIR}/build")
run_step("${MK_WORK_DIR}/build/game")
message(STATUS "consumer output: ${step_output}")
if(NOT step_output MATCHES "consumer ok")
  message(FATAL_ERROR "consumer did not report success")
endif()
