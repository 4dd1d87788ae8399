#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Minkowski's two set-up commands (see README):
#   bash scripts/dev.sh sandbox   install what is missing, build, open the sandbox
#   bash scripts/dev.sh test      install what is missing, build, run the whole suite (Release, and
#                                 its scene hashes on 4 lanes against 8 where the CPU has AVX2; the
#                                 large-world build (MK_LARGE_WORLDS) and its tests; the benchmarks
#                                 built by clang with their peer, every scene's state hash equal
#                                 to gcc's; Windows (mingw-w64 + wine64) and Linux aarch64 (qemu-user)
#                                 cross builds, their tests and every scene's hash over its full
#                                 length against gcc's; ASan + UBSan and ThreadSanitizer), fuzz the
#                                 narrowphase, the world API, snapshots and replays briefly, summarise. MK_CROSS=0
#                                 skips the cross builds (a native MK_DISABLE_SIMD build then tests the
#                                 scalar kernels). Each stage's heading shows the minutes elapsed.
# Works on Debian 12 as root, or as a user with sudo. Everything it installs is a Debian package.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
JOBS=${JOBS:-$(nproc)}
FUZZ_SECONDS=${FUZZ_SECONDS:-20}  # the committed corpora replay in the first seconds; the rest is a brief search
AARCH64_HASH_STEPS=${AARCH64_HASH_STEPS:-60}  # 0: every scene's full length (many times as long)

LIB_PACKAGES="build-essential cmake ninja-build libglm-dev doctest-dev"
# Every build tree this script makes, and those the package tests make, is a Ninja tree (an existing
# tree keeps its generator: CMake reads CMAKE_GENERATOR only for a new one). Make builds a target's
# objects only once the targets it links are built, so at each target's end a core waits: the Release
# build from scratch on 2 cores took 349 s with Make and 301 s with Ninja (2026-12-06).
export CMAKE_GENERATOR=${CMAKE_GENERATOR:-Ninja}
SANDBOX_PACKAGES="pkg-config libsdl2-dev libimgui-dev libstb-dev xvfb xauth"
TOOL_PACKAGES="clang libclang-rt-14-dev clang-format doxygen"
# Cross compilers and the emulators that run their programs here (build_windows, build_aarch64).
WINDOWS_PACKAGES="g++-mingw-w64-x86-64-posix wine64"
AARCH64_PACKAGES="g++-aarch64-linux-gnu qemu-user"
# Peers the benchmarks can time side by side (MK_COMPARE_BOX2D=ON); only the clang build needs them.
PEER_PACKAGES="libbox2d-dev"

# The builds after the Release one compile the library in unity batches (MK_UNITY_ENGINE,
# engine/CMakeLists.txt): the library alone builds in about half the time, each whole build 0.2-0.7 min
# less in CI (e132a0b -> 17dce7a: Windows 3.5 -> 2.8, ThreadSanitizer 1.6 -> 1.2), and with warnings as errors
# they keep the sources compiling batched under g++, mingw-w64 and clang, as a game's
# CMAKE_UNITY_BUILD compiles them. The Release build, the one a developer runs, and the clang build
# keep a file per object, so each file still compiles alone (its own includes) under both compilers.
UNITY_ENGINE="-DMK_UNITY_ENGINE=ON"

# log (stage headings with the minutes elapsed) and install_missing PACKAGE... (scripts/common.sh).
source "$ROOT/scripts/common.sh"

configure_and_build() {  # dir, extra cmake args...
  local dir=$1
  shift
  cmake -S "$ROOT" -B "$dir" "$@" >/dev/null
  cmake --build "$dir" -j "$JOBS"
}

