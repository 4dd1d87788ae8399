// SPDX-License-Identifier: MIT
// Revolute joint: a point constraint pB = pA plus optional rows on the joint angle
// theta = angleB - angleA - referenceAngle:
//   spring  theta -> 0, soft by the joint's hertz / damping ratio (k = I_eff (2 pi f)^2 with
//           I_eff = 1 / (iA + iB), the effective rotational inertia of the pair);
//   motor   d(theta)/dt -> motorSpeed, accumulated impulse within +-maxMotorTorque h;
//   limits  theta - lower >= 0 and upper - theta >= 0, accumulated impulses >= 0.
// All angular rows share the Jacobian [0, -1, 0, 1] (Cdot = wB - wA) and effective mass 1 / (iA + iB).
// Order: spring, motor, limits, point. The point row goes last so that it, the most important, is
// the least disturbed at the end of each pass (sequential impulses favour the last row solved).
#include "minkowski/assert.h"
#include "solver/body_lanes.h"
#include "solver/hinge_graph.h"
#include "solver/joint_solver.h"

#include <algorithm>
#include <cmath>
#include <span>
#include <vector>

namespace mk::joint {

void SolveRevolute(JointConstraint& c, BodyState& a, BodyState& b, JointPass pass,
                   const StepContext& context) {
  JointImpulses& imp = c.impulses;
  const bool position = pass == JointPass::Position;  // springs and motors sit the position pass out
  if (c.angularMass > 0.0f) {  // some body can rotate; else the angular rows have nothing to act on
    float angle = (c.enableSpring || c.enableLimit) ? CurrentAngle(c, a, b) : 0.0f;
    if (c.enableSpring && !position) {
      const Coefficients spring = SpringRow(angle, c, pass);
      SpringKicks(c) ? SolveAngular<true>(c, a, b, 0.0f, spring, imp.spring, -1e30f, 1e30f)
                     : SolveAngular(c, a, b, 0.0f, spring, imp.spring, -1e30f, 1e30f);
    }
    if (c.enableMotor && !position) {
      SolveAngular(c, a, b, c.motorSpeed, {}, imp.motor, -c.maxMotorImpulse, c.maxMotorImpulse);
    }
    if (c.enableLimit) {
      // Lower: C = theta - lower >= 0, Cdot = wB - wA.
      SolveAngular(c, a, b, 0.0f, Inequality(angle - c.lower, c.softness, pass, context), imp.lower, 0.0f,
                   1e30f);
      // Upper: C = upper - theta >= 0, Cdot = wA - wB: the same row with the sign flipped, expressed
      // to SolveAngular as a non-positive accumulated impulse and a negated bias.
      float negated = -imp.upper;
      Coefficients k = Inequality(c.upper - angle, c.softness, pass, context);
      k.bias = -k.bias;
      SolveAngular(c, a, b, 0.0f, k, negated, -1e30f, 0.0f);
      imp.upper = -negated;
    }
  }

  Frame f = CurrentFrame(c, a, b);
  Coefficients k = Equality(1.0f, c.softness, pass, context);
  SolvePoint(c, a, b, f.rA, f.rB, k.bias * f.d, k.massScale, k.impulseScale, imp.linear);
}

}  // namespace mk::joint

// --- Plain hinges, coloured and SIMD-wide (hinge_graph.h) --------------------------------------------

