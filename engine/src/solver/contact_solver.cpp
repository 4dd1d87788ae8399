// SPDX-License-Identifier: MIT
// The soft-step contact solver ("soft step": Catto, Solver2D, 2024; the recipe Box2D v3 and Rapier
// converged on), every stage of it: per step, prepare from the world's inputs; per sub-step (the list
// is RunSubSteps, solver.cpp): warm start, solve with soft bias, relax without bias after the
// positions are integrated; once after the sub-steps: restitution, then store the impulses.
//
// Separation during the step is tracked without re-running collision: with anchors rA, rB fixed at
// the start of the step and the bodies' accumulated motion (dp, dq),
//   s = s0 + dot((dpB + dqB rB - rB) - (dpA + dqA rA - rA), n)
//     = dot(dpB - dpA + dqB rB - dqA rA, n) + adjustedSeparation,
// with adjustedSeparation = s0 - dot(rB - rA, n) precomputed.
#include "solver/contact_solver.h"

#include "core/parallel.h"
#include "solver/solver.h"
#include "solver/support_levels.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <span>

namespace mk {

namespace {
constexpr float kClassicMaxCorrection = 0.2f;  // m: the most one position pass moves a point (Box2D 2.x)

// Whether a point approached fast enough for restitution to push it: at `threshold` (m/s) or faster,
// NaN included. PrepareContacts marks the keys by it and ApplyRestitution bounces by it.
bool ApproachedToBounce(float relativeVelocity, float threshold) { return !(relativeVelocity > -threshold); }
}  // namespace

namespace {

// Runs `solve(a, b)` on local copies of the constraint's two body states, then writes them back.
// Through pointers into one array the compiler must assume the two may alias, so every velocity
// update was stored and reloaded before the next could start; on locals the chain stays in
// registers (some spill: 16 SSE registers are tight). Measured on large_pyramid: the same
// instruction count, 10% less solver time, bitwise the same states. A static body (index -1) is a
// body at rest that is never written back.
template <class Solve>
[[gnu::always_inline]] inline void WithBodies(SolverArrays& solver, const ContactConstraint& c,
                                              Solve&& solve) {
  BodyState a = c.indexA >= 0 ? solver.states[c.indexA] : BodyState{};
  BodyState b = c.indexB >= 0 ? solver.states[c.indexB] : BodyState{};
  solve(a, b);
  if (c.indexA >= 0) solver.states[c.indexA] = a;
  if (c.indexB >= 0) solver.states[c.indexB] = b;
}

// Velocity of B's point relative to A's along a unit axis: (vB - vA).axis + wB (rB x axis) -
// wA (rA x axis), with the lever arms r x axis precomputed for the step (ContactConstraintPoint).
[[gnu::always_inline]] inline float AxisVelocity(const BodyState& a, const BodyState& b, Vec2 axis,
                                                 float leverA, float leverB) {
  return Dot(b.v - a.v, axis) + (b.w * leverB - a.w * leverA);
}

// Impulse `lambda` along a unit axis at the point: on B, minus on A; r x (lambda axis) = lambda (r x axis).
// Masses: a ContactConstraint, or RowMasses.
template <class Masses>
[[gnu::always_inline]] inline void ApplyAxisImpulse(const Masses& c, BodyState& a, BodyState& b, Vec2 axis,
                                                    float leverA, float leverB, float lambda) {
  const Vec2 p = lambda * axis;
  a.v -= c.invMassA * p;
  a.w -= c.invIA * (lambda * leverA);
  b.v += c.invMassB * p;
  b.w += c.invIB * (lambda * leverB);
}

// Normal impulse at a point.
[[gnu::always_inline]] inline void ApplyNormalImpulse(const ContactConstraint& c,
                                                      const ContactConstraintPoint& cp, BodyState& a,
                                                      BodyState& b, float lambda) {
  ApplyAxisImpulse(c, a, b, c.normal, cp.rnA, cp.rnB, lambda);
}

[[gnu::always_inline]] inline float NormalVelocity(const ContactConstraint& c,
                                                   const ContactConstraintPoint& cp, const BodyState& a,
                                                   const BodyState& b) {
  return AxisVelocity(a, b, c.normal, cp.rnA, cp.rnB);
}

// tangentSpeed: the surface row's (m/s), 0 for a contact without one.
[[gnu::always_inline]] inline void SolveFriction(ContactConstraint& c, BodyState& a, BodyState& b,
                                                 float tangentSpeed) {
  const Vec2 tangent = RightPerp(c.normal);
  for (int j = 0; j < c.pointCount; ++j) {
    ContactConstraintPoint& cp = c.points[j];
    float vt = AxisVelocity(a, b, tangent, cp.rtA, cp.rtB) - tangentSpeed;
    float maxFriction = c.friction * cp.normalImpulse;
    float newImpulse = std::clamp(cp.tangentImpulse - cp.tangentMass * vt, -maxFriction, maxFriction);
    float impulse = newImpulse - cp.tangentImpulse;
    cp.tangentImpulse = newImpulse;
    ApplyAxisImpulse(c, a, b, tangent, cp.rtA, cp.rtB, impulse);
  }
}

// Rolling resistance: an angular impulse on the relative spin wB - wA (effective mass 1 / (iA + iB)),
// bounded by rollingResistance times the pass's normal impulses, like friction by the normal force.
inline void SolveRolling(const ContactConstraint& c, ContactSurface& row, BodyState& a, BodyState& b) {
  float total = 0.0f;
  for (int j = 0; j < c.pointCount; ++j) total += c.points[j].normalImpulse;
  const float maxImpulse = row.rollingResistance * total;
  const float old = row.rollingImpulse;
  row.rollingImpulse = std::clamp(old - row.rollingMass * (b.w - a.w), -maxImpulse, maxImpulse);
  const float impulse = row.rollingImpulse - old;
  a.w -= c.invIA * impulse;
  b.w += c.invIB * impulse;
}

// The 2x2 effective-mass matrix of a two-point manifold's normal rows: K_ij = mA + mB + iA rnA_i rnA_j
// + iB rnB_i rnB_j. Box2D 2.x solves the block only when K is well conditioned (k11^2 < 1000 det);
// two nearly coincident points make it singular, and then the points are solved one by one.
// The inverse masses a row moves its bodies by: a ContactConstraint's, or the relax pass's with the
// support held still (RelaxNormalRows).
struct RowMasses {
  float invMassA, invIA, invMassB, invIB;
};

struct BlockMatrix {
  float k11, k12, k22;
  bool wellConditioned;
};

template <class Masses>
inline BlockMatrix MakeBlockMatrix(const Masses& c, float rn1A, float rn1B, float rn2A, float rn2B) {
  const float m = c.invMassA + c.invMassB;
  BlockMatrix k;
  k.k11 = m + c.invIA * rn1A * rn1A + c.invIB * rn1B * rn1B;
  k.k22 = m + c.invIA * rn2A * rn2A + c.invIB * rn2B * rn2B;
  k.k12 = m + c.invIA * rn1A * rn2A + c.invIB * rn1B * rn2B;
  k.wellConditioned = k.k11 * k.k11 < kMaxBlockCondition * (k.k11 * k.k22 - k.k12 * k.k12);
  return k;
}

// The linear complementarity problem of two points: find x >= 0 with w = K x + b >= 0 and x_i w_i = 0,
// by trying the four active sets in turn (both points push, only the first, only the second, none;
// Box2D 2.x, b2ContactSolver::SolveVelocityConstraints). False when none fits (round-off).
inline bool SolveBlock(const BlockMatrix& k, float b1, float b2, Vec2& x) {
  const float det = k.k11 * k.k22 - k.k12 * k.k12;
  x = {(k.k12 * b2 - k.k22 * b1) / det, (k.k12 * b1 - k.k11 * b2) / det};
  if (x.x >= 0.0f && x.y >= 0.0f) return true;
  x = {-b1 / k.k11, 0.0f};
  if (x.x >= 0.0f && k.k12 * x.x + b2 >= 0.0f) return true;
  x = {0.0f, -b2 / k.k22};
  if (x.y >= 0.0f && k.k12 * x.y + b1 >= 0.0f) return true;
  x = {0.0f, 0.0f};
  return b1 >= 0.0f && b2 >= 0.0f;
}

}  // namespace

namespace {

// The surface rows of the contacts with rolling resistance or tangent speed, in a pass of their own
// after the main one, skipped in a world without such shapes: tested per contact, inside or after the
// main loop, they cost large_pyramid (where no contact has one) 145K to 225K instructions a step. A row's
// rolling impulse is not warm started from the last step (a Manifold keeps none); the sub-steps of this step
// warm start it from each other.
void AddSurfaceRows(std::span<const ContactInput> inputs, SolverArrays& solver) {
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const ContactInput& input = inputs[i];
    if (input.rollingResistance == 0.0f && input.tangentSpeed == 0.0f) [[likely]]
      continue;
    ContactConstraint& c = solver.contacts[i];
    const float k = c.invIA + c.invIB;
    c.surface = static_cast<int>(solver.surfaces.size());
    solver.contactKeys[i].scalarOnly = true;
    solver.surfaces.push_back(
        {input.rollingResistance, k > 0.0f ? 1.0f / k : 0.0f, 0.0f, input.tangentSpeed});
  }
}

}  // namespace

