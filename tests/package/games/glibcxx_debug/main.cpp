// SPDX-License-Identifier: MIT
// Built with -D_GLIBCXX_DEBUG against a library built without it: every std::vector here has the debug
// layout, so any container crossing into the library would crash or corrupt memory. Each check compares
// the library's answer with one computed here. Prints "glibcxx_debug game: <checks>: ok" on success.
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <minkowski/replay.h>
#include <minkowski/world.h>
#include <minkowski/world_vector.h>
#include <vector>

namespace {

int failures = 0;

void Check(bool ok, const char* what) {
  std::printf("%s: %s\n", what, ok ? "ok" : "FAILED");
  if (!ok) ++failures;
}

constexpr int kCircles = 10;
constexpr float kCircleRadius = 0.25f;

// A ground, a row of circles on the x axis (the ray's targets), a chain, a stack of boxes, and a
// 12-sided polygon (stored out of line: more than ShapeGeometry::kInlinePoints points).
struct Scene {
  mk::World world;
  mk::ChainId chain;
  mk::ShapeId bigPolygon;
  std::vector<mk::Vec2> circleCentres;
};

void Build(Scene& s) {
  mk::World& world = s.world;
  mk::BodyDef groundDef;
  groundDef.position = {0.0f, -5.0f};
  const mk::BodyId ground = world.CreateBody(groundDef);
  world.CreateShape(ground, mk::ShapeDef{}, mk::MakeBox(40.0f, 0.5f).value);
  for (int i = 0; i < kCircles; ++i) {
    // Alternate above and on the x axis: only those on it are on the ray.
    const mk::Vec2 centre{2.0f * static_cast<float>(i) + 1.0f, (i % 3 == 0) ? 1.0f : 0.0f};
    s.circleCentres.push_back(centre);
    mk::BodyDef def;
    def.position = centre;
    world.CreateShape(world.CreateBody(def), mk::ShapeDef{}, mk::Circle{{0.0f, 0.0f}, kCircleRadius});
  }
  const std::vector<mk::Vec2> points = {{-30, -3}, {-25, -4}, {-20, -4.2f}, {-15, -4}, {-10, -3}, {-8, -2}};
  mk::ChainDef chainDef;
  chainDef.points = points;
  s.chain = world.CreateChain(ground, chainDef);
  for (int i = 0; i < 4; ++i) {
    mk::BodyDef def;
    def.type = mk::BodyType::Dynamic;
    def.position = {-5.0f, -4.0f + 1.01f * static_cast<float>(i)};
    world.CreateShape(world.CreateBody(def), mk::ShapeDef{}, mk::MakeBox(0.5f, 0.5f).value);
  }
  mk::BodyDef polyDef;
  polyDef.type = mk::BodyType::Dynamic;
  polyDef.position = {8.0f, -3.0f};
  s.bigPolygon =
      world.CreateShape(world.CreateBody(polyDef), mk::ShapeDef{}, mk::MakeRegularPolygon(12, 0.8f).value);
}

void CheckSnapshots(const Scene& s) {
  std::vector<std::byte> bytes = mk::SaveSnapshot(s.world);
  mk::World copy;
  Check(copy.RestoreSnapshot(bytes).ok() && copy.StateHash() == s.world.StateHash(),
        "SaveSnapshot (vector) restores to the same state hash");
  std::vector<std::byte> reused;
  mk::SaveSnapshot(s.world, reused);
  Check(reused == bytes, "SaveSnapshot into a reused vector gives the same bytes");
  const std::size_t needed = s.world.SaveSnapshot({});
  std::vector<std::byte> exact(needed);
  Check(
      needed == bytes.size() && s.world.SaveSnapshot(mk::Span<std::byte>(exact)) == needed && exact == bytes,
      "SaveSnapshot (span) asks its size, then writes the same bytes");
}

void CheckRays(const Scene& s) {
  // Brute force: a circle is entered by the ray along y = 0 from x = -2 when its centre is within its
  // radius of the axis (every other shape lies far below).
  int expected = 0;
  for (const mk::Vec2& c : s.circleCentres) expected += std::fabs(c.y) < kCircleRadius ? 1 : 0;
  const mk::Vec2 origin{-2.0f, 0.0f}, translation{30.0f, 0.0f};
  const std::vector<mk::CastHit> hits = mk::CastRayAll(s.world, origin, translation);
  bool sorted = true;
  for (std::size_t i = 1; i < hits.size(); ++i) sorted = sorted && hits[i - 1].fraction <= hits[i].fraction;
  Check(static_cast<int>(hits.size()) == expected && sorted,
        "CastRayAll (vector) finds every circle, in order");
  std::array<mk::CastHit, 2> nearest{};
  const int total = s.world.CastRayAll(origin, translation, mk::QueryFilter{}, nearest);
  Check(total == expected && nearest[0].shape == hits[0].shape && nearest[1].shape == hits[1].shape,
        "CastRayAll (span) counts them all and writes the nearest two");
}

void CheckChain(const Scene& s) {
  const std::vector<mk::ShapeId> segments = mk::GetChainSegments(s.world, s.chain);
  std::vector<mk::ShapeId> direct(8);
  const int written = s.world.GetChainSegments(s.chain, direct);
  Check(segments.size() == 5 && written == 5 && direct[4] == segments[4] &&
            s.world.GetChain(segments[0]) == s.chain,
        "GetChainSegments gives points - 1 segments");
}

void CheckBroadPhase(const Scene& s) {
  const mk::BroadPhase& bp = s.world.GetBroadPhase();
  std::vector<mk::ProxyInfo> proxies;
  mk::CollectProxies(bp, proxies);
  std::vector<mk::ProxyPair> pairs;
  mk::CollectPairs(bp, pairs);
  Check(static_cast<int>(proxies.size()) == s.world.GetCounters().shapes &&
            static_cast<int>(pairs.size()) == bp.Stats().pairCount,
        "CollectProxies and CollectPairs match the counters");
}

void CheckPolygon(const Scene& s) {
  const mk::ShapeGeometry geometry = s.world.GetShapeGeometry(s.bigPolygon);
  mk::ShapeGeometry copy = geometry;
  const mk::ShapeGeometry moved = static_cast<mk::ShapeGeometry&&>(copy);
  // The 12 vertices lie on the circle of radius 0.8.
  bool onCircle = moved.Count() == 12 && !moved.IsInline();
  for (int i = 0; onCircle && i < moved.Count(); ++i)
    onCircle = std::fabs(std::sqrt(moved.Points()[i].x * moved.Points()[i].x +
                                   moved.Points()[i].y * moved.Points()[i].y) -
                         0.8f) < 1e-4f;
  Check(onCircle, "a 12-sided polygon is stored, copied and moved out of line");
}

// Records a few steps (with a capturing pre-solve callable), replays them, and compares the hashes.
void CheckRecordingAndPreSolve() {
  std::vector<int> seen;            // a debug-mode vector captured by the callable
  std::array<double, 8> padding{};  // makes the capture larger than the inline storage
  mk::World world;
  world.StartRecording();
  mk::BodyDef groundDef;
  const mk::BodyId ground = world.CreateBody(groundDef);
  world.CreateShape(ground, mk::ShapeDef{}, mk::MakeBox(10.0f, 0.5f).value);
  mk::BodyDef boxDef;
  boxDef.type = mk::BodyType::Dynamic;
  boxDef.position = {0.0f, 1.2f};
  mk::ShapeDef boxShape;
  boxShape.enablePreSolveEvents = true;
  world.CreateShape(world.CreateBody(boxDef), boxShape, mk::MakeBox(0.5f, 0.5f).value);
  world.SetPreSolveCallback(
      [&seen, padding](const mk::World&, mk::ShapeId, mk::ShapeId, const mk::Manifold& m) {
        seen.push_back(m.pointCount + static_cast<int>(padding[0]));
        return true;
      });
  for (int i = 0; i < 60; ++i) world.Step(1.0f / 60.0f);
  const std::uint64_t recordedHash = world.StateHash();
  const std::vector<std::byte> file = mk::StopRecording(world);
  Check(!seen.empty(), "a capturing pre-solve callable runs");

  mk::Replay replay;
  Check(mk::Replay::Load(file, replay) == mk::ReplayError::None, "the recording loads");
  mk::ReplayPlayer player(replay);
  std::size_t replayedCalls = 0;
  player.SetPreSolveCallback(
      [&replayedCalls](const mk::World&, mk::ShapeId, mk::ShapeId, const mk::Manifold&) {
        ++replayedCalls;
        return true;
      });
  player.PlayToEnd();
  Check(player.GetWorld().StateHash() == recordedHash && replayedCalls == seen.size(),
        "the replay player reproduces the recorded state");
  player.StepTo(30);
  player.StepTo(60);
  Check(player.GetWorld().StateHash() == recordedHash && player.KeyframeCount() >= 0,
        "scrubbing with keyframes comes back to it");
}

}  // namespace

int main() {
  Scene scene;
  Build(scene);
  for (int i = 0; i < 30; ++i) scene.world.Step(1.0f / 60.0f);
  CheckSnapshots(scene);
  CheckRays(scene);
  CheckChain(scene);
  CheckBroadPhase(scene);
  CheckPolygon(scene);
  CheckRecordingAndPreSolve();
  std::printf("glibcxx_debug game: %d checks failed: %s\n", failures, failures == 0 ? "ok" : "FAILED");
  return failures == 0 ? 0 : 1;
}
