// SPDX-License-Identifier: MIT
// The graph-coloured, SIMD-wide contact solver (contact_graph.h): colouring, packing and the other
// passes that use no lane operation, for every lane type, and the kernels (contact_graph_kernels.h) for
// the baseline ones; contact_graph_avx2.cpp has the 8-lane kernels.
#include "solver/contact_graph.h"

#include "core/parallel.h"
#include "minkowski/assert.h"
#include "solver/body_lanes.h"
#include "solver/contact_graph_kernels.h"
#include "solver/contact_solver.h"
#include "solver/support_levels.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <span>
#include <utility>

namespace mk {

namespace {

// Lane k of group g from constraint c (an empty lane: constraint null).
template <class F>
void PackLane(WideContactGroup<F>& g, int k, const ContactConstraint* c, int constraintIndex, int staticSlot,
              const int* levels = nullptr) {
  const RelaxMoves moves = c == nullptr ? RelaxMoves{} : RelaxMovesOf(levels, c->indexA, c->indexB);
  g.relaxMoveA[k] = moves.a;
  g.relaxMoveB[k] = moves.b;
  if (c == nullptr) {
    // Zero masses and only the static slot: the lane's impulses stay 0 and it moves nothing.
    g.normalX[k] = g.normalY[k] = g.friction[k] = 0.0f;
    g.invMassA[k] = g.invIA[k] = g.invMassB[k] = g.invIB[k] = 0.0f;
    g.indexA[k] = g.indexB[k] = staticSlot;
    g.constraint[k] = -1;
  } else {
    g.normalX[k] = c->normal.x;
    g.normalY[k] = c->normal.y;
    g.friction[k] = c->friction;
    g.invMassA[k] = c->invMassA;
    g.invIA[k] = c->invIA;
    g.invMassB[k] = c->invMassB;
    g.invIB[k] = c->invIB;
    g.indexA[k] = c->indexA >= 0 ? c->indexA : staticSlot;
    g.indexB[k] = c->indexB >= 0 ? c->indexB : staticSlot;
    g.constraint[k] = constraintIndex;
  }
  for (int j = 0; j < 2; ++j) {
    auto& p = g.points[j];
    const bool used = c != nullptr && j < c->pointCount;
    const ContactConstraintPoint cp = used ? c->points[j] : ContactConstraintPoint{};
    p.rnA[k] = cp.rnA;
    p.rnB[k] = cp.rnB;
    p.rtA[k] = cp.rtA;
    p.rtB[k] = cp.rtB;
    p.adjustedSeparation[k] = cp.adjustedSeparation;
    p.normalMass[k] = used ? cp.normalMass : 0.0f;
    p.tangentMass[k] = used ? cp.tangentMass : 0.0f;
    p.normalImpulse[k] = cp.normalImpulse;
    p.tangentImpulse[k] = cp.tangentImpulse;
    p.maxNormalImpulse[k] = cp.maxNormalImpulse;
  }
}

// Ranges of solver body indices ColorContacts orders each colour's slots by, for several workers.
constexpr int kSlotBodyRanges = 64;

// The moving body a contact's slot goes by: A unless A is static (a contact always has one moving).
int FirstMovingBody(const ContactKey& key) { return key.indexA >= 0 ? key.indexA : key.indexB; }

// Gives every contact its colour (graph.colorOf, graph.colorSize) and its slot in it, lays out the
// colours' groups (graph.colorGroupStart), lists the overflow, and with byBodyRange each lane's contact
// (graph.laneContact). Reads the compact keys alone: two passes over the 180-byte constraints would
// pull a cache line per contact each.
//
// The slots go in input order; with byBodyRange, in the order of the range of solver indices (at most
// kSlotBodyRanges of them) the contact's first moving body is in, input order within a range. A
// colour's contacts share no moving body, so their order in it changes no result. But the workers
// split each colour by slots and the integrators by body index, and in this order worker w's part of
// every colour touches mostly the bodies of its own part of the integrators', whose states then stay
// in its core's cache, where in input order a tumbling crowd's contacts (slots handed out as the
// boxes met) touch bodies anywhere (docs/benchmarks.md, "A colour's lanes by body range").
template <class F>
void ColorContacts(std::span<const ContactKey> keys, ContactGraph<F>& graph, bool byBodyRange) {
  graph.colorOf.resize(keys.size());
  graph.slotOf.resize(keys.size());
  std::fill(std::begin(graph.colorSize), std::end(graph.colorSize), 0);
  // Ranges of 2^shift bodies, the fewest that make at most kSlotBodyRanges (a shift, not a division,
  // per contact: the colouring is serial).
  int shift = 0;
  while ((graph.bodyColors.size() >> shift) >= static_cast<std::size_t>(kSlotBodyRanges)) ++shift;
  const auto rangeOf = [shift](int body) { return body >> shift; };
  int rangeSlots[kGraphColorCount][kSlotBodyRanges];  // per colour and range: contacts, then next slot
  if (byBodyRange) std::memset(rangeSlots, 0, sizeof(rangeSlots));
  // Contacts between moving bodies first, then each contact with a body that never moves in a colour
  // after its moving body's (AssignColorAfter: the static row has the final say). The second pass
  // takes its contacts from a list the first made (kept in `overflow` until the overflow's own list
  // below), not from a second walk over every key: the colouring is serial, and a pyramid's contacts
  // with the ground are a few in a hundred. A scalarOnly contact (rolling resistance or tangent speed)
  // is the scalar code's: the overflow.
  std::vector<int>& againstStatic = graph.overflow;
  againstStatic.clear();
  // The slot in input order; by body range, the range's count (the slot is given below).
  const auto colorAs = [&](std::size_t i, int color) {
    graph.colorOf[i] = static_cast<std::int8_t>(color);
    if (color < 0) return;
    if (byBodyRange) {
      ++graph.colorSize[color];
      ++rangeSlots[color][rangeOf(FirstMovingBody(keys[i]))];
    } else {
      graph.slotOf[i] = graph.colorSize[color]++;
    }
  };
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const int a = keys[i].indexA, b = keys[i].indexB;
    if (a < 0 || b < 0) {
      againstStatic.push_back(static_cast<int>(i));
    } else {
      colorAs(i, keys[i].scalarOnly ? -1 : AssignColor(graph.bodyColors, a, b));
    }
  }
  for (const int i : againstStatic) {
    const ContactKey& key = keys[static_cast<std::size_t>(i)];
    colorAs(static_cast<std::size_t>(i),
            key.scalarOnly ? -1 : AssignColorAfter(graph.bodyColors, FirstMovingBody(key)));
  }
  graph.overflow.clear();
  // Groups: each colour's contacts in slot order, W to a group, the last one padded.
  constexpr int W = F::kLanes;
  graph.colorGroupStart[0] = 0;
  for (int c = 0; c < kGraphColorCount; ++c)
    graph.colorGroupStart[c + 1] = graph.colorGroupStart[c] + (graph.colorSize[c] + W - 1) / W;
  if (!byBodyRange) {
    graph.laneContact.clear();
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (graph.colorOf[i] < 0) graph.overflow.push_back(static_cast<int>(i));
    }
    return;
  }
  for (int c = 0; c < kGraphColorCount; ++c) {  // counts to each range's first slot
    int slot = 0;
    for (int& r : rangeSlots[c]) slot += std::exchange(r, slot);
  }
  // Each colour's lanes start at its first group's; the padding lanes after its last contact hold no
  // constraint.
  const auto laneStart = [&graph](int color) { return graph.colorGroupStart[color] * W; };
  graph.laneContact.resize(static_cast<std::size_t>(laneStart(kGraphColorCount)));
  for (int c = 0; c < kGraphColorCount; ++c) {
    std::fill(graph.laneContact.begin() + laneStart(c) + graph.colorSize[c],
              graph.laneContact.begin() + laneStart(c + 1), -1);
  }
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const int color = graph.colorOf[i];
    if (color < 0) {
      graph.overflow.push_back(static_cast<int>(i));
    } else {
      const int slot = rangeSlots[color][rangeOf(FirstMovingBody(keys[i]))]++;
      graph.slotOf[i] = slot;
      graph.laneContact[static_cast<std::size_t>(laneStart(color) + slot)] = static_cast<int>(i);
    }
  }
}

