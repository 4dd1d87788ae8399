// SPDX-License-Identifier: MIT
#include "ray_lab.h"

#include "lab_test_util.h"
#include "test_util.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace mk;
using namespace mk::sandbox;

namespace {

void Set(RayLab& lab, const std::vector<std::string>& pairs) { ApplyLabSettings(lab, pairs); }

}  // namespace

TEST_SUITE("sandbox.ray_lab") {
TEST_CASE("a ray at the circle's height hits its left side at the analytic fraction") {
  RayLab lab;
  // The circle: centre (-5, 0.5), radius 1; the ray from x = -8 to 0 enters it at x = -6.
  Set(lab, {"x0=-8", "y0=0.5", "x1=0", "y1=0.5"});
  REQUIRE(lab.Hits().size() == 1);
  CHECK(lab.Hits()[0].fraction == doctest::Approx(0.25).epsilon(1e-5));
  CHECK(test::Near(lab.Hits()[0].point, {-6.0f, 0.5f}, 1e-4f));
  CHECK(test::Near(lab.Hits()[0].normal, {-1.0f, 0.0f}, 1e-4f));
}

TEST_CASE("all hits are sorted by fraction - and the swept box stops short of the circle") {
  RayLab lab;
  Set(lab, {"x0=-8", "y0=0.5", "x1=8", "y1=0.5", "all=1", "sweep=1"});
  REQUIRE(lab.Hits().size() >= 3);
  for (size_t i = 1; i < lab.Hits().size(); ++i) CHECK(lab.Hits()[i - 1].fraction <= lab.Hits()[i].fraction);
  // The box's right side (x + 0.4) meets the circle's left (x = -6) after 1.6 m of 16 m.
  REQUIRE(lab.SweepHit().hit);
  CHECK(lab.SweepHit().fraction <= 0.1f + 1e-6f);
  CHECK(lab.SweepHit().fraction >= 0.1f - kShapeCastTolerance / 16.0f - 1e-6f);
}

TEST_CASE("dragging an end of the ray moves it / bad settings are refused") {
  RayLab lab;
  Set(lab, {"x0=-8", "y0=0.5", "x1=-3", "y1=0.5"});
  REQUIRE(lab.Hits().size() == 1);
  CHECK(lab.Hits()[0].fraction == doctest::Approx(0.4).epsilon(1e-5));
  CHECK(lab.MouseDown({-7.9f, 0.5f}, MouseButton::kLeft, false));
  lab.MouseMove({-8.0f, 7.0f});
  lab.MouseUp({-8.0f, 7.0f}, MouseButton::kLeft);
  lab.Update();
  CHECK(lab.Hits().empty());  // from (-8, 7) to (-3, 0.5) the ray passes 1.58 m from the circle's centre
  CHECK_FALSE(lab.MouseDown({20.0f, 20.0f}, MouseButton::kLeft, false));
  std::string error;
  CHECK_FALSE(lab.ApplySetting("x0", "nan", error));
  CHECK_FALSE(lab.ApplySetting("x0", "100", error));
  CHECK_FALSE(lab.ApplySetting("all", "2", error));
  CHECK_FALSE(lab.ApplySetting("colour", "1", error));
  CHECK(error.find("unknown") != std::string::npos);
}
}  // TEST_SUITE("sandbox.ray_lab")
