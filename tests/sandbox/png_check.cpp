// SPDX-License-Identifier: MIT
// Checks a sandbox screenshot: the PNG loads, has the expected size, is not one flat colour (enough
// distinct colours and enough pixels away from the background), and optionally contains given
// colours (e.g. the centre-of-mass dots), which proves DebugDraw output reached the screen.
//
//   png_check FILE --size WxH [--min-colors N] [--min-foreground F] [--expect R,G,B,MIN_PIXELS]...
//   png_check --self-test DIR     checks the checker on images it writes into DIR
//   png_check --distinct MIN_FRACTION FILE FILE...
//                                 every two images differ in at least MIN_FRACTION of their pixels
//                                 (same size required): no two scenes render the same picture
//   png_check --same MAX_FRACTION FILE FILE
//                                 the two images (same size) differ in at most MAX_FRACTION of their
//                                 pixels (0: identical): a scene far away renders as at the origin
#include <stb_image.h>        // declarations only: Debian's libstb contains the compiled loader
#include <stb_image_write.h>  // likewise for the writer (self-test)

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

struct Image {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgb;  // width * height * 3 bytes, rows top to bottom
};

struct ExpectedColor {
  std::uint8_t r = 0, g = 0, b = 0;
  long minPixels = 1;
};

struct Requirements {
  int width = 0;
  int height = 0;
  long minColors = 16;          // distinct RGB colours
  double minForeground = 0.05;  // fraction of pixels that differ from the most common colour
  std::vector<ExpectedColor> expected;
};

std::uint32_t Pack(std::uint8_t r, std::uint8_t g, std::uint8_t b) {
  return (std::uint32_t{r} << 16) | (std::uint32_t{g} << 8) | std::uint32_t{b};
}

bool Load(const std::string& path, Image& image, std::string& error) {
  int w = 0, h = 0, channels = 0;
  unsigned char* data = stbi_load(path.c_str(), &w, &h, &channels, 3);
  if (data == nullptr) {
    const char* reason = stbi_failure_reason();
    error = "cannot load '" + path + "': " + (reason != nullptr ? reason : "unknown reason");
    return false;
  }
  image.width = w;
  image.height = h;
  image.rgb.assign(data, data + static_cast<size_t>(w) * static_cast<size_t>(h) * 3);
  stbi_image_free(data);
  return true;
}

// Returns the reasons the image fails (empty = passes) and prints its statistics.
std::vector<std::string> Check(const Image& image, const Requirements& req, const std::string& name) {
  std::vector<std::string> failures;
  if (image.width != req.width || image.height != req.height) {
    failures.push_back("size is " + std::to_string(image.width) + "x" + std::to_string(image.height) +
                       ", expected " + std::to_string(req.width) + "x" + std::to_string(req.height));
  }
  const long pixels = static_cast<long>(image.width) * image.height;
  if (pixels <= 0) {
    failures.push_back("image has no pixels");
    return failures;
  }
  std::unordered_map<std::uint32_t, long> histogram;
  for (long i = 0; i < pixels; ++i) {
    const std::uint8_t* p = &image.rgb[static_cast<size_t>(i) * 3];
    ++histogram[Pack(p[0], p[1], p[2])];
  }
  auto background = std::max_element(histogram.begin(), histogram.end(),
                                     [](const auto& a, const auto& b) { return a.second < b.second; });
  double foreground = 1.0 - static_cast<double>(background->second) / static_cast<double>(pixels);
  std::uint32_t bg = background->first;
  std::printf("%s: %dx%d, %ld distinct colours, background (%u,%u,%u), foreground %.1f%%\n", name.c_str(),
              image.width, image.height, static_cast<long>(histogram.size()), (bg >> 16) & 255u,
              (bg >> 8) & 255u, bg & 255u, 100.0 * foreground);
  if (static_cast<long>(histogram.size()) < req.minColors) {
    failures.push_back(std::to_string(histogram.size()) + " distinct colours, expected at least " +
                       std::to_string(req.minColors));
  }
  if (foreground < req.minForeground) {
    failures.push_back("only " + std::to_string(100.0 * foreground) +
                       "% of pixels differ from the background, expected at least " +
                       std::to_string(100.0 * req.minForeground) + "%");
  }
  for (const ExpectedColor& e : req.expected) {
    auto it = histogram.find(Pack(e.r, e.g, e.b));
    long count = it == histogram.end() ? 0 : it->second;
    std::printf("  colour (%d,%d,%d): %ld pixels (need %ld)\n", e.r, e.g, e.b, count, e.minPixels);
    if (count < e.minPixels) {
      failures.push_back("colour (" + std::to_string(e.r) + "," + std::to_string(e.g) + "," +
                         std::to_string(e.b) + ") covers " + std::to_string(count) +
                         " pixels, expected at least " + std::to_string(e.minPixels));
    }
  }
  return failures;
}

bool ParseSize(const char* text, int& w, int& h) {
  return std::sscanf(text, "%dx%d", &w, &h) == 2 && w > 0 && h > 0;
}

