// SPDX-License-Identifier: MIT
#include "panel_text.h"

#include "core/hardware_threads_as.h"
#include "scene_view.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

using namespace mk;
using namespace mk::sandbox;

namespace {

// Figures from nothing to absurd, as live timings, counts and readouts may show them.
const std::vector<double>& Figures() {
  static const std::vector<double> figures = {
      0.0,     -0.0,   3.41e-4, 4.26e-4, 9.1e-5, 0.5,   1.0,  12.5,  99.99,  999.99,  1234.5, 65432.1,
      2.372e5, 2736.9, 1e7,     -1e7,    1.5e15, -3e38, 3e38, 1e300, -1e300, INT_MAX, INT_MIN};
  return figures;
}

const float kInf = std::numeric_limits<float>::infinity();
const float kNan = std::numeric_limits<float>::quiet_NaN();

// Every line any figure gives has the same length, within the panel.
template <class Line>
void CheckFixedWidth(const char* what, Line line) {
  const size_t width = line(0.0).size();
  CHECK_MESSAGE(width <= static_cast<size_t>(kPanelColumns), what);
  for (double v : Figures()) {
    const std::string text = line(v);
    CHECK_MESSAGE(text.size() == width, what << ": '" << text << "' for " << v);
  }
  for (float v : {kInf, -kInf, kNan}) CHECK_MESSAGE(line(v).size() == width, what << " for " << v);
}

// Every line any figure gives fits the panel.
template <class Line>
void CheckFits(const char* what, Line line) {
  for (double v : Figures()) {
    const std::string text = line(v);
    CHECK_MESSAGE(text.size() <= static_cast<size_t>(kPanelColumns), what << ": '" << text << "'");
  }
}

int Int(double v) {
  return std::isfinite(v) ? static_cast<int>(std::clamp(v, -2147483648.0, 2147483647.0)) : 0;
}

}  // namespace