// The contacts [begin, end) into their lanes (ColorContacts gave each its colour and slot).
template <class F>
void PackContactRange(std::span<const ContactConstraint> contacts, ContactGraph<F>& graph, int begin, int end,
                      const int* levels) {
  constexpr int W = F::kLanes;
  // Locals, not the graph's members: the lanes' int and float stores could alias those, which the
  // compiler would then reload for every contact.
  const std::int8_t* colorOf = graph.colorOf.data();
  const int* slotOf = graph.slotOf.data();
  WideContactGroup<F>* groups = graph.groups.data();
  const int staticSlot = graph.staticSlot;
  int groupStart[kGraphColorCount];
  std::copy_n(graph.colorGroupStart, kGraphColorCount, groupStart);
  for (int i = begin; i < end; ++i) {
    const int color = colorOf[i];
    if (color < 0) continue;
    const int slot = slotOf[i];
    PackLane(groups[groupStart[color] + slot / W], slot % W, &contacts[static_cast<size_t>(i)], i, staticSlot,
             levels);
  }
}

// Asks for the constraints of a group's lanes (`lanes`: its laneContact entries) before they are read:
// in lane order they lie anywhere in the constraint array, so each read would wait in turn.
inline void PrefetchGroupConstraints(const ContactConstraint* constraints, const int* lanes, int laneCount) {
  for (int k = 0; k < laneCount; ++k) {
    if (lanes[k] < 0) continue;
    const char* bytes = reinterpret_cast<const char*>(&constraints[lanes[k]]);
    for (std::size_t at = 0; at < sizeof(ContactConstraint); at += 64) __builtin_prefetch(bytes + at);
  }
}

