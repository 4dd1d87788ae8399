# SPDX-License-Identifier: MIT
# Warning and floating-point flags for Minkowski's own targets (never for third-party code).
#
# -ffp-contract=off: no fused multiply-add contraction, so the same source gives the same bits on
# every x86-64 compiler setting; determinism (same inputs -> same StateHash) depends on it.
function(mk_configure_target target)
  target_compile_features(${target} PUBLIC cxx_std_20)
  set_target_properties(${target} PROPERTIES CXX_EXTENSIONS OFF)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -ffp-contract=off)
    if(MK_WARNINGS_AS_ERRORS)
      target_compile_options(${target} PRIVATE -Werror)
    endif()
  endif()
endfunction()
