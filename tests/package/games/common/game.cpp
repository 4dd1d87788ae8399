// SPDX-License-Identifier: MIT
#include "game.h"

#include <cmath>
#include <cstdio>
#include <minkowski/version.h>
#include <minkowski/world.h>

int RunGame(const char* name) {
  // The library this program linked must be the one its headers describe.
  const mk::Version library = mk::GetVersion();
  const bool versionOk = library == mk::kHeaderVersion;

  constexpr float kDt = 1.0f / 60.0f;
  constexpr float kG = 10.0f;
  mk::World world({.gravity = {0.0f, -kG}});
  mk::BodyId ground = world.CreateBody({.position = {0.0f, -0.5f}});
  world.CreateShape(ground, {}, mk::MakeBox(5.0f, 0.5f).value);  // top face at y = 0
  mk::BodyId box = world.CreateBody({.type = mk::BodyType::Dynamic, .position = {0.0f, 2.0f}});
  world.CreateShape(box, {}, mk::MakeBox(0.5f, 0.5f).value);

  // One step of free fall: v = -g dt; the drop lies between g dt^2 / 2 (exact) and g dt^2 (one explicit
  // sub-step). A def read with another layout than the library's starts the box elsewhere.
  world.Step(kDt);
  const float v = world.GetLinearVelocity(box).y;
  const float drop = 2.0f - world.GetPosition(box).y;
  const bool fallOk = std::fabs(world.GetPosition(box).x) < 1e-6f &&
                      std::fabs(v + kG * kDt) <= 1e-5f * kG * kDt && drop >= 0.5f * kG * kDt * kDt * 0.999f &&
                      drop <= kG * kDt * kDt * 1.001f;

  // Lands after about 0.55 s and rests with its centre 0.5 m above the top face, within contact slop.
  // One contact begins, when it lands.
  int begun = 0;
  for (int i = 0; i < 180; ++i) {
    world.Step(kDt);
    begun += static_cast<int>(world.GetContactBeginEvents().size());
  }
  const float y = world.GetPosition(box).y;
  const bool restOk =
      begun == 1 && std::fabs(y - 0.5f) < 0.01f && std::fabs(world.GetLinearVelocity(box).y) < 0.05f;

  const bool ok = versionOk && fallOk && restOk;
  std::printf(
      "%s: library %d.%d.%d headers %d.%d.%d, v1 %.6f drop1 %.6f, rest y %.4f contacts begun %d: %s\n", name,
      library.major, library.minor, library.patch, MK_VERSION_MAJOR, MK_VERSION_MINOR, MK_VERSION_PATCH, v,
      drop, y, begun, ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
