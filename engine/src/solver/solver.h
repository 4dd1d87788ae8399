// SPDX-License-Identifier: MIT
// Internal: the step's solver data and the sub-step stage list (Box2D v3's solver.c, b2SolverStage).
//
// The stages of a step, as world/solve.cpp calls them:
//   PrepareContacts, PrepareJoints          constraints from the world's inputs, once per step
//   RunSubSteps                             per sub-step: integrate velocities, warm start, solve
//                                           (soft), integrate positions, relax (rigid); Classic mode:
//                                           velocity iterations, then position passes
//   ApplyRestitution                        once, after the sub-steps
//   CapSpeeds (+ DropCappedImpulses)        the final velocities within the caps
//   StoreContactImpulses, StoreJointImpulses  impulses (warm start), hits and reactions back
#pragma once

#include "core/simd_dispatch.h"
#include "solver/body_integrator.h"
#include "solver/contact_graph.h"
#include "solver/contact_solver.h"
#include "solver/hinge_graph.h"
#include "solver/joint_solver.h"
#include "solver/solver_stages.h"
#include "solver/solver_types.h"
#include "solver/support_levels.h"

#include <cstddef>
#include <vector>

namespace mk {

/// The step's bodies and constraints, indexed by solver index (bodies) and input order
/// (constraints: contacts[i] is made from the i-th ContactInput, joints[i] from the i-th JointInput).
/// A moving body with motion locks (World MotionLocks): its solver index and which axes are held
/// (bit 1: x, 2: y, 4: rotation).
struct BodyLock {
  int index = 0;
  std::uint8_t axes = 0;
};

struct SolverArrays {
  std::vector<BodyState> states;
  std::vector<BodyParams> params;
  std::vector<BodyLock> locks;  // empty in a world without locked bodies: then the locks cost nothing
  std::vector<ContactConstraint> contacts;
  std::vector<ContactKey> contactKeys;  // per contact: what colouring, restitution and the stores read
  /// Counts the changes of what the contact colouring reads of the keys (each contact's solver indices
  /// and scalarOnly, in order): PrepareContacts adds one when a contact's differs from the last
  /// prepare's, or the count does. BuildContactGraph keeps a colouring made from the same version.
  std::uint64_t contactKeysVersion = 0;
  /// Per solver body: its support level (ComputeSupportLevels), which the relax pass's rows go by
  /// (RelaxNormalRows). SolveStep fills it in soft mode with relax; empty, every body moves in every row.
  std::vector<int> levels;
  SupportLevelScratch levelScratch;
  std::vector<ContactSurface> surfaces;  // rows of the contacts with rolling resistance or tangent speed
  std::vector<JointConstraint> joints;
  std::vector<HingePlace> jointPlaces;  // PrepareJoints: per input, its hinge lane or its constraint
  /// What PrepareJoints' colouring on workers read, per input (JointPlaceKey), and the count of its
  /// changes, as for the contacts: the workers' prepare adds one when a joint's key differs from the
  /// last it wrote, or the count does.
  std::vector<JointPlaceKey> jointPlaceKeys;
  std::uint64_t jointKeysVersion = 0;
  /// What the joints' places, hinge groups and scalar lists were coloured from (layout: the lane
  /// width). While the same, PrepareJoints on workers keeps them; the one-thread prepare colours as it
  /// fills and clears it (nothing to keep). Here and not in the HingeGraph: jointPlaces serve both widths.
  ColoredFrom jointsColoredFrom;
  std::vector<ContactHit> hits;  // StoreContactImpulses
  /// RunSubSteps stored the coloured contacts' impulses into their inputs' manifolds as well (it was
  /// given the inputs; the constraints of those not bouncy and without hit events do not hold them):
  /// StoreContactImpulses then stores only the others and the bouncy ones, unless DropCappedImpulses
  /// without the inputs cleared it. StoreContactImpulses clears it.
  bool manifoldsHoldLaneImpulses = false;
  /// Some contact is bouncy (ContactKey::bouncy): PrepareContacts sets it, ApplyRestitution
  /// reads it.
  bool anyBouncy = false;
  /// The soft mode's coloured contacts (RunSubSteps builds it; Classic mode solves in input order) and
  /// coloured plain hinges with the joints they leave to the scalar path, on 4 lanes: used when
  /// `lanes` is 4 (WithGraphs picks the pair).
  ContactGraph<wide::Float4> graph;
  HingeGraph<wide::Float4> hinges;
#if defined(MK_HAS_FLOAT8)
  /// The same on 8 lanes (AVX2), used when `lanes` is 8; the pair not in use stays empty.
  ContactGraph<wide::Float8> graph8;
  HingeGraph<wide::Float8> hinges8;
#endif
  /// The kernels' lane count, 4 or 8: the world's choice (SimdLanes, core/simd_dispatch.h), fixed at
  /// its creation. 8 only where the CPU has AVX2. Every width gives the same results, bit for bit.
  int lanes = SimdLanes(SimdWidth::Automatic);
  /// The soft mode's passes as stages for several workers (solver_stages.h), when the step has them.
  SolverStages stages;

  /// Bytes the graphs of every lane width hold on the heap (World::GetMemoryStats).
  std::size_t GraphBytes() const {
    std::size_t bytes = graph.MemoryBytes() + hinges.MemoryBytes();
#if defined(MK_HAS_FLOAT8)
    bytes += graph8.MemoryBytes() + hinges8.MemoryBytes();
#endif
    return bytes;
  }
};

/// Calls fn(graph, hinges) on the graphs of solver.lanes (the 4- or 8-lane pair), and returns what it
/// returns: code written once as a generic lambda or template runs on either width.
template <class Solver, class Fn>
decltype(auto) WithGraphs(Solver& solver, Fn&& fn) {
#if defined(MK_HAS_FLOAT8)
  if (solver.lanes == 8) return fn(solver.graph8, solver.hinges8);
#endif
  return fn(solver.graph, solver.hinges);
}

/// A speed cap bit the bodies flagged BodyParams::capped: the impulses their contacts and joints have
/// accumulated were solved for velocities the cap has since cut, so they restart from zero. Clears the
/// flags. With the contacts' inputs (after the sub-steps wrote the lanes' impulses into the
/// manifolds, SolverArrays::manifoldsHoldLaneImpulses) it zeroes those manifolds' impulses as well.
void DropCappedImpulses(SolverArrays& solver, std::span<const ContactInput> inputs = {});

/// The sub-steps of one step (Classic mode: its one step of velocity iterations and position passes),
/// on prepared constraints. Joints go before contacts in every pass. With the contacts' inputs (those
/// PrepareContacts was given), soft mode also writes the coloured contacts' impulses into their
/// manifolds on the way out of the lanes (SolverArrays::manifoldsHoldLaneImpulses).
void RunSubSteps(SolverArrays& solver, const StepContext& context, std::span<const ContactInput> inputs = {});

}  // namespace mk
