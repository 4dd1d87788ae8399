// SPDX-License-Identifier: MIT
// The replay's inspector (inspector.h): a click in a replay picks the body, and what it reads matches
// the same scene run apart from the replay and the world's own contact walk; its lines fit the panel.
#include "inspector.h"

#include "layout_check.h"
#include "panel_harness.h"
#include "panel_text.h"
#include "scene_view.h"
#include "view_host.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <set>
#include <string>
#include <vector>

using namespace mk;
using namespace mk::sandbox;

namespace {

constexpr int kSteps = 120;

// `view` plays its own recording of `steps` steps of its scene, standing at the last.
void ReplayOwnRecording(SceneView& view, int steps) {
  view.StartRecording();
  for (int i = 0; i < steps; ++i) view.StepOnce();
  Replay replay;
  REQUIRE(Replay::Load(view.StopRecording(), replay) == ReplayError::None);
  view.PlayReplay(std::move(replay));
  view.ScrubTo(static_cast<std::uint64_t>(steps));
}

// The same scene run on its own, at the sandbox's default step (60 Hz, as SceneRun's).
std::unique_ptr<scenes::SceneRun> RunApart(const char* name, int steps) {
  auto run = std::make_unique<scenes::SceneRun>(*scenes::FindScene(name));
  for (int i = 0; i < steps; ++i) run->Step();
  return run;
}

// The bodies touching `body`, found by walking every touching contact of the world.
std::set<std::uint32_t> TouchingByWorldWalk(const World& world, BodyId body) {
  std::set<std::uint32_t> others;
  world.ForEachTouchingContact([&](const ContactView& c) {
    const BodyId a = world.GetBody(c.shapeA), b = world.GetBody(c.shapeB);
    if (a.index1 == body.index1) others.insert(b.index1);
    if (b.index1 == body.index1) others.insert(a.index1);
  });
  return others;
}

SceneView Loaded(const char* name) {
  const scenes::SceneInfo& info = *scenes::FindScene(name);
  return SceneView(info, DefaultSettings(info));
}

}  // namespace

