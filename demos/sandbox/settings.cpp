// SPDX-License-Identifier: MIT
#include "settings.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

namespace mk::sandbox {
namespace {

enum class Kind { Float, Int, Bool, Mode };

// One row of the key table. Exactly one accessor is set, matching `kind`. Ranges are inclusive and,
// for solver keys, the ones World::SetSolverSettings accepts (a test checks both ends against it).
struct Entry {
  const char* name;
  const char* help;
  Kind kind;
  double lo, hi;
  float& (*f)(SceneSettings&) = nullptr;
  int& (*i)(SceneSettings&) = nullptr;
  bool& (*b)(SceneSettings&) = nullptr;
};

Entry F(const char* name, const char* help, double lo, double hi, float& (*f)(SceneSettings&)) {
  return {name, help, Kind::Float, lo, hi, f, nullptr, nullptr};
}
Entry I(const char* name, const char* help, double lo, double hi, int& (*i)(SceneSettings&)) {
  return {name, help, Kind::Int, lo, hi, nullptr, i, nullptr};
}
Entry B(const char* name, const char* help, bool& (*b)(SceneSettings&)) {
  return {name, help, Kind::Bool, 0, 1, nullptr, nullptr, b};
}

using S = SceneSettings;

const std::vector<Entry>& Table() {
  static const std::vector<Entry> table = {
      {"mode", "solver: soft (sub-stepped soft step) or classic (PGS with Baumgarte)", Kind::Mode, 0, 1},
      I("sub_steps", "sub-steps per step, 1..64", 1, 64, [](S& s) -> int& { return s.solver.subSteps; }),
      I("workers", "the step's workers (a thread pool; same results for any count), 1..16", 1,
        kMaxSandboxWorkers, [](S& s) -> int& { return s.workers; }),
      I("substep_workers",
        "with workers, the sub-steps: 0 where measured faster, 1 on the workers, 2 on the calling thread, "
        "0..2",
        0, 2, [](S& s) -> int& { return s.subStepWorkers; }),
      F("contact_hertz", "contact stiffness, Hz, 0..1000", 0, 1000,
        [](S& s) -> float& { return s.solver.contactHertz; }),
      F("contact_damping_ratio", "contact damping ratio, 0..1000", 0, 1000,
        [](S& s) -> float& { return s.solver.contactDampingRatio; }),
      F("static_contact_scale", "stiffness factor for contacts with static bodies, 1..10", 1, 10,
        [](S& s) -> float& { return s.solver.staticContactScale; }),
      F("push_out_speed", "most a soft contact pushes overlap apart, m/s, 0..1000", 0, 1000,
        [](S& s) -> float& { return s.solver.contactPushMaxSpeed; }),
      F("joint_hertz", "joint stiffness, Hz, 0..1000", 0, 1000,
        [](S& s) -> float& { return s.solver.jointHertz; }),
      F("joint_damping_ratio", "joint damping ratio, 0..1000", 0, 1000,
        [](S& s) -> float& { return s.solver.jointDampingRatio; }),
      F("restitution_threshold", "slower approaches do not bounce, m/s, 0..1000", 0, 1000,
        [](S& s) -> float& { return s.solver.restitutionThreshold; }),
      F("hit_event_threshold", "faster approaches raise hit events, m/s, 0..1e6", 0, 1e6,
        [](S& s) -> float& { return s.solver.hitEventThreshold; }),
      F("linear_slop", "allowed overlap, m, 0..1", 0, 1, [](S& s) -> float& { return s.solver.linearSlop; }),
      F("speculative_distance", "contacts exist up to this gap, m, 0..1", 0, 1,
        [](S& s) -> float& { return s.solver.speculativeDistance; }),
      F("aabb_margin", "largest broadphase fat-box margin (small shapes: 1/8 of their reach), m, 0..10", 0,
        10, [](S& s) -> float& { return s.solver.aabbMargin; }),
      F("max_linear_speed", "velocity clamp, m/s, 0..1e5", 0, 1e5,
        [](S& s) -> float& { return s.solver.maxLinearSpeed; }),
      F("time_to_sleep", "rest time before an island sleeps, s, 0..1e6", 0, 1e6,
        [](S& s) -> float& { return s.solver.timeToSleep; }),
      B("warm_starting", "carry impulses across steps, 0/1",
        [](S& s) -> bool& { return s.solver.enableWarmStarting; }),
      B("relax", "relax pass without bias after each sub-step, 0/1",
        [](S& s) -> bool& { return s.solver.enableRelax; }),
      B("restitution", "restitution pass, 0/1", [](S& s) -> bool& { return s.solver.enableRestitution; }),
      B("sleep", "islands at rest go to sleep, 0/1", [](S& s) -> bool& { return s.solver.enableSleep; }),
      B("continuous", "fast bodies stop at their time of impact, 0/1",
        [](S& s) -> bool& { return s.solver.enableContinuous; }),
      I("classic_iterations", "classic mode velocity iterations, 1..256", 1, 256,
        [](S& s) -> int& { return s.solver.classicIterations; }),
      F("classic_baumgarte", "classic mode overlap fraction removed per step, 0..1", 0, 1,
        [](S& s) -> float& { return s.solver.classicBaumgarte; }),
      F("gravity_x", "gravity x, m/s^2, -1000..1000", -1000, 1000,
        [](S& s) -> float& { return s.gravity.x; }),
      F("gravity_y", "gravity y, m/s^2, -1000..1000", -1000, 1000,
        [](S& s) -> float& { return s.gravity.y; }),
      F("step_hz", "simulation steps per second of real time, 10..480", 10, 480,
        [](S& s) -> float& { return s.stepHertz; }),
      // The knobs' range depends on the scene (KnobMaximum): CheckKnobs holds them to it once it is known.
      I("size",
        "scene knob 'size' (pyramid base, stack height, ...), 0 = default, 0..1000 (up to its default where "
        "that is larger)",
        0, INT_MAX, [](S& s) -> int& { return s.params.size; }),
      I("count",
        "scene knob 'count' (pyramids, columns, ...), 0 = default, 0..1000 (up to its default where that is "
        "larger)",
        0, INT_MAX, [](S& s) -> int& { return s.params.count; }),
      F("far_away",
        kLargeWorlds ? "far away: the scene moved by (d, d) from the origin, m, 0..1e7 (0 = at the origin)"
                     : "far away: the scene moved by (d, d) from the origin, m, 0..1e4 (0 = at the origin; "
                       "1e7 in the large-world build)",
        0, kMaxFarAway, [](S& s) -> float& { return s.farAway; }),
      B("far_frame_at_zero",
        "far away in the large-world build: the world's float frame stays at zero, not at the scene, 0/1",
        [](S& s) -> bool& { return s.farFrameAtZero; }),
      B("draw_shapes", "draw shapes, 0/1", [](S& s) -> bool& { return s.draw.shapes; }),
      B("draw_aabbs", "draw tight AABBs, 0/1", [](S& s) -> bool& { return s.draw.aabbs; }),
      B("draw_broadphase", "draw the sweep and prune: sorted endpoints, sweep line, active set, pairs, 0/1",
        [](S& s) -> bool& { return s.draw.broadphase; }),
      B("draw_contacts", "draw contact points, 0/1", [](S& s) -> bool& { return s.draw.contactPoints; }),
      B("draw_normals", "draw contact normals, 0/1", [](S& s) -> bool& { return s.draw.contactNormals; }),
      B("draw_impulses", "draw normal impulses as arrows, 0/1",
        [](S& s) -> bool& { return s.draw.contactImpulses; }),
      B("draw_joints", "draw joints, 0/1", [](S& s) -> bool& { return s.draw.joints; }),
      B("draw_mass", "draw centres of mass, 0/1", [](S& s) -> bool& { return s.draw.centersOfMass; }),
      B("draw_islands", "colour awake bodies by island, 0/1", [](S& s) -> bool& { return s.draw.islands; }),
      B("draw_continuous", "bodies continuous collision moved back: start pose, path, TOI pose, target, 0/1",
        [](S& s) -> bool& { return s.draw.continuous; }),
  };
  return table;
}

const Entry* FindEntry(std::string_view key) {
  for (const Entry& e : Table())
    if (key == e.name) return &e;
  return nullptr;
}

bool ParseDouble(std::string_view text, double& out) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end && std::isfinite(out);
}

bool ParseBool(std::string_view text, bool& out) {
  if (text == "1" || text == "true" || text == "on") return out = true, true;
  if (text == "0" || text == "false" || text == "off") return out = false, true;
  return false;
}

}  // namespace

