// SPDX-License-Identifier: MIT
#include "panel_text.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace mk::sandbox {
namespace {

constexpr int kCountWidth = 7;  // counts up to 9,999,999 in full, larger ones in exponent form

std::string Count(int n) { return FixedNumber(n, kCountWidth, 0); }

}  // namespace

std::string FixedNumber(double value, int width, int decimals) {
  char text[64];
  if (!std::isfinite(value)) {
    std::snprintf(text, sizeof text, "%*s", width, std::isnan(value) ? "nan" : value > 0 ? "inf" : "-inf");
    return text;
  }
  // snprintf returns the length it needed, so a number too long for `text` is caught as well.
  for (int d = decimals; d >= 0; --d) {
    if (std::snprintf(text, sizeof text, "%*.*f", width, d, value) <= width) return text;
  }
  // "-1.5e+300": sign, digit, point, d digits and a 4- or 5-character exponent.
  for (int d = width - 6; d >= 0; --d) {
    if (std::snprintf(text, sizeof text, "%*.*e", width, d, value) <= width) return text;
  }
  return std::string(static_cast<size_t>(width), '#');  // only when width < 7 (see the header)
}

std::string LeftAligned(std::string text) {
  const size_t spaces = text.find_first_not_of(' ');
  if (spaces == std::string::npos || spaces == 0) return text;
  return text.substr(spaces) + std::string(spaces, ' ');
}

std::string Trimmed(const std::string& text) {
  const size_t first = text.find_first_not_of(' ');
  return first == std::string::npos ? "" : text.substr(first, text.find_last_not_of(' ') - first + 1);
}

std::string PaddedTo(std::string text, size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

constexpr int kStageNameWidth = 11;  // the longest stage name, "narrowphase"
constexpr int kTimeWidth = 8;        // " 1234.567": a space between columns, then the figure

std::string MetricsHeader() {
  char line[64];
  std::snprintf(line, sizeof line, "%-*s %*s %*s %*s", kStageNameWidth, "stage (ms)", kTimeWidth, "now",
                kTimeWidth, "avg", kTimeWidth, "max");
  return line;
}

std::string MetricsRow(const char* stage, float nowMs, float averageMs, float maxMs) {
  char name[32];
  std::snprintf(name, sizeof name, "%-*.*s", kStageNameWidth, kStageNameWidth, stage);
  return std::string(name) + " " + FixedNumber(nowMs, kTimeWidth, 3) + " " +
         FixedNumber(averageMs, kTimeWidth, 3) + " " + FixedNumber(maxMs, kTimeWidth, 3);
}

std::string MetricsWindowLine(int steps) {
  return "avg, max over the last " + Trimmed(FixedNumber(steps, 7, 0)) + " steps";
}

std::string MemoryLine(const MemoryStats& m) {
  return "memory held " + FixedNumber(static_cast<double>(m.total) / (1024.0 * 1024.0), 9, 3) + " MiB";
}

std::vector<std::string> MemoryPartLines(const MemoryStats& m) {
  std::vector<std::string> lines;
  for (auto [name, bytes] : {std::pair{"bodies", m.bodies},
                             {"shapes", m.shapes},
                             {"contacts", m.contacts},
                             {"joints", m.joints},
                             {"chains", m.chains},
                             {"broadphase", m.broadphase},
                             {"step scratch", m.step}}) {
    lines.push_back(PaddedTo(name, 12) + FixedNumber(static_cast<double>(bytes) / 1024.0, 10, 1) + " KiB");
  }
  return lines;
}

std::string IslandsLine(const Counters& c, bool sleepEnabled) {
  if (c.islands > 0) return "islands checked for sleep " + Count(c.islands);
  if (!sleepEnabled) return "islands: not built (sleep off)";
  if (c.awakeBodies == 0) return "islands: none awake";
  return "islands: not built (none at rest)";
}

std::string PoolThreadsLine(int threads, int workers) {
  if (threads <= 0 || threads >= workers) return {};
  return "on " + std::to_string(threads) + (threads == 1 ? " thread" : " threads") + ", the machine's";
}

std::vector<std::string> CountLines(const Counters& c, bool stepped, bool sleepEnabled) {
  if (!stepped) return {"counts: after the first step"};
  return {"bodies " + Count(c.bodies) + "  awake " + Count(c.awakeBodies),
          "shapes " + Count(c.shapes) + "  joints " + Count(c.joints),
          "contacts " + Count(c.contacts) + "  touching " + Count(c.touchingContacts),
          IslandsLine(c, sleepEnabled)};
}

// Lines of running text: each figure without its padding, the line padded at its end to the length
// its longest figures give. It reads as a sentence, and its width still cannot grow.
std::string StepLine(int step, bool recording) {
  return std::string(recording ? "recording  " : "") + "step " + LeftAligned(FixedNumber(step, 10, 0));
}

std::string ReplayStepLine(unsigned long long step, unsigned long long steps) {
  constexpr int kWidth = 8;  // steps up to 99,999,999 in full
  const std::string line = "replay step " + Trimmed(FixedNumber(static_cast<double>(step), kWidth, 0)) +
                           " of " + Trimmed(FixedNumber(static_cast<double>(steps), kWidth, 0));
  return PaddedTo(line, 16 + 2 * kWidth);
}

std::string FrameRateLine(float fps, float realTimeFactor, bool paused) {
  const std::string rate = "FPS " + Trimmed(FixedNumber(fps, 5, 0)) + "  ";
  const std::string line =
      rate + (paused ? std::string("paused") : "real time x" + Trimmed(FixedNumber(realTimeFactor, 5, 2)));
  return PaddedTo(line, 4 + 5 + 2 + 11 + 5);
}

std::string DroppedLine(float droppedSteps) {
  return "steps dropped " + LeftAligned(FixedNumber(droppedSteps, 10, 0));
}

std::string PenetrationLine(float metres) { return "max penetration " + FixedNumber(metres, 9, 4) + " m"; }

std::string EnergyLine(float joules) { return "kinetic energy  " + FixedNumber(joules, 11, 4) + " J"; }

std::string DriftLine(float since, float metres) {
  return "drift " + FixedNumber(metres, 10, 4) + " m since " + LeftAligned(FixedNumber(since, 7, 1) + " s");
}

}  // namespace mk::sandbox
