// SPDX-License-Identifier: MIT
// Internal: plain hinges (revolute joints without spring, motor or limit: joint_grid's, ragdolls'
// and most chains') solved graph-coloured and SIMD-wide, as contacts are (contact_graph.h; Box2D v3
// colours its joints as well). A hinge of a plain kind is only its point constraint pB = pA, so a
// lane needs the anchors, the masses and the softness, and the kernels mirror SolvePoint and the
// plain warm start (joint_solver.h) operation for operation: on the same joint order they give the
// same bits as the scalar path.
//
// Every other joint, and a hinge that finds no free colour, is solved one by one by the scalar code
// (HingeGraph::scalar), after the coloured hinges of the same pass. Those are coloured too, on their
// own (they are solved in a pass of their own): colour by colour, input order within a colour, then
// the few that found no free colour, so that the workers can solve a colour's joints at the same time
// (solver_stages.h) and one worker solves them in the same order. Classic mode solves every joint one
// by one in input order and does not use this.
#pragma once

#include "core/wide_float.h"
#include "solver/body_lanes.h"
#include "solver/contact_graph.h"
#include "solver/joint_solver.h"
#include "solver/solver_types.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace mk {

/// One group of a colour: up to kLanes hinges, structure of arrays. Empty lanes have zero masses
/// and only the static slot, so they move nothing.
template <class F>
struct WideHingeGroup {
  static constexpr int kLanes = F::kLanes;
  // Left uninitialised: PackHinge writes every field of every lane, the empty ones included, and
  // zeroing a new group first (a value-initialised aggregate) cost a `rep stos` of 256 bytes (SSE2)
  // per four hinges, 1.5% of joint_grid's step.
  WideHingeGroup() {}
  float rA0x[kLanes], rA0y[kLanes], rB0x[kLanes], rB0y[kLanes];  // JointConstraint::rA0, rB0 (m)
  float centerX[kLanes], centerY[kLanes];                        // JointConstraint::deltaCenter (m)
  float invMassA[kLanes], invIA[kLanes], invMassB[kLanes], invIB[kLanes];
  float biasRate[kLanes], massScale[kLanes], impulseScale[kLanes];  // the joint's Softness
  float impulseX[kLanes], impulseY[kLanes];  // accumulated point impulse (N s per sub-step)
  int indexA[kLanes], indexB[kLanes];        // solver indices, or the graph's static slot
  int joint[kLanes];                         // index into SolverArrays::joints, -1: an empty lane
};

/// The step's coloured hinges and the joints left to the scalar path. Each colour keeps its own
/// groups, its hinges in input order, so the graph is built in one pass over the joints (PrepareJoints
/// adds each constraint while it is still in cache) and the solve order, colour by colour and then input
/// order, is the same for 4 and 8 lanes. Storage is reused.
template <class F>
struct HingeGraph {
  std::vector<std::uint32_t> bodyColors;  // per solver body: bit c set when a hinge of colour c has it
  std::vector<WideHingeGroup<F>> groups[kGraphColorCount];  // colour c's groups
  int colorSize[kGraphColorCount] = {};                     // hinges per colour
  int staticSlot = 0;                                       // as ContactGraph::staticSlot: bodyCount
  int colorBlockSize[kGraphColorCount] = {};                // as ContactGraph::colorBlockSize

  // The scalar path's joints (indices into SolverArrays::joints), solved one by one: after Finish,
  // colour c's are scalar[scalarColorStart[c], scalarColorStart[c + 1]) in input order, and the last
  // range (c = kScalarOverflow) holds those whose bodies left no colour free.
  static constexpr int kScalarOverflow = kGraphColorCount;
  std::vector<int> scalar;
  int scalarColorStart[kScalarOverflow + 2] = {};
  std::vector<std::uint32_t> scalarBodyColors;          // as bodyColors, for the scalar joints' colours
  std::vector<int> scalarOfColor[kScalarOverflow + 1];  // while building: each colour's, then the overflow's

  /// Bytes held on the heap (World::GetMemoryStats).
  std::size_t MemoryBytes() const {
    std::size_t bytes = (bodyColors.capacity() + scalarBodyColors.capacity()) * sizeof(std::uint32_t) +
                        scalar.capacity() * sizeof(int);
    for (const auto& joints : scalarOfColor) bytes += joints.capacity() * sizeof(int);
    for (const auto& color : groups) bytes += color.capacity() * sizeof(WideHingeGroup<F>);
    return bytes;
  }
};

/// True for a joint the graph takes: a revolute joint without spring, motor or limit between two
/// different bodies.
bool IsPlainHinge(const JointConstraint& c);

/// What a lane holds of a plain hinge: the fields of its JointConstraint the kernels read.
struct HingeLane {
  Vec2 rA0{0.0f, 0.0f}, rB0{0.0f, 0.0f}, deltaCenter{0.0f, 0.0f};
  float invMassA = 0.0f, invIA = 0.0f, invMassB = 0.0f, invIB = 0.0f;
  Softness softness{};
  Vec2 impulse{0.0f, 0.0f};      // JointImpulses::linear
  int indexA = -1, indexB = -1;  // solver indices, -1 = static
};

HingeLane LaneOf(const JointConstraint& c);

