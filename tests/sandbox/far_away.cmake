# SPDX-License-Identifier: MIT
# The far-away toggle's tests (label `sandbox`), in the default build (from tests/sandbox) and in the
# large-world build (tests/CMakeLists.txt, whose suite is otherwise the large-world tests alone): the
# unit tests of far_away_test.cpp, and screenshots of a scene at the origin and far away compared pixel
# for pixel. Needs the targets sandbox, mk_sandbox_core, png_check and mk_test_main.
set(mk_far_dir ${PROJECT_SOURCE_DIR}/tests/sandbox)
add_executable(sandbox_far_away_tests ${mk_far_dir}/far_away_test.cpp)
mk_configure_target(sandbox_far_away_tests)
target_link_libraries(sandbox_far_away_tests PRIVATE mk_sandbox_core mk_test_main)
target_include_directories(sandbox_far_away_tests PRIVATE ${PROJECT_SOURCE_DIR}/tests)
doctest_discover_tests(sandbox_far_away_tests PROPERTIES LABELS sandbox)

# No panel (its profile shows live timings, which differ from run to run); 60 frames, one step each;
# AABBs drawn (magenta, 200,100,200: the picture is the world's drawing, not a blank). The large-world
# build moves the world's float frame with the scene, so the run far away is the origin's bit for bit
# and the pictures must be identical: 0 pixels may differ. The default build moves the bodies' floats
# to 1e4 m, where they round to 1 mm, so the run differs by fractions of a millimetre, hundredths of a
# pixel at the fitted zoom, which flip the odd edge pixel: measured 515 (large_pyramid) and 170
# (pendulum_chain, swinging) of 921,600 pixels (0.06% at most); 0.2% allowed. Drawing in world floats
# would still pass there (1e4 m floats hold a millimetre): the unit test "a scene far away hands the
# debug draw small points" is the one that fails then, in both builds; at 1e7 m the picture itself
# would break (floats 1 m apart).
if(MK_LARGE_WORLDS)
  set(mk_far_distances 1e7)
  set(mk_far_tolerance 0)
else()
  set(mk_far_distances 1e4)
  set(mk_far_tolerance 0.002)
endif()
set(mk_far_checks --size|1280x720|--min-colors|4|--min-foreground|0.03|--expect|200,100,200,1000)
foreach(distance ${mk_far_distances})
  foreach(scene large_pyramid pendulum_chain)
    add_test(NAME sandbox.far_away_${distance}_renders_as_at_the_origin_${scene}
      COMMAND ${CMAKE_COMMAND} -DSANDBOX=$<TARGET_FILE:sandbox> -DCHECKER=$<TARGET_FILE:png_check>
        -DMODE=same_picture -DOUT_DIR=${CMAKE_CURRENT_BINARY_DIR} -DNAME=far_${distance}_${scene}
        "-DARGS=--headless|--frames|60|--no-panel|--scene|${scene}|--settings|draw_aabbs=1"
        "-DFAR_ARGS=--far-away|${distance}" "-DCHECK_ARGS=${mk_far_checks}" -DMAX_FRACTION=${mk_far_tolerance}
        -P ${mk_far_dir}/run_sandbox.cmake)
    set_tests_properties(sandbox.far_away_${distance}_renders_as_at_the_origin_${scene}
      PROPERTIES LABELS sandbox TIMEOUT 120)
  endforeach()
endforeach()