TEST_SUITE("sandbox.panel_text") {
TEST_CASE("a fixed number keeps its width for any value and its decimals while they fit") {
  for (int width : {7, 8, 10}) {
    for (double v : Figures()) CHECK(FixedNumber(v, width, 4).size() == static_cast<size_t>(width));
  }
  CHECK(FixedNumber(0.000341, 9, 4) == "   0.0003");
  CHECK(std::stod(FixedNumber(2736.9, 8, 4)) == doctest::Approx(2736.9).epsilon(1e-4));  // fewer decimals
  CHECK(std::stod(FixedNumber(1.5e15, 8, 4)) == doctest::Approx(1.5e15).epsilon(0.05));  // exponent form
  CHECK(FixedNumber(kNan, 7, 2).find("nan") != std::string::npos);
  CHECK(LeftAligned("   1.5") == "1.5   ");
}

TEST_CASE("the readouts and the status lines fit the panel for any figure") {
  CheckFixedWidth("penetration", [](double v) { return PenetrationLine(static_cast<float>(v)); });
  CheckFixedWidth("energy", [](double v) { return EnergyLine(static_cast<float>(v)); });
  CheckFixedWidth("drift", [](double v) { return DriftLine(1.0f, static_cast<float>(v)); });
  CheckFits("drift since", [](double v) { return DriftLine(static_cast<float>(v), 2736.9f); });
  CheckFits("step", [](double v) { return StepLine(Int(v), true); });
  CheckFixedWidth("replay", [](double v) {
    return ReplayStepLine(static_cast<unsigned long long>(std::fabs(Int(v))), ULLONG_MAX);
  });
  CheckFixedWidth("frame rate", [](double v) {
    return FrameRateLine(static_cast<float>(v), static_cast<float>(v), false);
  });
  CheckFits("dropped", [](double v) { return DroppedLine(static_cast<float>(v)); });
}

TEST_CASE("the count lines fit the panel for any count") {
  for (double v : Figures()) {
    const int n = Int(v);
    const Counters c{.bodies = n,
                     .awakeBodies = n,
                     .shapes = n,
                     .contacts = n,
                     .touchingContacts = n,
                     .joints = n,
                     .islands = n};
    for (bool sleep : {false, true}) {
      for (const std::string& line : CountLines(c, true, sleep))
        CHECK_MESSAGE(line.size() <= static_cast<size_t>(kPanelColumns), "'" << line << "'");
    }
  }
}

TEST_CASE("the memory line fits the panel and reads the world's own figure") {
  for (std::size_t bytes :
       {std::size_t{0}, std::size_t{1023}, std::size_t{5} << 20, std::size_t{1} << 40, ~std::size_t{0}}) {
    const MemoryStats m{bytes, bytes, bytes, bytes, bytes, bytes, bytes, bytes};
    CHECK_MESSAGE(MemoryLine(m).size() <= static_cast<size_t>(kPanelColumns), "'" << MemoryLine(m) << "'");
    for (const std::string& line : MemoryPartLines(m))
      CHECK_MESSAGE(line.size() <= static_cast<size_t>(kPanelColumns), "'" << line << "'");
  }
  // A scene's world: the line shows its total in MiB to the KiB.
  const scenes::SceneInfo& info = *scenes::FindScene("large_pyramid");
  SceneView view(info, DefaultSettings(info));
  view.StepOnce();
  const MemoryStats m = view.GetWorld().GetMemoryStats();
  const std::string line = MemoryLine(m);
  const double mib = std::stod(line.substr(line.find_first_of("0123456789")));
  CHECK(mib == doctest::Approx(static_cast<double>(m.total) / (1024.0 * 1024.0)).epsilon(1e-3));
  CHECK(mib > 1.0);  // 5,050 boxes: at least their body and shape records
}

// The Profile read "islands 0" with 165 bodies awake: the step builds islands only for the sleep check.
TEST_CASE("the islands line shows a count only when the step built islands and says why otherwise") {
  const scenes::SceneInfo& info = *scenes::FindScene("vertical_stack");
  SceneView view(info, DefaultSettings(info));
  int withoutIslands = 0, withIslands = 0;
  for (int step = 0; step < 240; ++step) {
    view.StepOnce();
    const Counters c = view.GetWorld().GetCounters();
    const std::string line = IslandsLine(c, true);
    const size_t digit = line.find_first_of("0123456789");
    if (c.islands == 0) {
      ++withoutIslands;
      CHECK_MESSAGE(digit == std::string::npos, "'" << line << "' with " << c.awakeBodies << " awake");
      CHECK(line.find(c.awakeBodies > 0 ? "none at rest" : "none awake") != std::string::npos);
    } else {
      ++withIslands;
      REQUIRE(digit != std::string::npos);
      CHECK(std::stoi(line.substr(digit)) == c.islands);
    }
  }
  CHECK(withoutIslands > 0);  // the stack falls into place awake, then rests: both cases are seen
  CHECK(withIslands > 0);
  CHECK(IslandsLine({.awakeBodies = 165}, false).find("sleep off") != std::string::npos);
}

TEST_CASE("the pool's threads line says when the workers share fewer threads and one thread too") {
  const scenes::SceneInfo& info = *scenes::FindScene("vertical_stack");
  for (int hardware : {1, 2, 3}) {
    const test::HardwareThreadsAs machine(hardware);  // the pools below are made under it
    for (int workers : {1, 2, 3, 4, 8}) {
      CAPTURE(hardware);
      CAPTURE(workers);
      SceneSettings s = DefaultSettings(info);
      s.workers = workers;
      SceneView view(info, s);
      view.StepOnce();
      const int expected = workers == 1 ? 0 : std::min(workers, hardware);  // no pool for one worker
      CHECK(view.WorkerThreads() == expected);
      const std::string line = PoolThreadsLine(view.WorkerThreads(), workers);
      if (workers == 1 || hardware >= workers) {
        CHECK(line.empty());
        continue;
      }
      REQUIRE(!line.empty());
      CHECK(line.size() <= static_cast<size_t>(kPanelColumns));
      CHECK(std::stoi(line.substr(line.find_first_of("0123456789"))) == hardware);
      CHECK((line.find(hardware == 1 ? "1 thread," : "threads,") != std::string::npos));
    }
  }
  CHECK(PoolThreadsLine(0, 4).empty());  // no pool
  CHECK(PoolThreadsLine(4, 4).empty());  // a thread a worker
}
}  // TEST_SUITE("sandbox.panel_text")