SceneSettings DefaultSettings(const scenes::SceneInfo& info) {
  SceneSettings settings;
  settings.solver = info.worldDef.settings;
  settings.gravity = info.worldDef.gravity;
  settings.params = scenes::ResolveParams(info, {});
  return settings;
}

scenes::SceneParams KnobMaximum(const scenes::SceneInfo& info) {
  return {std::max(kMaxKnob, info.defaults.size), std::max(kMaxKnob, info.defaults.count)};
}

scenes::SceneParams ClampKnobs(const scenes::SceneInfo& info, scenes::SceneParams params) {
  const scenes::SceneParams most = KnobMaximum(info);
  return {std::clamp(params.size, 0, most.size), std::clamp(params.count, 0, most.count)};
}

bool CheckKnobs(const scenes::SceneInfo& info, const scenes::SceneParams& params, std::string& error) {
  const scenes::SceneParams most = KnobMaximum(info);
  for (auto [name, value, limit] :
       {std::tuple{"size", params.size, most.size}, {"count", params.count, most.count}}) {
    if (value >= 0 && value <= limit) continue;
    error = std::string("setting '") + name + "' of " + info.name + " takes 0 (its default) to " +
            std::to_string(limit) + "; got " + std::to_string(value);
    return false;
  }
  return true;
}