// fn(color, begin, end) over every colour's groups on the workers, cut into slices across the
// colours: slice j of n holds the j-th n-th of each colour's groups. A worker that takes the w-th
// part of the slices first (TaskPool's order) then meets the groups it packed and solved (the packing
// with workers goes by these slices too, and SolverStages starts worker w at the w-th part of each
// colour): their lanes, and the contacts behind them, are in its own core's cache. Split over all the
// groups at once, a range held whole colours, half of them solved on the other core, and
// large_pyramid's and many_pyramids' two-worker steps took 8% longer (docs/benchmarks.md, "Two
// workers, one data each").
template <class F, class Fn>
void ForColorSlices(const ContactGraph<F>& graph, const TaskSystem* tasks, Fn&& fn) {
  const int slices = ColorSliceCount(graph.colorGroupStart[kGraphColorCount], kMinGroupsPerStoreRange);
  ParallelFor(tasks, slices, 1, [&](int begin, int end) {
    for (int c = 0; c < kGraphColorCount; ++c) {
      const int first = graph.colorGroupStart[c];
      const int count = graph.colorGroupStart[c + 1] - first;
      const int from = ColorSliceStart(first, count, begin, slices);
      const int to = ColorSliceStart(first, count, end, slices);
      if (from < to) fn(c, from, to);
    }
  });
}

// What a colouring of `keysVersion` for `bodyCount` bodies on `tasks` is made from
// (ContactGraph::coloredFrom).
ColoredFrom ColoringSource(int bodyCount, const TaskSystem* tasks, std::uint64_t keysVersion) {
  return {keysVersion, bodyCount, /*layout=*/HasWorkers(tasks) ? 1 : 0};
}

}  // namespace

template <class F>
bool NeedsColoring(const ContactGraph<F>& graph, int bodyCount, const TaskSystem* tasks,
                   std::uint64_t keysVersion) {
  return keysVersion == kColorAlways || graph.coloredFrom != ColoringSource(bodyCount, tasks, keysVersion);
}

template <class F>
void ColorContactGraph(std::span<const ContactKey> keys, int bodyCount, ContactGraph<F>& graph,
                       const TaskSystem* tasks, std::uint64_t keysVersion) {
  graph.bodyColors.assign(static_cast<size_t>(bodyCount), 0u);
  ColorContacts(keys, graph, /*byBodyRange=*/HasWorkers(tasks));
  graph.groups.resize(static_cast<size_t>(graph.colorGroupStart[kGraphColorCount]));
  graph.coloredFrom =
      keysVersion == kColorAlways ? ColoredFrom{} : ColoringSource(bodyCount, tasks, keysVersion);
}