namespace {

// What PrepareContactRange found: a bouncy contact (ContactKey::bouncy), and a key whose colouring
// fields differ from the last prepare's (SolverArrays::contactKeysVersion).
struct PreparedRange {
  bool anyBouncy = false;
  bool keysChanged = false;
};

// The constraints of inputs [begin, end), and their bodies marked constrained (MarkConstrained).
// Each key is compared with the one it replaces, whose line is being written anyway. scalarOnly is
// AddSurfaceRows' to set, after this pass: compared with what it will set.
template <bool kShared>
inline PreparedRange PrepareContactRange(std::span<const ContactInput> inputs, SolverArrays& solver,
                                         const StepContext& context, std::size_t begin, std::size_t end) {
  const bool warm = context.settings.enableWarmStarting;
  const float threshold = context.settings.restitutionThreshold;
  const bool restitutionOn = context.settings.enableRestitution;
  bool anyBouncy = false, keysChanged = false;
  for (std::size_t i = begin; i < end; ++i) {
    // The manifolds live in the contacts' records, scattered over the world's contact array: fetch
    // a few ahead (their 92 bytes span two or three lines).
    if (i + 4 < end) {
      const Manifold* ahead = inputs[i + 4].manifold;
      __builtin_prefetch(ahead);
      __builtin_prefetch(&ahead->points[1]);
      __builtin_prefetch(&ahead->pointCount);
    }
    const ContactInput& input = inputs[i];
    const Manifold& manifold = *input.manifold;
    const ContactBody& bodyA = input.bodyA;
    const ContactBody& bodyB = input.bodyB;
    ContactConstraint& c = solver.contacts[i];
    c.indexA = bodyA.index;
    c.indexB = bodyB.index;
    c.invMassA = c.indexA < 0 ? 0.0f : solver.params[c.indexA].invMass;
    c.invIA = c.indexA < 0 ? 0.0f : solver.params[c.indexA].invInertia;
    c.invMassB = c.indexB < 0 ? 0.0f : solver.params[c.indexB].invMass;
    c.invIB = c.indexB < 0 ? 0.0f : solver.params[c.indexB].invInertia;
    c.normal = manifold.normal;
    c.friction = input.friction;
    c.restitution = input.restitution;
    c.surface = -1;  // AddSurfaceRows, below, gives the few that have one their row
    c.pointCount = manifold.pointCount;
    MarkConstrained<kShared>(solver.params, c.indexA);
    MarkConstrained<kShared>(solver.params, c.indexB);
    Vec2 tangent = RightPerp(c.normal);
    bool approached = false;  // a point restitution may push (ApproachedToBounce)
    for (int j = 0; j < c.pointCount; ++j) {
      const ManifoldPoint& mp = manifold.points[j];
      ContactConstraintPoint& cp = c.points[j];
#if defined(MK_LARGE_WORLDS)
      cp.rA = mp.point - bodyA.originToCenter;
      cp.rB = mp.point - (bodyA.originToCenter + (bodyB.center - bodyA.center));
#else
      cp.rA = mp.point - bodyA.center;
      cp.rB = mp.point - bodyB.center;
#endif
      cp.adjustedSeparation = mp.separation - Dot(cp.rB - cp.rA, c.normal);
      const float rnA = Cross(cp.rA, c.normal), rnB = Cross(cp.rB, c.normal);
      float kNormal = c.invMassA + c.invMassB + c.invIA * rnA * rnA + c.invIB * rnB * rnB;
      cp.normalMass = kNormal > 0.0f ? 1.0f / kNormal : 0.0f;
      const float rtA = Cross(cp.rA, tangent), rtB = Cross(cp.rB, tangent);
      cp.rnA = rnA, cp.rnB = rnB, cp.rtA = rtA, cp.rtB = rtB;
      float kTangent = c.invMassA + c.invMassB + c.invIA * rtA * rtA + c.invIB * rtB * rtB;
      cp.tangentMass = kTangent > 0.0f ? 1.0f / kTangent : 0.0f;
      cp.normalImpulse = warm ? mp.normalImpulse : 0.0f;
      cp.tangentImpulse = warm ? mp.tangentImpulse : 0.0f;
      cp.maxNormalImpulse = 0.0f;
      Vec2 vA = bodyA.linearVelocity + Cross(bodyA.angularVelocity, cp.rA);
      Vec2 vB = bodyB.linearVelocity + Cross(bodyB.angularVelocity, cp.rB);
      cp.relativeVelocity = Dot(vB - vA, c.normal);
      approached = approached || ApproachedToBounce(cp.relativeVelocity, threshold);
    }
    const bool bouncy = restitutionOn && c.restitution != 0.0f && approached;
    ContactKey& key = solver.contactKeys[i];
    if (!keysChanged) {  // once one differs, the rest need not be compared (a crowd's first few do)
      const bool surface = input.rollingResistance != 0.0f || input.tangentSpeed != 0.0f;
      keysChanged = key.indexA != c.indexA || key.indexB != c.indexB || key.scalarOnly != surface;
    }
    key = {c.indexA, c.indexB, false, bouncy, static_cast<std::uint8_t>(c.pointCount), input.enableHitEvents};
    anyBouncy = anyBouncy || bouncy;
  }
  return {anyBouncy, keysChanged};
}

}  // namespace

