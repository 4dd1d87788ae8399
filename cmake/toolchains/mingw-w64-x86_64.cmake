# SPDX-License-Identifier: MIT
# Windows x86-64 from Debian: mingw-w64's GCC, its POSIX-threads variant (the engine starts no thread,
# but doctest needs std::mutex, which the win32 variant of GCC 12 lacks), statically linked (libstdc++,
# libgcc, winpthread) so wine finds no missing DLL. ctest and
# doctest's test discovery run the .exe through wine64 with a private, headless prefix in the build tree.
#   cmake -S . -B build/mingw --toolchain cmake/toolchains/mingw-w64-x86_64.cmake \
#     -DMK_BUILD_SANDBOX=OFF -DCMAKE_BUILD_TYPE=Release
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
# Debian's wine64 package puts the loader in /usr/lib/wine (the `wine` package adds /usr/bin/wine).
find_program(MK_WINE64 NAMES wine64 PATHS /usr/lib/wine NO_DEFAULT_PATH)
find_program(MK_WINE64 NAMES wine64 wine REQUIRED)
set(CMAKE_CROSSCOMPILING_EMULATOR
  /usr/bin/env WINEPREFIX=${CMAKE_BINARY_DIR}/wineprefix WINEDEBUG=-all DISPLAY= ${MK_WINE64})
set(CMAKE_PROJECT_INCLUDE ${CMAKE_CURRENT_LIST_DIR}/host_header_libs.cmake)
