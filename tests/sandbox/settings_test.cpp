// SPDX-License-Identifier: MIT
#include "settings.h"

#include "test_util.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

using namespace mk;
using namespace mk::sandbox;

namespace {

// Applies "key=value" and reports success.
bool Apply(SceneSettings& s, const std::string& pair, std::string* error = nullptr) {
  std::string_view key, value;
  std::string e;
  bool ok = SplitSetting(pair, key, value) && ApplySetting(s, key, value, e);
  if (error != nullptr) *error = e;
  return ok;
}

// A help text's range "lo..hi" (the last such pair in the text), or false when it has none.
bool HelpRange(const std::string& help, double& lo, double& hi) {
  size_t dots = help.rfind("..");
  if (dots == std::string::npos) return false;
  size_t start = help.rfind(' ', dots);
  lo = std::stod(help.substr(start + 1, dots - start - 1));
  hi = std::stod(help.substr(dots + 2));
  return true;
}

}  // namespace

TEST_SUITE("sandbox.settings") {

TEST_CASE("formatting every key and applying the text reproduces the settings exactly") {
  test::Rng rng(1234);
  for (int trial = 0; trial < 200; ++trial) {
    SceneSettings original;
    original.solver.mode = rng.Int(0, 1) == 0 ? SolverMode::SoftStep : SolverMode::Classic;
    original.solver.subSteps = rng.Int(1, 64);
    original.solver.contactHertz = rng.Uniform(0.0f, 1000.0f);
    original.solver.linearSlop = rng.Uniform(0.0f, 1.0f);
    original.solver.enableRelax = rng.Int(0, 1) == 1;
    original.solver.classicBaumgarte = rng.Uniform(0.0f, 1.0f);
    original.gravity = {rng.Uniform(-1000.0f, 1000.0f), rng.Uniform(-1000.0f, 1000.0f)};
    original.stepHertz = rng.Uniform(10.0f, 480.0f);
    original.params = {rng.Int(0, 1000), rng.Int(0, 1000)};
    original.draw.islands = rng.Int(0, 1) == 1;
    original.draw.broadphase = rng.Int(0, 1) == 1;
    original.draw.continuous = rng.Int(0, 1) == 1;
    SceneSettings copy;  // all defaults: every value must come from the text
    for (const std::string& pair : FormatSettings(original)) REQUIRE(Apply(copy, pair));
    CHECK(FormatSettings(copy) == FormatSettings(original));
    CHECK(copy.solver.contactHertz == original.solver.contactHertz);  // bit-exact floats
    CHECK(copy.gravity == original.gravity);
    CHECK(copy.stepHertz == original.stepHertz);
    CHECK(copy.solver.mode == original.solver.mode);
  }
}

TEST_CASE("every solver key's range is exactly what World::SetSolverSettings accepts") {
  // For each numeric solver key: both ends of the advertised range are accepted by ApplySetting and
  // then by the world without clamping; a value just beyond either end is refused by ApplySetting.
  int checked = 0;
  for (const SettingKey& key : SettingKeys()) {
    std::string help = key.help, name = key.name;
    double lo = 0, hi = 0;
    if (!HelpRange(help, lo, hi) || name.starts_with("gravity") || name == "step_hz" || name == "size" ||
        name == "workers" || name == "substep_workers" || name == "count" || name == "far_away") {
      continue;
    }
    for (double end : {lo, hi}) {
      SceneSettings s;
      char text[64];
      std::snprintf(text, sizeof text, "%s=%.9g", key.name, end);
      INFO(text);
      REQUIRE(Apply(s, text));
      World world;
      CHECK(world.SetSolverSettings(s.solver));  // true: nothing clamped
    }
    const double small = std::max(1.0, std::abs(hi)) * 1e-3;  // just beyond a float range
    for (double beyond : {lo - small, hi + small, lo - 1.0, hi + 1.0}) {
      SceneSettings s;
      char text[64];
      std::snprintf(text, sizeof text, "%s=%.9g", key.name, beyond);
      INFO(text);
      std::string error;
      CHECK_FALSE(Apply(s, text, &error));
      CHECK(error.find(key.name) != std::string::npos);
    }
    ++checked;
  }
  CHECK(checked == 16);  // every numeric solver field of SolverSettings
}

TEST_CASE("bad settings are refused with a reason and change nothing") {
  SceneSettings s;
  const auto before = FormatSettings(s);
  std::string error;
  for (const char* bad : {"sub_steps=0", "sub_steps=2.5", "sub_steps=x", "contact_hertz=nan",
                          "contact_hertz=inf", "linear_slop=-0.1", "sleep=maybe", "mode=fast",
                          "no_such_key=1", "gravity_y=1e9", "step_hz=5", "size=-1"}) {
    INFO(bad);
    CHECK_FALSE(Apply(s, bad, &error));
    CHECK_FALSE(error.empty());
    CHECK(FormatSettings(s) == before);
  }
  std::string_view key, value;
  CHECK_FALSE(SplitSetting("=1", key, value));
  CHECK_FALSE(SplitSetting("sleep=", key, value));
  CHECK_FALSE(SplitSetting("sleep", key, value));
}

TEST_CASE("each key's range is the one its help names and the one the panel's sliders take") {
  for (const SettingKey& key : SettingKeys()) {
    double lo = 0, hi = 0;
    const std::string name = key.name;
    if (!HelpRange(key.help, lo, hi) || name == "size" || name == "count") continue;  // per scene
    INFO(name);
    CHECK(RangeOf(name).lo == lo);
    CHECK(RangeOf(name).hi == hi);
  }
  // The sub-steps slider went 1..16 while --settings took 1..64.
  CHECK(RangeOf("sub_steps").lo == 1);
  CHECK(RangeOf("sub_steps").hi == 64);
  CHECK(RangeOf("no_such_key").hi == 0);
}

TEST_CASE("a scene's default settings are its WorldDef") {
  const scenes::SceneInfo* pyramid = scenes::FindScene("large_pyramid");
  REQUIRE(pyramid != nullptr);
  SceneSettings s = DefaultSettings(*pyramid);
  CHECK_FALSE(s.solver.enableSleep);  // as in Box2D v3: large_pyramid runs with sleep off
  CHECK(s.gravity == pyramid->worldDef.gravity);
  CHECK(s.params.size == pyramid->defaults.size);
}

}  // TEST_SUITE("sandbox.settings")
