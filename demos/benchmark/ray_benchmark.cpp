// SPDX-License-Identifier: MIT
// Ray cast benchmark: closest-hit ray casts per second into scenes of the shared table, through
// World::CastRayClosest (broadphase + exact per-shape casts), and, when Box2D 2.4.1 is compared
// (MK_COMPARE_BOX2D), the same rays through b2World::RayCast into a copy of the scene's shapes.
//
//   ray_benchmark [--scene NAME|all] [--rays N] [--casts N] [--runs N] [--steps N]
//                                                                           (all = both pyramid scenes)
//
// Per scene: build it, take --steps steps (default 1), then cast --rays random rays (fixed seed):
// origins uniform in the box bounding every shape, directions uniform, each as long as half that
// box's diagonal. Each run times the whole batch with the thread's CPU clock; printed: the median
// over --runs of rays per second, the hits, and (compared) how many closest fractions differ from
// Box2D's by more than 1e-4.
#include "bench_args.h"
//
// Then shape casts (World::CastShapeClosest) along the first --casts of the same rays: a circle
// (radius 0.25 m), a box (0.25 x 0.25 m half extents) and a capsule (0.25 m half length, radius
// 0.15 m) in turn, the box and capsule turned by a random angle; printed as the same columns, engine
// `minkowski_shape_cast`. Box2D 2.4.1 has no world shape cast (only b2ShapeCast between two shapes),
// so there is nothing of its to put beside these.
#include "bench_clock.h"
#include "scenes.h"

#ifdef MK_HAVE_BOX2D
#include <box2d/box2d.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

