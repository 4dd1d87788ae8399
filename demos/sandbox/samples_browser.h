// SPDX-License-Identifier: MIT
// The samples browser: every scene of the scene table and every lab, sorted into the categories of
// issue 34 (after Box2D v3's samples app), searchable by name and description, and stepped through
// with [ and ] in one fixed order. No ImGui here (the picker in scene_panels.cpp draws it), so the
// tests check the order, the filter and the wrapping directly.
#pragma once

#include "scenes.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mk::sandbox {

/// One entry of the browser: a scene-table row or a lab.
struct Sample {
  const char* name;         ///< the --scene argument
  const char* category;     ///< one of BrowserCategories(), or kOtherCategory
  std::string description;  ///< the scene's description or the lab's
  bool lab = false;
};

/// The browser's categories in the order it lists them (issue 34's list). A category without samples
/// is not shown (Determinism and Large world have none yet).
std::span<const char* const> BrowserCategories();

/// Where a scene whose row no rule below places would go (the tests require it to stay empty).
inline constexpr const char* kOtherCategory = "Other";

/// The browser category of a scene-table row: its `category` field mapped onto the browser's, with the
/// rows of the table's "features" and "stress" categories placed one by one (they mix joints, shapes,
/// events and character scenes).
const char* BrowserCategory(const scenes::SceneInfo& info);
/// The browser category of a lab (shape_gallery: Shapes; the others: Collision labs).
const char* LabCategory(std::string_view lab);

/// Every scene and lab in the browser's order: by category (BrowserCategories' order, then Other),
/// within one the table's order, then the labs in LabNames() order.
const std::vector<Sample>& Samples();

/// True when `query` occurs in the sample's name or description, ignoring case; an empty query (or
/// one of spaces only) matches every sample.
bool Matches(const Sample& sample, std::string_view query);
/// The indices into Samples() of the samples `query` matches, in the browser's order.
std::vector<int> FilterSamples(std::string_view query);

/// The categories the picker shows for `matches` (indices into Samples()): those holding at least one
/// of them, in the browser's order (Other last). An empty category is never shown.
std::vector<const char*> ShownCategories(const std::vector<int>& matches);

/// The index of `name` in Samples(), or -1.
int IndexOf(std::string_view name);
/// The sample `step` entries after `current` in the browser's order, wrapping at both ends ([ is -1,
/// ] is +1). An unknown `current` counts as standing before the first sample.
const Sample& Adjacent(std::string_view current, int step);

/// "Stacking, 3 of 12": the sample's category and its place in it ("" for an unknown name).
std::string PlaceLine(std::string_view name);
/// The keys that open the previous and next sample, shown after the place line.
inline constexpr std::string_view kPlaceKeysHint = "[ ] previous, next";
/// The place line and kPlaceKeysHint as the panel shows them, each line at most `columns` characters:
/// one line, three spaces apart, when both fit, else the hint on a line of its own, so neither is cut
/// mid-phrase by wrapping ("Robustness, 1 of 9   [ ] previous," then "next"). Empty for an unknown
/// name.
std::vector<std::string> PlaceLines(std::string_view name, int columns);

}  // namespace mk::sandbox
