// SPDX-License-Identifier: MIT
// Sandbox command line: options, parsing, usage text and exit codes. No SDL here, so tests link it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace mk::sandbox {

/// Process exit codes.
inline constexpr int kExitOk = 0;
inline constexpr int kExitError = 1;      ///< bad arguments, SDL failure, screenshot not written
inline constexpr int kExitNoDisplay = 2;  ///< no window could open and --headless was not given

/// Default window size, pixels (the headless screenshot has exactly this size).
inline constexpr int kWindowWidth = 1280;
inline constexpr int kWindowHeight = 720;

/// What the command line asked for.
struct Options {
  bool headless = false;              ///< hidden window, software renderer, fixed 1/60 s steps, no input
  int frames = 0;                     ///< stop after this many frames (0 = until the window closes)
  std::string screenshotPath;         ///< write the last frame here as PNG (empty = none)
  std::string scene;                  ///< scene-table or lab name to open (empty = the default scene)
  std::vector<std::string> settings;  ///< `key=value` pairs, applied in order after the scene loads
  bool help = false;
  bool listScenes = false;           ///< print the scene names (with their settings keys) and exit
  int windowWidth = kWindowWidth;    ///< pixels (--window WxH; the headless screenshot's size)
  int windowHeight = kWindowHeight;  ///< pixels
  bool expandPanels = false;  ///< open every collapsing section of the panels (screenshots, layout test)
  bool checkLayout = false;   ///< after the last frame, check the panels' layout (see CheckLayout)
  bool printFps = false;      ///< at exit, print the median frames per second (after 10 warm-up frames)
  bool printHash = false;     ///< at exit, print the world's StateHash and its step count (as the benchmark)
  bool paused = false;        ///< start paused (headless: no steps; frames measure drawing alone)
  bool hidePanel = false;     ///< start with the side panel hidden (as the H key does)
  std::string recordPath;     ///< record the scene from its start and write the replay here at exit
  std::string replayPath;     ///< play this replay file instead of running the scene
};

/// The smallest window the panels are laid out for (pixels).
inline constexpr int kMinWindowWidth = 640;
inline constexpr int kMinWindowHeight = 400;

/// Result of parsing: the options, or an error message when `ok` is false.
struct ParsedArguments {
  Options options;
  bool ok = true;
  std::string error;
};

/// Parses `--headless`, `--frames N`, `--screenshot FILE`, `--scene NAME`, `--settings k=v [k=v ...]`
/// (every following argument that does not start with "--"), `--list-scenes`, `--help`, `--window WxH`
/// (at least kMinWindowWidth x kMinWindowHeight), `--expand-panels`, `--check-layout`, `--print-fps`,
/// `--print-hash`, `--paused`, `--no-panel`, `--far-away D` (appends the setting far_away=D),
/// `--record FILE`, `--replay FILE` (not both). Headless needs
/// --frames > 0 (it would otherwise never end). Whether the scene and keys exist is checked later,
/// by the application, which knows them.
ParsedArguments ParseArguments(int argc, const char* const* argv);

/// Frames --print-fps leaves out at the start (they build caches and fonts), and the recent window it
/// reports besides the whole run (about a second at 60 frames per second: what the panel's frame
/// rate shows, where the whole run's median hides a scene that grew slow).
inline constexpr size_t kFpsWarmUpFrames = 10;
inline constexpr size_t kFpsRecentFrames = 60;

/// Medians of a run of frame times (s): the last kFpsRecentFrames frames after kFpsWarmUpFrames, and
/// all of them after the warm-up. `ok` is false when the run has no frame after the warm-up.
struct FrameTimes {
  bool ok = false;
  size_t recentFrames = 0, runFrames = 0;
  double recentMedian = 0.0, runMedian = 0.0;
};
FrameTimes MeasureFrameTimes(const std::vector<double>& frameSeconds);

/// The --print-fps line for these frame times (s, in order): the median frame rate of the last
/// kFpsRecentFrames frames, then of the whole run after kFpsWarmUpFrames, each with its median frame
/// time; `name` is what ran. Says so when there are too few frames.
std::string FpsReport(const std::vector<double>& frameSeconds, const std::string& name);

/// The --help text.
std::string UsageText(const char* program);

}  // namespace mk::sandbox
