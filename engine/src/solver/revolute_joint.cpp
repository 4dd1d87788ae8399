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
#include "core/parallel.h"
#include "minkowski/assert.h"
#include "solver/body_lanes.h"
#include "solver/hinge_graph.h"
#include "solver/hinge_graph_kernels.h"
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

}  // namespace

template <class F>
void BeginHingeGraph(int bodyCount, HingeGraph<F>& graph) {
  graph.staticSlot = bodyCount;
  graph.bodyColors.assign(static_cast<size_t>(bodyCount), 0u);
  graph.scalar.clear();
  for (std::vector<int>& joints : graph.scalarOfColor) joints.clear();
  graph.scalarBodyColors.clear();  // assigned by the first scalar joint: most steps have none
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
void PackHingeAt(HingeGraph<F>& graph, HingePlace place, const HingeLane& hinge, int jointIndex) {
  constexpr int W = F::kLanes;
  PackHinge(graph.groups[place.color][static_cast<std::size_t>(place.slot / W)], place.slot % W, &hinge,
            jointIndex, graph.staticSlot);
}

template <class F>
void AddToHingeGraph(const JointConstraint& c, int jointIndex, HingeGraph<F>& graph) {
  if (IsPlainHinge(c) && AddPlainHinge(LaneOf(c), jointIndex, graph)) return;
  AddScalarJoint(c.indexA, c.indexB, jointIndex, graph);
}

namespace {

// The colours' lists one after the other in `scalar`, and their ranges in scalarColorStart.
template <class F>
void ConcatenateScalarColors(HingeGraph<F>& graph) {
  int* start = graph.scalarColorStart;
  for (int c = 0; c <= HingeGraph<F>::kScalarOverflow; ++c) {
    const std::vector<int>& joints = graph.scalarOfColor[c];
    start[c] = static_cast<int>(graph.scalar.size());
    graph.scalar.insert(graph.scalar.end(), joints.begin(), joints.end());
  }
  start[HingeGraph<F>::kScalarOverflow + 1] = static_cast<int>(graph.scalar.size());
}

}  // namespace

template <class F>
void PadHingeGroups(HingeGraph<F>& graph) {
  constexpr int W = F::kLanes;
  for (int c = 0; c < kGraphColorCount; ++c) {
    for (int lane = graph.colorSize[c] % W; lane != 0 && lane < W; ++lane)
      PackHinge<F>(graph.groups[c].back(), lane, nullptr, -1, graph.staticSlot);
  }
}

template <class F>
void FinishHingeGraph(HingeGraph<F>& graph) {
  PadHingeGroups(graph);
  ConcatenateScalarColors(graph);
}

template <class F>
void BuildHingeGraph(std::span<const JointConstraint> joints, int bodyCount, HingeGraph<F>& graph) {
  BeginHingeGraph(bodyCount, graph);
  for (size_t i = 0; i < joints.size(); ++i) AddToHingeGraph(joints[i], static_cast<int>(i), graph);
  FinishHingeGraph(graph);
}

template <class F>
int AssignHingeBlockStaticSlots(HingeGraph<F>& graph, int workerCount, const TaskSystem* tasks) {
  int slots = 1;
  int groupCount = 0;
  for (int c = 0; c < kGraphColorCount; ++c) {
    const int count = static_cast<int>(graph.groups[c].size());
    const int blockSize = BlockSize(count, workerCount, kMinGroupsPerBlock);
    graph.colorBlockSize[c] = blockSize;
    slots = std::max(slots, (count + blockSize - 1) / blockSize);
    groupCount += count;
  }
  // Each group's lanes are its own, so the workers share the groups, by slices across the colours as
  // the impulses' store goes (StoreJointImpulses): worker w meets the part of each colour SolverStages
  // starts it on. On the calling thread alone it took about 0.02 ms of joint_grid's two-worker step
  // (its 10,000 hinges' groups) while the other worker waited (docs/benchmarks.md, "The hinge groups'
  // static slots on the workers").
  const int slices = ColorSliceCount(groupCount, kMinGroupsPerStoreRange);
  ParallelFor(tasks, slices, 1, [&](int begin, int end) {
    for (int c = 0; c < kGraphColorCount; ++c) {
      std::vector<WideHingeGroup<F>>& groups = graph.groups[c];
      const int count = static_cast<int>(groups.size());
      const int blockSize = graph.colorBlockSize[c];
      const int from =
          std::max(blockSize, ColorSliceStart(0, count, begin, slices));  // block 0 keeps staticSlot
      const int to = ColorSliceStart(0, count, end, slices);
      for (int i = from; i < to; ++i)
        MoveToBlockStaticSlot(groups[static_cast<size_t>(i)], i, blockSize, graph.staticSlot);
    }
  });
  return slots;
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

// Every lane type's graph; the kernels on the baseline types (Float4 and the scalar twins the tests
// compare with), not on Avx2Float8, whose kernels need AVX2 (hinge_graph_avx2.cpp). Building, storing
// and dropping use no lane operation, so the 8-lane graph's are baseline code.
#define MK_HINGE_GRAPH_INSTANTIATE(F)                                                      \
  template void BeginHingeGraph<F>(int, HingeGraph<F>&);                                   \
  template void AddToHingeGraph<F>(const JointConstraint&, int, HingeGraph<F>&);           \
  template bool AddPlainHinge<F>(const HingeLane&, int, HingeGraph<F>&);                   \
  template void PackHingeAt<F>(HingeGraph<F>&, HingePlace, const HingeLane&, int);         \
  template void FinishHingeGraph<F>(HingeGraph<F>&);                                       \
  template void PadHingeGroups<F>(HingeGraph<F>&);                                         \
  template void BuildHingeGraph<F>(std::span<const JointConstraint>, int, HingeGraph<F>&); \
  template void StoreHingeGroups<F>(const HingeGraph<F>&, std::span<JointConstraint>);     \
  template int AssignHingeBlockStaticSlots<F>(HingeGraph<F>&, int, const TaskSystem*);     \
  template void DropCappedHingeGroups<F>(HingeGraph<F>&, std::span<const BodyParams>);
MK_HINGE_GRAPH_INSTANTIATE(wide::Float4)
MK_HINGE_KERNELS_INSTANTIATE(wide::Float4)
#if !defined(MK_DISABLE_SIMD) && defined(__SSE2__)  // else Float4 is ScalarFloat<4>
MK_HINGE_GRAPH_INSTANTIATE(wide::ScalarFloat<4>)
MK_HINGE_KERNELS_INSTANTIATE(wide::ScalarFloat<4>)
#endif
MK_HINGE_GRAPH_INSTANTIATE(wide::ScalarFloat<8>)
MK_HINGE_KERNELS_INSTANTIATE(wide::ScalarFloat<8>)
#if defined(MK_HAS_FLOAT8)
MK_HINGE_GRAPH_INSTANTIATE(wide::Avx2Float8)
#endif
#undef MK_HINGE_GRAPH_INSTANTIATE

}  // namespace mk
