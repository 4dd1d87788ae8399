// SPDX-License-Identifier: MIT
#include "distance_lab.h"

#include "nonconvex/nonconvex_oracle.h"

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace mk;
using namespace mk::sandbox;

namespace {

void Set(DistanceLab& lab, const std::vector<std::string>& pairs) {
  for (const std::string& s : pairs) {
    std::string error;
    const size_t eq = s.find('=');
    REQUIRE_MESSAGE(lab.ApplySetting(s.substr(0, eq), s.substr(eq + 1), error), error);
  }
  lab.Update();
}

/// The lab's answer against brute force over all segment pairs of what it queried.
void CheckAgainstBruteForce(const DistanceLab& lab) {
  const std::vector<test::D2> a = test::WorldPoints(lab.Points(0), lab.XForm(0));
  const std::vector<test::D2> b = test::WorldPoints(lab.Points(1), lab.XForm(1));
  const double exact = test::BruteForceDistance(a, IsClosed(lab.Kind(0)), b, IsClosed(lab.Kind(1)));
  CHECK(std::fabs(lab.Output().distance - exact) <= 1e-5 * exact);
}

}  // namespace

TEST_SUITE("sandbox.distance_lab") {
TEST_CASE("every pair of outline kinds (apart and in each other's hull) matches brute force") {
  const char* kinds[] = {"star", "gear", "comb", "spiral", "c", "noisy"};
  DistanceLab lab;
  for (const char* a : kinds) {
    for (const char* b : kinds) {
      for (const char* x : {"3.6", "2.2", "1.0"}) {
        Set(lab, {std::string("shape_a=") + a, std::string("shape_b=") + b, "x_a=0", "y_a=0", "angle_a=10",
                  std::string("x_b=") + x, "y_b=0.4", "angle_b=-35"});
        CheckAgainstBruteForce(lab);
      }
    }
  }
}

TEST_CASE("a star in the C's mouth: hulls overlap - the overlap grid answers / deformation keeps it exact") {
  DistanceLab lab;
  Set(lab, {"shape_a=c", "shape_b=star", "x_a=0", "y_a=0", "angle_a=0", "x_b=1.6", "y_b=0", "angle_b=0"});
  CHECK(lab.Output().path == NonConvexPath::OverlapGrid);
  CheckAgainstBruteForce(lab);
  Set(lab, {"deform=1"});
  for (int frame = 0; frame < 20; ++frame) {
    lab.Advance(1.0f / 30.0f);
    lab.Update();
    CheckAgainstBruteForce(lab);
  }
}

TEST_CASE("separated outlines show the slab: its debug frame brackets the closest pair") {
  DistanceLab lab;
  Set(lab,
      {"shape_a=star", "shape_b=gear", "x_a=-2", "y_a=0", "angle_a=0", "x_b=2.3", "y_b=0.5", "angle_b=20"});
  CheckAgainstBruteForce(lab);
  if (lab.Output().path == NonConvexPath::SlabHash) {
    const NonConvexDebug& d = lab.Debug();
    const float zA = Dot(lab.Output().pointA, d.normal) - d.planeOffset;
    const float zB = Dot(lab.Output().pointB, d.normal) - d.planeOffset;
    CHECK(zA >= d.slabMinZ - 1e-4f);
    CHECK(zB <= d.slabMaxZ + 1e-4f);
    CHECK(d.cellCount >= 1);
  }
}

TEST_CASE("bad distance_lab settings are refused and leave the lab unchanged") {
  DistanceLab lab;
  std::string error;
  CHECK_FALSE(lab.ApplySetting("shape_a", "blob", error));
  CHECK_FALSE(lab.ApplySetting("x_a", "nan", error));
  CHECK_FALSE(lab.ApplySetting("x_a", "60", error));
  CHECK_FALSE(lab.ApplySetting("deform", "2", error));
  CHECK_FALSE(lab.ApplySetting("colour", "1", error));
  CHECK(lab.XForm(0).p.x == -1.5f);
}
}  // TEST_SUITE("sandbox.distance_lab")
