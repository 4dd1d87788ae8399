# SPDX-License-Identifier: MIT
# Warning and floating-point flags for Minkowski's own targets (never for third-party code).
#
# -ffp-contract=off: no fused multiply-add contraction, so the same source gives the same bits on
# every x86-64 compiler setting; determinism (same inputs -> same StateHash) depends on it.
#
# Targets are C++20. INTERFACE_STANDARD 17 (the engine library): compiled as C++20, but what links it
# is asked only for C++17, the language its public headers are written in. STANDARD 17: the target
# itself is C++17 (the headers' check).
function(mk_configure_target target)
  cmake_parse_arguments(arg "" "STANDARD;INTERFACE_STANDARD" "" ${ARGN})
  if(arg_INTERFACE_STANDARD)
    target_compile_features(${target} PUBLIC cxx_std_${arg_INTERFACE_STANDARD} PRIVATE cxx_std_20)
  elseif(arg_STANDARD)
    target_compile_features(${target} PUBLIC cxx_std_${arg_STANDARD})
  else()
    target_compile_features(${target} PUBLIC cxx_std_20)
  endif()
  set_target_properties(${target} PROPERTIES CXX_EXTENSIONS OFF)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -ffp-contract=off)
    if(MK_WARNINGS_AS_ERRORS)
      target_compile_options(${target} PRIVATE -Werror)
    endif()
  endif()
endfunction()
