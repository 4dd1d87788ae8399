// SPDX-License-Identifier: MIT
// Internal: the graph-coloured, SIMD-wide contact solver (issue 14; the idea is Box2D v3's constraint
// graph, Catto 2024).
//
// Gauss-Seidel solves one constraint after the other, each seeing the velocities the previous ones
// left. Two constraints that share no moving body do not see each other at all, so they can be solved
// at the same time. Colouring gives every contact a colour no other contact of the same moving body
// has; a colour's contacts are then packed four to a group, one per SIMD lane, and each group is
// solved by the same instructions as one scalar contact. Static and sleeping bodies (solver index -1)
// are never written, so they take no colour: a ground box touching a hundred boxes costs nothing.
//
// The result equals the scalar solver run over the contacts in colour order (colour 0's in input
// order, then colour 1's, ..., then the overflow), bit for bit but for the sign of zeros: each lane
// does the scalar code's IEEE operations in the same order (tests/solver/contact_graph_test.cpp).
// Contacts that find no free colour among kGraphColorCount (a body with that many contacts) are the
// overflow, solved by the scalar code after the colours.
#pragma once

#include "core/wide_float.h"
#include "solver/solver_types.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace mk {

struct ContactConstraint;  // contact_solver.h
struct ContactKey;         // contact_solver.h
struct ContactInput;       // contact_solver.h

/// Colours before the overflow. A body takes one colour per contact it has with another moving body,
/// so a box in a stack uses about 6; 24 leaves room for crowds (Box2D v3 uses 24 as well).
inline constexpr int kGraphColorCount = 24;

/// One group of a colour: up to kLanes contacts, structure of arrays. Empty lanes have no bodies and
/// zero masses, so they move nothing. A one-point contact's second point is zero the same way.
template <class F>
struct WideContactGroup {
  static constexpr int kLanes = F::kLanes;
  struct Point {
    // r x n, r x t of the anchors from the centres of mass (m): all a row needs of the anchors, the
    // separation's turn included (CurrentSeparation)
    float rnA[kLanes], rnB[kLanes], rtA[kLanes], rtB[kLanes];
    float adjustedSeparation[kLanes];
    float normalMass[kLanes], tangentMass[kLanes];
    float normalImpulse[kLanes], tangentImpulse[kLanes], maxNormalImpulse[kLanes];
  };
  float normalX[kLanes], normalY[kLanes], friction[kLanes];
  float invMassA[kLanes], invIA[kLanes], invMassB[kLanes], invIB[kLanes];
  float relaxMoveA[kLanes], relaxMoveB[kLanes];  // 1; 0 for the supporting side in the relax pass
  Point points[2];
  int indexA[kLanes], indexB[kLanes];  // solver indices; a static or asleep body, or an empty lane: the
                                       // graph's static slot
  int constraint[kLanes];              // index into SolverArrays::contacts, -1: an empty lane
};

/// The step's colouring and the packed groups. Storage is reused from step to step.
template <class F>
struct ContactGraph {
  std::vector<std::uint32_t> bodyColors;  // per solver body: bit c set when a contact of colour c has it
  std::vector<std::int8_t> colorOf;       // per constraint: its colour, -1 for the overflow
  std::vector<int> slotOf;                // per coloured constraint: its place among its colour's
  /// With workers (the colouring by body range): per lane of every group, group * kLanes + lane, the
  /// constraint packed there, -1 for a padding lane. The packing goes by it, group by group, so that
  /// each worker writes whole groups (PackContactGraph). Empty with one worker.
  std::vector<int> laneContact;
  std::vector<WideContactGroup<F>> groups;
  int colorGroupStart[kGraphColorCount + 1] = {};  // colour c's groups: [start[c], start[c + 1])
  int colorSize[kGraphColorCount] = {};            // contacts per colour
  std::vector<int> overflow;                       // constraint indices, in input order
  /// The state index that lanes without a moving body use: bodyCount, one past the solver bodies. The
  /// kernels take the states with this slot appended (a body at rest, BodyState{}), so they read and
  /// write every lane without a test; they set it back to rest after every group.
  int staticSlot = 0;
  /// The parallel stages' blocks (AssignBlockStaticSlots): colour c's groups are cut into blocks of
  /// colorBlockSize[c] groups, and block k's lanes without a moving body use static slot
  /// staticSlot + k, so that blocks solved at the same time never write the same slot.
  int colorBlockSize[kGraphColorCount] = {};
  /// What the colouring (colorOf, slotOf, colorSize, overflow, the group count) was made from
  /// (layout: the slot order, 1 by body range). BuildContactGraph keeps it while the same.
  ColoredFrom coloredFrom;

  /// Bytes held on the heap (World::GetMemoryStats).
  std::size_t MemoryBytes() const {
    return bodyColors.capacity() * sizeof(std::uint32_t) + colorOf.capacity() * sizeof(std::int8_t) +
           slotOf.capacity() * sizeof(int) + laneContact.capacity() * sizeof(int) +
           groups.capacity() * sizeof(WideContactGroup<F>) + overflow.capacity() * sizeof(int);
  }
};

