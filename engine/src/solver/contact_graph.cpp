// SPDX-License-Identifier: MIT
// The graph-coloured, SIMD-wide contact solver: colouring, packing, and the warm start, solve and
// relax kernels on wide floats (contact_graph.h). Every kernel mirrors its scalar twin in
// contact_solver.cpp operation for operation; where the scalar code calls std::max(a, b) the lanes
// call Max(b, a) (maxps returns its second operand on a tie or a NaN, std::max its first), and
// std::clamp(v, lo, hi) is Min(hi, Max(lo, v)).
#include "solver/contact_graph.h"

#include "minkowski/assert.h"
#include "solver/body_lanes.h"
#include "solver/contact_solver.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <span>

namespace mk {

namespace {

using wide::Neg;

// The per-group constants the kernels read.
template <class F>
struct GroupMasses {
  F nx, ny, invMassA, invIA, invMassB, invIB;
};

template <class F>
[[gnu::always_inline]] inline GroupMasses<F> LoadMasses(const WideContactGroup<F>& g) {
  return {F::Load(g.normalX), F::Load(g.normalY),  F::Load(g.invMassA),
          F::Load(g.invIA),   F::Load(g.invMassB), F::Load(g.invIB)};
}

// AxisVelocity (contact_solver.cpp): Dot(vB - vA, axis) + (wB leverB - wA leverA).
template <class F>
[[gnu::always_inline]] inline F AxisVelocity(const BodyLanes<F>& a, const BodyLanes<F>& b, F ax, F ay,
                                             F leverA, F leverB) {
  return ((b.vx - a.vx) * ax + (b.vy - a.vy) * ay) + (b.w * leverB - a.w * leverA);
}

// ApplyAxisImpulse (contact_solver.cpp): lambda along the axis on B, minus on A.
template <class F>
[[gnu::always_inline]] inline void ApplyAxisImpulse(const GroupMasses<F>& m, BodyLanes<F>& a, BodyLanes<F>& b,
                                                    F ax, F ay, F leverA, F leverB, F lambda) {
  const F px = lambda * ax, py = lambda * ay;
  a.vx = a.vx - m.invMassA * px;
  a.vy = a.vy - m.invMassA * py;
  a.w = a.w - m.invIA * (lambda * leverA);
  b.vx = b.vx + m.invMassB * px;
  b.vy = b.vy + m.invMassB * py;
  b.w = b.w + m.invIB * (lambda * leverB);
}

// CurrentSeparation (contact_solver.cpp): dot(dpB - dpA + dqB rB - dqA rA, n) + adjustedSeparation.
template <class F>
[[gnu::always_inline]] inline F CurrentSeparation(const GroupMasses<F>& m, const BodyLanes<F>& a,
                                                  const BodyLanes<F>& b,
                                                  const typename WideContactGroup<F>::Point& p) {
  const F rAx = F::Load(p.rAx), rAy = F::Load(p.rAy), rBx = F::Load(p.rBx), rBy = F::Load(p.rBy);
  const F dx = (b.dpx - a.dpx) + ((b.qc * rBx - b.qs * rBy) - (a.qc * rAx - a.qs * rAy));
  const F dy = (b.dpy - a.dpy) + ((b.qs * rBx + b.qc * rBy) - (a.qs * rAx + a.qc * rAy));
  return (dx * m.nx + dy * m.ny) + F::Load(p.adjustedSeparation);
}

template <class F>
void WarmStartGroup(WideContactGroup<F>& g, BodyState* states) {
  BodyLanes<F> a = LoadBodies<F>(states, g.indexA), b = LoadBodies<F>(states, g.indexB);
  const GroupMasses<F> m = LoadMasses(g);
  const F tx = m.ny, ty = Neg(m.nx);  // RightPerp(n)
  for (const auto& p : g.points) {
    ApplyAxisImpulse(m, a, b, m.nx, m.ny, F::Load(p.rnA), F::Load(p.rnB), F::Load(p.normalImpulse));
    ApplyAxisImpulse(m, a, b, tx, ty, F::Load(p.rtA), F::Load(p.rtB), F::Load(p.tangentImpulse));
  }
  StoreVelocities(states, g.indexA, a);
  StoreVelocities(states, g.indexB, b);
}

// The soft pass (useBias) and the relax pass, SolveContact's lanes: the normal rows, then friction.
template <class F, bool useBias>
void SolveGroup(WideContactGroup<F>& g, BodyState* states, const StepContext& context) {
  BodyLanes<F> a = LoadBodies<F>(states, g.indexA), b = LoadBodies<F>(states, g.indexB);
  const GroupMasses<F> m = LoadMasses(g);
  const F tx = m.ny, ty = Neg(m.nx);
  const F zero = F::Zero(), one = F::Splat(1.0f), invH = F::Splat(context.invH);
  const F pushMax = F::Splat(context.settings.contactPushMaxSpeed);
  for (auto& p : g.points) {
    const F s = CurrentSeparation(m, a, b, p);
    const auto speculative = s > zero;
    F bias = Select(speculative, s * invH, zero), massScale = one, impulseScale = zero;
    if constexpr (useBias) {  // overlap: the soft spring, its push capped (SolveContact)
      const F springScale = F::Load(g.massScale);
      bias = Select(speculative, bias, Max(springScale * F::Load(g.biasRate) * s, Neg(pushMax)));
      massScale = Select(speculative, one, springScale);
      impulseScale = Select(speculative, zero, F::Load(g.impulseScale));
    }
    const F rnA = F::Load(p.rnA), rnB = F::Load(p.rnB);
    const F vn = AxisVelocity(a, b, m.nx, m.ny, rnA, rnB);
    const F oldImpulse = F::Load(p.normalImpulse);
    const F normalMass = F::Load(p.normalMass);
    F impulse = Neg(normalMass) * (massScale * vn + bias) - impulseScale * oldImpulse;
    const F newImpulse = Max(zero, oldImpulse + impulse);
    const F applied = newImpulse - oldImpulse;
    wide::Store(p.normalImpulse, newImpulse);
    wide::Store(p.maxNormalImpulse, Max(applied, F::Load(p.maxNormalImpulse)));
    ApplyAxisImpulse(m, a, b, m.nx, m.ny, rnA, rnB, applied);
  }
  const F friction = F::Load(g.friction);
  for (auto& p : g.points) {
    const F rtA = F::Load(p.rtA), rtB = F::Load(p.rtB);
    const F vt = AxisVelocity(a, b, tx, ty, rtA, rtB);
    const F oldImpulse = F::Load(p.tangentImpulse);
    const F maxFriction = friction * F::Load(p.normalImpulse);
    const F newImpulse = Min(maxFriction, Max(Neg(maxFriction), oldImpulse - F::Load(p.tangentMass) * vt));
    wide::Store(p.tangentImpulse, newImpulse);
    ApplyAxisImpulse(m, a, b, tx, ty, rtA, rtB, newImpulse - oldImpulse);
  }
  StoreVelocities(states, g.indexA, a);
  StoreVelocities(states, g.indexB, b);
}

// Lane k of group g from constraint c (an empty lane: constraint null).
template <class F>
void PackLane(WideContactGroup<F>& g, int k, const ContactConstraint* c, int constraintIndex,
              int staticSlot) {
  if (c == nullptr) {
    // Zero masses and only the static slot: the lane's impulses stay 0 and it moves nothing.
    g.normalX[k] = g.normalY[k] = g.friction[k] = 0.0f;
    g.invMassA[k] = g.invIA[k] = g.invMassB[k] = g.invIB[k] = 0.0f;
    g.biasRate[k] = g.impulseScale[k] = 0.0f;
    g.massScale[k] = 1.0f;
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
    g.biasRate[k] = c->softness.biasRate;
    g.massScale[k] = c->softness.massScale;
    g.impulseScale[k] = c->softness.impulseScale;
    g.indexA[k] = c->indexA >= 0 ? c->indexA : staticSlot;
    g.indexB[k] = c->indexB >= 0 ? c->indexB : staticSlot;
    g.constraint[k] = constraintIndex;
  }
  for (int j = 0; j < 2; ++j) {
    auto& p = g.points[j];
    const bool used = c != nullptr && j < c->pointCount;
    const ContactConstraintPoint cp = used ? c->points[j] : ContactConstraintPoint{};
    p.rAx[k] = cp.rA.x;
    p.rAy[k] = cp.rA.y;
    p.rBx[k] = cp.rB.x;
    p.rBy[k] = cp.rB.y;
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

}  // namespace

template <class F>
void BuildContactGraph(std::span<const ContactConstraint> contacts, int bodyCount, ContactGraph<F>& graph) {
  constexpr int W = F::kLanes;
  graph.staticSlot = bodyCount;
  graph.bodyColors.assign(static_cast<size_t>(bodyCount), 0u);
  graph.colorOf.resize(contacts.size());
  graph.overflow.clear();
  std::fill(std::begin(graph.colorSize), std::end(graph.colorSize), 0);
  // Contacts between moving bodies first, then each contact with a body that never moves in a colour
  // after its moving body's (AssignColorAfter: the static row has the final say).
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t i = 0; i < contacts.size(); ++i) {
      const int a = contacts[i].indexA, b = contacts[i].indexB;
      const bool againstStatic = a < 0 || b < 0;
      if (againstStatic != (pass == 1)) continue;
      if (contacts[i].surface >= 0) {  // rolling resistance or tangent speed: the scalar code's (overflow)
        graph.colorOf[i] = -1;
        continue;
      }
      const int color = againstStatic ? AssignColorAfter(graph.bodyColors, a < 0 ? b : a)
                                      : AssignColor(graph.bodyColors, a, b);
      graph.colorOf[i] = static_cast<std::int8_t>(color);
      if (color >= 0) ++graph.colorSize[color];
    }
  }
  for (size_t i = 0; i < contacts.size(); ++i) {
    if (graph.colorOf[i] < 0) graph.overflow.push_back(static_cast<int>(i));
  }
  // Groups: each colour's contacts in input order, W to a group, the last one padded.
  graph.colorGroupStart[0] = 0;
  for (int c = 0; c < kGraphColorCount; ++c)
    graph.colorGroupStart[c + 1] = graph.colorGroupStart[c] + (graph.colorSize[c] + W - 1) / W;
  graph.groups.resize(static_cast<size_t>(graph.colorGroupStart[kGraphColorCount]));
  int filled[kGraphColorCount] = {};
  for (size_t i = 0; i < contacts.size(); ++i) {
    const int color = graph.colorOf[i];
    if (color < 0) continue;
    const int slot = filled[color]++;
    PackLane(graph.groups[static_cast<size_t>(graph.colorGroupStart[color] + slot / W)], slot % W,
             &contacts[i], static_cast<int>(i), bodyCount);
  }
  for (int c = 0; c < kGraphColorCount; ++c) {
    for (int slot = filled[c]; slot % W != 0; ++slot) {
      PackLane<F>(graph.groups[static_cast<size_t>(graph.colorGroupStart[c] + slot / W)], slot % W, nullptr,
                  -1, bodyCount);
    }
  }
}

template <class F>
void WarmStartContactGroups(ContactGraph<F>& graph, std::span<BodyState> states) {
  MK_ASSERT(states.size() == static_cast<size_t>(graph.staticSlot) + 1);
  for (WideContactGroup<F>& g : graph.groups) {
    WarmStartGroup(g, states.data());
    RestoreStaticSlot(states.data(), graph.staticSlot);
  }
}

template <class F, bool useBias>
void SolveContactGroups(ContactGraph<F>& graph, std::span<BodyState> states, const StepContext& context) {
  MK_ASSERT(states.size() == static_cast<size_t>(graph.staticSlot) + 1);
  for (WideContactGroup<F>& g : graph.groups) {
    SolveGroup<F, useBias>(g, states.data(), context);
    RestoreStaticSlot(states.data(), graph.staticSlot);
  }
}

template <class F>
int AssignBlockStaticSlots(ContactGraph<F>& graph, int workerCount) {
  int slots = 1;
  for (int c = 0; c < kGraphColorCount; ++c) {
    const int begin = graph.colorGroupStart[c], count = graph.colorGroupStart[c + 1] - begin;
    const int blockSize = BlockSize(count, workerCount, kMinGroupsPerBlock);
    graph.colorBlockSize[c] = blockSize;
    for (int i = blockSize; i < count; ++i)  // block 0 keeps staticSlot
      MoveToBlockStaticSlot(graph.groups[static_cast<size_t>(begin + i)], i, blockSize, graph.staticSlot);
    slots = std::max(slots, (count + blockSize - 1) / blockSize);
  }
  return slots;
}

template <class F>
void WarmStartContactGroupRange(ContactGraph<F>& graph, std::span<BodyState> states, int begin, int end,
                                int staticSlot) {
  for (int i = begin; i < end; ++i) {
    WarmStartGroup(graph.groups[static_cast<size_t>(i)], states.data());
    RestoreStaticSlot(states.data(), staticSlot);
  }
}

template <class F, bool useBias>
void SolveContactGroupRange(ContactGraph<F>& graph, std::span<BodyState> states, const StepContext& context,
                            int begin, int end, int staticSlot) {
  for (int i = begin; i < end; ++i) {
    SolveGroup<F, useBias>(graph.groups[static_cast<size_t>(i)], states.data(), context);
    RestoreStaticSlot(states.data(), staticSlot);
  }
}

template <class F>
void StoreContactGroups(const ContactGraph<F>& graph, std::span<ContactConstraint> contacts) {
  for (const WideContactGroup<F>& g : graph.groups) {
    for (int k = 0; k < F::kLanes; ++k) {
      if (g.constraint[k] < 0) continue;
      ContactConstraint& c = contacts[static_cast<size_t>(g.constraint[k])];
      for (int j = 0; j < c.pointCount; ++j) {
        c.points[j].normalImpulse = g.points[j].normalImpulse[k];
        c.points[j].tangentImpulse = g.points[j].tangentImpulse[k];
        c.points[j].maxNormalImpulse = g.points[j].maxNormalImpulse[k];
      }
    }
  }
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

// This build's lane type, and the scalar twin the tests compare it with.
#define MK_CONTACT_GRAPH_INSTANTIATE(F)                                                                      \
  template void BuildContactGraph<F>(std::span<const ContactConstraint>, int, ContactGraph<F>&);             \
  template void WarmStartContactGroups<F>(ContactGraph<F>&, std::span<BodyState>);                           \
  template void SolveContactGroups<F, true>(ContactGraph<F>&, std::span<BodyState>, const StepContext&);     \
  template void SolveContactGroups<F, false>(ContactGraph<F>&, std::span<BodyState>, const StepContext&);    \
  template void StoreContactGroups<F>(const ContactGraph<F>&, std::span<ContactConstraint>);                 \
  template int AssignBlockStaticSlots<F>(ContactGraph<F>&, int);                                             \
  template void WarmStartContactGroupRange<F>(ContactGraph<F>&, std::span<BodyState>, int, int, int);        \
  template void SolveContactGroupRange<F, true>(ContactGraph<F>&, std::span<BodyState>, const StepContext&,  \
                                                int, int, int);                                              \
  template void SolveContactGroupRange<F, false>(ContactGraph<F>&, std::span<BodyState>, const StepContext&, \
                                                 int, int, int);                                             \
  template void DropCappedContactGroups<F>(ContactGraph<F>&, std::span<const BodyParams>);
MK_CONTACT_GRAPH_INSTANTIATE(wide::FloatW)
#if !defined(MK_DISABLE_SIMD) && defined(__SSE2__)
MK_CONTACT_GRAPH_INSTANTIATE(wide::ScalarFloat<wide::FloatW::kLanes>)
#endif
#undef MK_CONTACT_GRAPH_INSTANTIATE

}  // namespace mk