namespace {

struct Ray {
  mk::Vec2 origin, translation;
};

// SplitMix64, as the tests' generator: the same rays on every platform.
struct Rng {
  std::uint64_t state;
  double Unit() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return static_cast<double>((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
  }
};

std::vector<mk::ShapeId> AllShapes(const mk::World& world) {
  std::vector<mk::ShapeId> shapes;
  const mk::AABB everything{{-mk::kMaxWorldLength, -mk::kMaxWorldLength},
                            {mk::kMaxWorldLength, mk::kMaxWorldLength}};
  world.QueryAABB(everything, [&](mk::ShapeId id) {
    shapes.push_back(id);
    return true;
  });
  return shapes;
}

std::vector<Ray> MakeRays(const mk::World& world, const std::vector<mk::ShapeId>& shapes, int count) {
  mk::AABB bounds = world.GetAABB(shapes.front());
  for (mk::ShapeId id : shapes) bounds = mk::Union(bounds, world.GetAABB(id));
  const mk::Vec2 extent = bounds.upper - bounds.lower;
  const float length = 0.5f * mk::Length(extent);
  Rng rng{12345};
  std::vector<Ray> rays(static_cast<size_t>(count));
  for (Ray& ray : rays) {
    ray.origin = bounds.lower + mk::Vec2{static_cast<float>(rng.Unit()) * extent.x,
                                         static_cast<float>(rng.Unit()) * extent.y};
    const double angle = 6.283185307179586 * rng.Unit();
    ray.translation =
        length * mk::Vec2{static_cast<float>(std::cos(angle)), static_cast<float>(std::sin(angle))};
  }
  return rays;
}

// The cast shapes, in turn: circle, box, capsule (the box and capsule turned by a random angle).
struct ShapeCastInput {
  mk::ShapeGeometry shape;
  mk::Transform xf;
};

std::vector<ShapeCastInput> MakeShapeCasts(const std::vector<Ray>& rays, int count) {
  const mk::ShapeGeometry kinds[] = {mk::Circle{{0.0f, 0.0f}, 0.25f}, mk::MakeBox(0.25f, 0.25f).value,
                                     mk::MakeCapsule({-0.25f, 0.0f}, {0.25f, 0.0f}, 0.15f).value};
  Rng rng{6789};
  std::vector<ShapeCastInput> casts(std::min(static_cast<size_t>(count), rays.size()));
  for (size_t i = 0; i < casts.size(); ++i) {
    const float angle = static_cast<float>(6.283185307179586 * rng.Unit());
    casts[i] = {kinds[i % 3], mk::MakeTransform(rays[i].origin, angle)};
  }
  return casts;
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

#ifdef MK_HAVE_BOX2D
// The scene's shapes as static Box2D bodies (one per shape, at its body's transform). Capsules and
// polygons of more than b2_maxPolygonVertices have no Box2D 2.4 counterpart and are left out (counted).
int CopyToBox2D(const mk::World& world, const std::vector<mk::ShapeId>& shapes, b2World& b2) {
  int skipped = 0;
  for (mk::ShapeId id : shapes) {
    const mk::ShapeGeometry geometry = world.GetShapeGeometry(id);
    const mk::Transform xf = world.GetTransform(world.GetBody(id));
    b2BodyDef def;
    def.position.Set(xf.p.x, xf.p.y);
    def.angle = mk::Angle(xf.q);
    const mk::Vec2* p = geometry.Points();
    switch (geometry.Type()) {
      case mk::ShapeType::Circle: {
        b2CircleShape circle;
        circle.m_p.Set(p[0].x, p[0].y);
        circle.m_radius = geometry.Radius();
        b2.CreateBody(&def)->CreateFixture(&circle, 0.0f);
        break;
      }
      case mk::ShapeType::Segment: {
        b2EdgeShape edge;
        edge.SetTwoSided(b2Vec2(p[0].x, p[0].y), b2Vec2(p[1].x, p[1].y));
        b2.CreateBody(&def)->CreateFixture(&edge, 0.0f);
        break;
      }
      case mk::ShapeType::Polygon: {
        if (geometry.Count() > b2_maxPolygonVertices || geometry.Radius() > 0.0f) {
          ++skipped;
          break;
        }
        b2Vec2 points[b2_maxPolygonVertices];
        for (int i = 0; i < geometry.Count(); ++i) points[i].Set(p[i].x, p[i].y);
        b2PolygonShape polygon;
        polygon.Set(points, geometry.Count());
        b2.CreateBody(&def)->CreateFixture(&polygon, 0.0f);
        break;
      }
      default:
        ++skipped;
        break;
    }
  }
  return skipped;
}

class ClosestCallback : public b2RayCastCallback {
 public:
  float ReportFixture(b2Fixture*, const b2Vec2&, const b2Vec2&, float fraction) override {
    closest = fraction;
    return fraction;
  }
  float closest = 2.0f;
};
#endif

void RunShapeCasts(const mk::scenes::SceneInfo& info, const mk::World& world, size_t shapeCount,
                   const std::vector<Ray>& rays, int castCount, int runs) {
  const std::vector<ShapeCastInput> casts = MakeShapeCasts(rays, castCount);
  if (casts.empty()) return;
  std::vector<double> rates;
  int hits = 0;
  for (int r = 0; r < runs; ++r) {
    hits = 0;
    const double start = mk::bench::NowNs();
    for (size_t i = 0; i < casts.size(); ++i)
      hits += world.CastShapeClosest(casts[i].shape, mk::WorldTransform{casts[i].xf.p, casts[i].xf.q},
                                     rays[i].translation)
                      .hit
                  ? 1
                  : 0;
    rates.push_back(static_cast<double>(casts.size()) / ((mk::bench::NowNs() - start) * 1e-9));
  }
  std::printf("%s,minkowski_shape_cast,%zu,%zu,%d,%.0f,%.3f\n", info.name, shapeCount, casts.size(), hits,
              Median(rates), 1e6 / Median(rates));
}

void RunScene(const mk::scenes::SceneInfo& info, int rayCount, int castCount, int runs, int steps) {
  mk::scenes::SceneRun run(info);
  for (int i = 0; i < steps; ++i) run.Step();
  const mk::World& world = run.GetWorld();
  const std::vector<mk::ShapeId> shapes = AllShapes(world);
  if (shapes.empty()) return;
  const std::vector<Ray> rays = MakeRays(world, shapes, rayCount);

  std::vector<float> ours(rays.size());
  std::vector<double> rates;
  int hits = 0;
  for (int r = 0; r < runs; ++r) {
    hits = 0;
    const double start = mk::bench::NowNs();
    for (size_t i = 0; i < rays.size(); ++i) {
      const mk::CastHit hit = world.CastRayClosest(rays[i].origin, rays[i].translation);
      ours[i] = hit.hit ? hit.fraction : 2.0f;
      hits += hit.hit ? 1 : 0;
    }
    rates.push_back(static_cast<double>(rays.size()) / ((mk::bench::NowNs() - start) * 1e-9));
  }
  std::printf("%s,minkowski,%zu,%d,%d,%.0f,%.3f\n", info.name, shapes.size(), rayCount, hits, Median(rates),
              1e6 / Median(rates));
  RunShapeCasts(info, world, shapes.size(), rays, castCount, runs);

#ifdef MK_HAVE_BOX2D
  b2World b2(b2Vec2(0.0f, -10.0f));
  const int skipped = CopyToBox2D(world, shapes, b2);
  rates.clear();
  int differ = 0;
  for (int r = 0; r < runs; ++r) {
    hits = 0;
    differ = 0;
    const double start = mk::bench::NowNs();
    for (size_t i = 0; i < rays.size(); ++i) {
      ClosestCallback callback;
      const mk::Vec2 end = rays[i].origin + rays[i].translation;
      b2.RayCast(&callback, b2Vec2(rays[i].origin.x, rays[i].origin.y), b2Vec2(end.x, end.y));
      hits += callback.closest <= 1.0f ? 1 : 0;
      differ += std::fabs(callback.closest - ours[i]) > 1e-4f ? 1 : 0;
    }
    rates.push_back(static_cast<double>(rays.size()) / ((mk::bench::NowNs() - start) * 1e-9));
  }
  std::printf("%s,box2d_2.4.1,%zu,%d,%d,%.0f,%.3f,skipped_shapes=%d,fractions_differing=%d\n", info.name,
              shapes.size() - static_cast<size_t>(skipped), rayCount, hits, Median(rates),
              1e6 / Median(rates), skipped, differ);
#endif
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  std::string_view scene = "all";
  int rays = 100000, casts = 20000, runs = 5, steps = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const bool hasValue = i + 1 < argc;
    bool ok = hasValue;
    if (arg == "--scene" && hasValue) {
      scene = argv[++i];
    } else if (arg == "--rays" && hasValue) {
      ok = mk::bench::ParseInt(argv[++i], rays, 0, 100000000) && rays > 0;
    } else if (arg == "--casts" && hasValue) {
      ok = mk::bench::ParseInt(argv[++i], casts, 0, 100000000);
    } else if (arg == "--runs" && hasValue) {
      ok = mk::bench::ParseInt(argv[++i], runs, 0, 100000000) && runs > 0;
    } else if (arg == "--steps" && hasValue) {
      ok = mk::bench::ParseInt(argv[++i], steps, 0, 100000000);
    } else {
      ok = false;
    }
    if (!ok) {
      std::fprintf(stderr,
                   "usage: ray_benchmark [--scene NAME|all] [--rays N] [--casts N] [--runs N] "
                   "[--steps N]\n");
      return 1;
    }
  }
  // For the shape-cast rows, rays means casts.
  std::printf("scene,engine,shapes,rays,hits,rays_per_second,us_per_ray\n");
  const char* defaults[] = {"large_pyramid", "many_pyramids"};
  for (const char* name : defaults) {
    if (scene != "all" && scene != name) continue;
    if (const mk::scenes::SceneInfo* info = mk::scenes::FindScene(name))
      RunScene(*info, rays, casts, runs, steps);
  }
  if (scene != "all" && scene != "large_pyramid" && scene != "many_pyramids") {
    const mk::scenes::SceneInfo* info = mk::scenes::FindScene(scene);
    if (info == nullptr) {
      std::fprintf(stderr, "unknown scene '%.*s'\n", static_cast<int>(scene.size()), scene.data());
      return 1;
    }
    RunScene(*info, rays, casts, runs, steps);
  }
  return 0;
}
