// SPDX-License-Identifier: MIT
// The GJK lab's headless screenshot shows the closest points where they are: runs the sandbox on a
// separated configuration whose closest points are known exactly, projects those points through the
// camera the sandbox uses (FitBoundsBeside on the lab's bounds), and checks the screenshot has the
// closest-point colour there. Also checks that the simplex colour is on screen.
//
//   gjk_lab_pixels SANDBOX OUT.png
//
// Configuration: box A (half-extent 1) at (-3, 4); box B (half-extent 1) at (1, 4.3) turned 45
// degrees, so B's left corner (1 - sqrt 2, 4.3) is its unique closest point and A's closest point is
// the foot of that corner on A's right face, (-2, 4.3); distance 3 - sqrt 2.
#include "camera.h"
#include "gjk_lab.h"
#include "options.h"
#include "view_host.h"

#include <stb_image.h>  // declarations only: Debian's libstb contains the compiled loader

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

const std::vector<std::string> kSettings = {
    "shape_a=box", "size_a=1", "x_a=-3",     "y_a=4",      "angle_a=0",  "shape_b=box", "size_b=1",
    "x_b=1",       "y_b=4.3",  "angle_b=45", "radius_a=0", "radius_b=0", "iteration=-1"};

int Fail(const char* message) {
  std::printf("FAIL: %s\n", message);
  return 1;
}

bool SameColor(const unsigned char* p, mk::Color c) { return p[0] == c.r && p[1] == c.g && p[2] == c.b; }

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: gjk_lab_pixels SANDBOX OUT.png\n");
    return 2;
  }
  const std::string sandbox = argv[1], png = argv[2];
  std::string command = "env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER '" + sandbox +
                        "' --headless --frames 2 --scene gjk_lab --screenshot '" + png + "' --settings";
  for (const std::string& s : kSettings) command += " " + s;
  std::printf("running: %s\n", command.c_str());
  std::remove(png.c_str());
  if (std::system(command.c_str()) != 0) return Fail("the sandbox failed");

  // The camera the sandbox computed: same lab, same settings, same fit.
  mk::sandbox::GjkLab lab;
  for (const std::string& s : kSettings) {
    std::string error;
    size_t eq = s.find('=');
    if (!lab.ApplySetting(s.substr(0, eq), s.substr(eq + 1), error)) return Fail(error.c_str());
  }
  lab.Update();
  mk::sandbox::Camera camera;
  camera.width = static_cast<float>(mk::sandbox::kWindowWidth);
  camera.height = static_cast<float>(mk::sandbox::kWindowHeight);
  camera = mk::sandbox::FitBoundsBeside(camera, lab.Bounds(), mk::sandbox::kPanelPixels);

  int w = 0, h = 0, channels = 0;
  unsigned char* image = stbi_load(png.c_str(), &w, &h, &channels, 3);
  if (image == nullptr) return Fail("cannot load the screenshot");
  if (w != mk::sandbox::kWindowWidth || h != mk::sandbox::kWindowHeight) return Fail("wrong screenshot size");

  const float root2 = std::sqrt(2.0f);
  const mk::Vec2 expected[2] = {{-2.0f, 4.3f}, {1.0f - root2, 4.3f}};
  int failures = 0;
  // The markers are kClosestPointPixels (11) wide: a 5 x 5 block around the projected point lies
  // inside the marker even with a pixel of rounding either way.
  for (const mk::Vec2& p : expected) {
    mk::Vec2 s = mk::sandbox::WorldToScreen(camera, p);
    int cx = static_cast<int>(std::lround(s.x)), cy = static_cast<int>(std::lround(s.y));
    int matching = 0;
    for (int y = cy - 2; y <= cy + 2; ++y) {
      for (int x = cx - 2; x <= cx + 2; ++x) {
        if (x >= 0 && y >= 0 && x < w && y < h &&
            SameColor(&image[3 * (y * w + x)], mk::sandbox::lab_colors::kClosestPoint)) {
          ++matching;
        }
      }
    }
    std::printf(
        "closest point (%.4f, %.4f) -> pixel (%d, %d): %d of 25 pixels have the closest-point colour\n",
        static_cast<double>(p.x), static_cast<double>(p.y), cx, cy, matching);
    if (matching != 25) ++failures;
  }
  long simplexPixels = 0;
  for (int i = 0; i < w * h; ++i)
    simplexPixels += SameColor(&image[3 * i], mk::sandbox::lab_colors::kSimplex);
  std::printf("simplex-coloured pixels: %ld\n", simplexPixels);
  if (simplexPixels < 100) ++failures;
  stbi_image_free(image);
  if (failures != 0) return Fail("closest points or simplex not where expected");
  std::printf("OK\n");
  return 0;
}
