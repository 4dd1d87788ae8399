// SPDX-License-Identifier: MIT
// Internal: the contact graph's warm start, solve and relax kernels (contact_graph.h), as templates on
// the lane type. Included by contact_graph.cpp, which instantiates them on the baseline types (Float4
// and the scalar twins), and by contact_graph_avx2.cpp, which instantiates them on wide::Avx2Float8 in
// a translation unit compiled with -mavx2 (core/simd_dispatch.h says why nothing else may be defined
// there). Every kernel mirrors its scalar twin in contact_solver.cpp operation for operation; where
// the scalar code calls std::max(a, b) the lanes call Max(b, a) (maxps returns its second operand on a
// tie or a NaN, std::max its first), and std::clamp(v, lo, hi) is Min(hi, Max(lo, v)).
#pragma once

#include "minkowski/assert.h"
#include "solver/body_lanes.h"
#include "solver/contact_graph.h"
#include "solver/contact_solver.h"

#include <span>

namespace mk {

// The helpers have internal linkage (an unnamed namespace in a header: each including file gets its
// own copies), so an AVX2 translation unit's copies can never stand in for another file's.
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

// CurrentSeparation (contact_solver.cpp): dot(dpB - dpA, n) + (the turns' part) + adjustedSeparation,
// from the lever arms alone (no anchors in the lanes).
template <class F>
[[gnu::always_inline]] inline F CurrentSeparation(const GroupMasses<F>& m, const BodyLanes<F>& a,
                                                  const BodyLanes<F>& b,
                                                  const typename WideContactGroup<F>::Point& p) {
  const F turnB = b.qs * F::Load(p.rnB) - b.qc * F::Load(p.rtB);
  const F turnA = a.qs * F::Load(p.rnA) - a.qc * F::Load(p.rtA);
  return (((b.dpx - a.dpx) * m.nx + (b.dpy - a.dpy) * m.ny) + (turnB - turnA)) +
         F::Load(p.adjustedSeparation);
}

template <class F>
struct LaneSoftness {
  F biasRate, massScale, impulseScale;
};

// ContactSoftnessOf (contact_solver.h) on the lanes, from their inverse masses: the static spring when
// either body has no mass (static, kinematic, an empty lane), else the contacts'. The lanes need not
// carry three floats a contact that only the soft pass reads.
template <class F>
[[gnu::always_inline]] inline LaneSoftness<F> ContactSoftness(const GroupMasses<F>& m,
                                                              const StepContext& context) {
  const F zero = F::Zero();
  const auto againstStatic = (m.invMassA == zero) | (m.invMassB == zero);
  const mk::Softness& fixed = context.staticSoftness;
  const mk::Softness& moving = context.contactSoftness;
  return {Select(againstStatic, F::Splat(fixed.biasRate), F::Splat(moving.biasRate)),
          Select(againstStatic, F::Splat(fixed.massScale), F::Splat(moving.massScale)),
          Select(againstStatic, F::Splat(fixed.impulseScale), F::Splat(moving.impulseScale))};
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

// MakeBlockMatrix (contact_solver.cpp) on the lanes: K of a contact's two normal rows for the inverse
// masses `m`, its determinant, and the divisors made safe (1) where a lane's are not positive.
template <class F>
struct BlockLanes {
  F k11, k12, k22, det, safeK11, safeK22, safeDet;
};

template <class F>
[[gnu::always_inline]] inline BlockLanes<F> MakeBlockLanes(const GroupMasses<F>& m, F rnA1, F rnB1, F rnA2,
                                                           F rnB2) {
  const F zero = F::Zero(), one = F::Splat(1.0f);
  const F linear = m.invMassA + m.invMassB;
  BlockLanes<F> k;
  k.k11 = (linear + m.invIA * rnA1 * rnA1) + m.invIB * rnB1 * rnB1;
  k.k22 = (linear + m.invIA * rnA2 * rnA2) + m.invIB * rnB2 * rnB2;
  k.k12 = (linear + m.invIA * rnA1 * rnA2) + m.invIB * rnB1 * rnB2;
  k.det = k.k11 * k.k22 - k.k12 * k.k12;
  k.safeK11 = Select(k.k11 > zero, k.k11, one), k.safeK22 = Select(k.k22 > zero, k.k22, one);
  k.safeDet = Select(k.det > zero, k.det, one);
  return k;
}

// BlockMatrix::wellConditioned on the lanes.
template <class F>
[[gnu::always_inline]] inline auto WellConditioned(const BlockLanes<F>& k) {
  return (k.k11 * k.k11) < (F::Splat(kMaxBlockCondition) * k.det);
}

// SolveBlock (contact_solver.cpp) on the lanes: w = K x + c >= 0, x >= 0, x w = 0 by the four active
// sets, each later one taking precedence where it holds (both points, the first alone, the second
// alone, none), which is SolveBlock's order of trial. `x1`, `x2` hold the previous impulses and keep
// them where no set holds (rounding).
template <class F>
[[gnu::always_inline]] inline void SolveBlockLanes(const BlockLanes<F>& k, F c1, F c2, F& x1, F& x2) {
  const F zero = F::Zero();
  const F k11 = k.k11, k12 = k.k12, k22 = k.k22;
  const F both1 = (k12 * c2 - k22 * c1) / k.safeDet, both2 = (k12 * c1 - k11 * c2) / k.safeDet;
  const F first = Neg(c1) / k.safeK11, second = Neg(c2) / k.safeK22;
  const auto neither = (c1 >= zero) & (c2 >= zero);
  x1 = Select(neither, zero, x1), x2 = Select(neither, zero, x2);
  const auto secondOnly = (second >= zero) & ((k12 * second + c1) >= zero);
  x1 = Select(secondOnly, zero, x1), x2 = Select(secondOnly, second, x2);
  const auto firstOnly = (first >= zero) & ((k12 * first + c2) >= zero);
  x1 = Select(firstOnly, first, x1), x2 = Select(firstOnly, zero, x2);
  const auto bothPoints = (both1 >= zero) & (both2 >= zero);
  x1 = Select(bothPoints, both1, x1), x2 = Select(bothPoints, both2, x2);
}

// RelaxNormalRows (contact_solver.cpp) on the lanes, operation for operation: the relax pass's two
// normal rows, one after the other between two bodies that both move, as one 2x2 block moving only
// the upper body where the lane's contact has a support (WideContactGroup::relaxMoveA/B).
template <class F>
[[gnu::always_inline]] inline void RelaxNormalRows(WideContactGroup<F>& g, const GroupMasses<F>& m,
                                                   BodyLanes<F>& a, BodyLanes<F>& b, F invH) {
  const F zero = F::Zero(), one = F::Splat(1.0f);
  auto& p1 = g.points[0];
  auto& p2 = g.points[1];
  const F rnA1 = F::Load(p1.rnA), rnB1 = F::Load(p1.rnB), rnA2 = F::Load(p2.rnA), rnB2 = F::Load(p2.rnB);
  const F s1 = CurrentSeparation(m, a, b, p1), s2 = CurrentSeparation(m, a, b, p2);
  // The rows' velocities plus their speculative bias (a gap may close this sub-step, no more).
  const F vb1 = AxisVelocity(a, b, m.nx, m.ny, rnA1, rnB1) + Select(s1 > zero, s1 * invH, zero);
  const F vb2 = AxisVelocity(a, b, m.nx, m.ny, rnA2, rnB2) + Select(s2 > zero, s2 * invH, zero);
  const F old1 = F::Load(p1.normalImpulse), old2 = F::Load(p2.normalImpulse);
  const F normalMass1 = F::Load(p1.normalMass), normalMass2 = F::Load(p2.normalMass);
  // Both bodies move: the first row, then the second, which the first's impulse changed by d1 k12.
  const F twoSided12 = ((m.invMassA + m.invMassB) + m.invIA * rnA1 * rnA2) + m.invIB * rnB1 * rnB2;
  const F free1 = Max(zero, old1 + Neg(normalMass1) * vb1);
  const F freeD1 = free1 - old1;
  const F free2 = Max(zero, old2 + Neg(normalMass2) * (vb2 + freeD1 * twoSided12));
  F d1 = freeD1, d2 = free2 - old2;
  GroupMasses<F> moved = m;
  const F moveA = F::Load(g.relaxMoveA), moveB = F::Load(g.relaxMoveB);
  const auto supported = ((moveA * moveB) < one) & (normalMass1 > zero);
  if (wide::Any(supported)) {
    const GroupMasses<F> held{m.nx,           m.ny, m.invMassA * moveA, m.invIA * moveA, m.invMassB * moveB,
                              m.invIB * moveB};
    const BlockLanes<F> k = MakeBlockLanes(held, rnA1, rnB1, rnA2, rnB2);
    const auto onePoint = normalMass2 <= zero;
    const auto solvable = (k.k11 > zero) & (onePoint | WellConditioned(k));
    // w = K x + c >= 0, x >= 0, x w = 0 for the new accumulated impulses x: the four active sets
    // (SolveBlock, contact_solver.cpp), the first that holds; none (rounding): as they were.
    const F c1 = vb1 - (k.k11 * old1 + k.k12 * old2), c2 = vb2 - (k.k12 * old1 + k.k22 * old2);
    F new1 = old1, new2 = old2;
    SolveBlockLanes(k, c1, c2, new1, new2);
    new1 = Select(onePoint, Max(zero, old1 - vb1 / k.safeK11), new1), new2 = Select(onePoint, old2, new2);
    const auto solved = supported & solvable;
    d1 = Select(solved, new1 - old1, d1), d2 = Select(solved, new2 - old2, d2);
    moved.invMassA = Select(solved, held.invMassA, m.invMassA),
    moved.invIA = Select(solved, held.invIA, m.invIA);
    moved.invMassB = Select(solved, held.invMassB, m.invMassB),
    moved.invIB = Select(solved, held.invIB, m.invIB);
    // The block's impulses are not stored (RelaxNormalRows says why).
    wide::Store(p1.normalImpulse, Select(solved, old1, free1));
    wide::Store(p2.normalImpulse, Select(solved, old2, free2));
  } else {
    wide::Store(p1.normalImpulse, free1);
    wide::Store(p2.normalImpulse, free2);
  }
  wide::Store(p1.maxNormalImpulse, Max(d1, F::Load(p1.maxNormalImpulse)));
  wide::Store(p2.maxNormalImpulse, Max(d2, F::Load(p2.maxNormalImpulse)));
  ApplyAxisImpulse(moved, a, b, m.nx, m.ny, rnA1, rnB1, d1);
  ApplyAxisImpulse(moved, a, b, m.nx, m.ny, rnA2, rnB2, d2);
}

// SoftRowOf (contact_solver.cpp) on the lanes: a soft-pass row's bias, mass scale and impulse scale.
template <class F>
struct LaneRow {
  F bias, massScale, impulseScale;
};

template <class F>
[[gnu::always_inline]] inline LaneRow<F> SoftRowOf(F s, const LaneSoftness<F>& soft, F invH, F pushMax) {
  const F zero = F::Zero(), one = F::Splat(1.0f);
  const auto speculative = s > zero;
  return {Select(speculative, s * invH, Max(soft.massScale * soft.biasRate * s, Neg(pushMax))),
          Select(speculative, one, soft.massScale), Select(speculative, zero, soft.impulseScale)};
}

// SolveImpactBlock (contact_solver.cpp) on the lanes, operation for operation: the soft pass's two
// normal rows as one 2x2 block on the lanes whose two points both close faster than the push-out
// speed. Returns those lanes; their impulses are in new1 / new2 and their bodies in blockA / blockB,
// for the caller to select after its rows one at a time (whose results those lanes then drop). `vn1`
// is the first row's normal velocity, which the caller computes once for this and its first row.
template <class F>
[[gnu::always_inline]] inline auto SolveImpactBlock(WideContactGroup<F>& g, const GroupMasses<F>& m,
                                                    const BodyLanes<F>& a, const BodyLanes<F>& b,
                                                    const LaneSoftness<F>& soft, F invH, F pushMax, F vn1,
                                                    F& new1, F& new2, BodyLanes<F>& blockA,
                                                    BodyLanes<F>& blockB) {
  const F zero = F::Zero(), one = F::Splat(1.0f);
  auto& p1 = g.points[0];
  auto& p2 = g.points[1];
  const F rnA1 = F::Load(p1.rnA), rnB1 = F::Load(p1.rnB), rnA2 = F::Load(p2.rnA), rnB2 = F::Load(p2.rnB);
  // The first row's test alone turns away a resting group.
  const auto firstCloses = vn1 < Neg(pushMax);
  if (!wide::Any(firstCloses)) return firstCloses;
  const F vn2 = AxisVelocity(a, b, m.nx, m.ny, rnA2, rnB2);
  const auto impact = (F::Load(p2.normalMass) > zero) & firstCloses & (vn2 < Neg(pushMax));
  if (!wide::Any(impact)) return impact;
  const BlockLanes<F> k = MakeBlockLanes(m, rnA1, rnB1, rnA2, rnB2);
  const auto block = impact & (k.k11 > zero) & WellConditioned(k);
  const LaneRow<F> r1 = SoftRowOf(CurrentSeparation(m, a, b, p1), soft, invH, pushMax);
  const LaneRow<F> r2 = SoftRowOf(CurrentSeparation(m, a, b, p2), soft, invH, pushMax);
  const F old1 = F::Load(p1.normalImpulse), old2 = F::Load(p2.normalImpulse);
  const F c1 = (r1.massScale * vn1 + r1.bias) - (one - r1.impulseScale) * (k.k11 * old1 + k.k12 * old2);
  const F c2 = (r2.massScale * vn2 + r2.bias) - (one - r2.impulseScale) * (k.k12 * old1 + k.k22 * old2);
  new1 = old1, new2 = old2;
  SolveBlockLanes(k, c1, c2, new1, new2);
  blockA = a, blockB = b;
  ApplyAxisImpulse(m, blockA, blockB, m.nx, m.ny, rnA1, rnB1, new1 - old1);
  ApplyAxisImpulse(m, blockA, blockB, m.nx, m.ny, rnA2, rnB2, new2 - old2);
  return block;
}

// Lane-wise a where `mask`, else b, for the velocities (the rest of a body's lanes is not changed by a
// row).
template <class F, class Mask>
[[gnu::always_inline]] inline void SelectVelocities(Mask mask, const BodyLanes<F>& from, BodyLanes<F>& into) {
  into.vx = Select(mask, from.vx, into.vx);
  into.vy = Select(mask, from.vy, into.vy);
  into.w = Select(mask, from.w, into.w);
}

// The soft pass's normal rows one at a time (SolveContact): overlaps get the soft spring, its push
// capped. With kBlocked, the lanes of `block` keep the impulses SolveImpactBlock gave them (`block1`,
// `block2`) and their bodies are the caller's to select; a template, so the groups without an impact
// (nearly all) run the loop without those selects. `vn1`: the first row's normal velocity (the bodies
// have not changed before it).
template <class F, bool kBlocked, class Mask>
[[gnu::always_inline]] inline void SoftNormalRows(WideContactGroup<F>& g, const GroupMasses<F>& m,
                                                  BodyLanes<F>& a, BodyLanes<F>& b,
                                                  const LaneSoftness<F>& soft, F invH, F pushMax, F vn1,
                                                  Mask block, F block1, F block2) {
  const F zero = F::Zero();
  int j = 0;
  for (auto& p : g.points) {
    const LaneRow<F> row = SoftRowOf(CurrentSeparation(m, a, b, p), soft, invH, pushMax);
    const F rnA = F::Load(p.rnA), rnB = F::Load(p.rnB);
    const F vn = j == 0 ? vn1 : AxisVelocity(a, b, m.nx, m.ny, rnA, rnB);
    const F oldImpulse = F::Load(p.normalImpulse);
    const F normalMass = F::Load(p.normalMass);
    F impulse = Neg(normalMass) * (row.massScale * vn + row.bias) - row.impulseScale * oldImpulse;
    const F newImpulse = Max(zero, oldImpulse + impulse);
    const F applied = newImpulse - oldImpulse;
    if constexpr (kBlocked) {
      const F blockNew = j == 0 ? block1 : block2;
      wide::Store(p.normalImpulse, Select(block, blockNew, newImpulse));
      wide::Store(p.maxNormalImpulse,
                  Max(Select(block, blockNew - oldImpulse, applied), F::Load(p.maxNormalImpulse)));
    } else {
      wide::Store(p.normalImpulse, newImpulse);
      wide::Store(p.maxNormalImpulse, Max(applied, F::Load(p.maxNormalImpulse)));
    }
    ApplyAxisImpulse(m, a, b, m.nx, m.ny, rnA, rnB, applied);
    ++j;
  }
}

// The soft pass (useBias) and the relax pass, SolveContact's lanes: the normal rows, then friction.
template <class F, bool useBias>
void SolveGroup(WideContactGroup<F>& g, BodyState* states, const StepContext& context) {
  BodyLanes<F> a = LoadBodies<F>(states, g.indexA), b = LoadBodies<F>(states, g.indexB);
  const GroupMasses<F> m = LoadMasses(g);
  const F tx = m.ny, ty = Neg(m.nx);
  const F zero = F::Zero(), invH = F::Splat(context.invH);
  const F pushMax = F::Splat(context.settings.contactPushMaxSpeed);
  LaneSoftness<F> soft{};
  if constexpr (useBias) soft = ContactSoftness(m, context);
  if constexpr (!useBias) {
    RelaxNormalRows(g, m, a, b, invH);
  } else {
    F block1 = zero, block2 = zero;
    BodyLanes<F> blockA = a, blockB = b;
    const F vn1 = AxisVelocity(a, b, m.nx, m.ny, F::Load(g.points[0].rnA), F::Load(g.points[0].rnB));
    const auto block = SolveImpactBlock(g, m, a, b, soft, invH, pushMax, vn1, block1, block2, blockA, blockB);
    if (wide::Any(block)) [[unlikely]] {
      SoftNormalRows<F, true>(g, m, a, b, soft, invH, pushMax, vn1, block, block1, block2);
      SelectVelocities(block, blockA, a);
      SelectVelocities(block, blockB, b);
    } else {
      SoftNormalRows<F, false>(g, m, a, b, soft, invH, pushMax, vn1, block, block1, block2);
    }
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

}  // namespace

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

// Explicit instantiations of the kernels above on lane type F (in namespace mk).
#define MK_CONTACT_KERNELS_INSTANTIATE(F)                                                                    \
  template void WarmStartContactGroups<F>(ContactGraph<F>&, std::span<BodyState>);                           \
  template void SolveContactGroups<F, true>(ContactGraph<F>&, std::span<BodyState>, const StepContext&);     \
  template void SolveContactGroups<F, false>(ContactGraph<F>&, std::span<BodyState>, const StepContext&);    \
  template void WarmStartContactGroupRange<F>(ContactGraph<F>&, std::span<BodyState>, int, int, int);        \
  template void SolveContactGroupRange<F, true>(ContactGraph<F>&, std::span<BodyState>, const StepContext&,  \
                                                int, int, int);                                              \
  template void SolveContactGroupRange<F, false>(ContactGraph<F>&, std::span<BodyState>, const StepContext&, \
                                                 int, int, int);

}  // namespace mk
