// SPDX-License-Identifier: MIT
#include "camera.h"

#include "test_util.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <initializer_list>
#include <limits>

using namespace mk;
using namespace mk::sandbox;

TEST_SUITE("sandbox.camera") {

TEST_CASE("the centre is mid-screen and +x goes right and +y goes up by pixelsPerMetre") {
  Camera camera{.center = {3.0f, -2.0f}, .pixelsPerMetre = 40.0f, .width = 800.0f, .height = 600.0f};
  CHECK(test::Near(WorldToScreen(camera, {3.0f, -2.0f}), {400.0f, 300.0f}, 1e-4f));
  CHECK(test::Near(WorldToScreen(camera, {4.0f, -2.0f}), {440.0f, 300.0f}, 1e-4f));
  CHECK(test::Near(WorldToScreen(camera, {3.0f, -1.0f}), {400.0f, 260.0f}, 1e-4f));
  CHECK(test::Near(ScreenToWorld(camera, {0.0f, 0.0f}), {3.0f - 10.0f, -2.0f + 7.5f}, 1e-5f));
}

TEST_CASE("ScreenToWorld inverts WorldToScreen") {
  test::Rng rng(71);
  for (int trial = 0; trial < 1000; ++trial) {
    Camera camera{.center = rng.InBox(100.0f),
                  .pixelsPerMetre = rng.LogUniform(1.0f, 1000.0f),
                  .width = rng.Uniform(100.0f, 3000.0f),
                  .height = rng.Uniform(100.0f, 2000.0f)};
    Vec2 world = camera.center + rng.InBox(10.0f);
    Vec2 back = ScreenToWorld(camera, WorldToScreen(camera, world));
    // Float rounding of coordinates up to ~110 m and of the pixel arithmetic: a few ulps of 110.
    CHECK(test::Near(back, world, 1e-4f));
  }
}

TEST_CASE("panning keeps the dragged world point under the cursor") {
  Camera camera{.center = {1.0f, 2.0f}, .pixelsPerMetre = 25.0f, .width = 1280.0f, .height = 720.0f};
  Vec2 grab{300.0f, 500.0f};
  Vec2 delta{-37.0f, 12.0f};
  Camera moved = Pan(camera, delta);
  CHECK(test::Near(ScreenToWorld(moved, grab + delta), ScreenToWorld(camera, grab), 1e-5f));
  CHECK(moved.pixelsPerMetre == camera.pixelsPerMetre);
}

TEST_CASE("zooming keeps the world point under the cursor and scales by the factor") {
  test::Rng rng(72);
  for (int trial = 0; trial < 200; ++trial) {
    Camera camera{.center = rng.InBox(50.0f), .pixelsPerMetre = rng.LogUniform(5.0f, 500.0f)};
    Vec2 cursor{rng.Uniform(0.0f, camera.width), rng.Uniform(0.0f, camera.height)};
    float factor = rng.LogUniform(0.5f, 2.0f);
    Camera zoomed = ZoomAt(camera, cursor, factor);
    CHECK(zoomed.pixelsPerMetre == doctest::Approx(camera.pixelsPerMetre * factor).epsilon(1e-6));
    CHECK(test::Near(ScreenToWorld(zoomed, cursor), ScreenToWorld(camera, cursor), 1e-4f));
  }
}

TEST_CASE("zoom is clamped and a bad factor changes nothing") {
  Camera camera;
  CHECK(ZoomAt(camera, {10.0f, 10.0f}, 1e9f).pixelsPerMetre == kMaxPixelsPerMetre);
  CHECK(ZoomAt(camera, {10.0f, 10.0f}, 1e-9f).pixelsPerMetre == kMinPixelsPerMetre);
  for (float bad :
       {0.0f, -2.0f, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
    Camera same = ZoomAt(camera, {10.0f, 10.0f}, bad);
    CHECK(same.pixelsPerMetre == camera.pixelsPerMetre);
    CHECK(same.center == camera.center);
  }
}

TEST_CASE("the visible bounds are the viewport in metres around the centre") {
  Camera camera{.center = {5.0f, 1.0f}, .pixelsPerMetre = 50.0f, .width = 1000.0f, .height = 500.0f};
  AABB box = VisibleBounds(camera);
  CHECK(test::Near(box.lower, {-5.0f, -4.0f}, 1e-5f));
  CHECK(test::Near(box.upper, {15.0f, 6.0f}, 1e-5f));
}

}  // TEST_SUITE("sandbox.camera")

TEST_SUITE("sandbox.camera") {

TEST_CASE("FitBounds shows the whole box with the margin and is tight on one axis") {
  test::Rng rng(72);
  for (int trial = 0; trial < 1000; ++trial) {
    Camera camera{.center = rng.InBox(50.0f),
                  .pixelsPerMetre = 30.0f,
                  .width = rng.Uniform(200.0f, 2000.0f),
                  .height = rng.Uniform(200.0f, 2000.0f)};
    Vec2 c = rng.InBox(100.0f), half{rng.LogUniform(0.05f, 50.0f), rng.LogUniform(0.05f, 50.0f)};
    AABB box{c - half, c + half};
    const float margin = 0.05f;
    Camera fit = FitBounds(camera, box, margin);
    Vec2 lo = WorldToScreen(fit, {box.lower.x, box.upper.y});  // top left on screen
    Vec2 hi = WorldToScreen(fit, {box.upper.x, box.lower.y});  // bottom right
    const float tol = 1e-2f;
    CHECK(lo.x >= margin * camera.width - tol);
    CHECK(lo.y >= margin * camera.height - tol);
    CHECK(hi.x <= (1 - margin) * camera.width + tol);
    CHECK(hi.y <= (1 - margin) * camera.height + tol);
    // Tight: the box spans the usable width or the usable height exactly.
    float spanX = (hi.x - lo.x) / ((1 - 2 * margin) * camera.width);
    float spanY = (hi.y - lo.y) / ((1 - 2 * margin) * camera.height);
    CHECK(std::max(spanX, spanY) == doctest::Approx(1.0f).epsilon(1e-4));
  }
}

TEST_CASE("FitBoundsBeside keeps the box right of the panel") {
  Camera camera{.width = 1280.0f, .height = 720.0f};
  AABB box{{-10.0f, -1.0f}, {30.0f, 4.0f}};
  Camera fit = FitBoundsBeside(camera, box, 320.0f, 0.05f);
  CHECK(fit.width == 1280.0f);
  Vec2 left = WorldToScreen(fit, box.lower), right = WorldToScreen(fit, box.upper);
  // The usable part is 960 px wide starting at 320: the 40 m wide box fills 90% of it.
  CHECK(left.x == doctest::Approx(320.0f + 0.05f * 960.0f).epsilon(1e-4));
  CHECK(right.x == doctest::Approx(1280.0f - 0.05f * 960.0f).epsilon(1e-4));
  CHECK(fit.pixelsPerMetre == doctest::Approx(0.9f * 960.0f / 40.0f));
}

TEST_CASE("FitBounds leaves the camera alone for an invalid box") {
  Camera camera{.center = {1.0f, 2.0f}, .pixelsPerMetre = 33.0f};
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Camera fit = FitBounds(camera, {{nan, 0.0f}, {1.0f, 1.0f}});
  CHECK(fit.center == camera.center);
  CHECK(fit.pixelsPerMetre == camera.pixelsPerMetre);
  fit = FitBounds(camera, {{2.0f, 2.0f}, {1.0f, 1.0f}});  // inverted
  CHECK(fit.pixelsPerMetre == camera.pixelsPerMetre);
}

}  // TEST_SUITE("sandbox.camera")