template <class F>
void PackContactGraph(std::span<const ContactConstraint> contacts, std::span<const int> levels, int bodyCount,
                      ContactGraph<F>& graph, const TaskSystem* tasks) {
  constexpr int W = F::kLanes;
  graph.staticSlot = bodyCount;
  const int* levelsOrNull = levels.empty() ? nullptr : levels.data();
  if (!graph.laneContact.empty()) {
    // With workers, group by group: the packing is most of the build (each contact's 180-byte
    // constraint read, its lane written), and a worker that packed contacts in input order wrote lanes
    // all over the groups, most of whose lines the other worker wrote too; each store then waited for
    // its line to come from the other core (tumbler: four times one worker's work, twice its time;
    // docs/benchmarks.md, "The packing group by group"). Whole groups by colour slices are the groups
    // the same worker then solves first; reading a constraint the other core prepared costs one miss.
    ForColorSlices(graph, tasks, [&](int, int from, int to) {
      const ContactConstraint* constraints = contacts.data();
      const int* laneContact = graph.laneContact.data();
      for (int g = from; g < to; ++g) {
        if (g + 1 < to)
          PrefetchGroupConstraints(constraints, laneContact + static_cast<std::size_t>(g + 1) * W, W);
        for (int k = 0; k < W; ++k) {
          const int i = laneContact[static_cast<std::size_t>(g) * W + static_cast<std::size_t>(k)];
          PackLane(graph.groups[static_cast<std::size_t>(g)], k, i < 0 ? nullptr : &constraints[i], i,
                   bodyCount, levelsOrNull);
        }
      }
    });
    return;
  }
  ParallelFor(tasks, static_cast<int>(contacts.size()), kMinContactsPerRange,
              [&](int begin, int end) { PackContactRange(contacts, graph, begin, end, levelsOrNull); });
  for (int c = 0; c < kGraphColorCount; ++c) {
    for (int slot = graph.colorSize[c]; slot % W != 0; ++slot) {
      PackLane<F>(graph.groups[static_cast<size_t>(graph.colorGroupStart[c] + slot / W)], slot % W, nullptr,
                  -1, bodyCount);
    }
  }
}

template <class F>
void BuildContactGraph(std::span<const ContactConstraint> contacts, std::span<const ContactKey> keys,
                       std::span<const int> levels, int bodyCount, ContactGraph<F>& graph,
                       const TaskSystem* tasks, std::uint64_t keysVersion) {
  MK_ASSERT(keys.size() == contacts.size());
  if (NeedsColoring(graph, bodyCount, tasks, keysVersion))
    ColorContactGraph(keys, bodyCount, graph, tasks, keysVersion);
  PackContactGraph(contacts, levels, bodyCount, graph, tasks);
}

template <class F>
int AssignBlockStaticSlots(ContactGraph<F>& graph, int workerCount, const TaskSystem* tasks) {
  int slots = 1;
  for (int c = 0; c < kGraphColorCount; ++c) {
    const int count = graph.colorGroupStart[c + 1] - graph.colorGroupStart[c];
    const int blockSize = BlockSize(count, workerCount, kMinGroupsPerBlock);
    graph.colorBlockSize[c] = blockSize;
    slots = std::max(slots, (count + blockSize - 1) / blockSize);
  }
  // Each group's lanes are its own, so the workers share the groups (every group's index lanes read:
  // 0.8% of many_pyramids' calling thread on two workers, alone).
  ForColorSlices(graph, tasks, [&graph](int c, int begin, int end) {
    const int first = graph.colorGroupStart[c], blockSize = graph.colorBlockSize[c];
    for (int gi = std::max(begin, first + blockSize); gi < end; ++gi)  // block 0 keeps staticSlot
      MoveToBlockStaticSlot(graph.groups[static_cast<size_t>(gi)], gi - first, blockSize, graph.staticSlot);
  });
  return slots;
}

