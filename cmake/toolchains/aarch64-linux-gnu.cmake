# SPDX-License-Identifier: MIT
# Linux on 64-bit ARM from Debian: g++-aarch64-linux-gnu, the programs run by qemu-user against the
# cross glibc in /usr/aarch64-linux-gnu (ctest and doctest's test discovery both go through it).
#   cmake -S . -B build/aarch64 --toolchain cmake/toolchains/aarch64-linux-gnu.cmake \
#     -DMK_BUILD_SANDBOX=OFF -DCMAKE_BUILD_TYPE=Release
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
find_program(MK_QEMU_AARCH64 NAMES qemu-aarch64 qemu-aarch64-static REQUIRED)
set(CMAKE_CROSSCOMPILING_EMULATOR ${MK_QEMU_AARCH64} -L /usr/aarch64-linux-gnu)
set(CMAKE_PROJECT_INCLUDE ${CMAKE_CURRENT_LIST_DIR}/host_header_libs.cmake)
