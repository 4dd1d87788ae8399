# SPDX-License-Identifier: MIT
# SDL2 and Dear ImGui 1.86 from Debian packages (libsdl2-dev, libimgui-dev, libstb-dev), for the
# sandbox and its tests. Nothing is downloaded and no third-party source lives in this repository.
#
# Defines:
#   SDL2::SDL2           (from SDL2's own CMake config)
#   PkgConfig::MK_IMGUI  imgui core + SDL2 platform backend (libimgui.a) and stb (libstb), via pkg-config
#   mk_imgui             what the sandbox links for ImGui: PkgConfig::MK_IMGUI here, the sources
#                        compiled by emcc in the browser build (ImGuiWeb.cmake)
#   mk_imgui_backend     static library: ImGui's SDL_Renderer backend compiled from the source Debian ships,
#                        because libimgui.a does not contain imgui_impl_sdlrenderer. Links both of the above.
include_guard(GLOBAL)

if(EMSCRIPTEN)
  include(ImGuiWeb)
  return()
endif()

set(mk_sandbox_packages "pkg-config libsdl2-dev libimgui-dev libstb-dev (and xvfb xauth for its tests)")
find_package(SDL2 CONFIG QUIET)
find_package(PkgConfig QUIET)
if(NOT TARGET SDL2::SDL2 OR NOT PKG_CONFIG_FOUND)
  message(FATAL_ERROR "The sandbox needs SDL2 (CMake config) and pkg-config. On Debian 12: "
    "apt-get install ${mk_sandbox_packages}; or configure with -DMK_BUILD_SANDBOX=OFF.")
endif()
pkg_check_modules(MK_IMGUI QUIET IMPORTED_TARGET GLOBAL imgui)
if(NOT MK_IMGUI_FOUND)
  message(FATAL_ERROR "The sandbox needs Dear ImGui 1.86 (pkg-config module 'imgui'). On Debian 12: "
    "apt-get install ${mk_sandbox_packages}; or configure with -DMK_BUILD_SANDBOX=OFF.")
endif()

# The backend's include folder sits next to imgui.h (Debian: /usr/include/imgui/backends).
find_path(MK_IMGUI_BACKEND_INCLUDE_DIR imgui_impl_sdlrenderer.h
  HINTS ${MK_IMGUI_INCLUDE_DIRS} PATH_SUFFIXES backends imgui/backends)
find_file(MK_IMGUI_SDLRENDERER_SOURCE imgui_impl_sdlrenderer.cpp
  HINTS /usr/share/doc/libimgui-dev/examples/backends
  DOC "imgui_impl_sdlrenderer.cpp from libimgui-dev (Debian ships it as documentation)")

if(NOT EXISTS "${MK_IMGUI_BACKEND_INCLUDE_DIR}/imgui_impl_sdlrenderer.h"
   OR NOT EXISTS "${MK_IMGUI_SDLRENDERER_SOURCE}")
  message(FATAL_ERROR
    "The sandbox needs ImGui's SDL_Renderer backend, which libimgui.a does not contain:\n"
    "  header imgui_impl_sdlrenderer.h:   ${MK_IMGUI_BACKEND_INCLUDE_DIR}\n"
    "  source imgui_impl_sdlrenderer.cpp: ${MK_IMGUI_SDLRENDERER_SOURCE}\n"
    "Debian installs the source under /usr/share/doc/libimgui-dev/examples/backends/. Minimal images often "
    "strip /usr/share/doc (a dpkg path-exclude in /etc/dpkg/dpkg.cfg.d/). Fix: add the line\n"
    "  path-include /usr/share/doc/libimgui-dev/*\n"
    "to that file (after the path-exclude line) and run `apt-get install --reinstall libimgui-dev`, or pass "
    "-DMK_IMGUI_SDLRENDERER_SOURCE=/path/to/imgui_impl_sdlrenderer.cpp (ImGui 1.86). "
    "Or configure with -DMK_BUILD_SANDBOX=OFF.")
endif()

if(NOT TARGET mk_imgui)
  add_library(mk_imgui INTERFACE)
  target_link_libraries(mk_imgui INTERFACE PkgConfig::MK_IMGUI)
endif()

if(NOT TARGET mk_imgui_backend)
  add_library(mk_imgui_backend STATIC ${MK_IMGUI_SDLRENDERER_SOURCE})
  # Third-party code: no project warnings; its headers are SYSTEM so they do not trip ours either.
  target_include_directories(mk_imgui_backend SYSTEM PUBLIC ${MK_IMGUI_BACKEND_INCLUDE_DIR})
  target_link_libraries(mk_imgui_backend PUBLIC PkgConfig::MK_IMGUI SDL2::SDL2)
  target_compile_features(mk_imgui_backend PRIVATE cxx_std_11)
endif()