KeyRange RangeOf(std::string_view key) {
  const Entry* e = FindEntry(key);
  return e == nullptr ? KeyRange{} : KeyRange{e->lo, e->hi};
}

std::vector<SettingKey> SettingKeys() {
  std::vector<SettingKey> keys;
  for (const Entry& e : Table()) keys.push_back({e.name, e.help});
  return keys;
}

bool SplitSetting(std::string_view pair, std::string_view& key, std::string_view& value) {
  size_t eq = pair.find('=');
  if (eq == 0 || eq == std::string_view::npos || eq + 1 == pair.size()) return false;
  key = pair.substr(0, eq);
  value = pair.substr(eq + 1);
  return true;
}

bool ApplySetting(SceneSettings& settings, std::string_view key, std::string_view value, std::string& error) {
  const Entry* e = FindEntry(key);
  if (e == nullptr) {
    error = "unknown setting '" + std::string(key) + "' (--list-scenes prints every key)";
    return false;
  }
  auto expected = [&](const char* what) {
    error = "setting '" + std::string(key) + "' needs " + what + "; got '" + std::string(value) + "' (" +
            e->help + ")";
    return false;
  };
  switch (e->kind) {
    case Kind::Mode:
      if (value == "soft")
        settings.solver.mode = SolverMode::SoftStep;
      else if (value == "classic")
        settings.solver.mode = SolverMode::Classic;
      else
        return expected("soft or classic");
      return true;
    case Kind::Bool: {
      bool parsed = false;
      if (!ParseBool(value, parsed)) return expected("0 or 1");
      e->b(settings) = parsed;
      return true;
    }
    case Kind::Int: {
      double parsed = 0;
      if (!ParseDouble(value, parsed) || parsed != std::floor(parsed) || parsed < e->lo || parsed > e->hi) {
        return expected("a whole number in range");
      }
      e->i(settings) = static_cast<int>(parsed);
      return true;
    }
    case Kind::Float: {
      double parsed = 0;
      if (!ParseDouble(value, parsed) || parsed < e->lo || parsed > e->hi)
        return expected("a number in range");
      e->f(settings) = static_cast<float>(parsed);
      return true;
    }
  }
  return false;
}

std::vector<std::string> FormatSettings(const SceneSettings& settings) {
  SceneSettings copy = settings;  // the accessors take a mutable reference
  std::vector<std::string> out;
  char text[64];
  for (const Entry& e : Table()) {
    switch (e.kind) {
      case Kind::Mode:
        std::snprintf(text, sizeof text, "%s",
                      settings.solver.mode == SolverMode::Classic ? "classic" : "soft");
        break;
      case Kind::Bool:
        std::snprintf(text, sizeof text, "%d", e.b(copy) ? 1 : 0);
        break;
      case Kind::Int:
        std::snprintf(text, sizeof text, "%d", e.i(copy));
        break;
      // 9 significant digits identify every float exactly.
      case Kind::Float:
        std::snprintf(text, sizeof text, "%.9g", static_cast<double>(e.f(copy)));
        break;
    }
    out.push_back(std::string(e.name) + "=" + text);
  }
  return out;
}

}  // namespace mk::sandbox
