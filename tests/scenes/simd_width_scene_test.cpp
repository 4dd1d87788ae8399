// SPDX-License-Identifier: MIT
// The SIMD width chosen at run time (WorldDef::simdWidth, engine/src/core/simd_dispatch.h, issue 31):
// the rule that picks it, and the same states and events on 4 and 8 lanes in one binary.
//
// Oracles: the CPU's AVX2 support read from cpuid directly (not through the engine's detection), and
// the 4-lane run of each scene, step by step: a colour's contacts share no moving body, so solving
// eight at once instead of four must change no bit.
#include "core/simd_dispatch.h"
#include "scene_test_util.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#if defined(MK_HAS_FLOAT8)
#include <cpuid.h>
#endif

using namespace mk;
using scenes::SceneRun;

namespace {

// AVX2 as the CPU reports it: cpuid leaf 7 EBX bit 5, with OSXSAVE (leaf 1 ECX bit 27) and the
// operating system saving the SSE and AVX state (XCR0 bits 1 and 2).
bool CpuidSaysAvx2() {
#if defined(MK_HAS_FLOAT8)
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d) || (c & (1u << 27)) == 0) return false;
  unsigned xcr0Low = 0, xcr0High = 0;
  __asm__("xgetbv" : "=a"(xcr0Low), "=d"(xcr0High) : "c"(0));
  if ((xcr0Low & 6u) != 6u) return false;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
  return (b & (1u << 5)) != 0;
#else
  return false;  // a build without the 8-lane kernels: 4 lanes whatever the CPU
#endif
}

// Each step's digest (test::StepDigest) of `info` run with `width`; checks the width the world took.
std::vector<std::uint64_t> Digests(const scenes::SceneInfo& info, scenes::SceneParams params, int steps,
                                   SimdWidth width, int expectedLanes) {
  scenes::SceneInfo row = info;  // the scene's own WorldDef but for the width
  row.worldDef.simdWidth = width;
  SceneRun run(row, params);
  CHECK(run.GetWorld().GetSimdWidth() == expectedLanes);
  std::vector<std::uint64_t> digests;
  for (int i = 0; i < steps; ++i) {
    run.Step();
    digests.push_back(test::StepDigest(run.GetWorld()));
  }
  return digests;
}

// Every scene, `steps` steps (0: its full length), on 4 lanes and on 8: the same digest after every
// step. Without AVX2 (CPU or build) there is one width only, and nothing to compare.
void CheckEveryScene(int steps, bool small) {
  if (!CpuidSaysAvx2()) {
    MESSAGE("skipped: no 8-lane kernels on this CPU or in this build");
    return;
  }
  for (const scenes::SceneInfo& info : scenes::SceneTable()) {
    INFO("scene " << std::string(info.name));
    const scenes::SceneParams params = small ? test::SmallParams(info) : scenes::SceneParams{};
    const int n = steps > 0 ? std::min(steps, info.defaultSteps) : info.defaultSteps;
    const std::vector<std::uint64_t> four = Digests(info, params, n, SimdWidth::Lanes4, 4);
    const std::vector<std::uint64_t> eight = Digests(info, params, n, SimdWidth::Lanes8, 8);
    int firstMismatch = -1;
    for (int i = 0; i < n && firstMismatch < 0; ++i)
      if (four[static_cast<std::size_t>(i)] != eight[static_cast<std::size_t>(i)]) firstMismatch = i;
    CHECK(firstMismatch == -1);
  }
}

}  // namespace

TEST_SUITE("simd") {
TEST_CASE("the world takes 8 lanes exactly where the CPU has AVX2 unless asked for 4") {
  const int best = CpuidSaysAvx2() ? 8 : 4;
  CHECK(CpuHasAvx2() == (best == 8));
  CHECK(SimdLanes(SimdWidth::Automatic) == best);
  CHECK(SimdLanes(SimdWidth::Lanes8) == best);  // 8 asked without AVX2: 4, as documented
  CHECK(SimdLanes(SimdWidth::Lanes4) == 4);
  for (SimdWidth width : {SimdWidth::Automatic, SimdWidth::Lanes4, SimdWidth::Lanes8}) {
    CHECK(World(WorldDef{.simdWidth = width}).GetSimdWidth() == SimdLanes(width));
  }
  CHECK(World().GetSimdWidth() == best);  // the default WorldDef
}

TEST_CASE("every scene shrunk: the same states and events on 4 and 8 lanes for 120 steps") {
  CheckEveryScene(120, /*small=*/true);
}
}  // TEST_SUITE("simd")

// Over every scene's full length the two widths are compared by the long case of
// parallel_scene_test.cpp, which runs its worker counts on 4 and 8 lanes against a serial run on 4.
