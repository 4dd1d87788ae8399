#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The sandbox in a browser (README, "The sandbox in a browser"):
#   bash scripts/web.sh build   install what is missing, fetch SDL2 and Dear ImGui from Debian's source
#                               packages, compile them and the sandbox with Debian's emscripten into
#                               build/web/site (index.html, sandbox.js, sandbox.wasm)
#   bash scripts/web.sh serve   build, then serve build/web/site on http://127.0.0.1:${PORT:-8034}/
#   bash scripts/web.sh test    build, then drive the page in headless Chromium (tests/web/browser_test.py):
#                               it loads, draws, switches scenes, every scene and lab opens, the frame
#                               rate on large_pyramid at 900x560, and state hashes equal to the native
#                               benchmark's (built in build/release when missing)
# Not part of scripts/dev.sh test (CI's time budget); each stage's heading shows the minutes elapsed.
# Works on Debian 12 as root, or as a user with sudo. Everything it installs is a Debian package; the
# SDL2 and ImGui sources come from Debian's source packages into build/web-deps, never into the tree.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
JOBS=${JOBS:-$(nproc)}
DEPS=$ROOT/build/web-deps
WEB=$ROOT/build/web

# emscripten (emcc, with clang-14, binaryen and node), the headers the engine and the sandbox use,
# dpkg-dev (dpkg-source unpacks the source packages), chromium for the test.
WEB_PACKAGES="emscripten cmake dpkg-dev libglm-dev doctest-dev libstb-dev python3"
TEST_PACKAGES="chromium build-essential"
# The source packages and versions of Debian 12's libsdl2-dev and libimgui-dev.
SDL2_SOURCE="libsdl2=2.26.5+dfsg-1"
IMGUI_SOURCE="imgui=1.86+ds-1"

# log (stage headings with the minutes elapsed) and install_missing PACKAGE... (scripts/common.sh).
source "$ROOT/scripts/common.sh"

# apt-get source with a private list of Debian's source archive (build/web-deps/apt): the machine's
# own apt configuration is neither read for sources nor changed.
fetch_sources() {
  [ -f "$DEPS/src/.done" ] && return 0
  log "fetching Debian's source packages $SDL2_SOURCE and $IMGUI_SOURCE"
  local apt=$DEPS/apt
  rm -rf "$DEPS/src" "$apt"
  mkdir -p "$apt/lists/partial" "$DEPS/src"
  echo "deb-src http://deb.debian.org/debian bookworm main" >"$apt/sources.list"
  local options=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o "Dir::State::Lists=$apt/lists" -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
  apt-get "${options[@]}" -qq update
  (cd "$DEPS/src" && apt-get "${options[@]}" -qq source --download-only "$SDL2_SOURCE" "$IMGUI_SOURCE" 2>&1 |
    grep -v 'unsandboxed' || true)
  # apt checked the files against the archive's signed index; dpkg-source applies Debian's patches.
  (cd "$DEPS/src" && dpkg-source -q -x libsdl2_*.dsc sdl2 >/dev/null 2>&1 && dpkg-source -q -x imgui_*.dsc imgui >/dev/null 2>&1)
  [ -f "$DEPS/src/sdl2/CMakeLists.txt" ] && [ -f "$DEPS/src/imgui/imgui.cpp" ] || {
    echo "unpacking the source packages failed (see $DEPS/src)" >&2
    exit 1
  }
  touch "$DEPS/src/.done"
}

# SDL2 by its own CMake for Emscripten, static, with what the sandbox uses: video (canvas, WebGL
# through the GLES2 renderer), events, timers. No threads: the page then needs no cross-origin isolation.
build_sdl2() {
  [ -f "$DEPS/sdl2/lib/cmake/SDL2/SDL2Config.cmake" ] && return 0
  log "building SDL2 with emcmake (SDL's own CMake; its configure checks take a few minutes)"
  emcmake cmake -S "$DEPS/src/sdl2" -B "$DEPS/sdl2-build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX="$DEPS/sdl2" -DSDL_STATIC=ON -DSDL_SHARED=OFF -DSDL_TEST=OFF \
    -DSDL_THREADS=OFF -DSDL_AUDIO=OFF -DSDL_JOYSTICK=OFF -DSDL_HAPTIC=OFF -DSDL_SENSOR=OFF \
    -DSDL_POWER=OFF -DSDL_HIDAPI=OFF -DSDL_LOCALE=OFF -DSDL_MISC=OFF -DSDL_FILESYSTEM=OFF >"$DEPS/sdl2-configure.log"
  cmake --build "$DEPS/sdl2-build" -j "$JOBS" >"$DEPS/sdl2-build.log"
  cmake --install "$DEPS/sdl2-build" >/dev/null
}

cmd_build() {
  install_missing $WEB_PACKAGES
  # Debian's emcc runs node with acorn from /usr/share/nodejs, where a node not from Debian does not look.
  export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
  fetch_sources
  build_sdl2
  log "building the sandbox for the browser (build/web)"
  local launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  cmake -S "$ROOT" -B "$WEB" --toolchain "$ROOT/cmake/toolchains/emscripten.cmake" -DCMAKE_BUILD_TYPE=Release \
    -DMK_WARNINGS_AS_ERRORS=ON -DMK_WEB_SDL2_DIR="$DEPS/sdl2/lib/cmake/SDL2" -DMK_WEB_IMGUI_DIR="$DEPS/src/imgui" \
    "${launcher[@]}" >/dev/null
  cmake --build "$WEB" -j "$JOBS" --target sandbox
  ls -l "$WEB/site"
}

cmd_serve() {
  cmd_build
  local port=${PORT:-8034}
  log "serving $WEB/site on http://127.0.0.1:$port/ (Ctrl-C stops)"
  echo "open http://127.0.0.1:$port/   or e.g. http://127.0.0.1:$port/?scene=rain"
  exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$WEB/site"
}

cmd_test() {
  install_missing $TEST_PACKAGES
  cmd_build
  # The native benchmark gives the reference state hashes (and the native sandbox the scene list).
  if [ ! -f build/release/CMakeCache.txt ]; then
    log "configuring the native Release build (build/release) for the reference hashes"
    install_missing build-essential cmake libglm-dev doctest-dev pkg-config libsdl2-dev libimgui-dev libstb-dev
    cmake -S "$ROOT" -B build/release -DCMAKE_BUILD_TYPE=Release -DMK_WARNINGS_AS_ERRORS=ON >/dev/null
  fi
  log "building the native benchmark and sandbox (build/release)"
  cmake --build build/release -j "$JOBS" --target benchmark sandbox
  log "browser test: headless Chromium against build/web/site"
  python3 tests/web/browser_test.py --site "$WEB/site" --benchmark build/release/demos/benchmark/benchmark \
    --sandbox build/release/demos/sandbox/sandbox "$@"
}

case "${1:-}" in
  build) shift; cmd_build "$@" ;;
  serve) shift; cmd_serve "$@" ;;
  test) shift; cmd_test "$@" ;;
  *) echo "usage: bash scripts/web.sh build|serve|test" >&2; exit 2 ;;
esac