/// The graph built in one pass: Begin (bodyCount: the step's solver bodies), Add every joint in
/// input order (jointIndex: its index in SolverArrays::joints), Finish. A plain hinge takes the lowest
/// colour its moving bodies leave free (joints and contacts are solved in separate passes, so they
/// colour separately) and the next lane of that colour; every other joint goes on `scalar` with the
/// lowest colour its bodies leave free among the scalar joints. Finish fills the colours' last groups
/// with empty lanes and lists the scalar joints colour by colour in `scalar`.
template <class F>
void BeginHingeGraph(int bodyCount, HingeGraph<F>& graph);
template <class F>
void AddToHingeGraph(const JointConstraint& c, int jointIndex, HingeGraph<F>& graph);
/// Add's plain-hinge half: colours the hinge and packs it into its colour's next lane; false, and
/// nothing changed, when its bodies leave no colour free. PrepareJoints calls it without making
/// the hinge's JointConstraint.
template <class F>
bool AddPlainHinge(const HingeLane& hinge, int jointIndex, HingeGraph<F>& graph);
/// Where PrepareJoints puts a joint: a plain hinge's colour and slot among its colour's hinges (lane
/// slot % kLanes of group slot / kLanes), or colour -1 and its index in SolverArrays::joints.
struct HingePlace {
  int color = -1;
  int slot = 0;
};

/// All that PlaceJoint's colouring reads of one joint: its solver bodies (-1: static) and whether it is
/// a plain hinge. With the same keys in the same order, the same body count and lane width, the colours,
/// slots and scalar lists come out the same (SolverArrays::jointPlaceKeys).
struct JointPlaceKey {
  int indexA = -1, indexB = -1;
  bool plain = false;
  bool operator==(const JointPlaceKey&) const = default;
};

/// AddPlainHinge split for PrepareJoints' workers. ColorPlainHinge, in input order on one thread:
/// the hinge's colour and the next slot of that colour, {-1, 0} and nothing changed when its bodies
/// leave no colour free (the caller adds a group when the slot starts one). PackHingeAt: one hinge's
/// lane, from any thread (each lane is written once). FinishHingeGraph then pads the last groups, as
/// after AddPlainHinge.
template <class F>
HingePlace ColorPlainHinge(int indexA, int indexB, HingeGraph<F>& graph) {
  const int color = AssignColor(graph.bodyColors, indexA, indexB);
  if (color < 0) return {};
  return {color, graph.colorSize[color]++};
}
template <class F>
void PackHingeAt(HingeGraph<F>& graph, HingePlace place, const HingeLane& hinge, int jointIndex);

/// Add's other half: joint `jointIndex`, between solver bodies indexA and indexB (-1: static), on the
/// scalar list. Inline: PrepareJoints calls it for each of rain's 10,000 joints.
template <class F>
inline void AddScalarJoint(int indexA, int indexB, int jointIndex, HingeGraph<F>& graph) {
  if (graph.scalarBodyColors.empty())
    graph.scalarBodyColors.assign(static_cast<size_t>(graph.staticSlot), 0u);
  const int color = AssignColor(graph.scalarBodyColors, indexA, indexB);
  graph.scalarOfColor[color < 0 ? HingeGraph<F>::kScalarOverflow : color].push_back(jointIndex);
}
template <class F>
void FinishHingeGraph(HingeGraph<F>& graph);
/// Finish's first half alone: each colour's last group's unused lanes made empty again (a graph kept
/// from the last step, whose lanes the fill rewrites but for these).
template <class F>
void PadHingeGroups(HingeGraph<F>& graph);

/// Begin, Add each of `joints` (jointIndex: its index there), Finish.
template <class F>
void BuildHingeGraph(std::span<const JointConstraint> joints, int bodyCount, HingeGraph<F>& graph);

/// The coloured half of WarmStartJoints. `states`: the solver bodies and then the static slot
/// (graph.staticSlot + 1 entries), as for the contact groups.
template <class F>
void WarmStartHingeGroups(HingeGraph<F>& graph, std::span<BodyState> states);

/// The coloured half of SolveJoints: the Biased pass (useBias) or the Relax pass.
template <class F, bool useBias>
void SolveHingeGroups(HingeGraph<F>& graph, std::span<BodyState> states);

/// The parallel stages' blocks, as AssignBlockStaticSlots does for contacts (contact_graph.h), the
/// groups shared by `tasks`' workers; returns the static slots needed. (The scalar joints need none:
/// the scalar code keeps a static body's state on its stack.)
template <class F>
int AssignHingeBlockStaticSlots(HingeGraph<F>& graph, int workerCount, const TaskSystem* tasks);

/// One block: colour `color`'s groups [begin, end), restoring `staticSlot` after each.
template <class F>
void WarmStartHingeGroupRange(HingeGraph<F>& graph, std::span<BodyState> states, int color, int begin,
                              int end, int staticSlot);
template <class F, bool useBias>
void SolveHingeGroupRange(HingeGraph<F>& graph, std::span<BodyState> states, int color, int begin, int end,
                          int staticSlot);

/// The groups' accumulated impulses back into their constraints. The step does not need it
/// (StoreJointImpulses reads the lanes); the tests compare the constraints with the scalar path's.
template <class F>
void StoreHingeGroups(const HingeGraph<F>& graph, std::span<JointConstraint> joints);

/// DropCappedImpulses for the groups: hinges with a capped body restart from zero.
template <class F>
void DropCappedHingeGroups(HingeGraph<F>& graph, std::span<const BodyParams> params);

}  // namespace mk
