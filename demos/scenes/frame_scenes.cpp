// SPDX-License-Identifier: MIT
// Joint local frames (Box2D v3.2's localFrameA / localFrameB; joint_types.h, joint_api.h): joints
// built from rotated frames, and frames turned at runtime.
#include "scene_builders.h"

#include <cstdio>
#include <memory>
#include <numbers>

namespace mk::scenes {

namespace {

constexpr float kPi = std::numbers::pi_v<float>;
constexpr int kSliders = 3;
constexpr int kTurnEvery = 120;  // steps between turns of the sliders' frame A (2 s at 60 Hz)

// The sliders' frame A turns by 60 degrees every 2 s: each box slides off along its new axis and
// turns with it (frame B's rotation is kept, so the relative angle changes with frame A's).
class JointFramesState : public SceneState {
 public:
  void PreStep(World& world, int step) override {
    if (step == 0 || step % kTurnEvery != 0) return;
    const int turns = step / kTurnEvery;
    for (int i = 0; i < kSliders; ++i) {
      Transform frame = GetJointLocalFrameA(world, joints[kSliders + i]);
      frame.q = MakeRot(SliderAngle(i) + static_cast<float>(turns) * kPi / 3.0f);
      SetJointLocalFrameA(world, joints[kSliders + i], frame);
    }
    char line[80];
    std::snprintf(line, sizeof line, "slider frames A turned %d x 60 deg", turns);
    text = line;
  }
  static float SliderAngle(int i) { return -kPi / 6.0f - static_cast<float>(i) * kPi / 3.0f; }
};

}  // namespace

std::unique_ptr<SceneState> BuildJointFrames(World& world, const SceneParams&) {
  auto state = std::make_unique<JointFramesState>();
  const BodyId ground = world.CreateBody({});
  world.CreateShape(ground, {}, Segment{{-14.0f, 0.0f}, {14.0f, 0.0f}});
  // Each joint's body A is a static body without shapes at the joint (drawn lines stay short).
  // Left: three arms hinged at their top ends. Each hinge's limit window is +-0.1 rad around its
  // frame A, turned by 0, 0.6 and 1.2 rad: gravity holds the arms at the window's lower edge, lifted.
  for (int i = 0; i < 3; ++i) {
    const Vec2 pivot{-10.0f + 3.0f * static_cast<float>(i), 7.0f};
    const BodyId arm = world.CreateBody({.type = BodyType::Dynamic, .position = pivot - Vec2{0.0f, 1.0f}});
    world.CreateShape(arm, {}, MakeBox(0.15f, 1.0f).value);
    RevoluteJointDef hinge{{.bodyA = world.CreateBody({.position = pivot}), .bodyB = arm}};
    hinge.enableLimit = true, hinge.lowerAngle = -0.1f, hinge.upperAngle = 0.1f;
    SetLocalFrames(hinge, {{0.0f, 0.0f}, MakeRot(0.6f * static_cast<float>(i))}, {{0.0f, 1.0f}, Rot{}});
    state->joints.push_back(world.CreateJoint(hinge));
    state->bodies.push_back(arm);
  }
  // Right: three boxes on slides whose axes are frame A's x axis, turned -30, -90 and -150 degrees,
  // limited to +-2.5 m from a centre 5 m up; JointFramesState turns them every 2 s.
  for (int i = 0; i < kSliders; ++i) {
    const Vec2 centre{2.0f + 5.0f * static_cast<float>(i), 5.0f};
    const BodyId box = world.CreateBody({.type = BodyType::Dynamic, .position = centre});
    world.CreateShape(box, {}, MakeBox(0.5f, 0.3f).value);
    PrismaticJointDef slide{{.bodyA = world.CreateBody({.position = centre}), .bodyB = box}};
    slide.enableLimit = true, slide.lowerTranslation = -2.5f, slide.upperTranslation = 2.5f;
    const float angle = JointFramesState::SliderAngle(i);
    SetLocalFrames(slide, {{0.0f, 0.0f}, MakeRot(angle)}, {{0.0f, 0.0f}, MakeRot(angle)});
    state->joints.push_back(world.CreateJoint(slide));
    state->bodies.push_back(box);
  }
  state->text = "hinges and slides built from rotated local frames";
  return state;
}

}  // namespace mk::scenes
