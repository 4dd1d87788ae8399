// SPDX-License-Identifier: MIT
// The bullet range driven headlessly: its counts against answers worked out from the shots' geometry
// alone (which shots no contact can reach without continuous collision; where a stopped shot's time of
// impact must put it).
#include "bullet_lab.h"

#include "lab_test_util.h"

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace mk;
using namespace mk::sandbox;

namespace {

void Set(BulletLab& lab, const std::vector<std::string>& pairs) { ApplyLabSettings(lab, pairs); }

// Fires `shots` shots and lets the last one end.
void Fire(BulletLab& lab, int shots) {
  for (int i = 0; i < shots * BulletLab::kShotSteps; ++i) lab.Step();
  REQUIRE(lab.Fired() == shots);
  REQUIRE(lab.Stopped() + lab.Tunnelled() == shots);
}

// Shots no contact can stop: the last step end before the wall's centre plane (on the straight line
// the shot follows until it touches something) leaves the bullet's box and the wall's box apart by
// more than both broadphase margins (0.1 m each) and then some, so no contact exists in the step that
// carries it across. Without continuous collision each of these must tunnel.
int UnreachableShots(const BulletLab& lab) {
  const BulletLab::Config& c = lab.GetConfig();
  const float reach = c.radius + 0.5f;  // > radius + 2 x 0.1 m margin
  const float nearFace = BulletLab::kWallX - 0.5f * c.thickness;
  const float travel = c.speed * BulletLab::kTimeStep;
  int count = 0;
  for (const BulletLab::Shot& shot : lab.Shots()) {
    const float dx = travel * shot.direction.x;
    const int k = static_cast<int>(std::floor((BulletLab::kWallX - shot.start.x) / dx));  // last end before
    const float x = shot.start.x + static_cast<float>(k) * dx;
    if (x < nearFace - reach) ++count;
  }
  return count;
}

// Records the segments the lab draws (shot paths, the world's lines).
struct SegmentRecorder final : NullDraw {
  std::vector<Vec2> ends;
  void DrawSegment(Vec2 a, Vec2 b, Color) override { ends.insert(ends.end(), {a, b}); }
};

}  // namespace

TEST_SUITE("sandbox.bullet_range") {
// Shots start up to one step's travel behind the muzzle (5 m at 300 m/s): their paths were drawn from
// there, left of the lab's view and under the panel.
TEST_CASE("shot paths are drawn from the muzzle on and not behind it") {
  BulletLab lab;
  Set(lab, {"speed=300", "spread=10"});
  REQUIRE(BulletLab::kMuzzle.x > lab.Bounds().lower.x);
  int segments = 0;
  for (int i = 0; i < 6 * BulletLab::kShotSteps; ++i) {
    lab.Step();
    SegmentRecorder drawn;
    lab.Draw(drawn);
    segments += static_cast<int>(drawn.ends.size()) / 2;
    // Nothing left of the muzzle (inside the view's left edge); tunnelled shots fly on out to the right.
    for (Vec2 p : drawn.ends) CHECK(p.x >= BulletLab::kMuzzle.x - 1e-4f);
  }
  CHECK(segments > 0);
  int behind = 0;  // the test's premise: shots do start behind the muzzle
  for (const BulletLab::Shot& shot : lab.Shots())
    behind += shot.start.x < BulletLab::kMuzzle.x - 1.0f ? 1 : 0;
  CHECK(behind > 0);
}

TEST_CASE("a thin static wall: continuous collision stops every shot / without it the unreachable tunnel") {
  BulletLab lab;
  Set(lab, {"thickness=0.05", "radius=0.025", "speed=300", "spread=10", "bullet=0", "continuous=1"});
  Fire(lab, 100);
  CHECK(lab.Tunnelled() == 0);
  CHECK(lab.Stopped() == 100);
  // Each stopped shot's time of impact leaves its surface the target separation (the linear slop)
  // before the wall's face, within the tolerance (a quarter of it), along the wall's normal.
  const float slop = lab.GetWorld().GetSolverSettings().linearSlop;
  const float contactX = BulletLab::kWallX - 0.025f - 0.025f - slop;
  for (const BulletLab::Shot& shot : lab.Shots()) {
    REQUIRE(shot.hasImpact);
    CHECK(std::fabs(shot.impact.x - contactX) <= 0.25f * slop + 1e-4f);
  }

  Set(lab, {"continuous=0"});
  Fire(lab, 100);
  const int unreachable = UnreachableShots(lab);
  MESSAGE("continuous off: " << lab.Tunnelled() << " of 100 tunnelled, " << unreachable << " unreachable");
  CHECK(unreachable > 50);  // the check below means something
  CHECK(lab.Tunnelled() >= unreachable);
  for (const BulletLab::Shot& shot : lab.Shots()) CHECK_FALSE(shot.hasImpact);
}

TEST_CASE("a dynamic wall: isBullet stops every shot / a fast non-bullet is not swept against it") {
  BulletLab lab;
  Set(lab, {"thickness=0.1", "speed=300", "dynamic=1", "bullet=1"});
  Fire(lab, 100);
  CHECK(lab.Tunnelled() == 0);
  Set(lab, {"bullet=0"});
  Fire(lab, 100);
  const int unreachable = UnreachableShots(lab);
  MESSAGE("dynamic wall, not bullets: " << lab.Tunnelled() << " of 100 tunnelled, " << unreachable
                                        << " unreachable");
  CHECK(unreachable > 50);
  CHECK(lab.Tunnelled() >= unreachable);
}

TEST_CASE("slow shots never tunnel - even without continuous collision") {
  // 24 m/s moves 0.4 m a step, less than the wall's half thickness plus the radius (0.7 m): from a
  // step that began without touching, the centre cannot reach the centre plane; one that began
  // touching has a contact. (The 6 m to the wall take 15 of a shot's 30 steps.)
  BulletLab lab;
  Set(lab, {"thickness=1", "radius=0.2", "speed=24", "spread=15", "continuous=0"});
  Fire(lab, 20);
  CHECK(lab.Tunnelled() == 0);
  for (const BulletLab::Shot& shot : lab.Shots()) CHECK(shot.last.x < BulletLab::kWallX - 0.5f);
}

TEST_CASE("thick walls and fat bullets: no tunnel with continuous collision at any speed") {
  for (const char* speed : {"50", "300", "1000"}) {
    BulletLab lab;
    Set(lab, {"thickness=0.5", "radius=0.2", std::string("speed=") + speed, "spread=15"});
    Fire(lab, 40);
    CHECK(lab.Tunnelled() == 0);
  }
}

TEST_CASE("bad settings are refused and change nothing") {
  BulletLab lab;
  std::string error;
  CHECK_FALSE(lab.ApplySetting("thickness", "0", error));
  CHECK_FALSE(lab.ApplySetting("speed", "nan", error));
  CHECK_FALSE(lab.ApplySetting("spread", "20", error));
  CHECK_FALSE(lab.ApplySetting("bullet", "2", error));
  CHECK_FALSE(lab.ApplySetting("colour", "1", error));
  CHECK(lab.GetConfig().thickness == 0.1f);
  CHECK(lab.GetConfig().speed == 300.0f);
  CHECK(lab.GetConfig().isBullet);
}
}  // TEST_SUITE("sandbox.bullet_range")