bool ParseExpected(const char* text, ExpectedColor& e) {
  int r = 0, g = 0, b = 0;
  long n = 0;
  if (std::sscanf(text, "%d,%d,%d,%ld", &r, &g, &b, &n) != 4) return false;
  if (r < 0 || r > 255 || g < 0 || g > 255 || b < 0 || b > 255 || n < 1) return false;
  e = {static_cast<std::uint8_t>(r), static_cast<std::uint8_t>(g), static_cast<std::uint8_t>(b), n};
  return true;
}

// --- self-test: the checker must reject the images a broken sandbox would write -------------------

Image Filled(int w, int h, std::uint8_t r, std::uint8_t g, std::uint8_t b) {
  Image image{w, h, {}};
  image.rgb.resize(static_cast<size_t>(w) * static_cast<size_t>(h) * 3);
  for (size_t i = 0; i < image.rgb.size(); i += 3) {
    image.rgb[i] = r;
    image.rgb[i + 1] = g;
    image.rgb[i + 2] = b;
  }
  return image;
}

// A dark background with a colourful gradient block over `coverage` of the rows, and a 10x10 yellow square.
Image Scene(int w, int h, double coverage) {
  Image image = Filled(w, h, 28, 30, 36);
  int rows = static_cast<int>(coverage * h);
  for (int y = 0; y < rows; ++y) {
    for (int x = 0; x < w; ++x) {
      std::uint8_t* p =
          &image.rgb[(static_cast<size_t>(y) * static_cast<size_t>(w) + static_cast<size_t>(x)) * 3];
      p[0] = static_cast<std::uint8_t>(x * 255 / w);
      p[1] = static_cast<std::uint8_t>(y * 255 / h);
      p[2] = 128;
    }
  }
  for (int y = h - 20; y < h - 10; ++y) {
    for (int x = 10; x < 20; ++x) {
      std::uint8_t* p =
          &image.rgb[(static_cast<size_t>(y) * static_cast<size_t>(w) + static_cast<size_t>(x)) * 3];
      p[0] = 255;
      p[1] = 255;
      p[2] = 80;
    }
  }
  return image;
}

// Fraction of pixels whose colour differs between two images of the same size (1 if sizes differ).
double DifferentFraction(const Image& a, const Image& b) {
  if (a.width != b.width || a.height != b.height) return 1.0;
  long differing = 0;
  const long n = static_cast<long>(a.width) * a.height;
  for (long i = 0; i < n; ++i) {
    if (a.rgb[3 * i] != b.rgb[3 * i] || a.rgb[3 * i + 1] != b.rgb[3 * i + 1] ||
        a.rgb[3 * i + 2] != b.rgb[3 * i + 2]) {
      ++differing;
    }
  }
  return n == 0 ? 0.0 : static_cast<double>(differing) / static_cast<double>(n);
}

int Distinct(double minFraction, const std::vector<std::string>& paths) {
  std::vector<Image> images(paths.size());
  for (size_t i = 0; i < paths.size(); ++i) {
    std::string error;
    if (!Load(paths[i], images[i], error)) {
      std::printf("FAIL: %s\n", error.c_str());
      return 1;
    }
  }
  int failures = 0;
  double closest = 1.0;
  for (size_t i = 0; i < images.size(); ++i) {
    for (size_t j = i + 1; j < images.size(); ++j) {
      double f = DifferentFraction(images[i], images[j]);
      closest = std::min(closest, f);
      if (f < minFraction) {
        std::printf("FAIL: %s and %s differ in only %.4f of their pixels (need %.4f)\n", paths[i].c_str(),
                    paths[j].c_str(), f, minFraction);
        ++failures;
      }
    }
  }
  std::printf("%zu images, closest pair differs in %.4f of the pixels\n", images.size(), closest);
  return failures == 0 ? 0 : 1;
}

int Same(double maxFraction, const std::string& pathA, const std::string& pathB) {
  Image a, b;
  std::string error;
  if (!Load(pathA, a, error) || !Load(pathB, b, error)) {
    std::printf("FAIL: %s\n", error.c_str());
    return 1;
  }
  if (a.width != b.width || a.height != b.height) {
    std::printf("FAIL: %s is %dx%d, %s %dx%d\n", pathA.c_str(), a.width, a.height, pathB.c_str(), b.width,
                b.height);
    return 1;
  }
  const double f = DifferentFraction(a, b);
  const long pixels = static_cast<long>(a.width) * a.height;
  std::printf("%s and %s differ in %ld of %ld pixels (%.6f; at most %.6f allowed)\n", pathA.c_str(),
              pathB.c_str(), static_cast<long>(f * static_cast<double>(pixels) + 0.5), pixels, f,
              maxFraction);
  return f <= maxFraction ? 0 : 1;
}

