// SPDX-License-Identifier: MIT
// Compiled as C++17 with every public header included (every_header.h, made at configure time): drops
// a box on the ground and checks that it comes to rest on it, then saves and restores a snapshot.
// Prints "cxx17 game: ok" on success.
#include "every_header.h"

#include <cmath>
#include <cstdio>
#include <vector>

static_assert(__cplusplus == 201703L, "this game must be compiled as C++17");

int main() {
  mk::World world;
  mk::BodyDef groundDef;
  groundDef.position = {0.0f, -0.5f};
  world.CreateShape(world.CreateBody(groundDef), mk::ShapeDef{}, mk::MakeBox(5.0f, 0.5f).value);
  mk::BodyDef boxDef;
  boxDef.type = mk::BodyType::Dynamic;
  boxDef.position = {0.0f, 2.0f};
  const mk::BodyId box = world.CreateBody(boxDef);
  world.CreateShape(box, mk::ShapeDef{}, mk::MakeBox(0.5f, 0.5f).value);
  for (int i = 0; i < 120; ++i) world.Step(1.0f / 60.0f);
  const float y = world.GetPosition(box).y;
  const bool rests = std::fabs(y - 0.5f) < 0.02f;
  const std::vector<std::byte> saved = mk::SaveSnapshot(world);
  mk::World copy;
  const bool restored = copy.RestoreSnapshot(saved).ok() && copy.StateHash() == world.StateHash();
  const bool idsCompare = box == box && !(box != box) && mk::GetVersion() == mk::kHeaderVersion;
  std::printf("cxx17 game: box at y = %.3f, snapshot %s: %s\n", y, restored ? "restored" : "FAILED",
              rests && restored && idsCompare ? "ok" : "FAILED");
  return rests && restored && idsCompare ? 0 : 1;
}
