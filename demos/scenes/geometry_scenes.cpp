// Feature scene for geometry changed in place (issue 29; World::SetCircle, SetCapsule, SetPolygon):
// a body on the ground whose one shape becomes a circle, a capsule, a box and a pulsing hexagon in
// turn, with boxes dropped on it again at each change: they land on the new shape and rest on it or
// slide off. Built from the behaviour the calls promise, not from any other engine's samples.
#include "scene_builders.h"
#include "scenes.h"

#include <cmath>
#include <memory>
#include <numbers>

namespace mk::scenes {

namespace {

constexpr int kPhaseSteps = 90;  // 1.5 s per shape

// Cycles the changer's shape every kPhaseSteps: circle, capsule, box, hexagon. During the hexagon's
// phase it is scaled every 10 steps, between 0.8 and 1.5 m circumradius, so the scaled polygon shows.
class ModifyGeometryState final : public SceneState {
 public:
  void PreStep(World& world, int step) override {
    const int phase = (step / kPhaseSteps) % 4;
    const int inPhase = step % kPhaseSteps;
    if (inPhase == 0 && step > 0) {  // the boxes go back on top, to land on the new shape
      for (std::size_t i = 1; i < bodies.size(); ++i) {
        const float k = static_cast<float>(i - 1);
        world.SetTransform(bodies[i], {-0.6f + 0.4f * k, 3.2f + 0.6f * k}, 0.0f);
        world.SetLinearVelocity(bodies[i], {0.0f, 0.0f});
        world.SetAngularVelocity(bodies[i], 0.0f);
      }
    }
    if (phase == 3) {
      if (inPhase % 10 != 0) return;
      const float s =
          0.8f + 0.7f * 0.5f * (1.0f - std::cos(2.0f * std::numbers::pi_v<float> * inPhase / kPhaseSteps));
      SetPolygon(world, shape, MakeRegularPolygon(6, s, 0.05f).value);
      return;
    }
    if (inPhase != 0 || step == 0) return;
    if (phase == 0) SetCircle(world, shape, {{0.0f, 0.0f}, 1.1f});
    if (phase == 1) SetCapsule(world, shape, {{-1.4f, 0.0f}, {1.4f, 0.0f}, 0.5f});
    if (phase == 2) SetPolygon(world, shape, MakeBox(1.6f, 0.6f).value);
  }
  ShapeId shape;
};

}  // namespace

std::unique_ptr<SceneState> BuildModifyGeometry(World& world, const SceneParams&) {
  auto state = std::make_unique<ModifyGeometryState>();
  const BodyId ground = world.CreateBody({.position = {0.0f, -1.0f}});
  world.CreateShape(ground, {}, MakeBox(8.0f, 1.0f).value);
  // Walls keep what the changer throws off near it. The changer does not turn (fixedRotation), so the
  // boxes stay on its flat shapes.
  world.CreateShape(ground, {}, MakeOffsetBox(0.25f, 3.0f, {-7.75f, 4.0f}, 0.0f).value);
  world.CreateShape(ground, {}, MakeOffsetBox(0.25f, 3.0f, {7.75f, 4.0f}, 0.0f).value);
  const BodyId changer =
      world.CreateBody({.type = BodyType::Dynamic, .position = {0.0f, 1.1f}, .fixedRotation = true});
  world.SetName(changer, "changer");
  state->shape = world.CreateShape(changer, {.friction = 0.8f}, Circle{{0.0f, 0.0f}, 1.1f});
  state->bodies.push_back(changer);
  for (int i = 0; i < 4; ++i) {
    const BodyId box =
        world.CreateBody({.type = BodyType::Dynamic, .position = {-0.9f + 0.6f * i, 2.8f + 0.9f * i}});
    world.CreateShape(box, {.friction = 0.8f}, MakeBox(0.25f, 0.25f).value);
    state->bodies.push_back(box);
  }
  state->floorY = 0.0f;
  state->bounds = {{-7.5f, -0.5f}, {7.5f, 12.0f}};
  return state;
}

}  // namespace mk::scenes
