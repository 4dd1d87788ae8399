// SPDX-License-Identifier: MIT
// Continuous collision of thin fast bodies (issue 28, items 2, 3 and 9): long thin boxes thrown at thin
// static platforms and segments at any angle and spin, a sliver of a triangle dropped flat on a
// segment, and sensors a fast body passes through within one step. Each is judged against geometry
// computed here: crossing the platform's mid-line (interpolated between steps, as continuous_test.cpp
// does), the depth of overlap by the separating axis test over both shapes' edge normals, and for the
// sensors the distance from each sensor's centre to the parallelogram the capsule's core sweeps.
#include "minkowski/world.h"
#include "test_util.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <string>
#include <vector>

using namespace mk;

namespace {

constexpr float kPi = std::numbers::pi_v<float>;
constexpr float kDt = 1.0f / 60.0f;

// World-space outline of a convex polygon or a segment (2 points), for the separating axis test.
struct Outline {
  std::vector<Vec2> points;
};

Outline Place(const std::vector<Vec2>& local, const Transform& xf) {
  Outline out;
  for (Vec2 p : local) out.points.push_back(TransformPoint(xf, p));
  return out;
}

// Depth (m) of the overlap of two convex outlines: the least overlap of their projections over every
// edge normal of both (a segment's one normal); <= 0 when some axis separates them. Exact for convex
// polygons and segments (the separating axis theorem).
float OverlapDepth(const Outline& a, const Outline& b) {
  float depth = 1e30f;
  for (const Outline* o : {&a, &b}) {
    const int n = static_cast<int>(o->points.size());
    const int edges = n == 2 ? 1 : n;
    for (int i = 0; i < edges; ++i) {
      const Vec2 e = o->points[(i + 1) % n] - o->points[i];
      const Vec2 axis = Normalize(Vec2{e.y, -e.x});
      float loA = 1e30f, hiA = -1e30f, loB = 1e30f, hiB = -1e30f;
      for (Vec2 p : a.points) loA = std::min(loA, Dot(axis, p)), hiA = std::max(hiA, Dot(axis, p));
      for (Vec2 p : b.points) loB = std::min(loB, Dot(axis, p)), hiB = std::max(hiB, Dot(axis, p));
      depth = std::min(depth, std::min(hiA - loB, hiB - loA));
    }
  }
  return depth;
}

std::vector<Vec2> BoxPoints(float hx, float hy) { return {{-hx, -hy}, {hx, -hy}, {hx, hy}, {-hx, hy}}; }

// What a run did wrong.
struct Faults {
  int passes = 0;           // the body's centre crossed the platform's mid-line within its length
  int longOverlaps = 0;     // overlapped deeper than 2 linear slops for more than 3 steps in a row
  int frozen = 0;           // pose unchanged for 3 steps in a row while its speed grew (awake)
  float maxOverlap = 0.0f;  // deepest overlap seen at any step end (m)
  int longestDeepRun = 0;   // most steps in a row overlapping deeper than 2 linear slops
};

// Watches one body against one static outline (a horizontal platform or segment along y = 0, half
// length `halfLength`) step by step.
class Watcher {
 public:
  Watcher(std::vector<Vec2> bodyPoints, Outline ground, float halfLength)
      : bodyPoints_(std::move(bodyPoints)), ground_(std::move(ground)), halfLength_(halfLength) {}

  void Start(const World& world, BodyId body) {
    centre_ = world.GetWorldCenterOfMass(body);
    xf_ = world.GetTransform(body);
    speed_ = Length(world.GetLinearVelocity(body));
  }

