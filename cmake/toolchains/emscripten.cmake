# SPDX-License-Identifier: MIT
# The browser build: Debian's emscripten (3.1.6) compiles the engine, the scenes and the sandbox to
# WebAssembly. SDL2 and Dear ImGui come from Debian's source packages, built by scripts/web.sh; use
#   bash scripts/web.sh build
# which runs, once those are built (paths as the script makes them):
#   cmake -S . -B build/web --toolchain cmake/toolchains/emscripten.cmake -DCMAKE_BUILD_TYPE=Release \
#     -DMK_WEB_SDL2_DIR=build/web-deps/sdl2/lib/cmake/SDL2 -DMK_WEB_IMGUI_DIR=build/web-deps/src/imgui
# Only the library, the scenes and the sandbox are built: the tests and benchmarks run natively.
include(/usr/share/emscripten/cmake/Modules/Platform/Emscripten.cmake)

set(MK_BUILD_TESTS OFF CACHE BOOL "The browser build has no test programs")
set(MK_BUILD_BENCHMARK OFF CACHE BOOL "The browser build has no benchmark programs")
# A static WebAssembly program has no shared objects to be position-independent for (clang for wasm
# rejects the engine's -fno-semantic-interposition, which comes with MK_PIC).
set(MK_PIC OFF CACHE BOOL "No position-independent code in the browser build")
# GLM from Debian's libglm-dev, its folder alone (host_header_libs.cmake): /usr/include itself would put
# glibc's headers ahead of emscripten's own libc.
set(CMAKE_PROJECT_INCLUDE ${CMAKE_CURRENT_LIST_DIR}/host_header_libs.cmake)
# std::bit_cast for emscripten 3.1.6's libc++ 13 (emscripten_compat.h says why).
set(CMAKE_CXX_FLAGS_INIT "-include ${CMAKE_CURRENT_LIST_DIR}/emscripten_compat.h")
# emcc's link step runs node with acorn (Debian's node-acorn, /usr/share/nodejs); a node from outside
# Debian does not look there by itself.
set(CMAKE_CXX_LINKER_LAUNCHER env NODE_PATH=/usr/share/nodejs)
