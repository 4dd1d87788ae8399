# SPDX-License-Identifier: MIT
# Runs the sandbox for a CTest test (cmake -P), so a test can check exit codes and output together.
#
#   -DMODE=no_display   run without --headless and with no display: expect exit code 2 and a message
#                       that names the headless form and xvfb-run. With -DDISPLAY_VALUE=:N, DISPLAY
#                       names an X server that is not there instead of being unset.
#   -DMODE=screenshot   delete PNG, run the sandbox with ARGS writing PNG, optionally under XVFB_RUN,
#                       then run CHECKER PNG CHECK_ARGS. ARGS and CHECK_ARGS are joined by "|".
#   -DMODE=record_replay  record 40 headless frames of rain to OUT_DIR/rain.mkreplay (--record), replay
#                       it without --scene with every panel open and the layout checked (--replay
#                       --check-layout), expecting the sandbox to name rain as the scene replayed,
#                       and expect a file that is not a replay to be refused with exit code 1.
#   -DMODE=same_picture  run the sandbox with ARGS writing OUT_DIR/NAME_origin.png, then with ARGS and
#                       FAR_ARGS writing OUT_DIR/NAME_far.png; the first must pass CHECKER with
#                       CHECK_ARGS (a picture, not a blank), and the two differ in at most
#                       MAX_FRACTION of their pixels (png_check --same).
#   -DMODE=layout_runs  run the sandbox RUNS times for every scene of SCENES ("|"-joined) with ARGS and
#                       --check-layout, optionally under XVFB_RUN (a real window, whose live timings
#                       differ from run to run; presented without waiting for vsync, see below); any
#                       failed check fails the test, naming the run.
# Always: -DSANDBOX=<sandbox binary>.
cmake_minimum_required(VERSION 3.21)

# Under -DMK_SANITIZE=ON, LeakSanitizer reports a few kB that Mesa's EGL/GL drivers allocate and
# never free; they are dlclose()d before the report, so the frames cannot even be named, let alone
# suppressed by module. Leak checking is left off unless the caller set ASAN_OPTIONS; ASan's memory
# error checks stay on.
if(NOT DEFINED ENV{ASAN_OPTIONS})
  set(ENV{ASAN_OPTIONS} "detect_leaks=0")
endif()

# Every run starts with no display and no driver choice; xvfb-run then provides its own DISPLAY.
set(clean_env ${CMAKE_COMMAND} -E env --unset=DISPLAY --unset=WAYLAND_DISPLAY --unset=SDL_VIDEODRIVER)