# ctest, then pull "N tests failed out of M" into the running totals.
PASSED=0
FAILED=0
run_ctest() {  # label, dir, extra ctest args...
  local label=$1 dir=$2
  shift 2
  log "ctest: $label"
  local out rc=0
  out=$(ctest --test-dir "$dir" -j "$JOBS" --output-on-failure "$@" 2>&1) || rc=$?
  # The per-label time table would push the summary line and the list of failures out of the tail.
  printf '%s\n' "$out" | awk '/^Label Time Summary:/ {skip = 1; next} skip && /^[[:space:]]*$/ {skip = 0; next} !skip' |
    tail -n 40
  local line total failed
  line=$(printf '%s\n' "$out" | grep -E 'tests passed, [0-9]+ tests failed out of [0-9]+' | tail -n 1)
  if [ -z "$line" ]; then
    echo "ctest ($label) produced no summary (rc=$rc)"
    FAILED=$((FAILED + 1))
    return
  fi
  failed=$(printf '%s' "$line" | sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\1/')
  total=$(printf '%s' "$line" | sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\2/')
  PASSED=$((PASSED + total - failed))
  FAILED=$((FAILED + failed))
}

check_engine_is_standalone() {
  log "check: nothing under engine/ includes SDL or ImGui"
  if grep -rnE '#include *[<"](SDL|imgui)' engine; then
    echo "engine/ must draw only through DebugDraw"
    FAILED=$((FAILED + 1))
  else
    PASSED=$((PASSED + 1))
  fi
}

# Every C++ file of the engine, the demos and the tests as .clang-format lays it out. Compares
# clang-format's output with the file (clang-format 14's --dry-run flags unchanged namespace-macro
# comments); prints the files that differ and the command that fixes them.
check_format() {
  log "check: C++ sources are clang-formatted (.clang-format)"
  local unformatted=()
  # JOBS files at a time (14 s one by one on a fresh machine); the list sorted for a stable message.
  mapfile -t unformatted < <(find engine demos tests examples -type f \( -name '*.cpp' -o -name '*.h' \) -print0 |
    xargs -0 -P "$JOBS" -n 16 sh -c 'for f; do clang-format "$f" | cmp -s - "$f" || echo "$f"; done' _ | sort)
  if [ ${#unformatted[@]} -eq 0 ]; then
    PASSED=$((PASSED + 1))
  else
    printf 'not formatted: %s\n' "${unformatted[@]}"
    echo "fix with: clang-format -i ${unformatted[*]}"
    FAILED=$((FAILED + 1))
  fi
}

# Every source, CMake and shell file says its license (SPDX) in its first two lines (the second for a
# script's shebang), so a file copied out of the tree keeps it.
check_spdx() {
  log "check: every source file carries 'SPDX-License-Identifier: MIT'"
  local file missing=()
  while IFS= read -r file; do
    head -n 2 "$file" | grep -q 'SPDX-License-Identifier: MIT' || missing+=("$file")
  done < <(find CMakeLists.txt cmake engine demos tests examples third_party scripts .ci -type f \( -name '*.cpp' -o -name '*.h' \
             -o -name 'CMakeLists.txt' -o -name '*.cmake' -o -name '*.cmake.in' -o -name '*.sh' -o -name run \) \
           -not -path '*/corpus*' | sort)
  if [ ${#missing[@]} -eq 0 ]; then
    PASSED=$((PASSED + 1))
  else
    printf 'no SPDX line: %s\n' "${missing[@]}"
    FAILED=$((FAILED + 1))
  fi
}

# The reference manual (README, "Reference manual"): doxygen docs/Doxyfile writes build/docs/html
# from the public headers' comments and docs/getting_started.md, and must print no warning, so every
# public declaration keeps its comment. The version on its pages is the one version.h says.
check_docs() {
  log "check: the reference manual builds without a warning (doxygen docs/Doxyfile)"
  local version start out rc=0
  version=$(awk '/^#define MK_VERSION_(MAJOR|MINOR|PATCH) / {v = v sep $3; sep = "."} END {print v}' \
    engine/include/minkowski/version.h)
  start=$(date +%s)
  rm -rf build/docs && mkdir -p build/docs  # doxygen makes only the last level of the path
  out=$(MK_VERSION=$version doxygen docs/Doxyfile 2>&1) || rc=$?
  if [ "$rc" -eq 0 ] && [ -z "$out" ]; then
    echo "build/docs/html/index.html (version $version), no warnings, $(($(date +%s) - start)) s"
    PASSED=$((PASSED + 1))
  else
    printf '%s\n' "$out"
    echo "doxygen docs/Doxyfile: $(printf '%s\n' "$out" | grep -cE ': (warning|error):') warnings (exit status $rc)"
    FAILED=$((FAILED + 1))
  fi
}

# Waits until fewer than JOBS background jobs of this shell are running: a loop calls it before
# starting each job, so JOBS of them run at a time (a job's failure is its own to report).
wait_for_a_slot() {
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
}

# One fuzzer over a copy of its committed corpus: its exit status, its output in build/fuzz/fuzz-TARGET.log.
run_one_fuzzer() {  # target (narrowphase, world, snapshot or replay)
  local target=$1 corpus=tests/fuzz/corpus work=build/fuzz/corpus-run-$1
  [ "$target" = world ] && corpus=tests/fuzz/world_corpus
  [ "$target" = snapshot ] && corpus=tests/fuzz/snapshot_corpus
  [ "$target" = replay ] && corpus=tests/fuzz/replay_corpus
  rm -rf "$work" && mkdir -p "$work" && cp "$corpus"/* "$work"/ || return 1
  build/asan/tests/fuzz/fuzz_$target -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 "$work" >build/fuzz/fuzz-$target.log 2>&1
}

run_fuzzer() {
  [ -x build/asan/tests/fuzz/fuzz_narrowphase ] || return 0  # built by build_sanitized
  mkdir -p build/fuzz  # the corpora's working copies, the logs and each fuzzer's status
  # A fuzzer runs on one core: JOBS of them at a time, each for FUZZ_SECONDS, their logs shown in order.
  local targets=(narrowphase world snapshot replay) target
  log "fuzz: ${targets[*]} for ${FUZZ_SECONDS} s each over the committed corpora (tests/fuzz/*corpus), $JOBS at a time"
  for target in "${targets[@]}"; do
    rm -f "build/fuzz/fuzz-$target.status"
    wait_for_a_slot
    (if run_one_fuzzer "$target"; then echo ok; else echo failed; fi >"build/fuzz/fuzz-$target.status") &
  done
  wait
  for target in "${targets[@]}"; do
    if [ "$(cat "build/fuzz/fuzz-$target.status" 2>/dev/null)" = ok ]; then
      echo "fuzz_$target:"
      tail -n 5 "build/fuzz/fuzz-$target.log"
      PASSED=$((PASSED + 1))
    else
      echo "fuzz_$target failed:"
      tail -n 40 "build/fuzz/fuzz-$target.log"
      FAILED=$((FAILED + 1))
    fi
  done
}

# "name,state_hash" of every scene of a benchmark program, in `--list` order, JOBS scenes at a time (an
# emulator runs on one core, and rain alone is a third of the whole run). A program of a cross build
# runs through its emulator: HASH_RUNNER="qemu-aarch64 -L ..." (word-split).
scene_hashes() {  # program, extra benchmark args...
  local program=$1
  shift
  local dir names i
  dir=$(mktemp -d)
  # shellcheck disable=SC2086 # HASH_RUNNER is a command and its arguments
  mapfile -t names < <(${HASH_RUNNER:-} "$program" --list | tr -d '\r' | cut -d, -f1)
  for i in "${!names[@]}"; do
    # A run that fails writes "name,run failed", which compare_scene_hashes refuses on either side
    # (two builds failing alike would otherwise compare equal).
    # shellcheck disable=SC2086
    wait_for_a_slot
    (${HASH_RUNNER:-} "$program" --scene "${names[$i]}" --runs 1 "$@" | tr -d '\r' | tail -n 1 |
      cut -d, -f1,13 >"$dir/$i" || echo "${names[$i]},run failed" >"$dir/$i") &
  done
  wait
  for i in "${!names[@]}"; do cat "$dir/$i"; done
  rm -rf "$dir"
}

# Every scene's final state hash from two builds must be equal (a scene that fails to run prints an
# empty line, which differs too).
compare_scene_hashes() {  # label, reference build dir, other build dir, extra benchmark args...
  local label=$1 reference=$2 other=$3
  shift 3
  log "scene hashes: $label"
  local want got program=$other/demos/benchmark/benchmark
  [ -x "$program" ] || program=$program.exe
  want=$(HASH_RUNNER="" scene_hashes "$reference"/demos/benchmark/benchmark "$@")
  got=$(scene_hashes "$program" "$@")
  if [ -n "$want" ] && [ "$want" = "$got" ] && ! grep -q ',run failed$' <<<"$want"; then
    echo "all $(printf '%s\n' "$want" | wc -l) scene hashes equal"
    PASSED=$((PASSED + 1))
  else
    diff <(printf '%s\n' "$want") <(printf '%s\n' "$got") || true
    FAILED=$((FAILED + 1))
  fi
}

# The 8-lane AVX2 kernels against the 4-lane ones, where this CPU has AVX2. One Release build holds
# both, chosen per world at run time (WorldDef::simdWidth; docs/design.md, "The SIMD width chosen at
# run time"), so no second build is needed: the benchmark's --lanes 4 and --lanes 8 must give every
# scene's state hash after 100 steps alike (a colour's contacts share no moving body, so solving eight
# at once instead of four changes nothing). The tests compare them too (label simd: every scene shrunk;
# label long: full length), and check which symbols the -mavx2 objects define (avx2_symbols).
compare_simd_widths() {
  if ! grep -qw avx2 /proc/cpuinfo 2>/dev/null; then
    log "skipped: 4 lanes against 8 lanes (this CPU has no AVX2)"
    return 0
  fi
  log "scene hashes: 4 lanes against 8 lanes in the Release build (benchmark --lanes), after 100 steps"
  local want got program=build/release/demos/benchmark/benchmark
  want=$(scene_hashes "$program" --steps 100 --lanes 4)
  got=$(scene_hashes "$program" --steps 100 --lanes 8)
  if [ -n "$want" ] && [ "$want" = "$got" ] && ! grep -q ',run failed$' <<<"$want"; then
    echo "all $(printf '%s\n' "$want" | wc -l) scene hashes equal"
    PASSED=$((PASSED + 1))
  else
    diff <(printf '%s\n' "$want") <(printf '%s\n' "$got") || true
    FAILED=$((FAILED + 1))
  fi
}

# Determinism across compilers: the benchmark built by clang (Release, warnings as errors) must give
# every scene's state hash of the gcc Release build, over each scene's full length. Where the CPU has
# FMA, clang may use it (-mfma): the engine's -ffp-contract=off must keep it from fusing a multiply and
# an add, or the hashes part (measured: 14 of 15 scenes differ without the flag). Only the benchmark
# programs are built, to keep the stage to a few minutes; mk_tests builds and passes under clang too.
# They are built with their peers compiled in (MK_COMPARE_BOX2D=ON: Box2D 2.4.1 timed beside the
# narrowphase, broadphase and ray programs): the Release build above is what a fresh machine gets
# (peers OFF, the default), this one keeps the other configuration compiling, so neither depends on
# what happens to be installed (the world benchmark, whose hashes are compared, has no peer).
build_clang() {
  install_missing $PEER_PACKAGES
  local flags=""
  grep -qw fma /proc/cpuinfo 2>/dev/null && flags="-mfma"
  log "build: the benchmarks with clang and their peer (MK_COMPARE_BOX2D=ON), Release, CXXFLAGS '${flags}', warnings as errors"
  rm -f build/clang/CMakeCache.txt
  if CXX=clang++ cmake -S "$ROOT" -B build/clang -DCMAKE_BUILD_TYPE=Release -DMK_WARNINGS_AS_ERRORS=ON \
       -DMK_COMPARE_BOX2D=ON -DMK_BUILD_TESTS=OFF -DMK_BUILD_SANDBOX=OFF -DCMAKE_CXX_FLAGS="$flags" >/dev/null &&
     cmake --build build/clang -j "$JOBS"; then
    compare_scene_hashes "gcc Release build against clang Release build" build/release build/clang
  else
    echo "the clang build (with MK_COMPARE_BOX2D=ON) failed"
    FAILED=$((FAILED + 1))
  fi
}

# Cross builds (cmake/toolchains): Debian's cross compilers build the library, mk_tests and the
# benchmark, warnings as errors, and an emulator runs them here: ctest (doctest's discovery too) goes
# through the toolchain's CMAKE_CROSSCOMPILING_EMULATOR, the benchmark through HASH_RUNNER. Every
# scene's state hash must equal the gcc Release build's. Labels long and package are skipped (the
# package tests configure host games; the long ones would take many minutes under an emulator).
build_cross() {  # label, build dir, toolchain file, scene-hash benchmark args...
  local label=$1 dir=$2 toolchain=$3
  shift 3
  log "build: $label cross build (cmake/toolchains/$toolchain), Release, warnings as errors"
  if ! cmake -S "$ROOT" -B "$dir" --toolchain "$ROOT/cmake/toolchains/$toolchain" -DCMAKE_BUILD_TYPE=Release \
         -DMK_WARNINGS_AS_ERRORS=ON -DMK_BUILD_SANDBOX=OFF -DMK_EMULATOR_SKIPPED_SUITES="${SKIPPED_SUITES:-long}" "$UNITY_ENGINE" \
         >/dev/null ||
     ! cmake --build "$dir" -j "$JOBS" --target mk_tests benchmark; then
    echo "the $label cross build failed"
    FAILED=$((FAILED + 1))
    return 0
  fi
  if [ -n "${CROSS_WARMUP:-}" ]; then $CROSS_WARMUP >/dev/null 2>&1 || true; fi
  run_ctest "$label, without the suites ${SKIPPED_SUITES:-long} and label 'package'" "$dir" -LE 'long|package'
  compare_scene_hashes "gcc Release build against the $label build" build/release "$dir" "$@"
}

# ctest starts the Windows test binaries two at a time; on a prefix not yet made, two wine processes race
# to make it (a fresh machine's CI run: "chdir to /tmp/wine-*/server-*: No such file or directory", and
# a test failed before it ran). So the prefix is made first, alone, and wineserver waited for.
# Then one server is started to stay for the whole stage, so that no test's wine starts or stops a
# server while another connects: Debian's wineserver ends as soon as its last client does (-p0), and on
# f3b0f49 a binary that ctest started as another finished failed in 0.02 s with "wine client error:0:
# recvmsg: Connection reset by peer" (once in CI; 24 runs here did not repeat it). wineboot starts the
# prefix's services under that server here, where their output goes nowhere: started by a test's wine,
# they would hold its output pipe open and ctest would wait for them forever. build_windows ends the
# server and its services after the stage.
wineserver_of_stage() {
  local wine=${WINE_RUN##* }
  env WINEPREFIX="$ROOT/build/mingw/wineprefix" "${wine%/*}/wineserver" "$@"
}
make_wine_prefix() {
  $WINE_RUN wineboot --init && wineserver_of_stage -w && wineserver_of_stage -p && $WINE_RUN wineboot
}

# Windows x86-64: mingw-w64 (POSIX threads: doctest needs std::mutex), run by wine64 in a private,
# headless prefix inside the build dir (Debian's wine64 puts its loader in /usr/lib/wine).
build_windows() {
  install_missing $WINDOWS_PACKAGES
  local wine=/usr/lib/wine/wine64
  [ -x "$wine" ] || wine=$(command -v wine64 || command -v wine)
  local started=$SECONDS
  WINE_RUN="env WINEPREFIX=$ROOT/build/mingw/wineprefix WINEDEBUG=-all DISPLAY= $wine"
  CROSS_WARMUP=make_wine_prefix HASH_RUNNER="$WINE_RUN" \
    build_cross "Windows (mingw-w64, wine64)" build/mingw mingw-w64-x86_64.cmake
  wineserver_of_stage -k >/dev/null 2>&1 || true
  echo "Windows stage: $((SECONDS - started)) s"
}

# Linux aarch64: g++-aarch64-linux-gnu, run by qemu-user against the cross glibc. Its kernels use the
# scalar lane type (no SSE2 there; the twin gives the SSE2 bits). AARCH64_HASH_STEPS (0: each scene's
# full length) shortens the hash run, which qemu makes many times slower than native: many_pyramids
# alone steps 1.4 s a step there (171 of the 380 s of CPU of every scene at 120 steps; 60 halve it, and
# a second of simulated time still covers the first contacts, the settling and the sleep timers; the
# Windows and clang stages compare every scene over its full length). Its tests skip
# the suite 'threads' too (a third of their time under qemu; tests/CMakeLists.txt says why), and
# 'nonconvex' (85 s of CPU under qemu): the non-convex query is plain float geometry (IEEE operations,
# no contraction, like the kernels whose bits the hashes compare across the platforms), which the
# native, sanitized and wine64 runs hold to brute force.
build_aarch64() {
  install_missing $AARCH64_PACKAGES
  local started=$SECONDS steps=()
  # The benchmark refuses --steps 0: without the option each scene runs its full length.
  [ "$AARCH64_HASH_STEPS" -gt 0 ] && steps=(--steps "$AARCH64_HASH_STEPS")
  SKIPPED_SUITES=long,threads,nonconvex HASH_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu" \
    build_cross "Linux aarch64 (qemu-user)" build/aarch64 aarch64-linux-gnu.cmake "${steps[@]}"
  echo "aarch64 stage: $((SECONDS - started)) s"
}

# The kernels on the scalar lane type (MK_DISABLE_SIMD) on this machine. Long tests, the sandbox and
# the benchmark programs are skipped to keep the stage short.
build_nosimd() {
  log "build: Release without SIMD (MK_DISABLE_SIMD=ON), warnings as errors"
  configure_and_build build/nosimd -DCMAKE_BUILD_TYPE=Release -DMK_DISABLE_SIMD=ON -DMK_WARNINGS_AS_ERRORS=ON \
    -DMK_BUILD_SANDBOX=OFF -DMK_BUILD_BENCHMARK=OFF "$UNITY_ENGINE"
  run_ctest "Release without SIMD, without labels 'long' and 'package'" build/nosimd -LE 'long|package'
}

# The large-world build (MK_LARGE_WORLDS: double positions), whose tests are the large-world ones:
# scenes 1,000 to 10,000 km out against themselves at the origin, bit for bit with the world's origin at
# the scene, Box2D v3's large-world cases, files far away (label large_world, and its long cases); and
# the sandbox, whose far-away tests (label sandbox) render scenes at 1e7 m as at the origin. The
# sandbox adds 26 files to this build: 35 s of CPU (about 20 s on 2 idle cores), its tests 23 s more.
build_large_worlds() {
  log "build: Release with double-precision world positions (MK_LARGE_WORLDS=ON), warnings as errors"
  configure_and_build build/large -DCMAKE_BUILD_TYPE=Release -DMK_LARGE_WORLDS=ON -DMK_WARNINGS_AS_ERRORS=ON \
    -DMK_BUILD_BENCHMARK=OFF "$UNITY_ENGINE"
  run_ctest "Release with MK_LARGE_WORLDS, all its tests" build/large
}

# The sanitized builds' RelWithDebInfo flags: line tables only (-g1), all a sanitizer's stack traces
# read, instead of full debug information (-g): a sixth less compile time (a test file: 6.6 -> 5.5 s).
SANITIZER_BUILD_FLAGS="-O2 -g1 -DNDEBUG"

# AddressSanitizer + UndefinedBehaviorSanitizer: clang, optimised (RelWithDebInfo), warnings as errors,
# the tests and the fuzz targets in one build (run_fuzzer runs those): the engine carries the fuzzers'
# coverage instrumentation (-fsanitize=fuzzer-no-link), which the tests, without the fuzzer's runtime,
# leave to the sanitizer runtime's no-op hooks. Every case but the labels 'long' and 'package' runs (1.8
# min on 2 cores; the gcc -O0 build this replaced took 3.6 min for fewer cases, and a second engine
# build, 2.5 min, for the fuzzers). It is also the one build of mk_tests by clang.
build_sanitized() {
  log "build: clang with AddressSanitizer + UndefinedBehaviorSanitizer, the tests and the fuzz targets"
  rm -f build/asan/CMakeCache.txt  # a build dir made by gcc keeps its compiler
  CXX=clang++ configure_and_build build/asan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$SANITIZER_BUILD_FLAGS" -DMK_SANITIZE=ON \
    -DMK_BUILD_FUZZ=ON -DMK_WARNINGS_AS_ERRORS=ON -DMK_BUILD_SANDBOX=OFF -DMK_BUILD_BENCHMARK=OFF "$UNITY_ENGINE"
  run_ctest "ASan + UBSan (clang), without labels 'long' and 'package'" build/asan -LE 'long|package'
}

# ThreadSanitizer over the code that runs on several workers: the task pool and the step on 2 to 8
# workers (label 'threads': every scene shrunk, hostile task systems). MK_TSAN builds only the engine,
# the scenes and those tests.
build_tsan() {
  log "build: ThreadSanitizer, the thread tests"
  configure_and_build build/tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$SANITIZER_BUILD_FLAGS" \
    -DMK_TSAN=ON -DMK_WARNINGS_AS_ERRORS=ON -DMK_BUILD_SANDBOX=OFF -DMK_BUILD_BENCHMARK=OFF "$UNITY_ENGINE"
  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
    run_ctest "ThreadSanitizer, label 'threads'" build/tsan -L threads
}

# The later stages' packages (the peer, the cross compilers and emulators) download and unpack while the
# Release build compiles (20 s of a fresh machine's run off the critical path); each stage's own
# install_missing then finds them, or installs them itself if this failed. Its log: build/later-packages.log.
start_installing_later_packages() {
  local packages=$PEER_PACKAGES
  [ "${MK_CROSS:-1}" = 1 ] && packages="$packages $WINDOWS_PACKAGES $AARCH64_PACKAGES"
  mkdir -p build
  rm -f build/later-packages.status
  # shellcheck disable=SC2086 # a list of package names
  (install_missing $packages >build/later-packages.log 2>&1; echo $? >build/later-packages.status) &
  LATER_PACKAGES_PID=$!
}

# The status file, not wait's: a stage's `wait` for its own jobs may have reaped this one already.
finish_installing_later_packages() {
  wait "$LATER_PACKAGES_PID" 2>/dev/null || true
  [ "$(cat build/later-packages.status 2>/dev/null)" = 0 ] ||
    echo "installing the later stages' packages failed (build/later-packages.log); the stages try again"
}

cmd_test() {
  install_missing $LIB_PACKAGES $SANDBOX_PACKAGES $TOOL_PACKAGES
  start_installing_later_packages
  check_engine_is_standalone
  check_format
  check_spdx
  check_docs
  log "build: Release, warnings as errors"
  configure_and_build build/release -DCMAKE_BUILD_TYPE=Release -DMK_WARNINGS_AS_ERRORS=ON
  run_ctest "Release, all tests" build/release
  compare_simd_widths
  build_large_worlds
  finish_installing_later_packages
  build_clang
  # Windows and aarch64 (cross builds run by an emulator), unless MK_CROSS=0. aarch64 has no SSE2, so
  # its stage also runs the kernels on the scalar lane type, what machines without SSE2 run (the twin
  # tests hold it to the SSE2 results bit for bit); with MK_CROSS=0 a native MK_DISABLE_SIMD build
  # does that instead.
  if [ "${MK_CROSS:-1}" = 1 ]; then
    build_windows
    build_aarch64
  else
    build_nosimd
  fi
  build_sanitized
  build_tsan
  run_fuzzer
  echo
  echo "Minkowski suite: ${PASSED} passed, ${FAILED} failed, in $((SECONDS / 60)) min $((SECONDS % 60)) s"
  [ "$FAILED" -eq 0 ]
}

cmd_sandbox() {
  install_missing $LIB_PACKAGES $SANDBOX_PACKAGES
  configure_and_build build/sandbox -DCMAKE_BUILD_TYPE=Release -DMK_BUILD_TESTS=OFF -DMK_BUILD_BENCHMARK=OFF
  local app=build/sandbox/demos/sandbox/sandbox
  if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    echo "No display found (DISPLAY and WAYLAND_DISPLAY are unset): running the sandbox headless."
    echo "It writes sandbox.png; on a desktop this same command opens the window."
    "$app" --headless --frames 120 --screenshot sandbox.png "$@"
    echo "Wrote $(pwd)/sandbox.png"
  else
    exec "$app" "$@"
  fi
}

case "${1:-}" in
  test) shift; cmd_test "$@" ;;
  sandbox) shift; cmd_sandbox "$@" ;;
  *) echo "usage: bash scripts/dev.sh sandbox|test" >&2; exit 2 ;;
esac
