// SPDX-License-Identifier: MIT
#include "samples_browser.h"

#include "view_host.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

namespace mk::sandbox {
namespace {

constexpr const char* kCategories[] = {"Benchmark",      "Stacking",    "Robustness", "Continuous",
                                       "Joints",         "Shapes",      "Events",     "Character",
                                       "Collision labs", "Determinism", "Large world"};

// The table's own categories that name a browser category one to one.
struct FieldRule {
  std::string_view field;
  const char* category;
};
constexpr FieldRule kFieldRules[] = {{"benchmark", "Benchmark"},
                                     {"stacking", "Stacking"},
                                     {"robustness", "Robustness"},
                                     {"continuous", "Continuous"},
                                     {"joints", "Joints"}};

// The rows of "features" (one game-facing API each) and "stress", placed where Box2D v3's samples
// app keeps the same ideas: friction, restitution, rolling resistance, conveyor belts, filters and
// geometry edits under Shapes; the ragdolls under Joints. Motion locks, body types and kinematic
// platforms are how a game moves bodies by hand, as its character does: Character (the list
// has no Bodies category). The kinematic drum is the tumbler's twin: beside it, under Benchmark.
struct NameRule {
  std::string_view name;
  const char* category;
};
constexpr NameRule kNameRules[] = {
    {"friction_ramp", "Shapes"},
    {"restitution_row", "Shapes"},
    {"ragdolls", "Joints"},
    {"kinematic_drum", "Benchmark"},
    {"conveyor_belt", "Shapes"},
    {"rolling_resistance", "Shapes"},
    {"custom_filter", "Shapes"},
    {"modify_geometry", "Shapes"},
    {"chain_segment", "Shapes"},
    {"character_mover", "Character"},
    {"motion_locks", "Character"},
    {"body_type", "Character"},
    {"kinematic", "Character"},
    {"motor_joint", "Joints"},
    {"filter_joint", "Joints"},
    {"breakable", "Joints"},
    {"door", "Joints"},
    {"top_down_friction", "Joints"},
    {"scissor_lift", "Joints"},
    {"driving", "Joints"},
    {"bridge", "Joints"},
    {"gear_lift", "Joints"},
    {"joint_frames", "Joints"},
    {"body_move_events", "Events"},
    {"joint_events", "Events"},
};

char Lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

bool ContainsIgnoringCase(std::string_view text, std::string_view query) {
  auto equal = [](char a, char b) { return Lower(a) == Lower(b); };
  return std::search(text.begin(), text.end(), query.begin(), query.end(), equal) != text.end();
}

std::string_view TrimmedQuery(std::string_view query) {
  const size_t first = query.find_first_not_of(' ');
  if (first == std::string_view::npos) return {};
  return query.substr(first, query.find_last_not_of(' ') - first + 1);
}

// Every sample in table order (scenes, then labs), before sorting by category.
std::vector<Sample> Unsorted() {
  std::vector<Sample> samples;
  for (const scenes::SceneInfo& info : scenes::SceneTable())
    samples.push_back({info.name, BrowserCategory(info), info.description, false});
  for (const char* lab : LabNames())
    samples.push_back({lab, LabCategory(lab), MakeLab(lab)->Description(), true});
  return samples;
}

// Position of a category in the browser's order; Other (and anything unknown) last.
size_t CategoryRank(std::string_view category) {
  const std::span<const char* const> all = BrowserCategories();
  return static_cast<size_t>(std::find(all.begin(), all.end(), category) - all.begin());
}

}  // namespace

std::span<const char* const> BrowserCategories() { return kCategories; }

const char* BrowserCategory(const scenes::SceneInfo& info) {
  for (const NameRule& rule : kNameRules) {
    if (rule.name == info.name) return rule.category;
  }
  for (const FieldRule& rule : kFieldRules) {
    if (rule.field == info.category) return rule.category;
  }
  return kOtherCategory;
}

const char* LabCategory(std::string_view lab) { return lab == "shape_gallery" ? "Shapes" : "Collision labs"; }

const std::vector<Sample>& Samples() {
  static const std::vector<Sample> samples = [] {
    std::vector<Sample> all = Unsorted();
    // Stable: within a category the table's order, scenes before labs.
    std::stable_sort(all.begin(), all.end(), [](const Sample& a, const Sample& b) {
      return CategoryRank(a.category) < CategoryRank(b.category);
    });
    return all;
  }();
  return samples;
}

bool Matches(const Sample& sample, std::string_view query) {
  query = TrimmedQuery(query);
  return ContainsIgnoringCase(sample.name, query) || ContainsIgnoringCase(sample.description, query);
}

std::vector<int> FilterSamples(std::string_view query) {
  std::vector<int> matches;
  const std::vector<Sample>& all = Samples();
  for (size_t i = 0; i < all.size(); ++i) {
    if (Matches(all[i], query)) matches.push_back(static_cast<int>(i));
  }
  return matches;
}

std::vector<const char*> ShownCategories(const std::vector<int>& matches) {
  std::vector<const char*> all(BrowserCategories().begin(), BrowserCategories().end());
  all.push_back(kOtherCategory);
  std::vector<const char*> shown;
  for (const char* category : all) {
    const bool any = std::any_of(matches.begin(), matches.end(), [&](int index) {
      return std::string_view(Samples()[static_cast<size_t>(index)].category) == category;
    });
    if (any) shown.push_back(category);
  }
  return shown;
}

int IndexOf(std::string_view name) {
  const std::vector<Sample>& all = Samples();
  for (size_t i = 0; i < all.size(); ++i) {
    if (name == all[i].name) return static_cast<int>(i);
  }
  return -1;
}

const Sample& Adjacent(std::string_view current, int step) {
  const std::vector<Sample>& all = Samples();
  const int n = static_cast<int>(all.size());
  int at = IndexOf(current);
  if (at < 0) at = step > 0 ? -1 : n;  // between the last and the first: ] opens the first, [ the last
  return all[static_cast<size_t>(((at + step) % n + n) % n)];
}

std::string PlaceLine(std::string_view name) {
  const int at = IndexOf(name);
  if (at < 0) return "";
  const std::vector<Sample>& all = Samples();
  const std::string_view category = all[static_cast<size_t>(at)].category;
  int place = 0, size = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    if (all[i].category != category) continue;
    ++size;
    if (static_cast<int>(i) <= at) place = size;
  }
  return std::string(category) + ", " + std::to_string(place) + " of " + std::to_string(size);
}

std::vector<std::string> PlaceLines(std::string_view name, int columns) {
  const std::string place = PlaceLine(name);
  if (place.empty()) return {};
  const std::string oneLine = place + "   " + std::string(kPlaceKeysHint);
  if (oneLine.size() <= static_cast<size_t>(columns)) return {oneLine};
  return {place, std::string(kPlaceKeysHint)};
}

}  // namespace mk::sandbox
