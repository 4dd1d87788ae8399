// SPDX-License-Identifier: MIT
#include "options.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace mk::sandbox {
namespace {

bool ParseCount(const char* text, int& out) {
  const char* end = text + std::strlen(text);
  auto [ptr, ec] = std::from_chars(text, end, out);
  return ec == std::errc() && ptr == end;
}

// "WxH" with whole numbers, e.g. "900x560".
bool ParseSize(const char* text, int& width, int& height) {
  const char* x = std::strchr(text, 'x');
  if (x == nullptr) return false;
  auto [wEnd, wEc] = std::from_chars(text, x, width);
  return wEc == std::errc() && wEnd == x && ParseCount(x + 1, height);
}

}  // namespace

ParsedArguments ParseArguments(int argc, const char* const* argv) {
  ParsedArguments parsed;
  auto fail = [&](std::string message) {
    parsed.ok = false;
    parsed.error = std::move(message);
    return parsed;
  };
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    bool hasValue = i + 1 < argc;
    if (arg == "--headless") {
      parsed.options.headless = true;
    } else if (arg == "--help" || arg == "-h") {
      parsed.options.help = true;
    } else if (arg == "--frames") {
      if (!hasValue || !ParseCount(argv[i + 1], parsed.options.frames) || parsed.options.frames <= 0) {
        return fail("--frames needs a positive whole number");
      }
      ++i;
    } else if (arg == "--screenshot") {
      if (!hasValue || argv[i + 1][0] == '\0') return fail("--screenshot needs a file name");
      parsed.options.screenshotPath = argv[++i];
    } else if (arg == "--scene") {
      if (!hasValue || argv[i + 1][0] == '\0') return fail("--scene needs a scene name (see --list-scenes)");
      parsed.options.scene = argv[++i];
    } else if (arg == "--window") {
      Options& o = parsed.options;
      if (!hasValue || !ParseSize(argv[i + 1], o.windowWidth, o.windowHeight) ||
          o.windowWidth < kMinWindowWidth || o.windowHeight < kMinWindowHeight || o.windowWidth > 16384 ||
          o.windowHeight > 16384) {
        return fail("--window needs WxH in pixels, at least 640x400 and at most 16384x16384 (e.g. 900x560)");
      }
      ++i;
    } else if (arg == "--expand-panels") {
      parsed.options.expandPanels = true;
    } else if (arg == "--check-layout") {
      parsed.options.checkLayout = true;
    } else if (arg == "--print-fps") {
      parsed.options.printFps = true;
    } else if (arg == "--print-hash") {
      parsed.options.printHash = true;
    } else if (arg == "--paused") {
      parsed.options.paused = true;
    } else if (arg == "--no-panel") {
      parsed.options.hidePanel = true;
    } else if (arg == "--far-away") {
      // A setting like any other (far_away=D): its range is checked with the scene's settings.
      if (!hasValue || argv[i + 1][0] == '\0' || std::strncmp(argv[i + 1], "--", 2) == 0)
        return fail("--far-away needs a distance in metres (e.g. 1e4)");
      parsed.options.settings.push_back(std::string("far_away=") + argv[++i]);
    } else if (arg == "--record" || arg == "--replay") {
      if (!hasValue || argv[i + 1][0] == '\0') return fail(arg + " needs a file name");
      (arg == "--record" ? parsed.options.recordPath : parsed.options.replayPath) = argv[++i];
    } else if (arg == "--list-scenes") {
      parsed.options.listScenes = true;
    } else if (arg == "--settings") {
      int taken = 0;
      for (; i + 1 < argc && std::strncmp(argv[i + 1], "--", 2) != 0; ++i, ++taken) {
        std::string pair = argv[i + 1];
        size_t eq = pair.find('=');
        if (eq == 0 || eq == std::string::npos || eq + 1 == pair.size()) {
          return fail("--settings takes key=value pairs; got '" + pair + "'");
        }
        parsed.options.settings.push_back(std::move(pair));
      }
      if (taken == 0) return fail("--settings needs at least one key=value pair");
    } else {
      return fail("unknown argument '" + arg + "'");
    }
  }
  if (!parsed.options.recordPath.empty() && !parsed.options.replayPath.empty()) {
    return fail("--record and --replay cannot be combined");
  }
  if (parsed.options.headless && parsed.options.frames == 0 && !parsed.options.help &&
      !parsed.options.listScenes) {
    return fail("--headless needs --frames N (N > 0), or it would never stop");
  }
  return parsed;
}

