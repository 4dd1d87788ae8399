// SPDX-License-Identifier: MIT
// Uses the installed engine the way a game would and checks the answers against closed forms: shape
// queries, then a world that steps (RunGame in ../games/common: free fall over one step, a box coming
// to rest on the ground, the library's version against the headers').
// It includes world.h alone, which must give the whole world API (geometry, DebugDraw, the assert
// hook), and uses its own glm the default way, which the engine must not reconfigure.
#include "game.h"

#include <glm/vec4.hpp>

#include <cmath>
#include <cstdio>
#include <minkowski/world.h>
#include <vector>

namespace {

bool ShapeQueriesOk() {
  mk::GeometryResult<mk::Polygon> box = mk::MakeBox(0.5f, 0.25f);
  if (!box.ok()) return false;
  mk::MassData mass = mk::ComputeMass(box.value, 2.0f).value;
  // 1 m x 0.5 m at 2 kg/m^2: m = 1 kg, I = m (1 + 0.25) / 12.
  bool massOk =
      std::fabs(mass.mass - 1.0f) < 1e-6f && std::fabs(mass.rotationalInertia - 1.25f / 12.0f) < 1e-6f;

  std::vector<mk::Vec2> cloud = {{0, 0}, {2, 0}, {1, 0.5f}, {2, 2}, {0, 2}};
  mk::GeometryResult<mk::Hull> hull = mk::ComputeHull(cloud);
  bool hullOk = hull.ok() && hull.value.count == 4;

  mk::Transform xf = mk::MakeTransform({3.0f, 1.0f}, 0.0f);
  mk::AABB aabb = mk::ComputeAABB(box.value, xf);
  bool aabbOk = aabb.lower.x == 2.5f && aabb.upper.y == 1.25f;

  std::printf("mass %.6f inertia %.6f hull %d aabb [%.2f %.2f]\n", mass.mass, mass.rotationalInertia,
              hull.value.count, aabb.lower.x, aabb.upper.y);
  return massOk && hullOk && aabbOk;
}

}  // namespace

// The game's glm as GLM ships it: colour accessors on vec4 (gone if a library forced
// GLM_FORCE_XYZW_ONLY on its users).
bool GameGlmOk() {
  glm::vec4 tint{0.25f, 0.5f, 0.75f, 1.0f};
  tint.r *= 2.0f;
  return tint.r == 0.5f && tint.a == 1.0f && tint.x == tint.r;
}

// Counts what World::Draw sends through the interface world.h declares.
class CountingDraw final : public mk::DebugDraw {
 public:
  int calls = 0;
  void DrawPolygon(const mk::Vec2*, int, mk::Color) override { ++calls; }
  void DrawSolidPolygon(const mk::Transform&, const mk::Vec2*, int, float, mk::Color) override { ++calls; }
  void DrawCircle(mk::Vec2, float, mk::Color) override { ++calls; }
  void DrawSolidCircle(const mk::Transform&, float, mk::Color) override { ++calls; }
  void DrawSolidCapsule(mk::Vec2, mk::Vec2, float, mk::Color) override { ++calls; }
  void DrawSegment(mk::Vec2, mk::Vec2, mk::Color) override { ++calls; }
  void DrawTransform(const mk::Transform&, float) override { ++calls; }
  void DrawPoint(mk::Vec2, float, mk::Color) override { ++calls; }
  void DrawString(mk::Vec2, const char*, mk::Color) override { ++calls; }
};

int g_asserts = 0;

// The assert hook from world.h: a stale id is reported to the game's handler, once.
bool HooksOk() {
  mk::AssertHandler previous = mk::SetAssertHandler([](const char*, const char*, int) { ++g_asserts; });
  mk::World world;
  mk::BodyId body = world.CreateBody({.type = mk::BodyType::Dynamic});
  world.CreateShape(body, {}, mk::MakeBox(0.5f, 0.5f).value);
  CountingDraw draw;
  world.Draw(draw);
  world.DestroyBody(body);
  world.GetPosition(body);
  mk::SetAssertHandler(previous);
  std::printf("hooks: draw calls %d, asserts %d\n", draw.calls, g_asserts);
  return draw.calls >= 1 && g_asserts == 1;
}

int main() {
  const bool glmOk = GameGlmOk();
  const bool hooks = HooksOk();
  const bool shapes = ShapeQueriesOk();
  const bool world = RunGame("consumer world") == 0;
  if (!(glmOk && hooks && shapes && world)) {
    std::printf("consumer FAILED\n");
    return 1;
  }
  std::printf("consumer ok\n");
  return 0;
}
