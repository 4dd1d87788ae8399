# SPDX-License-Identifier: MIT
# The rule of engine/src/core/simd_dispatch.h, checked on the built library: the members of LIBRARY
# (a static archive) whose names match MEMBERS (a regular expression; the -mavx2 objects) may define,
# with external linkage, no function but the kernels' 8-lane instantiations (WarmStart/Solve +
# Contact/Hinge + Groups/GroupRange on mk::wide::Avx2Float8). Any other, a weak copy of a shared
# inline function (a std:: template, a math helper, even the 8-lane graph's std::vector members, which
# every world's destructor calls), could be the one the linker keeps for the whole program,
# AVX-encoded: a crash on a CPU without AVX2.
#   cmake -DNM=<nm> -DLIBRARY=<libminkowski.a> -DMEMBERS=<regex> -P CheckAvx2Symbols.cmake
# Fails also when no member matches or a matching member defines no kernel, so that a renamed file or
# an empty object cannot pass unseen.
cmake_minimum_required(VERSION 3.21)  # IN_LIST and the other policies of the project
foreach(var NM LIBRARY MEMBERS)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "CheckAvx2Symbols.cmake needs -D${var}=...")
  endif()
endforeach()
# -A: every line starts "archive:member:"; -C demangles; only defined symbols.
execute_process(COMMAND ${NM} -A -C --defined-only ${LIBRARY} OUTPUT_VARIABLE listing RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${NM} failed on ${LIBRARY}")
endif()
# CMake lists split on ';' and treat brackets specially: neither may survive into the list.
string(REGEX REPLACE "[][;]" "_" listing "${listing}")
string(REPLACE "\n" ";" lines "${listing}")
set(members)
set(allowed)
set(bad)
foreach(line IN LISTS lines)
  # "archive:member:address type name" (the archive path may hold colons: take the member before the
  # last ':' that precedes the address). LLVM's nm puts a space before the address.
  if(NOT line MATCHES "^(.*):([^:]+): ?[0-9a-fA-F]+ (.) (.*)$")
    continue()
  endif()
  set(member "${CMAKE_MATCH_2}")
  set(type "${CMAKE_MATCH_3}")
  set(name "${CMAKE_MATCH_4}")
  if(NOT member MATCHES "${MEMBERS}")
    continue()
  endif()
  list(APPEND members "${member}")
  # T global function, W weak (a function: weak objects are V), i an indirect function. Lower-case
  # letters are local; data (D, B, R, V, u) holds no instruction.
  if(NOT type MATCHES "^[TWi]$")
    continue()
  endif()
  if(name MATCHES "^void mk::(WarmStart|Solve)(Contact|Hinge)Group(s|Range)<mk::wide::Avx2Float8[,>]")
    list(APPEND allowed "${member}")
  else()
    list(APPEND bad "${member}: ${type} ${name}")
  endif()
endforeach()
list(REMOVE_DUPLICATES members)
if(NOT members)
  message(FATAL_ERROR "no member of ${LIBRARY} matches '${MEMBERS}'")
endif()
if(bad)
  list(JOIN bad "\n  " text)
  message(FATAL_ERROR "functions with external linkage other than the 8-lane kernels in the -mavx2 "
    "objects (engine/src/core/simd_dispatch.h forbids them):\n  ${text}")
endif()
foreach(member IN LISTS members)
  if(NOT member IN_LIST allowed)
    message(FATAL_ERROR "${member} defines no 8-lane kernel: is it still compiled with its kernels?")
  endif()
endforeach()
list(LENGTH members count)
message(STATUS "${count} AVX2 objects define no function with external linkage but the 8-lane kernels")
