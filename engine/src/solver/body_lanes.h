// SPDX-License-Identifier: MIT
// Internal: a group's bodies in wide-float lanes, shared by the coloured solvers (contact_graph.cpp
// for contacts, revolute_joint.cpp for hinges): the lowest free colour of a constraint, and loading and
// storing four (or eight) bodies' states, lanes without a moving body on the graph's static slot
// (contact_graph.h: one past the solver bodies, a body at rest).
#pragma once

#include "solver/contact_graph.h"
#include "solver/solver_types.h"

#include <bit>
#include <cstdint>
#include <vector>

namespace mk {

// A static body as the scalar solver sees it (WithBodies): at rest, not turned.
inline const BodyState kStaticBody{};

// Sets the static slot back to rest after a group wrote it. Its lanes have zero masses, so they write
// back what they read, except when an impulse is not finite (a body already broken): resetting keeps
// that from reaching every other contact with a static body through the shared slot.
[[gnu::always_inline]] inline void RestoreStaticSlot(BodyState* states, int staticSlot) {
  states[staticSlot] = kStaticBody;
}

// The parallel stages' blocks (solver_stages.h): group `i` of a colour cut into blocks of `blockSize`
// moves its static lanes from `staticSlot` to its block's own slot, staticSlot + i / blockSize.
template <class Group>
void MoveToBlockStaticSlot(Group& g, int i, int blockSize, int staticSlot) {
  const int slot = staticSlot + i / blockSize;
  for (int k = 0; k < Group::kLanes; ++k) {
    if (g.indexA[k] == staticSlot) g.indexA[k] = slot;
    if (g.indexB[k] == staticSlot) g.indexB[k] = slot;
  }
}

// The bodies of one side of a group, one lane per constraint.
template <class F>
struct BodyLanes {
  F vx, vy, w, dpx;  // the first row of BodyState
  F dpy, qc, qs;     // the second (its pad dropped)
};

// Four bodies' states into 4-lane registers: two 4-float loads per body and two transposes. A lane
// without a moving body reads the static slot (ContactGraph::staticSlot), so no lane needs a test.
template <class F>
[[gnu::always_inline]] inline void LoadBodyRows(const BodyState* states, const int* index, F (&rows)[8]) {
  static_assert(F::kLanes == 4);
  for (int k = 0; k < 4; ++k) {
    const BodyState& s = states[index[k]];
    rows[k] = F::Load(&s.v.x);       // v.x v.y w dp.x
    rows[4 + k] = F::Load(&s.dp.y);  // dp.y dq.c dq.s pad
  }
  wide::Transpose4(rows[0], rows[1], rows[2], rows[3]);
  wide::Transpose4(rows[4], rows[5], rows[6], rows[7]);
}

// The velocities of four bodies back (dp.x rides along unchanged: a colour holds each moving body
// once, so no other lane writes it). Lanes without a moving body write the static slot, which the
// group functions then set back to rest.
template <class F>
[[gnu::always_inline]] inline void StoreBodyRows(BodyState* states, const int* index, F vx, F vy, F w,
                                                 F dpx) {
  static_assert(F::kLanes == 4);
  wide::Transpose4(vx, vy, w, dpx);
  const F rows[4] = {vx, vy, w, dpx};
  for (int k = 0; k < 4; ++k) wide::Store(&states[index[k]].v.x, rows[k]);
}

// The lanes' bodies; an 8-lane type in two halves of four.
template <class F>
[[gnu::always_inline]] inline BodyLanes<F> LoadBodies(const BodyState* states, const int* index) {
  if constexpr (F::kLanes == 4) {
    F r[8];
    LoadBodyRows(states, index, r);
    return {r[0], r[1], r[2], r[3], r[4], r[5], r[6]};
  } else {
    static_assert(F::kLanes == 8);
    using H = typename F::Half;
    H lo[8], hi[8];
    LoadBodyRows(states, index, lo);
    LoadBodyRows(states, index + 4, hi);
    auto join = [&](int i) { return F::Combine(lo[i], hi[i]); };
    return {join(0), join(1), join(2), join(3), join(4), join(5), join(6)};
  }
}

template <class F>
[[gnu::always_inline]] inline void StoreVelocities(BodyState* states, const int* index,
                                                   const BodyLanes<F>& b) {
  if constexpr (F::kLanes == 4) {
    StoreBodyRows(states, index, b.vx, b.vy, b.w, b.dpx);
  } else {
    StoreBodyRows(states, index, Low(b.vx), Low(b.vy), Low(b.w), Low(b.dpx));
    StoreBodyRows(states, index + 4, High(b.vx), High(b.vy), High(b.w), High(b.dpx));
  }
}

// The lowest colour neither body of a constraint holds yet, or -1 for the overflow. A body without a
// solver index (static, asleep) is never written, so it constrains nothing and holds no colour.
inline int AssignColor(std::vector<std::uint32_t>& bodyColors, int indexA, int indexB) {
  constexpr std::uint32_t kAllColors = (1u << kGraphColorCount) - 1u;
  const std::uint32_t used =
      (indexA >= 0 ? bodyColors[indexA] : 0u) | (indexB >= 0 ? bodyColors[indexB] : 0u);
  const std::uint32_t free = ~used & kAllColors;
  if (free == 0) return -1;
  const int color = std::countr_zero(free);
  const std::uint32_t bit = 1u << color;
  if (indexA >= 0) bodyColors[indexA] |= bit;
  if (indexB >= 0) bodyColors[indexB] |= bit;
  return color;
}

// The colour for a contact of moving body `index` with a body that never moves: the lowest free colour
// above every colour the body's contacts with moving bodies took (BuildContactGraph colours those
// first), so it is solved after them; the lowest free colour if none is free above; -1 for the
// overflow. Gauss-Seidel gives the row solved last the final say: a box pressed into the ground by a
// heavy box landing on it is pushed back out of the ground after the heavy box's contact moved it,
// not the other way round (Box2D v3's constraint graph gives its static contacts the last colours
// for the same reason). Measured on a 1 m box under another landing at 20 m/s: the lower box left
// the ground at 3.7 m/s when its ground contact went first, 0.45 m/s now (Box2D v3: 0.42).
inline int AssignColorAfter(std::vector<std::uint32_t>& bodyColors, int index) {
  constexpr std::uint32_t kAllColors = (1u << kGraphColorCount) - 1u;
  const std::uint32_t used = bodyColors[index];
  const std::uint32_t free = ~used & kAllColors;
  if (free == 0) return -1;
  const int above = used == 0 ? 0 : 32 - std::countl_zero(used);  // one past the highest colour held
  const std::uint32_t freeAbove = above < 32 ? free & ~((1u << above) - 1u) : 0u;
  const int color = std::countr_zero(freeAbove != 0 ? freeAbove : free);
  bodyColors[index] |= 1u << color;
  return color;
}

}  // namespace mk
