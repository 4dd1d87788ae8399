// SPDX-License-Identifier: MIT
// Character mover benchmark (minkowski/mover.h): nanoseconds per World::CastMover and per
// World::CollideMover + SolvePlanes in a static level of about 500 shapes.
//
//   mover_benchmark [--shapes N] [--movers N] [--runs N]
//
// The level: a 200 x 60 m walled room holding --shapes (default 500) random static boxes, segments
// and hulls, 0.2 to 3 m across (fixed seed). The movers: --movers (default 2000) capsules (radius
// 0.3 m, core 0.9 m) at random places clear of every shape, each moved up to 10 m in a random
// direction by CastMover (so most rest against a shape, the skin off it, as a walking character does),
// each with a random translation of 0.05 to 1 m (a walk to a dash at 60 Hz). Each run times every mover once
// per call with the thread's CPU clock; printed: the median over --runs (default 7) of ns per call, and what
// the calls found (fraction < 1, planes per collide), so two builds can be compared on the same work.
#include "bench_args.h"
#include "bench_clock.h"
#include "minkowski/mover.h"
#include "minkowski/world.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

namespace {

struct Case {
  mk::Capsule mover;
  mk::Vec2 translation;
};

float Uniform(std::mt19937& gen, float lo, float hi) {
  return lo + (hi - lo) * static_cast<float>(static_cast<double>(gen()) / 4294967296.0);
}

void BuildLevel(mk::World& world, int count, std::mt19937& gen) {
  const mk::BodyId walls = world.CreateBody({});
  world.CreateShape(walls, {}, mk::MakeOffsetBox(101.0f, 1.0f, {0.0f, -31.0f}, 0.0f).value);
  world.CreateShape(walls, {}, mk::MakeOffsetBox(101.0f, 1.0f, {0.0f, 31.0f}, 0.0f).value);
  world.CreateShape(walls, {}, mk::MakeOffsetBox(1.0f, 30.0f, {-101.0f, 0.0f}, 0.0f).value);
  world.CreateShape(walls, {}, mk::MakeOffsetBox(1.0f, 30.0f, {101.0f, 0.0f}, 0.0f).value);
  for (int i = 0; i < count - 4; ++i) {
    const mk::BodyId body =
        world.CreateBody({.position = {Uniform(gen, -99.0f, 99.0f), Uniform(gen, -29.0f, 29.0f)},
                          .angle = Uniform(gen, -3.0f, 3.0f)});
    const float size = Uniform(gen, 0.1f, 1.5f);
    if (i % 3 == 0) {
      world.CreateShape(body, {}, mk::MakeBox(size, Uniform(gen, 0.1f, 1.5f)).value);
    } else if (i % 3 == 1) {
      world.CreateShape(body, {}, mk::MakeSegment({-size, 0.0f}, {size, Uniform(gen, -0.5f, 0.5f)}).value);
    } else {
      mk::Vec2 points[6];
      for (mk::Vec2& p : points) p = {Uniform(gen, -size, size), Uniform(gen, -size, size)};
      const mk::GeometryResult<mk::Polygon> hull = mk::MakePolygon(points);
      if (hull.ok()) world.CreateShape(body, {}, hull.value);
    }
  }
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int shapes = 500, movers = 2000, runs = 7;
  for (int i = 1; i < argc; ++i) {
    const bool hasValue = i + 1 < argc;
    if (std::strcmp(argv[i], "--shapes") == 0 && hasValue && mk::bench::ParseInt(argv[++i], shapes, 5))
      continue;
    if (std::strcmp(argv[i], "--movers") == 0 && hasValue && mk::bench::ParseInt(argv[++i], movers)) continue;
    if (std::strcmp(argv[i], "--runs") == 0 && hasValue && mk::bench::ParseInt(argv[++i], runs)) continue;
    std::fprintf(stderr, "usage: mover_benchmark [--shapes N>=5] [--movers N] [--runs N]\n");
    return 2;
  }
  std::mt19937 gen(29);
  mk::World world;
  BuildLevel(world, shapes, gen);
  world.Step(1.0f / 60.0f);  // static shapes: nothing moves; boxes as the broadphase keeps them
  std::vector<Case> cases;
  while (static_cast<int>(cases.size()) < movers) {
    const mk::Vec2 p{Uniform(gen, -99.0f, 99.0f), Uniform(gen, -29.0f, 29.0f)};
    const mk::Capsule mover{p - mk::Vec2{0.0f, 0.45f}, p + mk::Vec2{0.0f, 0.45f}, 0.3f};
    bool clear = true;
    world.OverlapShape(mover, mk::WorldTransform{}, {}, [&](mk::ShapeId) { return clear = false; });
    if (!clear) continue;
    // Put it against something, as a walking character is: cast it up to 10 m in a random direction.
    const float push = Uniform(gen, -3.14159f, 3.14159f);
    const mk::Vec2 reach = 10.0f * mk::Vec2{std::cos(push), std::sin(push)};
    const mk::Vec2 moved = world.CastMover(mover, reach) * reach;
    const float angle = Uniform(gen, -3.14159f, 3.14159f), length = Uniform(gen, 0.05f, 1.0f);
    cases.push_back({{mover.p1 + moved, mover.p2 + moved, mover.radius},
                     length * mk::Vec2{std::cos(angle), std::sin(angle)}});
  }
  std::vector<double> castNs, collideNs;
  int blocked = 0, planes = 0;
  float checksum = 0.0f;
  for (int run = 0; run < runs; ++run) {
    blocked = 0;
    double start = mk::bench::NowNs();
    for (const Case& c : cases) {
      const float f = world.CastMover(c.mover, c.translation);
      blocked += f < 1.0f ? 1 : 0;
      checksum += f;
    }
    castNs.push_back((mk::bench::NowNs() - start) / static_cast<double>(cases.size()));
    planes = 0;
    start = mk::bench::NowNs();
    for (const Case& c : cases) {
      mk::PlaneResult found[8];
      mk::CollisionPlane collision[8];
      const int n = world.CollideMover(c.mover, {}, found);
      for (int k = 0; k < n; ++k) collision[k] = {.plane = found[k].plane};
      checksum += mk::SolvePlanes(c.translation, {collision, static_cast<std::size_t>(n)}).delta.x;
      planes += n;
    }
    collideNs.push_back((mk::bench::NowNs() - start) / static_cast<double>(cases.size()));
  }
  std::printf("level: %d static shapes, %d movers, %d runs (median)\n", shapes, movers, runs);
  std::printf("CastMover:                 %8.0f ns/call  (%d of %d stopped short)\n", Median(castNs), blocked,
              movers);
  std::printf("CollideMover + SolvePlanes: %7.0f ns/call  (%.2f planes per call)\n", Median(collideNs),
              static_cast<double>(planes) / movers);
  std::printf("checksum %g\n", static_cast<double>(checksum));
  return 0;
}