  void AfterStep(const World& world, BodyId body, float slop, Faults& faults) {
    const Vec2 c = world.GetWorldCenterOfMass(body);
    if (centre_.y > 0.0f && c.y <= 0.0f) {
      const float x = centre_.x + (c.x - centre_.x) * (centre_.y / (centre_.y - c.y));
      if (std::fabs(x) < halfLength_) ++faults.passes;
    }
    centre_ = c;
    const Transform xf = world.GetTransform(body);
    const float depth = OverlapDepth(Place(bodyPoints_, xf), ground_);
    faults.maxOverlap = std::max(faults.maxOverlap, depth);
    deepRun_ = depth > 2.0f * slop ? deepRun_ + 1 : 0;
    if (deepRun_ == 4) ++faults.longOverlaps;
    faults.longestDeepRun = std::max(faults.longestDeepRun, deepRun_);
    const float speed = Length(world.GetLinearVelocity(body)) + 0.0f;
    const bool still = xf.p.x == xf_.p.x && xf.p.y == xf_.p.y && xf.q.c == xf_.q.c && xf.q.s == xf_.q.s;
    if (still && world.IsAwake(body)) {
      if (stillRun_ == 0) stillSpeed_ = speed_;
      ++stillRun_;
      if (stillRun_ == 3 && speed > stillSpeed_ && speed > 0.5f) ++faults.frozen;
    } else {
      stillRun_ = 0;
    }
    xf_ = xf;
    speed_ = speed;
  }