TEST_SUITE("sandbox.inspector") {
TEST_CASE("a click in a replay inspects the body under it with the contacts the world walk finds") {
  SceneView view = Loaded("vertical_stack");
  ReplayOwnRecording(view, kSteps);
  const auto apart = RunApart("vertical_stack", kSteps);
  const BodyId bottom = apart->State().bodies[0], second = apart->State().bodies[1];
  const Vec2 at = apart->GetWorld().GetPosition(bottom);
  REQUIRE(view.MouseDown(at + Vec2{0.1f, 0.1f}, false));
  REQUIRE(view.Inspected().index1 == bottom.index1);

  const World& world = view.GetWorld();
  const BodyInspection in = InspectBody(world, view.Inspected());
  REQUIRE(in.valid);
  CHECK(in.position.x == at.x);  // the replay reproduces the run bit for bit
  CHECK(in.position.y == at.y);
  std::set<std::uint32_t> others;
  for (const InspectedContact& c : in.contacts) others.insert(c.other.index1);
  CHECK(others == TouchingByWorldWalk(world, view.Inspected()));
  CHECK(others.size() == 2);  // the ground and the box above
  for (const InspectedContact& c : in.contacts) {
    if (c.other.index1 != second.index1) continue;
    CHECK(c.normal.y > 0.99f);      // from the bottom box up to the one it carries
    CHECK(c.normalImpulse > 0.0f);  // carrying 19 boxes
    CHECK(c.separation < 0.01f);
  }
}

TEST_CASE("a chain link's inspection lists its two hinges to the links the scene joined it to") {
  SceneView view = Loaded("pendulum_chain");
  ReplayOwnRecording(view, kSteps);
  const auto apart = RunApart("pendulum_chain", kSteps);
  const BodyId link = apart->State().bodies[5];
  std::set<std::uint32_t> neighbours;
  for (const scenes::SceneState::PointJoint& j : apart->State().pointJoints) {
    if (j.bodyA == link) neighbours.insert(j.bodyB.index1);
    if (j.bodyB == link) neighbours.insert(j.bodyA.index1);
  }
  REQUIRE(view.MouseDown(apart->GetWorld().GetPosition(link), false));
  REQUIRE(view.Inspected().index1 == link.index1);
  const BodyInspection in = InspectBody(view.GetWorld(), view.Inspected());
  std::set<std::uint32_t> others;
  for (const InspectedJoint& j : in.joints) {
    others.insert(j.other.index1);
    CHECK(j.type == JointType::Revolute);
    CHECK(Length(j.force) > 0.0f);  // the hinges hold the swinging chain together
  }
  CHECK(others == neighbours);
  CHECK(neighbours.size() == 2);
  // Back to step 5: the player restarts its world (its ids take a new tag); the link stays inspected.
  view.ScrubTo(5);
  CHECK(InspectBody(view.GetWorld(), view.Inspected()).valid);
  CHECK(view.Inspected().index1 == link.index1);
}

TEST_CASE("an empty click inspects nothing and leaving the replay forgets the body") {
  SceneView view = Loaded("vertical_stack");
  ReplayOwnRecording(view, 10);
  CHECK_FALSE(view.MouseDown({1000.0f, 1000.0f}, false));
  CHECK(view.Inspected().IsNull());
  CHECK(InspectorLines(InspectBody(view.GetWorld(), BodyId{}), 8) ==
        std::vector<std::string>{"no such body at this step"});
  view.LeaveReplay();
  CHECK(view.Inspected().IsNull());
}

TEST_CASE("a click in a paused live run inspects the body under it and grabs nothing") {
  SceneView view = Loaded("vertical_stack");
  for (int i = 0; i < kSteps; ++i) view.StepOnce();
  const auto apart = RunApart("vertical_stack", kSteps);
  const BodyId bottom = apart->State().bodies[0];
  const Vec2 at = view.ToView(apart->GetWorld().GetPosition(bottom));
  // Running, a click grabs (the live run's drag) and inspects nothing.
  REQUIRE(view.MouseDown(at + Vec2{0.1f, 0.1f}, false));
  CHECK(view.IsGrabbing());
  CHECK(view.Inspected().IsNull());
  view.MouseUp(at);
  // Paused, the same click inspects: no mouse joint, the state as the world reports it.
  view.paused = true;
  REQUIRE(view.MouseDown(at + Vec2{0.1f, 0.1f}, false));
  CHECK_FALSE(view.IsGrabbing());
  REQUIRE(view.Inspected().index1 == bottom.index1);
  const World& world = view.GetWorld();
  const BodyInspection in = InspectBody(world, view.Inspected());
  REQUIRE(in.valid);
  CHECK(in.position == world.GetPosition(view.Inspected()));
  std::set<std::uint32_t> others;
  for (const InspectedContact& c : in.contacts) others.insert(c.other.index1);
  CHECK(others == TouchingByWorldWalk(world, view.Inspected()));
  CHECK_FALSE(others.empty());  // it stands on the ground and carries the box above
  // Run on: it stays inspected, and its figures follow the world.
  view.paused = false;
  view.StepOnce();
  CHECK(view.Inspected().index1 == bottom.index1);
  CHECK(InspectBody(view.GetWorld(), view.Inspected()).position ==
        view.GetWorld().GetPosition(view.Inspected()));
  // A click on nothing while paused clears the inspector.
  view.paused = true;
  CHECK_FALSE(view.MouseDown({1000.0f, 1000.0f}, false));
  CHECK(view.Inspected().IsNull());
}

TEST_CASE("the inspector's lines fit the panel for any figure and list at most the rows asked") {
  const float big = 3e38f, nan = std::numeric_limits<float>::quiet_NaN();
  BodyInspection in;
  in.valid = true;
  in.body = {4000000000u, 1, 1};
  in.name = std::string(kMaxBodyNameLength, 'n');
  in.type = BodyType::Dynamic;
  in.position = {-big, big};
  in.angle = nan;
  in.velocity = {-1234567.0f, 0.000341f};
  in.angularVelocity = -big;
  in.mass = big;
  for (int i = 0; i < 12; ++i) in.contacts.push_back({{4000000000u, 1, 1}, 2, -big, {0.0f, 1.0f}, big});
  for (int i = 0; i < 3; ++i) in.joints.push_back({{}, JointType::Prismatic, {}, {big, big}});
  const std::vector<std::string> lines = InspectorLines(in, 8);
  for (const std::string& line : lines)
    CHECK_MESSAGE(line.size() <= static_cast<size_t>(kPanelColumns), "'" << line << "'");
  size_t contactRows = 0;
  for (const std::string& line : lines) contactRows += line.find(" pt ") != std::string::npos ? 1 : 0;
  CHECK(contactRows == 8);
  CHECK(std::find(lines.begin(), lines.end(), "  and 4 more") != lines.end());
}

TEST_CASE("the panels with the inspector keep their layout at both window sizes") {
  for (const ImVec2 window : {ImVec2(1280.0f, 720.0f), ImVec2(900.0f, 560.0f)}) {
    ViewHost host;
    std::string error;
    REQUIRE(host.Load("pendulum_chain", {}, error));
    ReplayOwnRecording(*host.Scene(), 60);
    const auto apart = RunApart("pendulum_chain", 60);
    REQUIRE(host.Scene()->MouseDown(apart->GetWorld().GetPosition(apart->State().bodies[5]), false));
    test::PanelHarness panels(window.x, window.y);
    for (int frame = 0; frame < 3; ++frame) panels.Frame(host, true);
    CHECK(CheckLayout() == "");
  }
}
}  // TEST_SUITE("sandbox.inspector")