if(MODE STREQUAL "no_display")
  set(expected "no display found")
  set(run ${clean_env} ${SANDBOX})
  if(DISPLAY_VALUE)
    set(expected "cannot open a window on display '${DISPLAY_VALUE}'")
    set(run ${clean_env} DISPLAY=${DISPLAY_VALUE} ${SANDBOX})
  endif()
  execute_process(COMMAND ${run} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 30)
  message(STATUS "exit code: ${rc}\nstdout:\n${out}\nstderr:\n${err}")
  if(NOT rc EQUAL 2)
    message(FATAL_ERROR "expected exit code 2 (no display), got '${rc}'")
  endif()
  foreach(needle "${expected}" "--headless --frames N --screenshot out.png" "xvfb-run")
    string(FIND "${err}" "${needle}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "the message on stderr does not mention '${needle}'")
    endif()
  endforeach()
elseif(MODE STREQUAL "screenshot")
  string(REPLACE "|" ";" ARGS "${ARGS}")
  string(REPLACE "|" ";" CHECK_ARGS "${CHECK_ARGS}")
  file(REMOVE "${PNG}")
  set(wrapper)
  if(XVFB_RUN)
    set(wrapper ${XVFB_RUN} -a -s "-screen 0 1280x720x24")
  endif()
  execute_process(COMMAND ${clean_env} ${wrapper} ${SANDBOX} ${ARGS} --screenshot ${PNG}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  message(STATUS "sandbox exit code: ${rc}\nstdout:\n${out}\nstderr:\n${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the sandbox failed with exit code '${rc}'")
  endif()
  if(NOT EXISTS "${PNG}")
    message(FATAL_ERROR "the sandbox exited 0 but wrote no ${PNG}")
  endif()
  execute_process(COMMAND ${CHECKER} ${PNG} ${CHECK_ARGS}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "png_check:\n${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "png_check rejected ${PNG}")
  endif()
elseif(MODE STREQUAL "same_picture")
  string(REPLACE "|" ";" ARGS "${ARGS}")
  string(REPLACE "|" ";" FAR_ARGS "${FAR_ARGS}")
  string(REPLACE "|" ";" CHECK_ARGS "${CHECK_ARGS}")
  set(origin "${OUT_DIR}/${NAME}_origin.png")
  set(far "${OUT_DIR}/${NAME}_far.png")
  foreach(run origin far)
    file(REMOVE "${${run}}")
    set(extra)
    if(run STREQUAL "far")
      set(extra ${FAR_ARGS})
    endif()
    execute_process(COMMAND ${clean_env} ${SANDBOX} ${ARGS} ${extra} --screenshot ${${run}}
      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
    message(STATUS "${run}: exit code ${rc}\nstdout:\n${out}\nstderr:\n${err}")
    if(NOT rc EQUAL 0 OR NOT EXISTS "${${run}}")
      message(FATAL_ERROR "the ${run} run failed or wrote no ${${run}}")
    endif()
  endforeach()
  execute_process(COMMAND ${CHECKER} ${origin} ${CHECK_ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "png_check:\n${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "png_check rejected ${origin}")
  endif()
  execute_process(COMMAND ${CHECKER} --same ${MAX_FRACTION} ${origin} ${far}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "png_check --same:\n${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "far away does not render the picture at the origin")
  endif()
elseif(MODE STREQUAL "record_replay")
  set(replay "${OUT_DIR}/rain.mkreplay")
  file(REMOVE "${replay}")
  execute_process(COMMAND ${clean_env} ${SANDBOX} --headless --frames 40 --scene rain --record ${replay}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  message(STATUS "record: exit code ${rc}\nstdout:\n${out}\nstderr:\n${err}")
  string(FIND "${out}" "saved 40 steps" at)
  if(NOT rc EQUAL 0 OR at EQUAL -1 OR NOT EXISTS "${replay}")
    message(FATAL_ERROR "recording 40 frames did not save a 40-step replay")
  endif()
  # Without --scene the sandbox opens large_pyramid first: the replay must say it plays rain.
  execute_process(COMMAND ${clean_env} ${SANDBOX} --headless --frames 20 --replay ${replay}
      --expand-panels --check-layout --screenshot ${OUT_DIR}/rain_replay.png
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  message(STATUS "replay: exit code ${rc}\nstdout:\n${out}\nstderr:\n${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "replaying the recording failed with exit code '${rc}'")
  endif()
  string(FIND "${out}" "replayed rain, step 20 of 40" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the replay did not name the recorded scene (rain) at step 20 of 40")
  endif()
  execute_process(COMMAND ${clean_env} ${SANDBOX} --headless --frames 1 --scene rain
      --replay ${OUT_DIR}/rain_replay.png
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  string(FIND "${err}" "cannot load" at)
  if(NOT rc EQUAL 1 OR at EQUAL -1)
    message(FATAL_ERROR "a PNG given as a replay was not refused (exit code '${rc}', stderr: ${err})")
  endif()
elseif(MODE STREQUAL "layout_runs")
  string(REPLACE "|" ";" ARGS "${ARGS}")
  string(REPLACE "|" ";" SCENES "${SCENES}")
  set(wrapper)
  if(XVFB_RUN)
    # SDL's hint turns off the renderer's vsync, which paced each run's 90 frames to 60 Hz: a run took
    # 2.1-2.3 s with it and 1.1-1.5 s without (rain, 1280 x 720). The check reads the panel's layout,
    # not the pacing, and the Profile's figures stay live timings.
    set(wrapper ${XVFB_RUN} -a -s "-screen 0 1280x720x24" ${CMAKE_COMMAND} -E env SDL_RENDER_VSYNC=0)
  endif()
  set(failed "")
  foreach(run RANGE 1 ${RUNS})
    foreach(scene ${SCENES})
      execute_process(COMMAND ${clean_env} ${wrapper} ${SANDBOX} ${ARGS} --check-layout --scene ${scene}
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
      message(STATUS "${scene}, run ${run}: exit code ${rc}\n${out}${err}")
      if(NOT rc EQUAL 0)
        string(APPEND failed " ${scene}(run ${run})")
      endif()
    endforeach()
  endforeach()
  if(failed)
    message(FATAL_ERROR "the layout check failed for:${failed}")
  endif()
else()
  message(FATAL_ERROR "unknown MODE '${MODE}'")
endif()
