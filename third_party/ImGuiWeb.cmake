# SPDX-License-Identifier: MIT
# SDL2 and Dear ImGui 1.86 for the browser build (cmake/toolchains/emscripten.cmake): the versions of
# Debian's libsdl2-dev and libimgui-dev, compiled by emcc from Debian's source packages, which
# `bash scripts/web.sh build` fetches (apt-get source) and builds inside build/web-deps. Nothing of
# theirs is in this repository. ImGui.cmake includes this file in place of its native part.
#
# Inputs (cache paths; scripts/web.sh passes both):
#   MK_WEB_SDL2_DIR   SDL2's CMake package folder (SDL2Config.cmake), SDL2 built by emcmake
#   MK_WEB_IMGUI_DIR  ImGui's source tree (imgui.cpp, backends/imgui_impl_sdl.cpp, ...)
# Defines what ImGui.cmake defines natively:
#   SDL2::SDL2        SDL2's static library (video, events and the GLES2 renderer on WebGL)
#   mk_imgui          ImGui's core and SDL2 platform backend, and stb's PNG writer (libstb-dev's header)
#   mk_imgui_backend  ImGui's SDL_Renderer backend
include_guard(GLOBAL)

set(MK_WEB_SDL2_DIR "" CACHE PATH "SDL2's CMake package built by emcmake (scripts/web.sh build)")
set(MK_WEB_IMGUI_DIR "" CACHE PATH "Dear ImGui 1.86 sources from Debian's imgui source package")
set(mk_web_hint "Run `bash scripts/web.sh build`, which fetches and builds them (build/web-deps).")
if(NOT EXISTS "${MK_WEB_SDL2_DIR}/SDL2Config.cmake")
  message(FATAL_ERROR "The browser build needs SDL2 built by emcmake: MK_WEB_SDL2_DIR "
    "('${MK_WEB_SDL2_DIR}') holds no SDL2Config.cmake. ${mk_web_hint}")
endif()
set(mk_imgui_web_sources imgui.cpp imgui_draw.cpp imgui_tables.cpp imgui_widgets.cpp
  backends/imgui_impl_sdl.cpp backends/imgui_impl_sdlrenderer.cpp)
foreach(source ${mk_imgui_web_sources})
  if(NOT EXISTS "${MK_WEB_IMGUI_DIR}/${source}")
    message(FATAL_ERROR "The browser build needs Dear ImGui's sources: '${MK_WEB_IMGUI_DIR}/${source}' is "
      "missing (MK_WEB_IMGUI_DIR). ${mk_web_hint}")
  endif()
endforeach()
if(NOT EXISTS /usr/include/stb/stb_image_write.h)
  message(FATAL_ERROR "The browser build needs stb_image_write.h: apt-get install libstb-dev")
endif()

# Emscripten's toolchain confines find_package to its sysroot; a package folder given outright is
# read as it is.
set(SDL2_DIR "${MK_WEB_SDL2_DIR}" CACHE PATH "" FORCE)
find_package(SDL2 CONFIG REQUIRED)
if(NOT TARGET SDL2::SDL2)
  set_target_properties(SDL2::SDL2-static PROPERTIES IMPORTED_GLOBAL TRUE)
  add_library(SDL2::SDL2 ALIAS SDL2::SDL2-static)
endif()

# Natively Debian's libstb holds the compiled PNG writer; here it is compiled from the same header.
set(mk_stb_write ${CMAKE_BINARY_DIR}/third_party/stb_image_write.cpp)  # C++: the project enables no C
file(CONFIGURE OUTPUT ${mk_stb_write} CONTENT "#define STB_IMAGE_WRITE_IMPLEMENTATION\n#include <stb_image_write.h>\n")

if(NOT TARGET mk_imgui)
  list(TRANSFORM mk_imgui_web_sources PREPEND "${MK_WEB_IMGUI_DIR}/" OUTPUT_VARIABLE mk_imgui_core_sources)
  list(FILTER mk_imgui_core_sources EXCLUDE REGEX "imgui_impl_sdlrenderer")
  add_library(mk_imgui STATIC ${mk_imgui_core_sources} ${mk_stb_write})
  # Third-party code: no project warnings; its headers are SYSTEM so they do not trip ours either.
  target_include_directories(mk_imgui SYSTEM PUBLIC ${MK_WEB_IMGUI_DIR} ${MK_WEB_IMGUI_DIR}/backends
    /usr/include/stb)
  target_link_libraries(mk_imgui PUBLIC SDL2::SDL2)
  target_compile_features(mk_imgui PRIVATE cxx_std_11)

  add_library(mk_imgui_backend STATIC ${MK_WEB_IMGUI_DIR}/backends/imgui_impl_sdlrenderer.cpp)
  target_link_libraries(mk_imgui_backend PUBLIC mk_imgui)
  target_compile_features(mk_imgui_backend PRIVATE cxx_std_11)
endif()
