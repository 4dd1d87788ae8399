// Uses the installed engine the way a game would and checks the answers against closed forms.
// (A world step replaces this once the World API exists.)
#include <minkowski/geometry.h>

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  mk::GeometryResult<mk::Polygon> box = mk::MakeBox(0.5f, 0.25f);
  if (!box.ok()) return 1;
  mk::MassData mass = mk::ComputeMass(box.value, 2.0f).value;
  // 1 m x 0.5 m at 2 kg/m^2: m = 1 kg, I = m (1 + 0.25) / 12.
  bool massOk = std::fabs(mass.mass - 1.0f) < 1e-6f && std::fabs(mass.rotationalInertia - 1.25f / 12.0f) < 1e-6f;

  std::vector<mk::Vec2> cloud = {{0, 0}, {2, 0}, {1, 0.5f}, {2, 2}, {0, 2}};
  mk::GeometryResult<mk::Hull> hull = mk::ComputeHull(cloud);
  bool hullOk = hull.ok() && hull.value.count == 4;

  mk::Transform xf = mk::MakeTransform({3.0f, 1.0f}, 0.0f);
  mk::AABB aabb = mk::ComputeAABB(box.value, xf);
  bool aabbOk = aabb.lower.x == 2.5f && aabb.upper.y == 1.25f;

  std::printf("mass %.6f inertia %.6f hull %d aabb [%.2f %.2f]\n", mass.mass, mass.rotationalInertia,
              hull.value.count, aabb.lower.x, aabb.upper.y);
  if (!(massOk && hullOk && aabbOk)) {
    std::printf("consumer FAILED\n");
    return 1;
  }
  std::printf("consumer ok\n");
  return 0;
}
