// SPDX-License-Identifier: MIT
#include "solver/support_levels.h"

#include "solver/contact_solver.h"

namespace mk {

namespace {

std::uint64_t PairOf(const ContactKey& key) {
  return (std::uint64_t{static_cast<std::uint32_t>(key.indexA)} << 32) |
         static_cast<std::uint32_t>(key.indexB);
}

// Copies `from` into `last` (resized to it) and says whether it was there already: the equal prefix
// is only read, the rest written.
template <class T, class Source, class Make>
bool SameAsLast(const Source& from, std::vector<T>& last, Make make) {
  std::size_t i = 0;
  const bool sameSize = last.size() == from.size();
  if (sameSize) {
    while (i < from.size() && last[i] == make(from[i])) ++i;
  }
  last.resize(from.size());
  const bool same = sameSize && i == from.size();
  for (; i < from.size(); ++i) last[i] = make(from[i]);
  return same;
}

}  // namespace

void ComputeSupportLevels(std::span<const ContactKey> keys, std::span<const BodyParams> params,
                          std::vector<int>& levels, SupportLevelScratch& scratch) {
  const std::size_t bodyCount = params.size();
  // Both are compared (and recorded) whatever the first says.
  const bool samePairs = SameAsLast(keys, scratch.lastPairs, PairOf);
  const bool sameBodies =
      SameAsLast(params, scratch.lastFixed, [](const BodyParams& p) { return std::uint8_t{NeverMoves(p)}; });
  const bool same = scratch.computed && samePairs && sameBodies && levels.size() == bodyCount;
  scratch.computed = true;
  if (same) return;
  levels.assign(bodyCount, kUnsupported);
  int* level = levels.data();
  // One pass over the contacts: bodies on static ground (or on sleeping bodies) are level 1, and
  // the contacts between two moving bodies are counted per body for the adjacency lists.
  std::vector<int>& start = scratch.start;
  start.assign(bodyCount + 1, 0);
  int* count = start.data() + 1;
  for (const ContactKey& key : keys) {
    if (key.indexA < 0 || key.indexB < 0) {
      const int body = key.indexA < 0 ? key.indexB : key.indexA;
      if (body >= 0) level[body] = 1;
      continue;
    }
    ++count[key.indexA];
    ++count[key.indexB];
  }
  for (std::size_t i = 1; i <= bodyCount; ++i) start[i] += start[i - 1];
  // Filled from each list's end down, so that afterwards start[i + 1] is list i's beginning and
  // start[i + 2] its end.
  std::vector<int>& neighbours = scratch.neighbours;
  neighbours.resize(static_cast<std::size_t>(start[bodyCount]));
  int* next = neighbours.data();
  for (const ContactKey& key : keys) {
    if (key.indexA < 0 || key.indexB < 0) continue;
    next[--count[key.indexA]] = key.indexB;
    next[--count[key.indexB]] = key.indexA;
  }
  // The breadth-first search's queue, seeded with levels 0 and then 1, holds levels in increasing
  // order, so a body's first level is its least.
  std::vector<int>& queue = scratch.queue;
  queue.resize(bodyCount);
  int tail = 0;
  for (std::size_t i = 0; i < bodyCount; ++i) {
    if (NeverMoves(params[i])) {
      level[i] = 0;
      queue[static_cast<std::size_t>(tail++)] = static_cast<int>(i);
    }
  }
  for (std::size_t i = 0; i < bodyCount; ++i) {
    if (level[i] == 1) queue[static_cast<std::size_t>(tail++)] = static_cast<int>(i);
  }
  const int edgeCount = static_cast<int>(neighbours.size());
  for (int head = 0; head < tail; ++head) {
    const int body = queue[static_cast<std::size_t>(head)];
    const int nextLevel = level[body] + 1;
    const int end = body + 1 < static_cast<int>(bodyCount) ? count[body + 1] : edgeCount;
    for (int e = count[body]; e < end; ++e) {
      const int other = next[e];
      if (level[other] <= nextLevel) continue;
      level[other] = nextLevel;
      queue[static_cast<std::size_t>(tail++)] = other;
    }
  }
}

}  // namespace mk
