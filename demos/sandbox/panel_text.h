// SPDX-License-Identifier: MIT
// The side panel's lines of live figures (profile, counts, readouts, frame rate) as plain text with
// fixed-width numbers. The panel's font (ImGui's default, ProggyClean) gives every character the same
// advance, so a line of fixed length has a fixed width: a figure that grows (0.000341 ms, a step count,
// dropped steps) cannot push a line past the panel's edge. No ImGui here, so tests check every line.
#pragma once

#include "minkowski/world_types.h"

#include <cstddef>
#include <string>
#include <vector>

namespace mk::sandbox {

/// Characters of the panel's font that fit in one line of the side panel: its 270 px inner width
/// over the 7 px advance of ProggyClean at 13 px (a unit test checks every line below against it).
inline constexpr int kPanelColumns = 38;

/// `value` in exactly `width` characters (right-aligned), with `decimals` decimals when that fits,
/// fewer when it does not, then in exponent form ("1.2e+15"); NaN and infinities as "nan", "inf".
/// From a width of 7 up every finite value fits (in exponent form at worst); a narrower field that
/// cannot hold `value` is filled with '#'.
std::string FixedNumber(double value, int width, int decimals);

/// The metrics table: its head ("stage (ms)  now  avg  max", the columns right-aligned), one stage's
/// row (name, then the latest, average and largest time in ms, 8 characters each), and what the
/// average and the largest cover ("over the last 240 steps").
std::string MetricsHeader();
std::string MetricsRow(const char* stage, float nowMs, float averageMs, float maxMs);
std::string MetricsWindowLine(int steps);

/// `text` with its leading spaces moved to its end: a left-aligned figure of the same width.
std::string LeftAligned(std::string text);
/// `text` without leading and trailing spaces.
std::string Trimmed(const std::string& text);
/// `text` with spaces appended up to `width` characters (as it is when longer).
std::string PaddedTo(std::string text, size_t width);

/// The world's sizes after the last Step (World::GetCounters): bodies (awake), shapes and joints,
/// contacts (touching), islands. `stepped` is false before the first Step of what is shown, when the
/// world has counted nothing yet: one line says so instead of a column of zeros.
std::vector<std::string> CountLines(const Counters& c, bool stepped, bool sleepEnabled);
/// Islands are built only in a Step where some body has rested for timeToSleep (the sleep check), so
/// a count of 0 with bodies awake means "none checked", not "no islands": the line says which.
std::string IslandsLine(const Counters& c, bool sleepEnabled);

/// What the Solver panel says under the workers slider when the pool runs its `workers` on fewer
/// `threads`, the machine's (TaskPool's PoolThreads::AtMostHardware), one thread included: "on 2
/// threads, the machine's". Empty when there is nothing to say: no pool (threads 0, one worker) or a
/// thread for every worker.
std::string PoolThreadsLine(int threads, int workers);

/// The memory the world holds (World::GetMemoryStats): its total in MiB, then one line per part
/// (bodies, shapes, contacts, joints, chains, broadphase, step scratch) in KiB for the tooltip.
std::string MemoryLine(const MemoryStats& m);
std::vector<std::string> MemoryPartLines(const MemoryStats& m);

/// The status lines at the top of the panel: the step shown (with "recording"), or the replay's step
/// of its length; the frame rate with the real-time factor (or "paused"); the steps dropped.
std::string StepLine(int step, bool recording);
std::string ReplayStepLine(unsigned long long step, unsigned long long steps);
std::string FrameRateLine(float fps, float realTimeFactor, bool paused);
std::string DroppedLine(float droppedSteps);

/// The solver-lab readouts: deepest penetration (m), kinetic energy (J), drift since `since` s (m).
std::string PenetrationLine(float metres);
std::string EnergyLine(float joules);
std::string DriftLine(float since, float metres);

}  // namespace mk::sandbox
