// SPDX-License-Identifier: MIT
// The Profile's metrics table: now, average and max per stage over History's window, checked against
// figures computed apart from it for a known sequence of timings; its lines fit the panel, in text and
// in the panel's layout (the --check-layout check on the panel harness).
#include "layout_check.h"
#include "panel_harness.h"
#include "panel_text.h"
#include "panel_ui.h"
#include "scene_view.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

using namespace mk;
using namespace mk::sandbox;

namespace {

// A known sequence of timings (ms): a saw with a spike early on, which leaves the window later.
std::vector<float> Timings(int count, float scale) {
  std::vector<float> t;
  for (int i = 0; i < count; ++i)
    t.push_back(scale * (i == 20 ? 50.0f : 0.01f * static_cast<float>((i * 37) % 101)));
  return t;
}

struct Figures {
  float now, average, max;
};

// Now, average and max of the last History::kSize timings, from the sequence itself.
Figures Expected(const std::vector<float>& t) {
  const size_t first = t.size() > History::kSize ? t.size() - History::kSize : 0;
  const std::vector<float> window(t.begin() + static_cast<std::ptrdiff_t>(first), t.end());
  const double sum = std::accumulate(window.begin(), window.end(), 0.0);
  return {window.back(), static_cast<float>(sum / static_cast<double>(window.size())),
          *std::max_element(window.begin(), window.end())};
}

History Fed(const std::vector<float>& t) {
  History h;
  for (float v : t) h.Push(v);
  return h;
}

// The three figures of a table row ("solver         0.123    0.456    7.890").
Figures ParseRow(const std::string& row, std::string& name) {
  std::istringstream in(row);
  Figures f{};
  in >> name >> f.now >> f.average >> f.max;
  return f;
}

}  // namespace

TEST_SUITE("sandbox.metrics_table") {
TEST_CASE("a history's now and average and max are those of the last window of timings fed") {
  // Before the window fills, as it fills, and after the spike at step 20 has left it.
  for (int count : {1, 10, 21, History::kSize, History::kSize + 1, History::kSize + 21, 700}) {
    INFO(count << " timings");
    const std::vector<float> t = Timings(count, 1.0f);
    const History h = Fed(t);
    const Figures e = Expected(t);
    CHECK(h.Latest() == e.now);
    CHECK(h.Average() == doctest::Approx(e.average).epsilon(1e-5));
    CHECK(h.Max() == e.max);
    CHECK((h.Max() == 50.0f) == (count > 20 && count <= History::kSize + 20));
  }
  CHECK(History{}.Max() == 0.0f);
}

TEST_CASE("the table has a row per stage in order with the figures of that stage's timings") {
  ProfileHistory p;
  History* stages[] = {&p.broadphase, &p.narrowphase, &p.solver, &p.continuous, &p.islands, &p.step};
  const char* names[] = {"broadphase", "narrowphase", "solver", "continuous", "islands", "step"};
  const int count = History::kSize + 60;
  for (int s = 0; s < 6; ++s) *stages[s] = Fed(Timings(count, static_cast<float>(s + 1)));
  const std::vector<std::string> lines = MetricsLines(p);
  REQUIRE(lines.size() == 8);  // head, six stages, the window
  CHECK(lines.front() == MetricsHeader());
  CHECK(lines.back().find(std::to_string(History::kSize)) != std::string::npos);
  for (int s = 0; s < 6; ++s) {
    std::string name;
    const Figures shown = ParseRow(lines[static_cast<size_t>(s + 1)], name);
    const Figures e = Expected(Timings(count, static_cast<float>(s + 1)));
    INFO(lines[static_cast<size_t>(s + 1)]);
    CHECK(name == names[s]);
    CHECK(std::fabs(shown.now - e.now) <= 5e-4f);  // three decimals, rounded
    CHECK(std::fabs(shown.average - e.average) <= 5e-4f);
    CHECK(std::fabs(shown.max - e.max) <= 5e-4f);
  }
}

TEST_CASE("a scene's steps feed every stage of the table with continuous included") {
  const scenes::SceneInfo& info = *scenes::FindScene("vertical_stack_bullet");
  SceneView view(info, DefaultSettings(info));
  for (int i = 0; i < 30; ++i) view.StepOnce();
  for (const StageHistory& stage : Stages(view.Profile())) {
    INFO(stage.name);
    CHECK(stage.history->count == 30);
    CHECK(stage.history->Max() >= stage.history->Average());
    CHECK(stage.history->Average() >= 0.0f);
  }
  CHECK(view.Profile().step.Max() > 0.0f);
}

TEST_CASE("the table's lines keep their width for any timing and fit the panel") {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const size_t width = MetricsHeader().size();
  CHECK(width <= static_cast<size_t>(kPanelColumns));
  for (float v : {0.0f, 3.41e-4f, 0.5f, 12.345f, 999.999f, 12345.6f, 1e7f, -1e7f, 3e38f, inf, -inf, nan}) {
    for (const char* stage : {"broadphase", "narrowphase", "solver", "continuous", "islands", "step"}) {
      CHECK(MetricsRow(stage, v, 1.0f, 2.0f).size() == width);
      CHECK(MetricsRow(stage, 1.0f, v, 2.0f).size() == width);
      CHECK(MetricsRow(stage, 1.0f, 2.0f, v).size() == width);
    }
  }
  for (int steps : {0, 1, 240, 9999999})
    CHECK(MetricsWindowLine(steps).size() <= static_cast<size_t>(kPanelColumns));
}

TEST_CASE("the table and its plots pass the layout check at both window sizes while a long line fails it") {
  ProfileHistory p;
  for (History* h : {&p.broadphase, &p.narrowphase, &p.solver, &p.continuous, &p.islands, &p.step})
    *h = Fed({1e7f, 0.000341f, 12345.678f});
  // The panel as the sandbox shows it: taller than the window, so its scroll bar takes 14 px and
  // kPanelColumns characters fill the 270 px left (without it 40 would fit).
  auto panel = [&](const std::string& extra) {
    BeginSidePanel();
    DrawMetricsTable(p);
    ImGui::TextUnformatted(extra.c_str());
    ImGui::Dummy(ImVec2(1.0f, 2000.0f));
    EndSidePanel();
  };
  for (const ImVec2 window : {ImVec2(1280.0f, 720.0f), ImVec2(900.0f, 560.0f)}) {
    test::PanelHarness panels(window.x, window.y);
    for (int frame = 0; frame < 3; ++frame) panels.FrameOf([&] { panel(MetricsHeader()); });
    CHECK(CheckLayout() == "");
    // The check sees what it guards against: one character past the panel's columns.
    const std::string tooLong(static_cast<size_t>(kPanelColumns) + 1, 'x');
    for (int frame = 0; frame < 3; ++frame) panels.FrameOf([&] { panel(tooLong); });
    CHECK(CheckLayout().find("text cut off") != std::string::npos);
  }
}
}  // TEST_SUITE("sandbox.metrics_table")
