// SPDX-License-Identifier: MIT
// Internal: the sub-stepped soft contact solver (docs/design.md section 7), every stage of it in one place
// like Box2D v3's contact_solver.c: prepare, warm start, solve, relax, restitution, store; and
// Classic mode's velocity and position passes.
#pragma once

#include "minkowski/manifold.h"
#include "solver/solver_types.h"

#include <cstdint>
#include <span>

namespace mk {

/// One body of a contact as the world holds it at the start of the step.
struct ContactBody {
  Pos center{0.0f, 0.0f};           // centre of mass, world (m)
  Vec2 linearVelocity{0.0f, 0.0f};  // m/s
  float angularVelocity = 0.0f;     // rad/s
  int index = -1;                   // solver index; -1: not moving this step (static or asleep)
#if defined(MK_LARGE_WORLDS)
  // Centre of mass from the body origin, world orientation (m): a manifold's points are relative to
  // body A's origin in the large-world build (world/world_frames.h, ContactTransforms).
  Vec2 originToCenter{0.0f, 0.0f};
#endif
};

/// A touching contact (manifold with points, at least one body moving), gathered by the world.
struct ContactInput {
  /// The contact's manifold, owned by the caller: PrepareContacts reads its points and the impulses
  /// of the last step; StoreContactImpulses writes this step's impulses back (Box2D v3 keeps the same
  /// pointer to its contact sims).
  Manifold* manifold = nullptr;
  ContactBody bodyA, bodyB;
  float friction = 0.0f, restitution = 0.0f;  // mixed for the pair
  int id = -1;                                // the caller's id of the contact, handed back in ContactHit
  bool enableHitEvents = false;               // StoreContactImpulses reports a ContactHit
  float rollingResistance = 0.0f;             // angular impulse bound per unit normal impulse (m)
  float tangentSpeed = 0.0f;                  // the friction rows' target slip (m/s)
};

struct ContactConstraintPoint {
  Vec2 rA{0.0f, 0.0f}, rB{0.0f, 0.0f};  // anchors from the centres of mass, world orientation (m)
  // Lever arms about the normal and the tangent, r x n and r x t (m), fixed for the step like r: the
  // angular parts of every velocity and impulse along those axes are these times w or the impulse.
  float rnA = 0.0f, rnB = 0.0f, rtA = 0.0f, rtB = 0.0f;
  float adjustedSeparation = 0.0f;  // separation minus dot(rB - rA, n) at the start of the step
  float normalMass = 0.0f, tangentMass = 0.0f;
  float normalImpulse = 0.0f, tangentImpulse = 0.0f;  // accumulated this step (N s)
  float maxNormalImpulse = 0.0f;
  float relativeVelocity = 0.0f;  // normal approach speed at the start of the step (m/s), for restitution
};

/// A two-point manifold's rows are solved as one 2x2 block only while k11^2 < this x det K (Box2D
/// 2.x's bound): nearly coincident points make K singular.
inline constexpr float kMaxBlockCondition = 1000.0f;

struct ContactConstraint {
  ContactConstraintPoint points[2];
  Vec2 normal{0.0f, 0.0f};
  float invMassA = 0.0f, invIA = 0.0f, invMassB = 0.0f, invIB = 0.0f;
  float friction = 0.0f, restitution = 0.0f;
  int indexA = -1, indexB = -1;  // solver indices, -1 = static
  int pointCount = 0;
  // Rolling resistance and tangent speed: its row in SolverArrays::surfaces, -1 for a contact with
  // neither (nearly all). Only the scalar code solves them, so a contact with a row goes to the
  // coloured solver's overflow (BuildContactGraph) and the lanes never pay for them; the row lives
  // apart so that the others carry nothing more than this index (prepared and gathered each step).
  int surface = -1;
};

/// A contact's spring (MakeSoftness): the static one, stiffer, when either body has no mass (static,
/// kinematic), else the contacts'. Derived where it is used, not stored: the SIMD lanes make the same
/// choice from their inverse masses (ContactSoftness, contact_graph_kernels.h).
inline const Softness& ContactSoftnessOf(const ContactConstraint& c, const StepContext& context) {
  return c.invMassA == 0.0f || c.invMassB == 0.0f ? context.staticSoftness : context.contactSoftness;
}

/// A point's separation (m) after its bodies moved by their deltas this step (BodyState::dp, dq),
/// without running collision again: the anchors move rigidly with their bodies. dot(dq r, n) = c (r . n)
/// + s (r x n) = s rn - c rt (rt = r x t = -(r . n), t = RightPerp(n)), so the lever arms the rows use
/// anyway give the turn's part, and the SIMD lanes carry no anchors (contact_graph.h: 32 bytes a
/// contact less for every pass to stream; docs/design.md section 8). The lanes do these operations in
/// this order.
[[gnu::always_inline]] inline float CurrentSeparation(const ContactConstraint& c,
                                                      const ContactConstraintPoint& cp, const BodyState& a,
                                                      const BodyState& b) {
  const float turnB = b.dq.s * cp.rnB - b.dq.c * cp.rtB;
  const float turnA = a.dq.s * cp.rnA - a.dq.c * cp.rtA;
  return (Dot(b.dp - a.dp, c.normal) + (turnB - turnA)) + cp.adjustedSeparation;
}

/// What the passes over every contact read to find the contacts they concern, written beside each
/// constraint by PrepareContacts (SolverArrays::contactKeys, same index): BuildContactGraph's two
/// colouring passes, ApplyRestitution, and the two stores of the impulses (for the point count, which
/// sits on a line of the constraint that holds no impulse). From the 180-byte ContactConstraint each
/// of those visits pulled a cache line for a few bytes, and on the large scenes that array outgrows
/// L2, so every pass streamed it from L3 (docs/benchmarks.md, issue 31); the keys are 12 bytes.
struct ContactKey {
  int indexA = -1, indexB = -1;  // ContactConstraint::indexA, indexB
  bool scalarOnly = false;       // ContactConstraint::surface >= 0: the overflow's, never a lane's
  // Restitution may push it (ApplyRestitution): enabled, ContactConstraint::restitution != 0, and a
  // point approaching at restitutionThreshold or faster (relativeVelocity <= -threshold, or NaN).
  bool bouncy = false;
  std::uint8_t pointCount = 0;  // ContactConstraint::pointCount
  bool hitEvents = false;       // ContactInput::enableHitEvents (ListContactHits reads the constraint)
};
static_assert(sizeof(ContactKey) == 12, "the keys stay 12 bytes: the flags fill the padding");

/// The surface row of a contact with rolling resistance or tangent speed (ContactConstraint::surface).
struct ContactSurface {
  float rollingResistance = 0.0f;  // angular impulse bound per unit normal impulse (m)
  float rollingMass = 0.0f;        // 1 / (iA + iB)
  float rollingImpulse = 0.0f;     // accumulated within the step (not warm started across steps)
  float tangentSpeed = 0.0f;       // the friction rows' target slip (m/s)
};

/// A contact with hit events whose fastest approaching point pushed this step, faster than
/// SolverSettings::hitEventThreshold.
struct ContactHit {
  int id = -1;                 // ContactInput::id
  int point = 0;               // manifold point index
  float approachSpeed = 0.0f;  // m/s, > 0
};

/// Builds solver.contacts and solver.contactKeys from the inputs (one constraint per input, same order)
/// and marks their bodies non-ballistic. After the bodies were gathered (their BodyParams give the masses).
/// `anySurface` false promises that no input has rolling resistance or tangent speed (the world knows
/// when no shape has either): the pass that gives contacts their surface rows is then skipped.
void PrepareContacts(std::span<const ContactInput> inputs, SolverArrays& solver, const StepContext& context,
                     bool anySurface = true);

/// Applies the accumulated impulses (at the first sub-step, those carried over from the last step).
/// Every contact in input order; the second form only the contacts listed in `order`, in that order
/// (the coloured solver's overflow, solver.cpp).
void WarmStartContacts(SolverArrays& solver);
void WarmStartContacts(SolverArrays& solver, std::span<const int> order);

/// One soft pass over all contacts in input order (the second form: those in `order`): the normal
/// rows, whose soft bias pushes overlap out (a speculative point may only close its gap), then the
/// friction rows (no bias), bounded by the normal impulses just solved. The soft mode's step runs
/// it on the coloured solver's overflow; its lanes are contact_graph.h's SolveContactGroups.
void SolveContacts(SolverArrays& solver, const StepContext& context);
void SolveContacts(SolverArrays& solver, const StepContext& context, std::span<const int> order);

/// The relax pass, after the positions are integrated: the same rows rigid and without bias, which
/// removes the velocity the soft bias added (as Box2D v3, the friction rows run here too).
void RelaxContacts(SolverArrays& solver, const StepContext& context);
void RelaxContacts(SolverArrays& solver, const StepContext& context, std::span<const int> order);

/// Classic mode: one PGS velocity iteration (friction, then the normal rows; a two-point manifold as
/// one 2x2 block). No position feedback here: only a speculative point's gap may close.
void SolveContactsClassic(SolverArrays& solver, const StepContext& context);

/// Classic mode, after the positions are integrated: one non-linear Gauss-Seidel pass moving the
/// bodies (dp, dq) to remove classicBaumgarte of each overlap beyond the slop; velocities untouched.
void SolveContactPositionsClassic(SolverArrays& solver, const StepContext& context);

/// Once per step after the sub-steps: bounce where the approach was faster than the threshold.
void ApplyRestitution(SolverArrays& solver, const StepContext& context);

/// Writes each point's impulses back into its input's manifold (the next step's warm start), on
/// context.tasks' workers when it has them.
void StoreContactImpulses(std::span<const ContactInput> inputs, SolverArrays& solver,
                          const StepContext& context);

/// Lists the hits of inputs with enableHitEvents in solver.hits, in input order (after the
/// sub-steps and restitution). A step whose inputs have none may skip it, leaving solver.hits
/// cleared.
void ListContactHits(std::span<const ContactInput> inputs, SolverArrays& solver, const StepContext& context);

}  // namespace mk