void PrepareContacts(std::span<const ContactInput> inputs, SolverArrays& solver, const StepContext& context,
                     bool anySurface) {
  // Written in place, every field the solver reads set below: a default-constructed local copied in
  // cost 40 instructions a contact (its initialisers, then the copy). Points past pointCount keep
  // whatever they held; nothing reads them.
  solver.contacts.resize(inputs.size());
  bool keysChanged = solver.contactKeys.size() != inputs.size();
  solver.contactKeys.resize(inputs.size());
  solver.surfaces.clear();
  if (HasWorkers(context.tasks)) {
    // ORs: the same whichever range finds one, and stored only then (no line passed between ranges).
    std::atomic<bool> anyBouncy{false}, anyKeyChanged{false};
    ParallelFor(
        context.tasks, static_cast<int>(inputs.size()), kMinContactsPerRange, [&](int begin, int end) {
          const PreparedRange range = PrepareContactRange<true>(
              inputs, solver, context, static_cast<std::size_t>(begin), static_cast<std::size_t>(end));
          if (range.anyBouncy) anyBouncy.store(true, std::memory_order_relaxed);
          if (range.keysChanged) anyKeyChanged.store(true, std::memory_order_relaxed);
        });
    solver.anyBouncy = anyBouncy.load(std::memory_order_relaxed);
    keysChanged = keysChanged || anyKeyChanged.load(std::memory_order_relaxed);
  } else {
    const PreparedRange all = PrepareContactRange<false>(inputs, solver, context, 0, inputs.size());
    solver.anyBouncy = all.anyBouncy;
    keysChanged = keysChanged || all.keysChanged;
  }
  if (keysChanged) ++solver.contactKeysVersion;
  if (anySurface) AddSurfaceRows(inputs, solver);
}