/// Colours the prepared contacts and packs each colour's contacts into groups. Contacts between two
/// moving bodies first, in input order, each taking the lowest colour its bodies leave free; then
/// contacts with a body that never moves, in input order, each taking the lowest free colour above
/// its moving body's (AssignColorAfter), so that the static row is solved last. The overflow keeps
/// input order. keys: the contacts' ContactKeys (PrepareContacts writes them, same index), which
/// the colouring reads; only the packing reads `contacts`. bodyCount: the step's solver bodies. The
/// colouring runs on the calling thread; the packing is shared by `tasks`' workers when it has them.
/// With workers, each colour's lanes go by ranges of the first moving body's solver index rather than
/// input order (ColorContacts, contact_graph.cpp): the same colours and results, each worker's slice
/// of a colour nearer the bodies it integrates. keysVersion: SolverArrays::contactKeysVersion of `keys`;
/// when the graph was coloured from the same version, body count and slot order, the colouring is kept
/// and only the packing runs (a resting pile's contacts stay the same for many steps: the colouring is
/// the step's largest serial piece there). kColorAlways (the default) colours every time.
inline constexpr std::uint64_t kColorAlways = ~std::uint64_t{0};
template <class F>
void BuildContactGraph(std::span<const ContactConstraint> contacts, std::span<const ContactKey> keys,
                       std::span<const int> levels, int bodyCount, ContactGraph<F>& graph,
                       const TaskSystem* tasks = nullptr, std::uint64_t keysVersion = kColorAlways);
/// BuildContactGraph's parts, for a caller that runs other work beside the colouring (which reads only
/// `keys` and writes only the graph's colouring, on whichever one thread runs it). NeedsColoring: false
/// when the graph keeps a colouring of the same keys version, body count and slot order. ColorContactGraph
/// colours (call it when NeedsColoring says so); PackContactGraph packs the lanes and sets the static slot.
/// BuildContactGraph is ColorContactGraph when needed, then PackContactGraph.
template <class F>
bool NeedsColoring(const ContactGraph<F>& graph, int bodyCount, const TaskSystem* tasks,
                   std::uint64_t keysVersion);
template <class F>
void ColorContactGraph(std::span<const ContactKey> keys, int bodyCount, ContactGraph<F>& graph,
                       const TaskSystem* tasks, std::uint64_t keysVersion);
template <class F>
void PackContactGraph(std::span<const ContactConstraint> contacts, std::span<const int> levels, int bodyCount,
                      ContactGraph<F>& graph, const TaskSystem* tasks);

/// The coloured half of WarmStartContacts: every group's accumulated impulses applied. `states`: the
/// solver bodies and then the static slot (graph.staticSlot + 1 entries; RunSubSteps appends it).
template <class F>
void WarmStartContactGroups(ContactGraph<F>& graph, std::span<BodyState> states);

/// The coloured half of SolveContacts (useBias) and RelaxContacts (!useBias): colour by colour.
/// `states` as for WarmStartContactGroups.
template <class F, bool useBias>
void SolveContactGroups(ContactGraph<F>& graph, std::span<BodyState> states, const StepContext& context);

/// For the parallel stages (solver_stages.h): cuts each colour's groups into blocks (BlockSize, about
/// kBlocksPerWorker per worker) and gives block k's static lanes slot staticSlot + k. Returns how many
/// static slots the states then need after the bodies (the largest block count, at least 1). The
/// results do not change: every static slot is a body at rest. `tasks`' workers share the groups.
template <class F>
int AssignBlockStaticSlots(ContactGraph<F>& graph, int workerCount, const TaskSystem* tasks = nullptr);

/// One block of the passes above: the groups [begin, end) of one colour, restoring `staticSlot`
/// (the block's own) after each. `states`: the bodies and every static slot.
template <class F>
void WarmStartContactGroupRange(ContactGraph<F>& graph, std::span<BodyState> states, int begin, int end,
                                int staticSlot);
template <class F, bool useBias>
void SolveContactGroupRange(ContactGraph<F>& graph, std::span<BodyState> states, const StepContext& context,
                            int begin, int end, int staticSlot);

/// The groups' accumulated impulses back into their constraints (after the sub-steps, before
/// restitution and StoreContactImpulses). With `inputs` (one per constraint) they go into the
/// manifolds instead, which StoreContactImpulses then need not do again, and into the constraints
/// only of the contacts a later pass reads them from: the bouncy ones (ApplyRestitution) and those
/// that want hit events (ListContactHits). keys: as for BuildContactGraph (their point counts and
/// bounciness). Shared by `tasks`' workers when it has them.
template <class F>
void StoreContactGroups(const ContactGraph<F>& graph, std::span<const ContactKey> keys,
                        std::span<ContactConstraint> contacts, const TaskSystem* tasks = nullptr,
                        std::span<const ContactInput> inputs = {});

/// DropCappedImpulses for the groups: lanes with a capped body restart from zero.
template <class F>
void DropCappedContactGroups(ContactGraph<F>& graph, std::span<const BodyParams> params);

}  // namespace mk
