// SPDX-License-Identifier: MIT
// Internal: the hinge graph's warm start, solve and relax kernels (hinge_graph.h), as templates on the
// lane type. Included by revolute_joint.cpp, which instantiates them on the baseline types, and by
// hinge_graph_avx2.cpp, which instantiates them on wide::Avx2Float8 with -mavx2 (core/simd_dispatch.h
// says what that file may define).
#pragma once

#include "minkowski/assert.h"
#include "solver/body_lanes.h"
#include "solver/hinge_graph.h"
#include "solver/joint_solver.h"

#include <cmath>
#include <span>
#include <vector>

namespace mk {

// Internal linkage, as contact_graph_kernels.h's helpers: each including file has its own copies.
namespace {

// The anchors of a group's lanes from the centres of mass, turned by the bodies' motion this step
// (CurrentFrame: rA = dqA rA0).
template <class F>
struct HingeArms {
  F rAx, rAy, rBx, rBy;
};

template <class F>
[[gnu::always_inline]] inline HingeArms<F> CurrentArms(const WideHingeGroup<F>& g, const BodyLanes<F>& a,
                                                       const BodyLanes<F>& b) {
  const F rA0x = F::Load(g.rA0x), rA0y = F::Load(g.rA0y), rB0x = F::Load(g.rB0x), rB0y = F::Load(g.rB0y);
  return {a.qc * rA0x - a.qs * rA0y, a.qs * rA0x + a.qc * rA0y, b.qc * rB0x - b.qs * rB0y,
          b.qs * rB0x + b.qc * rB0y};
}

// The plain hinge's warm start (WarmStartJoints): ApplyWrench with the point impulse and L = 0.
template <class F>
void WarmStartHingeGroup(WideHingeGroup<F>& g, BodyState* states) {
  BodyLanes<F> a = LoadBodies<F>(states, g.indexA), b = LoadBodies<F>(states, g.indexB);
  const HingeArms<F> r = CurrentArms(g, a, b);
  const F mA = F::Load(g.invMassA), iA = F::Load(g.invIA), mB = F::Load(g.invMassB), iB = F::Load(g.invIB);
  const F px = F::Load(g.impulseX), py = F::Load(g.impulseY), zero = F::Zero();
  a.vx = a.vx - mA * px;
  a.vy = a.vy - mA * py;
  // "+ zero" is ApplyWrench's "+ L" with L = 0: it turns a -0 cross product into +0, same bits.
  a.w = a.w - iA * ((r.rAx * py - r.rAy * px) + zero);
  b.vx = b.vx + mB * px;
  b.vy = b.vy + mB * py;
  b.w = b.w + iB * ((r.rBx * py - r.rBy * px) + zero);
  StoreVelocities(states, g.indexA, a);
  StoreVelocities(states, g.indexB, b);
}

// Lanes whose K or K times Cdot overflowed float (det or the impulse not finite) take SolvePoint's
// double-precision solve.
template <class F>
[[gnu::noinline]] void SolveWideLanes(F k11, F k12, F k22, F cdx, F cdy, F massScale, F impulseScale, F accX,
                                      F accY, F& px, F& py) {
  constexpr int N = F::kLanes;
  float l11[N], l12[N], l22[N], lx[N], ly[N], ms[N], is[N], ax[N], ay[N], outX[N], outY[N];
  wide::Store(l11, k11), wide::Store(l12, k12), wide::Store(l22, k22), wide::Store(lx, cdx);
  wide::Store(ly, cdy), wide::Store(ms, massScale), wide::Store(is, impulseScale);
  wide::Store(ax, accX), wide::Store(ay, accY), wide::Store(outX, px), wide::Store(outY, py);
  for (int k = 0; k < N; ++k) {
    const float det = l11[k] * l22[k] - l12[k] * l12[k];
    if (std::isfinite(det + outX[k] + outY[k])) continue;
    const Vec2 solved = joint::Solve22Wide(l11[k], l12[k], l22[k], {lx[k], ly[k]});
    outX[k] = -ms[k] * solved.x - is[k] * ax[k];
    outY[k] = -ms[k] * solved.y - is[k] * ay[k];
  }
  px = F::Load(outX);
  py = F::Load(outY);
}

// SolveRevolute of a plain hinge: SolvePoint with the Biased pass's soft coefficients (useBias) or
// the Relax pass's rigid ones (Equality: bias 0 * d, mass scale 1, impulse scale 0).
template <class F, bool useBias>
void SolveHingeGroup(WideHingeGroup<F>& g, BodyState* states) {
  BodyLanes<F> a = LoadBodies<F>(states, g.indexA), b = LoadBodies<F>(states, g.indexB);
  const HingeArms<F> r = CurrentArms(g, a, b);
  const F zero = F::Zero();
  const F dx = (F::Load(g.centerX) + (b.dpx - a.dpx)) + (r.rBx - r.rAx);
  const F dy = (F::Load(g.centerY) + (b.dpy - a.dpy)) + (r.rBy - r.rAy);
  const F biasRate = useBias ? F::Load(g.biasRate) : zero;
  const F massScale = useBias ? F::Load(g.massScale) : F::Splat(1.0f);
  const F impulseScale = useBias ? F::Load(g.impulseScale) : zero;
  const F mA = F::Load(g.invMassA), iA = F::Load(g.invIA), mB = F::Load(g.invMassB), iB = F::Load(g.invIB);
  const F cdx = ((b.vx - b.w * r.rBy) - (a.vx - a.w * r.rAy)) + biasRate * dx;
  const F cdy = ((b.vy + b.w * r.rBx) - (a.vy + a.w * r.rAx)) + biasRate * dy;
  const F m = mA + mB;
  const F k11 = (m + iA * r.rAy * r.rAy) + iB * r.rBy * r.rBy;
  const F k12 = wide::Neg(iA) * r.rAx * r.rAy - iB * r.rBx * r.rBy;
  const F k22 = (m + iA * r.rAx * r.rAx) + iB * r.rBx * r.rBx;
  const F det = k11 * k22 - k12 * k12;
  const F scale = Select(det == zero, zero, wide::Neg(massScale) / det);
  const F accX = F::Load(g.impulseX), accY = F::Load(g.impulseY);
  F px = scale * (k22 * cdx - k12 * cdy) - impulseScale * accX;
  F py = scale * (k11 * cdy - k12 * cdx) - impulseScale * accY;
  const F check = det + px + py;
  if (!All((check - check) == zero)) [[unlikely]] {  // some lane's det or impulse is not finite
    SolveWideLanes(k11, k12, k22, cdx, cdy, massScale, impulseScale, accX, accY, px, py);
  }
  wide::Store(g.impulseX, accX + px);
  wide::Store(g.impulseY, accY + py);
  a.vx = a.vx - mA * px;
  a.vy = a.vy - mA * py;
  a.w = a.w - iA * (r.rAx * py - r.rAy * px);
  b.vx = b.vx + mB * px;
  b.vy = b.vy + mB * py;
  b.w = b.w + iB * (r.rBx * py - r.rBy * px);
  StoreVelocities(states, g.indexA, a);
  StoreVelocities(states, g.indexB, b);
}

}  // namespace

template <class F>
void WarmStartHingeGroups(HingeGraph<F>& graph, std::span<BodyState> states) {
  MK_ASSERT(states.size() == static_cast<size_t>(graph.staticSlot) + 1);
  for (std::vector<WideHingeGroup<F>>& groups : graph.groups) {
    for (WideHingeGroup<F>& g : groups) {
      WarmStartHingeGroup(g, states.data());
      RestoreStaticSlot(states.data(), graph.staticSlot);
    }
  }
}

template <class F, bool useBias>
void SolveHingeGroups(HingeGraph<F>& graph, std::span<BodyState> states) {
  MK_ASSERT(states.size() == static_cast<size_t>(graph.staticSlot) + 1);
  for (std::vector<WideHingeGroup<F>>& groups : graph.groups) {
    for (WideHingeGroup<F>& g : groups) {
      SolveHingeGroup<F, useBias>(g, states.data());
      RestoreStaticSlot(states.data(), graph.staticSlot);
    }
  }
}

template <class F>
void WarmStartHingeGroupRange(HingeGraph<F>& graph, std::span<BodyState> states, int color, int begin,
                              int end, int staticSlot) {
  for (int i = begin; i < end; ++i) {
    WarmStartHingeGroup(graph.groups[color][static_cast<size_t>(i)], states.data());
    RestoreStaticSlot(states.data(), staticSlot);
  }
}

template <class F, bool useBias>
void SolveHingeGroupRange(HingeGraph<F>& graph, std::span<BodyState> states, int color, int begin, int end,
                          int staticSlot) {
  for (int i = begin; i < end; ++i) {
    SolveHingeGroup<F, useBias>(graph.groups[color][static_cast<size_t>(i)], states.data());
    RestoreStaticSlot(states.data(), staticSlot);
  }
}

// Explicit instantiations of the kernels above on lane type F (in namespace mk).
#define MK_HINGE_KERNELS_INSTANTIATE(F)                                                                  \
  template void WarmStartHingeGroups<F>(HingeGraph<F>&, std::span<BodyState>);                           \
  template void SolveHingeGroups<F, true>(HingeGraph<F>&, std::span<BodyState>);                         \
  template void SolveHingeGroups<F, false>(HingeGraph<F>&, std::span<BodyState>);                        \
  template void WarmStartHingeGroupRange<F>(HingeGraph<F>&, std::span<BodyState>, int, int, int, int);   \
  template void SolveHingeGroupRange<F, true>(HingeGraph<F>&, std::span<BodyState>, int, int, int, int); \
  template void SolveHingeGroupRange<F, false>(HingeGraph<F>&, std::span<BodyState>, int, int, int, int);

}  // namespace mk