 private:
  std::vector<Vec2> bodyPoints_;
  Outline ground_;
  float halfLength_;
  Vec2 centre_{0.0f, 0.0f};
  Transform xf_;
  float speed_ = 0.0f;
  float stillSpeed_ = 0.0f;
  int deepRun_ = 0;
  int stillRun_ = 0;
};

struct ThinShot {
  float halfLength = 2.0f;      // of the thrown box (m)
  float halfThickness = 0.05f;  // of the thrown box (m)
  float speed = 50.0f;          // m/s
  float direction = -kPi / 2;   // of the velocity (rad)
  float angle = 0.0f;           // of the box (rad)
  float spin = 0.0f;            // rad/s
  float aimX = 0.0f;            // where its path meets y = 0 (m)
  float start = 2.0f;           // steps of flight before it would reach y = 0
  bool segment = false;         // a segment instead of a platform box
  float platformHalf = 0.05f;   // the platform's half thickness (m)
};

constexpr float kGroundHalfLength = 30.0f;

Faults Throw(const ThinShot& shot, int steps) {
  World world;
  const BodyId ground = world.CreateBody({});
  Outline groundOutline;
  if (shot.segment) {
    world.CreateShape(ground, {}, MakeSegment({-kGroundHalfLength, 0.0f}, {kGroundHalfLength, 0.0f}).value);
    groundOutline.points = {{-kGroundHalfLength, 0.0f}, {kGroundHalfLength, 0.0f}};
  } else {
    world.CreateShape(ground, {}, MakeBox(kGroundHalfLength, shot.platformHalf).value);
    groundOutline.points = BoxPoints(kGroundHalfLength, shot.platformHalf);
  }
  const Vec2 dir{std::cos(shot.direction), std::sin(shot.direction)};
  // Start high enough to clear the platform whatever the angle, `start` steps of flight above it.
  const float height = shot.halfLength + shot.platformHalf + 0.1f + shot.start * shot.speed * kDt;
  const Vec2 position = Vec2{shot.aimX, 0.0f} - (height / -dir.y) * dir;
  const BodyId body = world.CreateBody({.type = BodyType::Dynamic,
                                        .position = position,
                                        .angle = shot.angle,
                                        .linearVelocity = shot.speed * dir,
                                        .angularVelocity = shot.spin});
  world.CreateShape(body, {}, MakeBox(shot.halfLength, shot.halfThickness).value);
  Watcher watcher(BoxPoints(shot.halfLength, shot.halfThickness), groundOutline, kGroundHalfLength);
  watcher.Start(world, body);
  Faults faults;
  const float slop = world.GetSolverSettings().linearSlop;
  for (int i = 0; i < steps; ++i) {
    world.Step(kDt);
    watcher.AfterStep(world, body, slop, faults);
  }
  return faults;
}

ThinShot RandomThinShot(test::Rng& rng) {
  ThinShot shot;
  shot.halfLength = rng.Uniform(0.5f, 4.0f);
  shot.halfThickness = rng.Uniform(0.025f, 0.1f);
  shot.speed = rng.LogUniform(10.0f, 200.0f);
  shot.direction = -kPi / 2 + rng.Uniform(-kPi / 3, kPi / 3);
  shot.angle = rng.Uniform(-kPi, kPi);
  shot.spin = rng.Int(0, 2) == 0 ? 0.0f : rng.Uniform(-20.0f, 20.0f);
  shot.aimX = rng.Uniform(-5.0f, 5.0f);
  shot.start = rng.Uniform(1.0f, 4.0f);
  shot.segment = rng.Int(0, 1) == 1;
  shot.platformHalf = rng.Uniform(0.05f, 0.1f);
  return shot;
}

void Report(const std::string& what, const Faults& f) {
  MESSAGE(what << ": " << f.passes << " passes, " << f.longOverlaps << " long overlaps (longest "
               << f.longestDeepRun << " steps), " << f.frozen << " frozen, deepest " << f.maxOverlap << " m");
}

// Distance (m) from p to the parallelogram a segment a-b sweeps when moved by t: 0 inside.
float DistanceToSwept(Vec2 p, Vec2 a, Vec2 b, Vec2 t) {
  const Vec2 corners[4] = {a, b, b + t, a + t};
  bool inside = true;
  float best = 1e30f;
  const float orientation = Cross(b - a, t) >= 0.0f ? 1.0f : -1.0f;
  for (int i = 0; i < 4; ++i) {
    const Vec2 u = corners[i], v = corners[(i + 1) % 4];
    inside = inside && orientation * Cross(v - u, p - u) >= 0.0f;
    const Vec2 e = v - u;
    const float len2 = Dot(e, e);
    const float f = len2 > 0.0f ? std::clamp(Dot(p - u, e) / len2, 0.0f, 1.0f) : 0.0f;
    best = std::min(best, Length(p - (u + f * e)));
  }
  return inside ? 0.0f : best;
}

struct SensorRun {
  int mustBegin = 0;  // coins the path crosses by more than the margin
  int missed = 0;     // of those, without exactly one begin followed (a later step) by one end
  int extra = 0;      // begin or end events for coins the path misses by more than the margin
};

// A capsule (no spin, no gravity) flies `length` metres straight past 5 sensor coins of a static body
// at `speed`; each coin's begin and end events are counted against the parallelogram its core sweeps.
SensorRun FlyPastCoins(test::Rng& rng, float speed) {
  World world(WorldDef{.gravity = {0.0f, 0.0f}});
  const float length = 30.0f;
  const Vec2 dir = rng.Direction();
  const Vec2 side = LeftPerp(dir);
  const Vec2 start = rng.InBox(5.0f);
  const float capsuleRadius = rng.Uniform(0.05f, 0.3f), halfCore = rng.Uniform(0.0f, 0.5f);
  const float angle = rng.Uniform(-kPi, kPi);
  const BodyId holder = world.CreateBody({});
  struct Coin {
    ShapeId id;
    Vec2 centre;
    float radius;
  };
  std::vector<Coin> coins;
  for (int i = 0; i < 5; ++i) {
    const float along = 3.0f + static_cast<float>(i) * (length - 6.0f) / 4.0f;
    const float radius = rng.Uniform(0.05f, 0.5f);
    const float reach = radius + capsuleRadius + halfCore;
    const Vec2 centre = start + along * dir + rng.Uniform(-1.5f * reach, 1.5f * reach) * side;
    coins.push_back({world.CreateShape(holder, {.isSensor = true}, Circle{centre, radius}), centre, radius});
  }
  const BodyId body = world.CreateBody(
      {.type = BodyType::Dynamic, .position = start, .angle = angle, .linearVelocity = speed * dir});
  world.CreateShape(body, {}, MakeCapsule({-halfCore, 0.0f}, {halfCore, 0.0f}, capsuleRadius).value);
  std::map<std::uint32_t, int> begins, ends, beginStep, endStep;
  const int steps = static_cast<int>(length / (speed * kDt)) + 3;
  for (int i = 0; i < steps; ++i) {
    world.Step(kDt);
    for (const SensorBeginEvent& e : world.GetSensorBeginEvents()) {
      ++begins[e.sensorShape.index1];
      beginStep[e.sensorShape.index1] = i;
    }
    for (const SensorEndEvent& e : world.GetSensorEndEvents()) {
      ++ends[e.sensorShape.index1];
      endStep[e.sensorShape.index1] = i;
    }
  }
  // The core's end points at the start and its whole travel (the body neither turns nor slows).
  const Rot q = MakeRot(angle);
  const Vec2 a = start + Rotate(q, Vec2{-halfCore, 0.0f}), b = start + Rotate(q, Vec2{halfCore, 0.0f});
  const Vec2 travel = world.GetPosition(body) - start;
  SensorRun run;
  const float margin = 0.002f;
  for (const Coin& coin : coins) {
    const float distance = DistanceToSwept(coin.centre, a, b, travel) - coin.radius - capsuleRadius;
    const std::uint32_t key = coin.id.index1;
    if (distance < -margin) {
      ++run.mustBegin;
      const bool ok = begins[key] == 1 && ends[key] == 1 && beginStep[key] < endStep[key];
      run.missed += ok ? 0 : 1;
      if (!ok)
        MESSAGE("missed: distance " << distance << " begins " << begins[key] << " ends " << ends[key]
                                    << " steps " << beginStep[key] << " " << endStep[key] << " capsule r "
                                    << capsuleRadius << " half " << halfCore << " coin r " << coin.radius
                                    << " speed " << speed);
    } else if (distance > margin) {
      run.extra += begins[key] + ends[key];
    }
  }
  return run;
}

}  // namespace

