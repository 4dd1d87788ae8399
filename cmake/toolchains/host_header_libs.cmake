# SPDX-License-Identifier: MIT
# Included after project() by the cross toolchain files (CMAKE_PROJECT_INCLUDE). GLM and doctest are
# header-only, so a cross build can use Debian's host copies, but their CMake targets point at
# /usr/include, which would put glibc's headers ahead of the cross compiler's own (mingw's stdio.h,
# aarch64's bits/). Only their two header folders are linked into the build tree and the targets are
# defined on that folder; find_package(glm) is then skipped (the top-level CMakeLists keeps an
# existing glm::glm) and doctest's config file, finding its target, adds only its CMake module.
set(mk_host_headers ${CMAKE_BINARY_DIR}/host_headers)
file(MAKE_DIRECTORY ${mk_host_headers})
foreach(mk_dir glm doctest)
  if(NOT EXISTS /usr/include/${mk_dir})
    message(FATAL_ERROR "cross build: /usr/include/${mk_dir} is missing (Debian packages libglm-dev, doctest-dev)")
  endif()
  file(CREATE_LINK /usr/include/${mk_dir} ${mk_host_headers}/${mk_dir} SYMBOLIC)
endforeach()
add_library(glm::glm INTERFACE IMPORTED)
set_target_properties(glm::glm PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${mk_host_headers})
add_library(doctest::doctest INTERFACE IMPORTED)
set_target_properties(doctest::doctest PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${mk_host_headers})
list(APPEND CMAKE_MODULE_PATH /usr/lib/cmake/doctest)
