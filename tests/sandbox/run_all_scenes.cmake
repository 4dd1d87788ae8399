# SPDX-License-Identifier: MIT
# Renders every scene and lab the sandbox lists (--list-scenes) headless for a few frames, checks each
# screenshot (window size, not one flat colour, enough foreground) and that no two are alike.
#   cmake -DSANDBOX=<sandbox> -DCHECKER=<png_check> -DOUT=<dir> -P run_all_scenes.cmake
cmake_minimum_required(VERSION 3.21)
if(NOT DEFINED ENV{ASAN_OPTIONS})
  set(ENV{ASAN_OPTIONS} "detect_leaks=0")  # Mesa's driver leaks; see run_sandbox.cmake
endif()
set(clean_env ${CMAKE_COMMAND} -E env --unset=DISPLAY --unset=WAYLAND_DISPLAY --unset=SDL_VIDEODRIVER)

execute_process(COMMAND ${SANDBOX} --list-scenes RESULT_VARIABLE rc OUTPUT_VARIABLE listing)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "sandbox --list-scenes failed: ${rc}")
endif()
# Scene and lab lines are "  name [category]  ..." or "  name  description" before the settings part.
string(REGEX REPLACE "Settings of world scenes.*" "" listing "${listing}")
string(REGEX MATCHALL "\n  [a-z_0-9]+ " names "${listing}")
list(TRANSFORM names STRIP)
list(LENGTH names count)
if(count LESS 10)
  message(FATAL_ERROR "expected the whole scene table and the labs, found ${count}: ${names}")
endif()

file(MAKE_DIRECTORY ${OUT})
set(pngs)
foreach(name IN LISTS names)
  set(png ${OUT}/scene_${name}.png)
  file(REMOVE ${png})
  execute_process(COMMAND ${clean_env} ${SANDBOX} --headless --frames 3 --scene ${name} --screenshot ${png}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  if(NOT rc EQUAL 0 OR NOT EXISTS ${png})
    message(FATAL_ERROR "scene ${name}: the sandbox failed (${rc})\n${out}${err}")
  endif()
  execute_process(COMMAND ${CHECKER} ${png} --size 1280x720 --min-colors 24 --min-foreground 0.08
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "${name}: ${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "scene ${name}: screenshot check failed")
  endif()
  list(APPEND pngs ${png})
endforeach()
# The panel (a fifth of the window) looks alike in every scene; the scenes must differ beyond it.
execute_process(COMMAND ${CHECKER} --distinct 0.01 ${pngs} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "two scenes rendered alike")
endif()