TEST_SUITE("world.continuous") {
TEST_CASE("a 4 m x 0.1 m box falling flat at 20 50 and 100 m/s lands on a 0.1-0.2 m platform") {
  // Box2D v3's Speculative Fallback sample, as issue 28 describes it: a wedge platform 0.1 m thick at
  // its right end and 0.2 m at its left above a ground segment, the box dropped flat onto it.
  for (float speed : {20.0f, 50.0f, 100.0f}) {
    World world;
    const BodyId ground = world.CreateBody({});
    world.CreateShape(ground, {}, MakeSegment({-30.0f, 0.0f}, {30.0f, 0.0f}).value);
    const Vec2 wedge[] = {{-2.0f, 4.0f}, {2.0f, 4.0f}, {2.0f, 4.1f}, {-0.5f, 4.2f}, {-2.0f, 4.2f}};
    world.CreateShape(ground, {}, MakePolygon(wedge).value);
    const BodyId box = world.CreateBody(
        {.type = BodyType::Dynamic, .position = {0.0f, 12.0f}, .linearVelocity = {0.0f, -speed}});
    world.CreateShape(box, {}, MakeBox(2.0f, 0.05f).value);
    float lowest = 12.0f;
    for (int i = 0; i < 300; ++i) {
      world.Step(kDt);
      lowest = std::min(lowest, world.GetPosition(box).y);
    }
    MESSAGE(speed << " m/s: lowest centre " << lowest << " m, ends at " << world.GetPosition(box).y);
    CHECK(lowest > 3.0f);                    // never through the platform (its bottom is at 4 m)
    CHECK(world.GetPosition(box).y > 4.0f);  // and it ends on it
  }
}

TEST_CASE("thin boxes thrown fast at any angle and spin never pass thin platforms or segments" *
          doctest::test_suite("long")) {
  test::Rng rng(2801);
  Faults total;
  const int shots = 2000;
  for (int i = 0; i < shots; ++i) {
    const ThinShot shot = RandomThinShot(rng);
    const Faults f = Throw(shot, 150);
    if (f.passes + f.longOverlaps + f.frozen > 0) {
      MESSAGE("shot " << i << ": length " << 2 * shot.halfLength << " thickness " << 2 * shot.halfThickness
                      << " speed " << shot.speed << " direction " << shot.direction << " angle " << shot.angle
                      << " spin " << shot.spin << " aim " << shot.aimX << " start " << shot.start
                      << std::string(shot.segment ? " segment" : " platform ") << 2 * shot.platformHalf);
      Report("  faults", f);
    }
    total.passes += f.passes;
    total.longOverlaps += f.longOverlaps;
    total.frozen += f.frozen;
    total.maxOverlap = std::max(total.maxOverlap, f.maxOverlap);
    total.longestDeepRun = std::max(total.longestDeepRun, f.longestDeepRun);
  }
  Report("all shots", total);
  CHECK(total.passes == 0);
  CHECK(total.frozen == 0);
  // Issue 28's bar: no shot deeper than 2 slops (1 cm) for more than 3 steps. History: first, 19 of
  // the 2,000 shots overlapped more than 2 slops for 4 to 6 steps, at most 2.6 cm: boxes the contact set
  // spinning at 135 to 240 rad/s on a corner, where a sub-step turns the body by atan(w h) rather than
  // w h and the contact's linearisation cannot follow, and one slow box tipping onto the platform at
  // 4.5 cm a step, beyond the speculative distance (2 cm) and under the fast threshold. The push-out
  // cap bounding speed, the static rows solved last and the continuous stage's inset of 1.5 slops
  // (continuous.cpp, kInsetDepthSlops) brought that to 4 long overlaps, the longest 4 steps, deepest
  // 2.45 cm (the tipping box, shot 1386, and three boxes spinning at 190 rad/s on a corner). Growing
  // the touching still pairs of a pivoting body (contacts.cpp, CollidePivoting; a fast body only when
  // its turn outweighs its translation) removed all four: 0, the longest 3 steps, deepest 1.57 cm.
  CHECK(total.longOverlaps == 0);
  CHECK(total.maxOverlap < 0.02f);
  CHECK(total.longestDeepRun <= 3);
}

TEST_CASE("a 2.1 m x 0.2 m box tipping onto a platform overlaps it deeper than 2 slops for at most 3 steps") {
  // Shot 1386 of the test above: thrown at 52 m/s, it lands on one end and tips over onto the
  // platform, its far end coming down 4.5 cm a step, beyond the speculative distance (2 cm) and too
  // slowly for the continuous stage to sweep it. Before the narrowphase grew a pivoting body's
  // touching static pairs (contacts.cpp, CollidePivoting), that end met the platform 2.45 cm deep and
  // stayed deeper than 2 slops for 4 steps.
  ThinShot shot;
  shot.halfLength = 0.5f * 2.09702f;
  shot.halfThickness = 0.5f * 0.196103f;
  shot.speed = 52.4454f;
  shot.direction = -1.75087f;
  shot.angle = -0.102307f;
  shot.spin = 0.0f;
  shot.aimX = 1.31998f;
  shot.start = 3.94824f;
  shot.platformHalf = 0.5f * 0.105598f;
  const Faults f = Throw(shot, 150);
  Report("tipping box", f);
  CHECK(f.passes == 0);
  CHECK(f.longOverlaps == 0);
  CHECK(f.longestDeepRun <= 3);
}

TEST_CASE("a sliver of a triangle dropped at 40 to 100 m/s on a segment lands on top") {
  // Box2D v3's Speculative Sliver sample: a triangle 4 m long and 0.5 m high at one end, falling flat.
  const std::vector<Vec2> sliver = {{-2.0f, 0.0f}, {-1.0f, 0.0f}, {2.0f, 0.5f}};
  test::Rng rng(2803);
  Faults total;
  float deepest = 0.0f;  // lowest vertex below the segment at any step end (m)
  int notOnTop = 0;
  for (int trial = 0; trial < 26; ++trial) {
    const float speed = trial < 13 ? 40.0f + 5.0f * static_cast<float>(trial) : rng.Uniform(40.0f, 100.0f);
    const float angle = trial < 13 ? 0.0f : rng.Uniform(-0.2f, 0.2f);
    World world;
    const BodyId ground = world.CreateBody({});
    world.CreateShape(ground, {}, MakeSegment({-kGroundHalfLength, 0.0f}, {kGroundHalfLength, 0.0f}).value);
    const BodyId body = world.CreateBody({.type = BodyType::Dynamic,
                                          .position = {0.0f, 12.0f},
                                          .angle = angle,
                                          .linearVelocity = {0.0f, -speed}});
    world.CreateShape(body, {}, MakePolygon(sliver).value);
    Watcher watcher(sliver, Outline{{{-kGroundHalfLength, 0.0f}, {kGroundHalfLength, 0.0f}}},
                    kGroundHalfLength);
    watcher.Start(world, body);
    Faults f;
    float low = 0.0f;
    for (int i = 0; i < 300; ++i) {
      world.Step(kDt);
      watcher.AfterStep(world, body, world.GetSolverSettings().linearSlop, f);
      const Transform xf = world.GetTransform(body);
      for (Vec2 p : sliver) low = std::max(low, -TransformPoint(xf, p).y);
    }
    const Transform xf = world.GetTransform(body);
    float bottom = 1e30f;
    for (Vec2 p : sliver) bottom = std::min(bottom, TransformPoint(xf, p).y);
    const bool onTop = world.GetWorldCenterOfMass(body).y > 0.0f && bottom > -0.01f &&
                       Length(world.GetLinearVelocity(body)) < 0.1f;
    if (!onTop || low > 0.25f || f.passes + f.frozen > 0) {
      MESSAGE("speed " << speed << " angle " << angle << ": lowest point " << -low << " m, ends with bottom "
                       << bottom << " m, speed " << Length(world.GetLinearVelocity(body)) << " m/s");
    }
    notOnTop += onTop ? 0 : 1;
    deepest = std::max(deepest, low);
    total.passes += f.passes;
    total.frozen += f.frozen;
  }
  MESSAGE("deepest point below the segment " << deepest << " m");
  CHECK(total.passes == 0);
  CHECK(total.frozen == 0);
  CHECK(deepest <= 0.25f);
  CHECK(notOnTop == 0);
}
TEST_CASE("a fast capsule begins and ends one overlap with every sensor coin its path crosses") {
  // Issue 28 item 9: at 80 m/s five coins along the path began two overlaps. Here 10 to 200 m/s in
  // random directions, coins of 0.05 to 0.5 m beside or across the path.
  test::Rng rng(2809);
  SensorRun total;
  for (int trial = 0; trial < 300; ++trial) {
    const float speed = trial < 10 ? 80.0f : rng.LogUniform(10.0f, 200.0f);
    const SensorRun run = FlyPastCoins(rng, speed);
    if (run.missed + run.extra > 0)
      MESSAGE("trial " << trial << " speed " << speed << ": " << run.missed << " missed " << run.extra
                       << " extra");
    total.mustBegin += run.mustBegin;
    total.missed += run.missed;
    total.extra += run.extra;
  }
  MESSAGE(total.mustBegin << " coins crossed: " << total.missed << " missed, " << total.extra
                          << " events for coins not crossed");
  CHECK(total.mustBegin > 500);
  CHECK(total.missed == 0);
  CHECK(total.extra == 0);
}
}  // TEST_SUITE("world.continuous")