namespace {

void WarmStartContact(SolverArrays& solver, ContactConstraint& c) {
  WithBodies(solver, c, [&](BodyState& a, BodyState& b) {
    const Vec2 tangent = RightPerp(c.normal);
    for (int j = 0; j < c.pointCount; ++j) {
      const ContactConstraintPoint& cp = c.points[j];
      ApplyNormalImpulse(c, cp, a, b, cp.normalImpulse);
      ApplyAxisImpulse(c, a, b, tangent, cp.rtA, cp.rtB, cp.tangentImpulse);
    }
    if (c.surface >= 0) {
      const float rolling = solver.surfaces[c.surface].rollingImpulse;
      a.w -= c.invIA * rolling;
      b.w += c.invIB * rolling;
    }
  });
}

}  // namespace

void WarmStartContacts(SolverArrays& solver) {
  for (ContactConstraint& c : solver.contacts) WarmStartContact(solver, c);
}

void WarmStartContacts(SolverArrays& solver, std::span<const int> order) {
  for (int i : order) WarmStartContact(solver, solver.contacts[static_cast<size_t>(i)]);
}

namespace {

// The end of a two-row update: each point's largest impulse of the step (the restitution pass reads
// it), then both impulse changes applied with the inverse masses `moved`.
void ApplyNormalPair(const RowMasses& moved, const ContactConstraint& c, ContactConstraintPoint& cp1,
                     ContactConstraintPoint& cp2, BodyState& a, BodyState& b, float d1, float d2) {
  cp1.maxNormalImpulse = std::max(cp1.maxNormalImpulse, d1);
  cp2.maxNormalImpulse = std::max(cp2.maxNormalImpulse, d2);
  ApplyAxisImpulse(moved, a, b, c.normal, cp1.rnA, cp1.rnB, d1);
  ApplyAxisImpulse(moved, a, b, c.normal, cp2.rnA, cp2.rnB, d2);
}

// The relax pass's normal rows of one contact. Between two bodies that both move: the first row, then
// the second (its velocity changed by the first's impulse d1 through the rows' coupling k12, so the
// second row reads what it would read after the first's impulse was applied).
// Between a body and its support, the relax pass from the ground up (shock propagation: Guendelman,
// Bridson and Fedkiw, "Nonconvex rigid bodies with stacking", 2003; docs/design.md, "The relax pass
// from the ground up"): the support is the body nearer the ground (support_levels.h), and the rows
// move the upper body alone, both at once as one 2x2 block (one at a time, with the support held
// still, the first point's row left the upper body turning every sub-step, and a column under a
// heavy box leaned 4 degrees). Gauss-Seidel through a mass ratio moves the light body and barely the
// heavy one, so without this the relax pass could not take back what the soft pass's push-out and
// a warm start after an impact gave a heavy body resting on a light one, and it bounced (issue 28).
// The block's impulses are not stored: the warm start applies them to both bodies, and a heavy
// body's share thrown onto the light one below blew the pile up. Two nearly coincident points (K
// near singular) are solved as between two moving bodies. contact_graph_kernels.h's RelaxNormalRows
// is its lanes, operation for operation.
void RelaxNormalRows(ContactConstraint& c, RelaxMoves moves, BodyState& a, BodyState& b, float invH) {
  ContactConstraintPoint unused{};  // a one-point contact's second point, as the lanes see it
  ContactConstraintPoint& cp1 = c.points[0];
  ContactConstraintPoint& cp2 = c.pointCount > 1 ? c.points[1] : unused;
  const float s1 = CurrentSeparation(c, cp1, a, b), s2 = CurrentSeparation(c, cp2, a, b);
  const float vb1 = NormalVelocity(c, cp1, a, b) + (s1 > 0.0f ? s1 * invH : 0.0f);
  const float vb2 = NormalVelocity(c, cp2, a, b) + (s2 > 0.0f ? s2 * invH : 0.0f);
  const float old1 = cp1.normalImpulse, old2 = cp2.normalImpulse;
  const float twoSided12 =
      ((c.invMassA + c.invMassB) + c.invIA * cp1.rnA * cp2.rnA) + c.invIB * cp1.rnB * cp2.rnB;
  const float free1 = std::max(old1 + -cp1.normalMass * vb1, 0.0f);
  const float freeD1 = free1 - old1;
  const float free2 = std::max(old2 + -cp2.normalMass * (vb2 + freeD1 * twoSided12), 0.0f);
  float d1 = freeD1, d2 = free2 - old2;
  RowMasses moved{c.invMassA, c.invIA, c.invMassB, c.invIB};
  bool solved = false;
  if (moves.a * moves.b < 1.0f && cp1.normalMass > 0.0f) {
    const RowMasses held{c.invMassA * moves.a, c.invIA * moves.a, c.invMassB * moves.b, c.invIB * moves.b};
    const BlockMatrix k = MakeBlockMatrix(held, cp1.rnA, cp1.rnB, cp2.rnA, cp2.rnB);
    const bool onePoint = !(cp2.normalMass > 0.0f);
    if (k.k11 > 0.0f && (onePoint || k.wellConditioned)) {
      solved = true;
      Vec2 x{old1, old2};
      if (onePoint) {
        x.x = std::max(old1 - vb1 / k.k11, 0.0f);
      } else {
        const float c1 = vb1 - (k.k11 * old1 + k.k12 * old2), c2 = vb2 - (k.k12 * old1 + k.k22 * old2);
        if (!SolveBlock(k, c1, c2, x)) x = {old1, old2};  // no case holds (rounding): as they were
      }
      d1 = x.x - old1, d2 = x.y - old2;
      moved = held;
    }
  }
  cp1.normalImpulse = solved ? old1 : free1;
  cp2.normalImpulse = solved ? old2 : free2;
  ApplyNormalPair(moved, c, cp1, cp2, a, b, d1, d2);
}

// One soft-pass row's terms (SolveContact): the impulse is -normalMass (massScale vn + bias) -
// impulseScale accumulated. A gap (s > 0) may close this sub-step and no more: a rigid row. An
// overlap is the soft spring, its push capped.
struct SoftRow {
  float bias, massScale, impulseScale;
};

[[gnu::always_inline]] inline SoftRow SoftRowOf(float s, const Softness& soft, float invH, float pushMax) {
  if (s > 0.0f) return {s * invH, 1.0f, 0.0f};
  // The push-out cap bounds the spring's push, as Box2D v3 does: an overlap deeper than pushMax /
  // (massScale biasRate) (35 cm between moving bodies at the default 30 Hz, 18 cm against static ones)
  // is pushed out at pushMax at most. docs/design.md (solver, mass ratios) has the measurements behind
  // this rule and the two it replaced.
  return {std::max(soft.massScale * soft.biasRate * s, -pushMax), soft.massScale, soft.impulseScale};
}

// The soft pass's normal rows of a two-point contact in an impact (both points closing faster than
// the push-out speed), solved as one 2x2 block. One row after the other, the first takes nearly all
// of the impact when K's rows are nearly equal (a small body under a large one: k12 / k11 = 0.97 for
// a 10 m box on a 1 m box), and the body it stops is set turning by the impulse's lever: a 100:1
// landing at 20 m/s left the heavy box spinning at 0.49 rad/s and it tipped off (issue 28). The
// block gives each point its share. Row i's soft update, -(massScale_i vn_i + bias_i) / k_ii -
// impulseScale_i x_i, is the one-row case of K (x' - x) = -(massScale vn + bias) - impulseScale K x,
// so the block solves w = K x' + c >= 0 (x' >= 0, x' w = 0) with c_i = massScale_i vn_i + bias_i -
// (1 - impulseScale_i) (K x)_i. Resting rows (closing at a sub-step's gravity) stay one at a time,
// as does a near-singular K. False when not solved here. contact_graph_kernels.h's SolveImpactBlock
// is its lanes.
bool SolveImpactBlock(ContactConstraint& c, BodyState& a, BodyState& b, const StepContext& context) {
  if (c.pointCount < 2) return false;
  ContactConstraintPoint& cp1 = c.points[0];
  ContactConstraintPoint& cp2 = c.points[1];
  const float pushMax = context.settings.contactPushMaxSpeed;
  const float vn1 = NormalVelocity(c, cp1, a, b);
  if (!(vn1 < -pushMax)) return false;
  const float vn2 = NormalVelocity(c, cp2, a, b);
  if (!(vn2 < -pushMax)) return false;
  const RowMasses masses{c.invMassA, c.invIA, c.invMassB, c.invIB};
  const BlockMatrix k = MakeBlockMatrix(masses, cp1.rnA, cp1.rnB, cp2.rnA, cp2.rnB);
  if (!(k.k11 > 0.0f && k.wellConditioned)) return false;
  const Softness& soft = ContactSoftnessOf(c, context);
  const SoftRow r1 = SoftRowOf(CurrentSeparation(c, cp1, a, b), soft, context.invH, pushMax);
  const SoftRow r2 = SoftRowOf(CurrentSeparation(c, cp2, a, b), soft, context.invH, pushMax);
  const float old1 = cp1.normalImpulse, old2 = cp2.normalImpulse;
  const float c1 = (r1.massScale * vn1 + r1.bias) - (1.0f - r1.impulseScale) * (k.k11 * old1 + k.k12 * old2);
  const float c2 = (r2.massScale * vn2 + r2.bias) - (1.0f - r2.impulseScale) * (k.k12 * old1 + k.k22 * old2);
  Vec2 x{old1, old2};
  if (!SolveBlock(k, c1, c2, x)) x = {old1, old2};  // no case holds (rounding): as they were
  cp1.normalImpulse = x.x;
  cp2.normalImpulse = x.y;
  ApplyNormalPair(masses, c, cp1, cp2, a, b, x.x - old1, x.y - old2);
  return true;
}

// One contact of the soft pass (useBias) or the relax pass: see SolveContacts and RelaxContacts. A
// template, so each pass is compiled for its own useBias. contact_graph.cpp's SolveGroup is its lanes.
template <bool useBias>
void SolveContact(SolverArrays& solver, ContactConstraint& c, const StepContext& context) {
  const float pushMax = context.settings.contactPushMaxSpeed;
  WithBodies(solver, c, [&](BodyState& a, BodyState& b) {
    if constexpr (!useBias) {
      const int* levels = solver.levels.empty() ? nullptr : solver.levels.data();
      RelaxNormalRows(c, RelaxMovesOf(levels, c.indexA, c.indexB), a, b, context.invH);
    }
    const bool block = useBias && SolveImpactBlock(c, a, b, context);
    for (int j = 0; j < (useBias && !block ? c.pointCount : 0); ++j) {
      ContactConstraintPoint& cp = c.points[j];
      const SoftRow row =
          SoftRowOf(CurrentSeparation(c, cp, a, b), ContactSoftnessOf(c, context), context.invH, pushMax);
      const float bias = row.bias, massScale = row.massScale, impulseScale = row.impulseScale;
      float vn = NormalVelocity(c, cp, a, b);
      float impulse = -cp.normalMass * (massScale * vn + bias) - impulseScale * cp.normalImpulse;
      float newImpulse = std::max(cp.normalImpulse + impulse, 0.0f);
      impulse = newImpulse - cp.normalImpulse;
      cp.normalImpulse = newImpulse;
      cp.maxNormalImpulse = std::max(cp.maxNormalImpulse, impulse);
      ApplyNormalImpulse(c, cp, a, b, impulse);
    }
    // Friction after the normal rows, bounded by this pass's normal impulses (as Box2D v3's soft
    // step). Before them, as Box2D 2.x and Classic mode do, friction is bounded by the last pass's
    // impulses and the coloured order sheared the base-100 pyramid: mean |dx| 0.175 m after 500
    // steps, 8.6 cm of creep after its slowest mode settled; normal first, 0.054 m (v3: 0.060 m).
    if (c.surface < 0) {
      SolveFriction(c, a, b, 0.0f);
    } else {
      SolveFriction(c, a, b, solver.surfaces[c.surface].tangentSpeed);
      SolveRolling(c, solver.surfaces[c.surface], a, b);
    }
  });
}

}  // namespace