int SelfTest(const std::string& dir) {
  Requirements req;
  req.width = 320;
  req.height = 180;
  req.minColors = 16;
  req.minForeground = 0.05;
  req.expected.push_back({255, 255, 80, 100});
  struct Case {
    const char* name;
    Image image;
    Requirements req;
    bool shouldPass;
  };
  Requirements noYellow = req;
  noYellow.expected[0].minPixels = 101;  // the square has exactly 100 pixels
  std::vector<Case> cases = {
      {"good", Scene(320, 180, 0.5), req, true},
      {"single_colour", Filled(320, 180, 28, 30, 36), req, false},
      {"black", Filled(320, 180, 0, 0, 0), req, false},
      {"wrong_size", Scene(321, 180, 0.5), req, false},
      {"two_colours", Filled(320, 180, 255, 255, 80), req, false},
      {"little_foreground", Scene(320, 180, 0.03), req, false},  // 5 rows of 180: 2.8% + the square
      {"missing_colour", Scene(320, 180, 0.5), noYellow, false},
  };
  // Half the "two_colours" image gets the background, so it has exactly two colours.
  for (size_t i = 0; i < cases[4].image.rgb.size() / 2; ++i) cases[4].image.rgb[i] = 28;
  int wrong = 0;
  for (Case& c : cases) {
    std::string path = dir + "/selftest_" + c.name + ".png";
    if (stbi_write_png(path.c_str(), c.image.width, c.image.height, 3, c.image.rgb.data(),
                       c.image.width * 3) == 0) {
      std::printf("self-test: cannot write %s\n", path.c_str());
      return 1;
    }
    Image loaded;
    std::string error;
    if (!Load(path, loaded, error)) {
      std::printf("self-test: %s\n", error.c_str());
      return 1;
    }
    bool passed = Check(loaded, c.req, c.name).empty();
    std::printf("  -> %s (expected %s)\n", passed ? "pass" : "fail", c.shouldPass ? "pass" : "fail");
    if (passed != c.shouldPass) ++wrong;
  }
  // Distinctness: an image against itself differs nowhere; against a scene with half the foreground
  // rows it differs in a known fraction (rows 0.5 vs 0.25 of the height: a quarter of the pixels).
  const Image a = Scene(320, 180, 0.5), b = Scene(320, 180, 0.25);
  if (DifferentFraction(a, a) != 0.0) ++wrong;
  const double f = DifferentFraction(a, b);
  std::printf("self-test: distinct fraction %.4f (expected 0.25 up to the shared square)\n", f);
  if (!(f > 0.2 && f <= 0.25)) ++wrong;
  // A missing file must be an error, not a pass.
  Image none;
  std::string error;
  if (Load(dir + "/selftest_does_not_exist.png", none, error)) ++wrong;
  std::printf("self-test: %d wrong verdicts\n", wrong);
  return wrong == 0 ? 0 : 1;
}

int Usage() {
  std::fprintf(stderr,
               "usage: png_check FILE --size WxH [--min-colors N] [--min-foreground F] "
               "[--expect R,G,B,MIN_PIXELS]...\n       png_check --self-test DIR\n"
               "       png_check --distinct MIN_FRACTION FILE FILE...\n"
               "       png_check --same MAX_FRACTION FILE FILE\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "--self-test") return SelfTest(argv[2]);
  if (argc >= 5 && std::string(argv[1]) == "--distinct") {
    double minFraction = std::atof(argv[2]);
    if (!(minFraction > 0.0 && minFraction < 1.0)) return Usage();
    return Distinct(minFraction, std::vector<std::string>(argv + 3, argv + argc));
  }
  if (argc == 5 && std::string(argv[1]) == "--same") {
    const double maxFraction = std::atof(argv[2]);
    if (!(maxFraction >= 0.0 && maxFraction < 1.0)) return Usage();
    return Same(maxFraction, argv[3], argv[4]);
  }
  if (argc < 2) return Usage();
  std::string path = argv[1];
  Requirements req;
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    if (i + 1 >= argc) return Usage();
    const char* value = argv[++i];
    bool ok = true;
    if (arg == "--size") {
      ok = ParseSize(value, req.width, req.height);
    } else if (arg == "--min-colors") {
      req.minColors = std::atol(value);
      ok = req.minColors > 0;
    } else if (arg == "--min-foreground") {
      req.minForeground = std::atof(value);
      ok = req.minForeground > 0.0 && req.minForeground < 1.0;
    } else if (arg == "--expect") {
      ExpectedColor e;
      ok = ParseExpected(value, e);
      req.expected.push_back(e);
    } else {
      ok = false;
    }
    if (!ok) {
      std::fprintf(stderr, "png_check: bad argument %s %s\n", arg.c_str(), value);
      return Usage();
    }
  }
  if (req.width == 0) return Usage();
  Image image;
  std::string error;
  if (!Load(path, image, error)) {
    std::printf("FAIL: %s\n", error.c_str());
    return 1;
  }
  std::vector<std::string> failures = Check(image, req, path);
  for (const std::string& f : failures) std::printf("FAIL: %s\n", f.c_str());
  if (failures.empty()) std::printf("OK\n");
  return failures.empty() ? 0 : 1;
}
