// SPDX-License-Identifier: MIT
// The rain benchmark (Box2D v3's): ragdolls spawned in columns onto five floors of small boxes; once
// every column exists, the oldest is destroyed and re-created, so creation and destruction of bodies
// and joints are part of the timed steps.
#include "ragdoll.h"
#include "scene_builders.h"

#include <memory>
#include <vector>

namespace mk::scenes {

namespace {

constexpr int kRows = 5;       // floors, 45 m apart
constexpr int kGroupSize = 5;  // ragdolls side by side in one column of one floor
constexpr float kFloorSpacing = 45.0f;
constexpr int kSpawnPeriod = 8;  // steps between spawn events (step & 7 == 0)

class RainState final : public SceneState {
 public:
  explicit RainState(int columns)
      : columns_(columns), ragdolls_(static_cast<std::size_t>(columns * kRows * kGroupSize)) {}

  void PreStep(World& world, int step) override {
    if (step % kSpawnPeriod != 0) return;
    if (created_ < columns_) {
      CreateColumn(world, created_++);
      return;
    }
    DestroyColumn(world, next_);
    CreateColumn(world, next_);
    next_ = (next_ + 1) % columns_;
  }

 private:
  Ragdoll& At(int column, int row, int k) {
    return ragdolls_[static_cast<std::size_t>((column * kRows + row) * kGroupSize + k)];
  }

  void CreateColumn(World& world, int column) {
    for (int row = 0; row < kRows; ++row) {
      for (int k = 0; k < kGroupSize; ++k) {
        const Vec2 base{-125.0f + 6.25f * (static_cast<float>(column) + 0.5f) + 0.5f * static_cast<float>(k),
                        40.0f + kFloorSpacing * static_cast<float>(row)};
        // Group -(k+1): a ragdoll never collides with itself, nor with the k-th ragdoll of any group.
        At(column, row, k) = CreateRagdoll(world, base, -(k + 1));
      }
    }
  }

  void DestroyColumn(World& world, int column) {
    for (int row = 0; row < kRows; ++row) {
      for (int k = 0; k < kGroupSize; ++k) DestroyRagdoll(world, At(column, row, k));
    }
  }

  int columns_;
  int created_ = 0;
  int next_ = 0;  // the column re-created at the next spawn event once all exist
  std::vector<Ragdoll> ragdolls_;
};

}  // namespace

// count = columns (40). Builds only the floors: the first column appears in the callback of step 0.
std::unique_ptr<SceneState> BuildRain(World& world, const SceneParams& params) {
  BodyId ground = world.CreateBody({});
  const ShapeDef def{.friction = 0.6f};
  for (int row = 0; row < kRows; ++row) {
    for (int j = 0; j <= 500; ++j) {
      const Vec2 center{-125.0f + 0.5f * static_cast<float>(j), kFloorSpacing * static_cast<float>(row)};
      world.CreateShape(ground, def, MakeOffsetBox(0.25f, 0.25f, center, 0.0f).value);
    }
  }
  return std::make_unique<RainState>(params.count);
}

}  // namespace mk::scenes