void SolveContacts(SolverArrays& solver, const StepContext& context) {
  for (ContactConstraint& c : solver.contacts) SolveContact<true>(solver, c, context);
}

void SolveContacts(SolverArrays& solver, const StepContext& context, std::span<const int> order) {
  for (int i : order) SolveContact<true>(solver, solver.contacts[static_cast<size_t>(i)], context);
}

void RelaxContacts(SolverArrays& solver, const StepContext& context) {
  for (ContactConstraint& c : solver.contacts) SolveContact<false>(solver, c, context);
}

void RelaxContacts(SolverArrays& solver, const StepContext& context, std::span<const int> order) {
  for (int i : order) SolveContact<false>(solver, solver.contacts[static_cast<size_t>(i)], context);
}

// Classic mode (Box2D 2.x's contact solver: Catto, "Iterative Dynamics with Temporal Coherence", 2005,
// and b2ContactSolver). One step, no sub-steps: the velocity iterations make the bodies' approach
// velocities non-negative (a speculative point may still close its gap within the step), and after the
// positions are integrated, a position pass (non-linear Gauss-Seidel) removes a fraction
// classicBaumgarte of the overlap beyond the slop by moving the bodies directly.
// Why the overlap is not fed back as a velocity (box2d-lite's bias -beta / dt (s + slop)): that
// velocity stays in the bodies, and along a column of boxes the push-outs of the contacts add up, so
// the top box is thrown upwards. Measured on a 20-box column at 8 iterations, beta 0.2: the column
// bounced +-8 cm at up to 1.4 m/s for ever; 30 boxes bounced at 4 m/s even at 10 iterations. With the
// position pass the same columns (and 40 boxes) come to rest. The velocity iterations still carry the
// speculative bias s / dt for a positive separation, or bodies would stop at the speculative distance.
//
// A two-point manifold is solved as one 2x2 block in both passes (Box2D 2.x's block solver for
// velocities; its position pass goes point by point): points solved one after the other turn the box
// a little each time (the first point takes more of the load). Measured on the 20-box column: point
// by point in the position pass, the top leaned 7 cm sideways; in the velocity pass (with the old
// velocity bias), the column fell over.
void SolveContactsClassic(SolverArrays& solver, const StepContext& context) {
  const float invDt = 1.0f / context.dt;
  for (ContactConstraint& c : solver.contacts) {
    WithBodies(solver, c, [&](BodyState& a, BodyState& b) {
      if (c.surface < 0) {
        SolveFriction(c, a, b, 0.0f);
      } else {
        SolveFriction(c, a, b, solver.surfaces[c.surface].tangentSpeed);
        SolveRolling(c, solver.surfaces[c.surface], a, b);
      }
      // Bodies do not move during the velocity iterations, so this is the separation s0 of the step.
      float bias[2] = {0.0f, 0.0f};
      for (int j = 0; j < c.pointCount; ++j)
        bias[j] = std::max(CurrentSeparation(c, c.points[j], a, b), 0.0f) * invDt;
      if (c.pointCount == 2) {
        ContactConstraintPoint& p1 = c.points[0];
        ContactConstraintPoint& p2 = c.points[1];
        const BlockMatrix k = MakeBlockMatrix(c, p1.rnA, p1.rnB, p2.rnA, p2.rnB);
        if (k.wellConditioned) {
          // w = K x + b with x the new accumulated impulses: b = vn + bias - K a (a: accumulated so far).
          const float a1 = p1.normalImpulse, a2 = p2.normalImpulse;
          float b1 = NormalVelocity(c, p1, a, b) + bias[0] - (k.k11 * a1 + k.k12 * a2);
          float b2 = NormalVelocity(c, p2, a, b) + bias[1] - (k.k12 * a1 + k.k22 * a2);
          Vec2 x;
          if (!SolveBlock(k, b1, b2, x)) return;  // no solution (rare, Box2D gives up too): keep the impulses
          ApplyNormalImpulse(c, p1, a, b, x.x - a1);
          ApplyNormalImpulse(c, p2, a, b, x.y - a2);
          p1.maxNormalImpulse = std::max(p1.maxNormalImpulse, x.x - a1);
          p2.maxNormalImpulse = std::max(p2.maxNormalImpulse, x.y - a2);
          p1.normalImpulse = x.x;
          p2.normalImpulse = x.y;
          return;
        }
      }
      for (int j = 0; j < c.pointCount; ++j) {
        ContactConstraintPoint& cp = c.points[j];
        float vn = NormalVelocity(c, cp, a, b);
        float newImpulse = std::max(cp.normalImpulse - cp.normalMass * (vn + bias[j]), 0.0f);
        float impulse = newImpulse - cp.normalImpulse;
        cp.normalImpulse = newImpulse;
        cp.maxNormalImpulse = std::max(cp.maxNormalImpulse, impulse);
        ApplyNormalImpulse(c, cp, a, b, impulse);
      }
    });
  }
}

