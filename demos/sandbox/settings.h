// SPDX-License-Identifier: MIT
// Sandbox settings: everything the Solver, Draw and Scenes panels change, as one value with a
// `key=value` text form, so `--settings` on the command line, the panels and the tests all speak the
// same names. No SDL or ImGui here.
#pragma once

#include "minkowski/world.h"
#include "scenes.h"

#include <string>
#include <string_view>
#include <vector>

namespace mk::sandbox {

/// What the Draw panel toggles.
struct DrawToggles {
  bool shapes = true;
  bool aabbs = false;
  bool broadphase = false;  ///< the sweep and prune: sorted endpoints, sweep line, active set, pairs
  bool contactPoints = false;
  bool contactNormals = false;
  bool contactImpulses = false;
  bool joints = true;
  bool centersOfMass = false;
  bool islands = false;     ///< colour awake bodies by island (sleeping ones are always muted)
  bool continuous = false;  ///< bodies moved back by continuous collision: start, path, TOI pose, target
};

/// Everything a world scene runs with that the user can change.
struct SceneSettings {
  SolverSettings solver{};
  Vec2 gravity{0.0f, -10.0f};    ///< m/s^2
  float stepHertz = 60.0f;       ///< fixed simulation rate (steps per second of real time), 10..480
  scenes::SceneParams params{};  ///< the scene's knobs (0 = the scene's default)
  DrawToggles draw{};
  int workers = 1;  ///< the step's workers (a TaskPool; the results do not change), 1..kMaxSandboxWorkers
  /// Where the sub-steps run with workers (WorldDef::subStepWorkers, as a WorkerUse's value): 0 measured,
  /// 1 the workers, 2 the calling thread. The results do not change.
  int subStepWorkers = 0;
  /// Far away (m): the scene built moved by (farAway, farAway) from where its builder puts it (SceneRun's
  /// Placement), the camera with it; 0 = at the origin. 0..kMaxFarAway.
  float farAway = 0.0f;
  /// Far away, the large-world build: the world's float frame (WorldDef::origin) stays at zero instead
  /// of moving with the scene (Placement::originAtOffset false). No effect in the default build.
  bool farFrameAtZero = false;
};

/// How far the far-away toggle moves a scene (m, on each axis). The default build holds positions
/// within kMaxWorldPosition (1e5 m) and has a float's spacing there (1 mm at 1e4 m, 8 mm at 1e5 m): its
/// toggle stops at 1e4 m, where a scene of a few hundred metres stays inside the bound and moves by
/// millimetres at most. The large-world build (double positions) goes to 1e7 m, 10,000 km.
inline constexpr float kMaxFarAway = kLargeWorlds ? 1e7f : 1e4f;
/// The Scenes panel's choices (m), from the origin up to kMaxFarAway by powers of ten.
inline constexpr float kFarAwayChoices[] = {0.0f, 1e3f, 1e4f, 1e5f, 1e6f, 1e7f};

/// The workers slider's and `--settings workers=N`'s upper end. The browser build has no threads
/// (Emscripten without pthreads, so the page needs no cross-origin isolation): one worker there.
#if defined(__EMSCRIPTEN__)
inline constexpr int kMaxSandboxWorkers = 1;
#else
inline constexpr int kMaxSandboxWorkers = 16;
#endif

/// The settings a scene starts with: its WorldDef (gravity, solver settings), default knobs and the
/// default draw toggles.
SceneSettings DefaultSettings(const scenes::SceneInfo& info);

/// Scene knobs (size, count) go up to this, or to the scene's own default where that is larger
/// (spinner's 6,076 bodies): every scene runs at the size its description names, and a knob cannot
/// ask for a world far beyond what the scene was built for.
inline constexpr int kMaxKnob = 1000;
/// The largest size and count `info` accepts (kMaxKnob or its default, whichever is larger).
scenes::SceneParams KnobMaximum(const scenes::SceneInfo& info);
/// `params` with each knob clamped to 0..KnobMaximum(info) (the Scenes panel's inputs).
scenes::SceneParams ClampKnobs(const scenes::SceneInfo& info, scenes::SceneParams params);
/// False with `error` naming the knob and its range when a knob of `params` lies outside
/// 0..KnobMaximum(info) (--settings size=... count=..., checked once the scene is known).
bool CheckKnobs(const scenes::SceneInfo& info, const scenes::SceneParams& params, std::string& error);

/// One settings key, for --list-scenes and the help panel.
struct SettingKey {
  const char* name;
  const char* help;  ///< meaning, unit and accepted range
};

/// The inclusive range ApplySetting accepts for a number key ({0, 1} for switches and the mode,
/// {0, 0} for an unknown key). The Solver panel's sliders take their ends from here, so a slider
/// reaches what --settings does (sub-steps 1..64, classic iterations 1..256).
struct KeyRange {
  double lo = 0.0, hi = 0.0;
};
KeyRange RangeOf(std::string_view key);

/// Every key ApplySetting accepts, in panel order.
std::vector<SettingKey> SettingKeys();

/// Applies one `key=value` to `settings`. Numbers must parse completely and lie in the key's range
/// (the ranges World::SetSolverSettings accepts for solver keys); booleans are 0/1/true/false/on/off;
/// `mode` is soft or classic. On failure returns false, sets `error` to a sentence naming the key and
/// what was expected, and leaves `settings` unchanged.
bool ApplySetting(SceneSettings& settings, std::string_view key, std::string_view value, std::string& error);

/// Splits "key=value" (both non-empty). Returns false otherwise.
bool SplitSetting(std::string_view pair, std::string_view& key, std::string_view& value);

/// Every key's current value as "key=value", in SettingKeys() order; applying them all to any
/// SceneSettings reproduces `settings` exactly (floats are printed with enough digits to round-trip).
std::vector<std::string> FormatSettings(const SceneSettings& settings);

}  // namespace mk::sandbox
