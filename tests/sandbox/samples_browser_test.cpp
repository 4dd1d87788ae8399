// SPDX-License-Identifier: MIT
// The samples browser (samples_browser.h): every scene and lab once, in the categories' order, the
// search filter, [ and ] wrapping through the host, and the picker inside the panel's layout.
#include "samples_browser.h"

#include "layout_check.h"
#include "panel_harness.h"
#include "panel_text.h"
#include "view_host.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace mk;
using namespace mk::sandbox;

namespace {

// The names the browser must hold: every row of the table and every lab.
std::multiset<std::string> ExpectedNames() {
  std::multiset<std::string> names;
  for (const scenes::SceneInfo& info : scenes::SceneTable()) names.insert(info.name);
  for (const char* lab : LabNames()) names.insert(lab);
  return names;
}

std::string Lowered(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// The filter's answer found apart from it: every sample whose lowered name or description holds the
// lowered query.
std::vector<std::string> NamesContaining(const std::string& query) {
  std::vector<std::string> names;
  for (const Sample& s : Samples()) {
    if ((Lowered(s.name) + "\n" + Lowered(s.description)).find(Lowered(query)) != std::string::npos)
      names.push_back(s.name);
  }
  return names;
}

std::vector<std::string> NamesOf(const std::vector<int>& indices) {
  std::vector<std::string> names;
  for (int i : indices) names.push_back(Samples()[static_cast<size_t>(i)].name);
  return names;
}

size_t Rank(const char* category) {
  const auto all = BrowserCategories();
  return static_cast<size_t>(std::find(all.begin(), all.end(), std::string(category)) - all.begin());
}

int TableIndex(const std::string& name) {
  const auto table = scenes::SceneTable();
  for (size_t i = 0; i < table.size(); ++i) {
    if (name == table[i].name) return static_cast<int>(i);
  }
  return -1;
}

bool Contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

TEST_SUITE("sandbox.samples_browser") {
TEST_CASE(
    "every scene of the table and every lab is listed once in a category of the issue's "
    "list") {
  std::multiset<std::string> listed;
  for (const Sample& s : Samples()) {
    listed.insert(s.name);
    INFO(s.name);
    CHECK(Rank(s.category) < BrowserCategories().size());  // none left in Other
    CHECK_FALSE(s.description.empty());
  }
  CHECK(listed == ExpectedNames());
}

TEST_CASE("the order is the issue's categories then the table's order within one with labs after scenes") {
  const std::vector<Sample>& all = Samples();
  for (size_t i = 1; i < all.size(); ++i) {
    const Sample& a = all[i - 1];
    const Sample& b = all[i];
    INFO(a.name << " then " << b.name);
    REQUIRE(Rank(a.category) <= Rank(b.category));
    if (Rank(a.category) != Rank(b.category)) continue;
    CHECK((!a.lab || b.lab));  // no scene after a lab of its category
    if (!a.lab && !b.lab) CHECK(TableIndex(a.name) < TableIndex(b.name));
  }
  // Rows whose category the table spells alike land there; features rows are placed by name.
  CHECK(std::string(all.front().name) == scenes::SceneTable().front().name);
  CHECK(std::string(BrowserCategory(*scenes::FindScene("arch"))) == "Stacking");
  CHECK(std::string(BrowserCategory(*scenes::FindScene("character_mover"))) == "Character");
  CHECK(std::string(BrowserCategory(*scenes::FindScene("joint_events"))) == "Events");
  CHECK(std::string(BrowserCategory(*scenes::FindScene("modify_geometry"))) == "Shapes");
  CHECK(std::string(LabCategory("gjk_lab")) == "Collision labs");
}

TEST_CASE("the picker shows only categories that hold a match in the browser's order") {
  const std::vector<const char*> every = ShownCategories(FilterSamples(""));
  std::set<std::string> used;
  for (const Sample& s : Samples()) used.insert(s.category);
  CHECK(every.size() == used.size());  // no empty category
  for (size_t i = 1; i < every.size(); ++i) CHECK(Rank(every[i - 1]) < Rank(every[i]));
  // A query that matches labs only shows their category alone.
  const std::vector<const char*> labs = ShownCategories(FilterSamples("gjk_lab"));
  REQUIRE(labs.size() == 1);
  CHECK(std::string(labs[0]) == "Collision labs");
  CHECK(ShownCategories(FilterSamples("no sample says this")).empty());
}

TEST_CASE("the search matches name or description ignoring case and surrounding spaces") {
  for (const std::string query : {"stack", "Ragdoll", "JOINT", "m/s", "lab"}) {
    INFO(query);
    const std::vector<std::string> expected = NamesContaining(query);
    CHECK(NamesOf(FilterSamples(query)) == expected);
    CHECK(NamesOf(FilterSamples("  " + query + " ")) == expected);
    CHECK(expected.size() < Samples().size());
  }
  // A known subset: the stacks by name, rain by its description only ("ragdolls raining").
  const std::vector<std::string> stacks = NamesOf(FilterSamples("STACK"));
  for (const char* name : {"vertical_stack", "tilted_stack", "circle_stack", "capsule_stack"})
    CHECK(Contains(stacks, name));
  CHECK_FALSE(Contains(stacks, "large_pyramid"));
  CHECK(Contains(NamesOf(FilterSamples("raining")), "rain"));
  CHECK(FilterSamples("no sample says this").empty());
  CHECK(FilterSamples("").size() == Samples().size());
}

TEST_CASE("the next key walks every sample once through the host and wraps and the previous key walks back") {
  const std::vector<Sample>& all = Samples();
  ViewHost host;
  std::string error;
  REQUIRE(host.Load(all.front().name, {}, error));
  std::multiset<std::string> seen;
  for (size_t i = 0; i < all.size(); ++i) {
    seen.insert(host.Name());
    REQUIRE_MESSAGE(host.LoadAdjacent(+1, error), error);
  }
  CHECK(seen == ExpectedNames());
  CHECK(host.Name() == all.front().name);  // wrapped past the last
  REQUIRE(host.LoadAdjacent(-1, error));
  CHECK(host.Name() == all.back().name);  // and back past the first
  REQUIRE(host.LoadAdjacent(-1, error));
  CHECK(host.Name() == all[all.size() - 2].name);
  for (size_t i = 0; i < all.size(); ++i) {
    const size_t before = (i + all.size() - 1) % all.size();
    CHECK(std::string(Adjacent(all[i].name, -1).name) == all[before].name);
    CHECK(std::string(Adjacent(all[before].name, +1).name) == all[i].name);
  }
}

TEST_CASE("each sample's place line counts its category from 1 to its size") {
  std::map<std::string, std::set<std::string>> places;
  std::map<std::string, int> sizes;
  for (const Sample& s : Samples()) ++sizes[s.category];
  for (const Sample& s : Samples()) {
    const std::string line = PlaceLine(s.name);
    INFO(line);
    REQUIRE(line.starts_with(std::string(s.category) + ", "));
    CHECK(line.ends_with(" of " + std::to_string(sizes[s.category])));
    places[s.category].insert(line);
  }
  for (const auto& [category, lines] : places) CHECK(static_cast<int>(lines.size()) == sizes[category]);
  CHECK(PlaceLine("no_such_scene").empty());
}

// Regression: "Robustness, 1 of 9   [ ] previous, next" is 39 characters; wrapped in the panel's 38 it
// read "[ ] previous," and then "next" alone on the next line.
TEST_CASE("each sample's place and the previous and next keys fit the panel without wrapping") {
  for (const Sample& s : Samples()) {
    const std::vector<std::string> lines = PlaceLines(s.name, kPanelColumns);
    INFO(s.name);
    REQUIRE(!lines.empty());
    CHECK(lines.size() <= 2);
    CHECK(lines.front().starts_with(PlaceLine(s.name)));
    CHECK(lines.back().ends_with(kPlaceKeysHint));
    for (const std::string& line : lines) CHECK(line.size() <= static_cast<size_t>(kPanelColumns));
  }
  // The short ones keep one line.
  CHECK(PlaceLines("large_pyramid", kPanelColumns).size() == 1);
  CHECK(PlaceLines("no_such_scene", kPanelColumns).empty());
}

TEST_CASE("the picker with its search field keeps the panel's layout at both window sizes") {
  for (const ImVec2 window : {ImVec2(1280.0f, 720.0f), ImVec2(900.0f, 560.0f)}) {
    for (const char* name : {"card_house", "gjk_lab"}) {
      INFO(name << " at " << window.x);
      ViewHost host;
      std::string error;
      REQUIRE(host.Load(name, {}, error));
      test::PanelHarness panels(window.x, window.y);
      for (int frame = 0; frame < 3; ++frame) panels.Frame(host);
      CHECK(CheckLayout() == "");
    }
  }
}
}  // TEST_SUITE("sandbox.samples_browser")