namespace mk {

bool IsPlainHinge(const JointConstraint& c) {
  return c.type == JointType::Revolute && !c.enableSpring && !c.enableMotor && !c.enableLimit &&
         (c.indexA != c.indexB || c.indexA < 0);
}

HingeLane LaneOf(const JointConstraint& c) {
  return {c.rA0,   c.rB0,      c.deltaCenter,     c.invMassA, c.invIA, c.invMassB,
          c.invIB, c.softness, c.impulses.linear, c.indexA,   c.indexB};
}

namespace {

// Lane k of group g from a hinge (an empty lane: hinge null).
template <class F>
void PackHinge(WideHingeGroup<F>& g, int k, const HingeLane* hinge, int jointIndex, int staticSlot) {
  const HingeLane empty{};
  const HingeLane& j = hinge != nullptr ? *hinge : empty;
  g.rA0x[k] = j.rA0.x, g.rA0y[k] = j.rA0.y, g.rB0x[k] = j.rB0.x, g.rB0y[k] = j.rB0.y;
  g.centerX[k] = j.deltaCenter.x, g.centerY[k] = j.deltaCenter.y;
  g.invMassA[k] = j.invMassA, g.invIA[k] = j.invIA, g.invMassB[k] = j.invMassB, g.invIB[k] = j.invIB;
  g.biasRate[k] = j.softness.biasRate, g.massScale[k] = j.softness.massScale;
  g.impulseScale[k] = j.softness.impulseScale;
  g.impulseX[k] = j.impulse.x, g.impulseY[k] = j.impulse.y;
  g.indexA[k] = hinge != nullptr && j.indexA >= 0 ? j.indexA : staticSlot;
  g.indexB[k] = hinge != nullptr && j.indexB >= 0 ? j.indexB : staticSlot;
  g.joint[k] = jointIndex;
}

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
void BeginHingeGraph(int bodyCount, HingeGraph<F>& graph) {
  graph.staticSlot = bodyCount;
  graph.bodyColors.assign(static_cast<size_t>(bodyCount), 0u);
  graph.scalar.clear();
  for (std::vector<WideHingeGroup<F>>& groups : graph.groups) groups.clear();
  std::fill(std::begin(graph.colorSize), std::end(graph.colorSize), 0);
}

template <class F>
bool AddPlainHinge(const HingeLane& hinge, int jointIndex, HingeGraph<F>& graph) {
  const int color = AssignColor(graph.bodyColors, hinge.indexA, hinge.indexB);
  if (color < 0) return false;
  const int lane = graph.colorSize[color]++ % F::kLanes;
  std::vector<WideHingeGroup<F>>& groups = graph.groups[color];
  if (lane == 0) groups.emplace_back();
  PackHinge(groups.back(), lane, &hinge, jointIndex, graph.staticSlot);
  return true;
}

template <class F>
void AddToHingeGraph(const JointConstraint& c, int jointIndex, HingeGraph<F>& graph) {
  if (IsPlainHinge(c) && AddPlainHinge(LaneOf(c), jointIndex, graph)) return;
  graph.scalar.push_back(jointIndex);
}

template <class F>
void FinishHingeGraph(HingeGraph<F>& graph) {
  constexpr int W = F::kLanes;
  for (int c = 0; c < kGraphColorCount; ++c) {
    for (int lane = graph.colorSize[c] % W; lane != 0 && lane < W; ++lane)
      PackHinge<F>(graph.groups[c].back(), lane, nullptr, -1, graph.staticSlot);
  }
}

template <class F>
void BuildHingeGraph(std::span<const JointConstraint> joints, int bodyCount, HingeGraph<F>& graph) {
  BeginHingeGraph(bodyCount, graph);
  for (size_t i = 0; i < joints.size(); ++i) AddToHingeGraph(joints[i], static_cast<int>(i), graph);
  FinishHingeGraph(graph);
}

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
int AssignHingeBlockStaticSlots(HingeGraph<F>& graph, int workerCount) {
  int slots = 1;
  for (int c = 0; c < kGraphColorCount; ++c) {
    std::vector<WideHingeGroup<F>>& groups = graph.groups[c];
    const int count = static_cast<int>(groups.size());
    const int blockSize = BlockSize(count, workerCount, kMinGroupsPerBlock);
    graph.colorBlockSize[c] = blockSize;
    for (int i = blockSize; i < count; ++i)  // block 0 keeps staticSlot
      MoveToBlockStaticSlot(groups[static_cast<size_t>(i)], i, blockSize, graph.staticSlot);
    slots = std::max(slots, (count + blockSize - 1) / blockSize);
  }
  return slots;
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

template <class F>
void StoreHingeGroups(const HingeGraph<F>& graph, std::span<JointConstraint> joints) {
  for (const std::vector<WideHingeGroup<F>>& groups : graph.groups) {
    for (const WideHingeGroup<F>& g : groups) {
      for (int k = 0; k < F::kLanes; ++k) {
        if (g.joint[k] < 0) continue;
        joints[static_cast<size_t>(g.joint[k])].impulses.linear = {g.impulseX[k], g.impulseY[k]};
      }
    }
  }
}

template <class F>
void DropCappedHingeGroups(HingeGraph<F>& graph, std::span<const BodyParams> params) {
  // The static slot (index params.size()) is never capped.
  auto capped = [&params](int index) {
    return static_cast<size_t>(index) < params.size() && params[static_cast<size_t>(index)].capped;
  };
  for (std::vector<WideHingeGroup<F>>& groups : graph.groups) {
    for (WideHingeGroup<F>& g : groups) {
      for (int k = 0; k < F::kLanes; ++k) {
        if (capped(g.indexA[k]) || capped(g.indexB[k])) g.impulseX[k] = g.impulseY[k] = 0.0f;
      }
    }
  }
}

// This build's lane type, and the scalar twin the tests compare it with.
#define MK_HINGE_GRAPH_INSTANTIATE(F)                                                                     \
  template void BeginHingeGraph<F>(int, HingeGraph<F>&);                                                  \
  template void AddToHingeGraph<F>(const JointConstraint&, int, HingeGraph<F>&);                          \
  template bool AddPlainHinge<F>(const HingeLane&, int, HingeGraph<F>&);                                  \
  template void FinishHingeGraph<F>(HingeGraph<F>&);                                                      \
  template void BuildHingeGraph<F>(std::span<const JointConstraint>, int, HingeGraph<F>&);                \
  template void WarmStartHingeGroups<F>(HingeGraph<F>&, std::span<BodyState>);                            \
  template void SolveHingeGroups<F, true>(HingeGraph<F>&, std::span<BodyState>);                          \
  template void SolveHingeGroups<F, false>(HingeGraph<F>&, std::span<BodyState>);                         \
  template void StoreHingeGroups<F>(const HingeGraph<F>&, std::span<JointConstraint>);                    \
  template int AssignHingeBlockStaticSlots<F>(HingeGraph<F>&, int);                                       \
  template void WarmStartHingeGroupRange<F>(HingeGraph<F>&, std::span<BodyState>, int, int, int, int);    \
  template void SolveHingeGroupRange<F, true>(HingeGraph<F>&, std::span<BodyState>, int, int, int, int);  \
  template void SolveHingeGroupRange<F, false>(HingeGraph<F>&, std::span<BodyState>, int, int, int, int); \
  template void DropCappedHingeGroups<F>(HingeGraph<F>&, std::span<const BodyParams>);
MK_HINGE_GRAPH_INSTANTIATE(wide::FloatW)
#if !defined(MK_DISABLE_SIMD) && defined(__SSE2__)
MK_HINGE_GRAPH_INSTANTIATE(wide::ScalarFloat<wide::FloatW::kLanes>)
#endif
#undef MK_HINGE_GRAPH_INSTANTIATE

}  // namespace mk
