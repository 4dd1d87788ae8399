// Uses the installed engine the way a game would and checks the answers against closed forms: shape
// queries, then a world that steps (free fall over one step, a box coming to rest on the ground).
// It includes world.h alone, which must give the whole world API (geometry, DebugDraw, the assert
// hook), and uses its own glm the default way, which the engine must not reconfigure.
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

bool WorldOk() {
  constexpr float kDt = 1.0f / 60.0f;
  constexpr float kG = 10.0f;
  mk::World world({.gravity = {0.0f, -kG}});
  mk::BodyId ground = world.CreateBody({.position = {0.0f, -0.5f}});
  world.CreateShape(ground, {}, mk::MakeBox(5.0f, 0.5f).value);  // top face at y = 0
  mk::BodyId box = world.CreateBody({.type = mk::BodyType::Dynamic, .position = {0.0f, 2.0f}});
  world.CreateShape(box, {}, mk::MakeBox(0.5f, 0.5f).value);

  // One step of free fall: v = -g dt exactly; the drop is between g dt^2 / 2 (exact) and g dt^2
  // (one explicit sub-step), whatever the number of sub-steps.
  if (!world.Step(kDt)) return false;
  const float v = world.GetLinearVelocity(box).y;
  const float drop = 2.0f - world.GetPosition(box).y;
  const bool fallOk = std::fabs(v + kG * kDt) <= 1e-5f * kG * kDt && drop >= 0.5f * kG * kDt * kDt * 0.999f &&
                      drop <= kG * kDt * kDt * 1.001f;

  // The box lands (bottom at 1.5 m: about 0.55 s) and comes to rest on the top face, its centre at
  // y = 0.5 to within a centimetre of contact slop.
  int begun = 0;
  for (int i = 0; i < 180; ++i) {
    world.Step(kDt);
    begun += static_cast<int>(world.GetContactBeginEvents().size());
  }
  const float y = world.GetPosition(box).y;
  const float speed = std::fabs(world.GetLinearVelocity(box).y);
  const bool restOk = begun == 1 && std::fabs(y - 0.5f) < 0.01f && speed < 0.05f;
  std::printf("world: v1 %.6f drop1 %.6f, after 3 s y %.4f |v| %.4f contacts begun %d\n", v, drop, y, speed,
              begun);
  return fallOk && restOk;
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
  const bool world = WorldOk();
  if (!(glmOk && hooks && shapes && world)) {
    std::printf("consumer FAILED\n");
    return 1;
  }
  std::printf("consumer ok\n");
  return 0;
}