void SolveContactPositionsClassic(SolverArrays& solver, const StepContext& context) {
  const float slop = context.settings.linearSlop;
  const float baumgarte = context.settings.classicBaumgarte;
  for (ContactConstraint& c : solver.contacts) {
    WithBodies(solver, c, [&](BodyState& a, BodyState& b) {
      // Position error C = beta (s + slop), clamped to [-maxCorrection, 0], at the current anchors;
      // the "impulse" x (kg m) moves the bodies by x / m along the normal and turns them by x (r x n) / I.
      float C[2] = {0.0f, 0.0f}, rnA[2] = {0.0f, 0.0f}, rnB[2] = {0.0f, 0.0f};
      for (int j = 0; j < c.pointCount; ++j) {
        const ContactConstraintPoint& cp = c.points[j];
        float s = CurrentSeparation(c, cp, a, b);
        C[j] = std::clamp(baumgarte * (s + slop), -kClassicMaxCorrection, 0.0f);
        rnA[j] = Cross(Rotate(a.dq, cp.rA), c.normal);
        rnB[j] = Cross(Rotate(b.dq, cp.rB), c.normal);
      }
      Vec2 x{0.0f, 0.0f};
      const BlockMatrix k = MakeBlockMatrix(c, rnA[0], rnB[0], rnA[1], rnB[1]);
      if (c.pointCount == 2 && k.wellConditioned) {
        if (!SolveBlock(k, C[0], C[1], x)) return;
      } else {
        // One point at a time; the second sees the first's correction through K's off-diagonal.
        x.x = k.k11 > 0.0f ? std::max(-C[0] / k.k11, 0.0f) : 0.0f;
        if (c.pointCount == 2 && k.k22 > 0.0f) x.y = std::max(-(C[1] + k.k12 * x.x) / k.k22, 0.0f);
      }
      const float angularA = rnA[0] * x.x + rnA[1] * x.y, angularB = rnB[0] * x.x + rnB[1] * x.y;
      const Vec2 P = (x.x + x.y) * c.normal;
      a.dp -= c.invMassA * P;
      b.dp += c.invMassB * P;
      a.dq = TurnRotation(a.dq, -c.invIA * angularA);
      b.dq = TurnRotation(b.dq, c.invIB * angularB);
    });
  }
}

