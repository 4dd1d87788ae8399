// SPDX-License-Identifier: MIT
#include "chain_lab.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace mk;
using namespace mk::sandbox;

namespace {

float Peak(const std::vector<float>& vy) {
  float m = 0.0f;
  for (float v : vy) m = std::max(m, std::fabs(v));
  return m;
}

// Largest difference between two series over their common length.
float MaxDifference(const std::vector<float>& a, const std::vector<float>& b) {
  float m = 0.0f;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) m = std::max(m, std::fabs(a[i] - b[i]));
  return m;
}

// The lab on a track at 5 m/s, run until its plot is full or a body reaches the end of the track.
struct Run {
  std::vector<float> box, wheel;
};

Run RunTrack(const char* track) {
  ChainLab lab;
  std::string error;
  REQUIRE(lab.ApplySetting("speed", "5", error));
  REQUIRE(lab.ApplySetting("track", track, error));
  while (lab.Running()) lab.StepOnce();
  return {lab.BoxVy(), lab.WheelVy()};
}

}  // namespace

TEST_SUITE("sandbox.chain_lab") {
TEST_CASE("on the chain track the box and the wheel move as on one solid ground / on segments the box hops") {
  const Run chain = RunTrack("chain");
  const Run ground = RunTrack("ground");
  const Run segments = RunTrack("segments");
  REQUIRE(chain.box.size() >= 180);   // 3 s at 5 m/s: the box crosses 30 joints
  REQUIRE(ground.box.size() >= 180);  // compared over their common length
  MESSAGE("peak |vy| box / wheel: chain " << Peak(chain.box) << " / " << Peak(chain.wheel) << ", ground "
                                          << Peak(ground.box) << " / " << Peak(ground.wheel) << ", segments "
                                          << Peak(segments.box) << " / " << Peak(segments.wheel));
  CHECK(Peak(chain.box) <= 1e-3f);
  CHECK(MaxDifference(chain.box, ground.box) <= 1e-3f);
  CHECK(MaxDifference(chain.wheel, ground.wheel) <= 1e-3f);
  CHECK(Peak(segments.box) > 1e-3f);  // the contrast: two-sided segments catch the box
}

// The lab's comment says the box and the wheel never meet: they must never touch, on any track, at the
// default launch speed (6 m/s) and across the slider's range. Both are the world's only dynamic bodies.
TEST_CASE("the box and the wheel never meet on any track at any launch speed") {
  for (const char* track : {"chain", "segments", "ground"}) {
    for (const char* speed : {"", "1", "3", "5", "10", "20", "30"}) {
      ChainLab lab;
      std::string error;
      if (speed[0] != '\0') REQUIRE(lab.ApplySetting("speed", speed, error));
      REQUIRE(lab.ApplySetting("track", track, error));
      int steps = 0, touching = 0;
      while (lab.Running()) {
        lab.StepOnce();
        ++steps;
        const World& world = lab.GetWorld();
        world.ForEachTouchingContact([&](const ContactView& contact) {
          const bool bothMove = world.GetBodyType(world.GetBody(contact.shapeA)) == BodyType::Dynamic &&
                                world.GetBodyType(world.GetBody(contact.shapeB)) == BodyType::Dynamic;
          if (bothMove) ++touching;
        });
      }
      INFO("track " << std::string(track) << ", speed '" << std::string(speed) << "'");
      CHECK(steps > ChainLab::kSettleSteps);
      CHECK(touching == 0);
    }
  }
}

TEST_CASE("bad chain_lab settings are refused with a message") {
  ChainLab lab;
  std::string error;
  CHECK(!lab.ApplySetting("track", "ice", error));
  CHECK(!error.empty());
  CHECK(!lab.ApplySetting("speed", "31", error));
  CHECK(!lab.ApplySetting("speed", "nan", error));
  CHECK(!lab.ApplySetting("speed", "-1", error));
  CHECK(!lab.ApplySetting("colour", "1", error));
  CHECK(lab.ApplySetting("speed", "0", error));
}
}  // TEST_SUITE("sandbox.chain_lab")
