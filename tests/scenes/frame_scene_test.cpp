// SPDX-License-Identifier: MIT
// The joint_frames scene (demos/scenes/frame_scenes.cpp) against the frames' analytic poses: each arm
// rests at the lower edge of a limit window turned with its frame A, and each slide box, after its
// frame A turned, lies on the new axis at the downhill limit, turned by the frames' relative angle.
#include "minkowski/joint_api.h"
#include "scene_test_util.h"

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

using namespace mk;

TEST_SUITE("scenes.frames") {
TEST_CASE("joint_frames holds its arms and slide boxes where their frames put them") {
  const scenes::SceneInfo* info = scenes::FindScene("joint_frames");
  REQUIRE(info != nullptr);
  scenes::SceneRun run(*info);
  for (int i = 0; i < 230; ++i) run.Step(1.0f / 60.0f);  // one turn of the slides (step 120), settled
  const World& world = run.GetWorld();
  const scenes::SceneState& state = run.State();
  // Arms: frame A turned 0.6 i rad, window +-0.1 rad; gravity takes an arm to the edge nearer hanging
  // straight (0), or leaves it hanging when 0 is inside the window.
  for (int i = 0; i < 3; ++i) {
    CAPTURE(i);
    const float frame = 0.6f * static_cast<float>(i);
    const float rest = i == 0 ? 0.0f : frame - 0.1f;
    CHECK(world.GetAngle(state.bodies[i]) == doctest::Approx(rest).epsilon(0.01));
  }
  // Slides: turned once by pi / 3 with frame B kept, so each box is turned by pi / 3 (its frames'
  // relative angle), its centre on the axis through frame A's origin, 2.5 m down the axis.
  const float turn = std::numbers::pi_v<float> / 3.0f;
  for (int i = 0; i < 3; ++i) {
    CAPTURE(i);
    const JointId slide = state.joints[3 + i];
    const Transform frame = GetJointLocalFrameA(world, slide);
    const Vec2 origin = TransformPoint(world.GetTransform(GetJointBodyA(world, slide)), frame.p);
    const Vec2 axis{frame.q.c, frame.q.s};
    const Vec2 d = world.GetPosition(state.bodies[3 + i]) - origin;
    CHECK(std::fabs(Cross(axis, d)) < 0.01f);
    const float downhill = Dot(world.GetGravity(), axis) > 0.0f ? 2.5f : -2.5f;
    CHECK(Dot(axis, d) == doctest::Approx(downhill).epsilon(0.01));
    CHECK(world.GetAngle(state.bodies[3 + i]) == doctest::Approx(turn).epsilon(0.01));
  }
}
}  // TEST_SUITE("scenes.frames")