void ApplyRestitution(SolverArrays& solver, const StepContext& context) {
  const float threshold = context.settings.restitutionThreshold;
  // Only points that approached fast and actually pushed this step bounce.
  auto bounces = [threshold](const ContactConstraintPoint& cp) {
    return ApproachedToBounce(cp.relativeVelocity, threshold) && cp.maxNormalImpulse != 0.0f;
  };
  // Without a bouncy contact (the pyramids, or nothing approaching fast), not even a walk over the
  // keys: this pass is serial.
  if (!solver.anyBouncy) return;
  for (std::size_t i = 0; i < solver.contacts.size(); ++i) {
    // Most contacts: skip without reading the constraint. Those with restitution that approached
    // slower than the threshold (a crowd at rest) are not bouncy either: PrepareContacts knew.
    if (!solver.contactKeys[i].bouncy) continue;
    ContactConstraint& c = solver.contacts[i];
    // A bouncy contact at rest (most of them, most steps) has nothing to do: skip its bodies.
    if (!bounces(c.points[0]) && (c.pointCount < 2 || !bounces(c.points[1]))) continue;
    WithBodies(solver, c, [&](BodyState& a, BodyState& b) {
      for (int j = 0; j < c.pointCount; ++j) {
        ContactConstraintPoint& cp = c.points[j];
        if (!bounces(cp)) continue;
        float vn = NormalVelocity(c, cp, a, b);
        float impulse = -cp.normalMass * (vn + c.restitution * cp.relativeVelocity);
        float newImpulse = std::max(cp.normalImpulse + impulse, 0.0f);
        impulse = newImpulse - cp.normalImpulse;
        cp.normalImpulse = newImpulse;
        cp.maxNormalImpulse = std::max(cp.maxNormalImpulse, impulse);
        ApplyNormalImpulse(c, cp, a, b, impulse);
      }
    });
  }
}