namespace {

double Median(std::vector<double> times) {
  const auto middle = times.begin() + static_cast<std::ptrdiff_t>(times.size() / 2);
  std::nth_element(times.begin(), middle, times.end());
  return *middle;
}

}  // namespace

FrameTimes MeasureFrameTimes(const std::vector<double>& frameSeconds) {
  FrameTimes times;
  if (frameSeconds.size() <= kFpsWarmUpFrames) return times;
  const std::vector<double> run(frameSeconds.begin() + kFpsWarmUpFrames, frameSeconds.end());
  const size_t recentCount = std::min(run.size(), kFpsRecentFrames);
  const std::vector<double> recent(run.end() - static_cast<std::ptrdiff_t>(recentCount), run.end());
  times.ok = true;
  times.recentFrames = recent.size();
  times.runFrames = run.size();
  times.recentMedian = Median(recent);
  times.runMedian = Median(run);
  return times;
}

std::string FpsReport(const std::vector<double>& frameSeconds, const std::string& name) {
  char text[200];
  const FrameTimes t = MeasureFrameTimes(frameSeconds);
  if (!t.ok) {
    std::snprintf(text, sizeof text, "fps: too few frames (%zu) to measure", frameSeconds.size());
    return text;
  }
  std::snprintf(text, sizeof text,
                "fps: %.1f over the last %zu frames (median frame %.2f ms); %.1f over the run (median frame "
                "%.2f ms over %zu frames, %s)",
                1.0 / t.recentMedian, t.recentFrames, 1e3 * t.recentMedian, 1.0 / t.runMedian,
                1e3 * t.runMedian, t.runFrames, name.c_str());
  return text;
}

std::string UsageText(const char* program) {
  std::string p = program;
  return "Usage:\n"
         "  " +
         p +
         "                       open the window (needs a display)\n"
         "  " +
         p +
         " --headless --frames N --screenshot out.png\n"
         "      render N frames (1/60 s each) without showing a window, write the last as PNG\n"
         "Options:\n"
         "  --headless          no visible window, software rendering; without a display it uses\n"
         "                      SDL's offscreen video driver, so it works on any machine\n"
         "  --frames N          stop after N frames (also without --headless)\n"
         "  --screenshot FILE   write the last frame to FILE (PNG)\n"
         "  --scene NAME        open this scene or lab (default: large_pyramid); --list-scenes names them\n"
         "  --settings k=v ...  solver, draw and scene settings, e.g. sub_steps=8 draw_contacts=1\n"
         "                      size=20; the GJK lab takes its own (shape_a=box iteration=2 ...);\n"
         "                      --list-scenes prints every key\n"
         "  --window WxH        window size in pixels (default 1280x720, at least 640x400)\n"
         "  --expand-panels     open every section of the side panel\n"
         "  --check-layout      after the last frame, check that every panel lies inside the window,\n"
         "                      no two overlap and no text is cut off; exit 1 naming what failed\n"
         "  --print-fps         at exit, print the median frames per second of the last 60 frames and\n"
         "                      of the whole run (its first 10 frames skipped)\n"
         "  --print-hash        at exit, print the scene's state hash and its step count (the benchmark's\n"
         "                      state_hash after as many --steps)\n"
         "  --paused            start paused (headless: no steps, so frames time the drawing alone)\n"
         "  --far-away D        build the scene moved by (D, D) m (settings key far_away): up to 1e4 m,\n"
         "                      1e7 m in the large-world build (MK_LARGE_WORLDS)\n"
         "  --no-panel          start with the side panel hidden (the H key)\n"
         "  --record FILE       record the scene from its start (every step, grab and bomb) and\n"
         "                      write the replay to FILE at exit\n"
         "  --replay FILE       play a replay file in the scene's place (scrub it in the panel)\n"
         "  --list-scenes       print the scenes and settings keys, then exit\n"
         "  --help              this text\n"
         "Exit codes: 0 ok, 1 error, 2 no display (run headless or under xvfb-run).\n";
}

}  // namespace mk::sandbox