template <class F>
void StoreContactGroups(const ContactGraph<F>& graph, std::span<const ContactKey> keys,
                        std::span<ContactConstraint> contacts, const TaskSystem* tasks,
                        std::span<const ContactInput> inputs) {
  // Each lane belongs to one constraint (and one input), so ranges of groups write disjoint ones.
  const auto store = [&](auto toManifolds, int begin, int end) {
    for (int gi = begin; gi < end; ++gi) {
      const WideContactGroup<F>& g = graph.groups[static_cast<size_t>(gi)];
      for (int k = 0; k < F::kLanes; ++k) {
        if (g.constraint[k] < 0) continue;
        const size_t i = static_cast<size_t>(g.constraint[k]);
        // The key's count: the constraint's sits on a line no impulse shares, one more miss a contact.
        const ContactKey& key = keys[i];
        const int pointCount = key.pointCount;
        bool toConstraint = true;
        if constexpr (decltype(toManifolds)::value) {
          Manifold& manifold = *inputs[i].manifold;
          for (int j = 0; j < pointCount; ++j) {
            manifold.points[j].normalImpulse = g.points[j].normalImpulse[k];
            manifold.points[j].tangentImpulse = g.points[j].tangentImpulse[k];
          }
          // With the manifold written, only restitution (bouncy) and the hit events read the
          // constraint's impulses after the sub-steps; the others' two lines stay unwritten (each was
          // a line read for ownership and written back: on many_pyramids, one worker, this pass went
          // from 8-10% to 5.9% of perf's samples). The flags from the key, which this reads anyway.
          toConstraint = key.bouncy || key.hitEvents;
        }
        if (!toConstraint) continue;
        ContactConstraint& c = contacts[i];
        for (int j = 0; j < pointCount; ++j) {
          c.points[j].normalImpulse = g.points[j].normalImpulse[k];
          c.points[j].tangentImpulse = g.points[j].tangentImpulse[k];
          c.points[j].maxNormalImpulse = g.points[j].maxNormalImpulse[k];
        }
      }
    }
  };
  ForColorSlices(graph, tasks, [&](int /*color*/, int begin, int end) {
    if (inputs.empty()) {
      store(std::false_type{}, begin, end);
    } else {
      store(std::true_type{}, begin, end);
    }
  });
}

template <class F>
void DropCappedContactGroups(ContactGraph<F>& graph, std::span<const BodyParams> params) {
  // The static slot (index params.size()) is never capped.
  auto capped = [&params](int index) {
    return static_cast<size_t>(index) < params.size() && params[static_cast<size_t>(index)].capped;
  };
  for (WideContactGroup<F>& g : graph.groups) {
    for (int k = 0; k < F::kLanes; ++k) {
      if (!capped(g.indexA[k]) && !capped(g.indexB[k])) continue;
      for (auto& p : g.points) p.normalImpulse[k] = p.tangentImpulse[k] = 0.0f;
    }
  }
}

// Every lane type's graph; the kernels on the baseline types (Float4 and the scalar twins the tests
// compare with), not on Avx2Float8, whose kernels need AVX2 (contact_graph_avx2.cpp). Building,
// storing and dropping use no lane operation, so the 8-lane graph's are baseline code.
#define MK_CONTACT_GRAPH_INSTANTIATE(F)                                                                     \
  template bool NeedsColoring<F>(const ContactGraph<F>&, int, const TaskSystem*, std::uint64_t);            \
  template void ColorContactGraph<F>(std::span<const ContactKey>, int, ContactGraph<F>&, const TaskSystem*, \
                                     std::uint64_t);                                                        \
  template void PackContactGraph<F>(std::span<const ContactConstraint>, std::span<const int>, int,          \
                                    ContactGraph<F>&, const TaskSystem*);                                   \
  template void BuildContactGraph<F>(std::span<const ContactConstraint>, std::span<const ContactKey>,       \
                                     std::span<const int>, int, ContactGraph<F>&, const TaskSystem*,        \
                                     std::uint64_t);                                                        \
  template void StoreContactGroups<F>(const ContactGraph<F>&, std::span<const ContactKey>,                  \
                                      std::span<ContactConstraint>, const TaskSystem*,                      \
                                      std::span<const ContactInput>);                                       \
  template int AssignBlockStaticSlots<F>(ContactGraph<F>&, int, const TaskSystem*);                         \
  template void DropCappedContactGroups<F>(ContactGraph<F>&, std::span<const BodyParams>);
MK_CONTACT_GRAPH_INSTANTIATE(wide::Float4)
MK_CONTACT_KERNELS_INSTANTIATE(wide::Float4)
#if !defined(MK_DISABLE_SIMD) && defined(__SSE2__)  // else Float4 is ScalarFloat<4>
MK_CONTACT_GRAPH_INSTANTIATE(wide::ScalarFloat<4>)
MK_CONTACT_KERNELS_INSTANTIATE(wide::ScalarFloat<4>)
#endif
MK_CONTACT_GRAPH_INSTANTIATE(wide::ScalarFloat<8>)
MK_CONTACT_KERNELS_INSTANTIATE(wide::ScalarFloat<8>)
#if defined(MK_HAS_FLOAT8)
MK_CONTACT_GRAPH_INSTANTIATE(wide::Avx2Float8)
#endif
#undef MK_CONTACT_GRAPH_INSTANTIATE

}  // namespace mk