void StoreContactImpulses(std::span<const ContactInput> inputs, SolverArrays& solver,
                          const StepContext& context) {
  // Each input owns its manifold, so ranges of inputs write disjoint manifolds. When the lanes' store
  // already wrote the coloured contacts' manifolds (many_pyramids: this pass re-read each constraint's
  // impulse lines, 7% of a one-worker step), only the overflow's and the bouncy ones (restitution may
  // have changed their normal impulses) are left.
  const bool onlyOthers = solver.manifoldsHoldLaneImpulses;
  solver.manifoldsHoldLaneImpulses = false;
  const std::int8_t* colorOf = WithGraphs(solver, [](auto& graph, auto&) { return graph.colorOf.data(); });
  ParallelFor(context.tasks, static_cast<int>(inputs.size()), kMinContactsPerRange, [&](int begin, int end) {
    for (int i = begin; i < end; ++i) {
      if (onlyOthers && colorOf[i] >= 0 && !solver.contactKeys[static_cast<size_t>(i)].bouncy) continue;
      const ContactConstraint& c = solver.contacts[static_cast<size_t>(i)];
      const int pointCount =
          solver.contactKeys[static_cast<size_t>(i)].pointCount;  // off the impulses' lines
      Manifold& manifold = *inputs[static_cast<size_t>(i)].manifold;
      for (int j = 0; j < pointCount; ++j) {
        manifold.points[j].normalImpulse = c.points[j].normalImpulse;
        manifold.points[j].tangentImpulse = c.points[j].tangentImpulse;
      }
    }
  });
}

void ListContactHits(std::span<const ContactInput> inputs, SolverArrays& solver, const StepContext& context) {
  const float hitThreshold = context.settings.hitEventThreshold;
  solver.hits.clear();
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].enableHitEvents) continue;
    const ContactConstraint& c = solver.contacts[i];
    const int pointCount = solver.contactKeys[i].pointCount;
    // The fastest approach among the points that pushed this step.
    ContactHit hit{inputs[i].id, -1, 0.0f};
    for (int j = 0; j < pointCount; ++j) {
      const float speed = -c.points[j].relativeVelocity;
      if (c.points[j].maxNormalImpulse > 0.0f && speed > hit.approachSpeed) {
        hit.approachSpeed = speed;
        hit.point = j;
      }
    }
    if (hit.point >= 0 && hit.approachSpeed > hitThreshold) solver.hits.push_back(hit);
  }
}

}  // namespace mk
