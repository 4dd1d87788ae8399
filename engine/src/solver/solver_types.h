// SPDX-License-Identifier: MIT
// Internal: what every solver stage shares: the step's constants (StepContext), soft constraint
// coefficients, the moving bodies' per-step data and the speed caps.
//
// The solver sees no World. The world gathers its moving bodies into BodyState / BodyParams arrays
// (body_integrator.h: MakeBodyParams), its touching contacts into ContactInputs (contact_solver.h) and
// its joints into JointInputs (joint_solver.h); the solver prepares constraints from those, runs the
// stages (solver.h: RunSubSteps) and stores impulses back through the inputs. Every array is rebuilt
// each step into reused storage (no allocation after warm-up). Bodies that move this step get a dense
// "solver index"; a body without one (static, asleep) is index -1 and reads as a zero-velocity,
// infinite-mass body.
#pragma once

#include "minkowski/math.h"
#include "minkowski/world_types.h"

#include <atomic>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <vector>

namespace mk {

struct SolverArrays;  // solver/solver.h: the step's bodies and constraints

/// Soft constraint coefficients for a spring of `hertz` and damping ratio `zeta` over a sub-step h.
/// From the implicit-Euler update of a mass-spring-damper (k = m w^2, c = 2 m zeta w; Catto, "Solver2D",
/// 2024): the constraint impulse becomes  -m_eff massScale (Cdot + biasRate C) - impulseScale * lambda.
struct Softness {
  float biasRate = 0.0f;  // 1/s
  float massScale = 1.0f;
  float impulseScale = 0.0f;
};

Softness MakeSoftness(float hertz, float zeta, float h);

/// Constants of one step.
struct StepContext {
  float dt = 0.0f;    // step (s)
  float h = 0.0f;     // sub-step (s)
  float invH = 0.0f;  // 1/h
  SolverSettings settings{};
  Softness contactSoftness{};  // dynamic vs dynamic
  Softness staticSoftness{};   // against static bodies: stiffer
  /// The workers the soft mode's sub-steps may use (minkowski/task_system.h); null, or one worker: the
  /// calling thread alone.
  const TaskSystem* tasks = nullptr;
};

/// What a colouring was made from: the version of the keys it read (SolverArrays::contactKeysVersion
/// or jointKeysVersion, which their prepares advance when a key changes), the body count, and the
/// layout it was made for (the contacts' slot order: 1 by body range, 0 input order; the joints' lane
/// width). With all three the same, the colouring would come out the same, so it is kept: a resting
/// pile's contacts, or a net's joints, are coloured once while they stay.
struct ColoredFrom {
  std::uint64_t keysVersion = 0;
  int bodyCount = -1;  // -1: nothing coloured yet, or nothing to keep
  int layout = 0;
  bool operator==(const ColoredFrom&) const = default;
};

/// The parallel stages (solver_stages.h) cut a stage's items (bodies, a colour's groups) into blocks:
/// about kBlocksPerWorker per worker, so that a worker slowed by another process leaves its share to
/// the others, and never fewer than `minBlock` items, so that a block outweighs claiming it.
inline constexpr int kBlocksPerWorker = 4;
inline constexpr int kMinGroupsPerBlock = 4;        // a colour's groups (16 contacts on 4 lanes)
inline constexpr int kMinJointsPerBlock = 16;       // a colour's scalar joints (hinge_graph.h)
inline constexpr int kMinBodiesPerBlock = 64;       // the integrators' bodies
inline constexpr int kMinContactsPerRange = 64;     // PrepareContacts, the graph's packing, the narrowphase
inline constexpr int kMinJointsPerRange = 64;       // PrepareJoints' fill
inline constexpr int kMinGroupsPerStoreRange = 16;  // StoreContactGroups' groups
inline constexpr int kMaxColorSlices = 64;          // their slices across the colours (ColorSliceCount)

/// Slices across the colours (ForColorSlices, StoreJointImpulses, AssignHingeBlockStaticSlots): a
/// pass over every colour cut into `slices`, where slice j holds the j-th `slices`-th of each colour.
/// The pool gives worker w the w-th part of the slices, the part of each colour SolverStages started it
/// on, so it meets the lanes its own core packed and solved. ColorSliceCount is how many slices `items`
/// make at `minPerSlice` items a slice; ColorSliceStart where slice `slice` of a colour's items
/// [first, first + count) begins (slice `slices` is its end).
inline int ColorSliceCount(long long items, int minPerSlice) {
  const long long slices = items / minPerSlice;
  return slices < 1 ? 1 : slices > kMaxColorSlices ? kMaxColorSlices : static_cast<int>(slices);
}
inline int ColorSliceStart(int first, int count, int slice, int slices) {
  return first + static_cast<int>(static_cast<long long>(count) * slice / slices);
}

inline int BlockSize(int count, int workerCount, int minBlock) {
  const int pieces = workerCount * kBlocksPerWorker;
  const int perPiece = (count + pieces - 1) / pieces;
  return perPiece > minBlock ? perPiece : minBlock;
}

/// Classic mode runs the whole step as one sub-step.
StepContext MakeStepContext(float dt, const SolverSettings& settings);

/// The stiffest position spring the sub-step resolves (Hz): a quarter of the sub-step rate. Joint
/// constraints are capped to it (not a joint's own spring, which is physical, nor the mouse's pull),
/// and so are contacts against static bodies. Why: the implicit-Euler spring of MakeSoftness is a
/// spring only while a period spans several sub-steps; stiffer, it tends to a rigid row that removes
/// the whole error in one sub-step (bias C / h), which pushes bodies apart faster than they met.
inline float MaxSoftHertz(const StepContext& context) { return 0.25f * context.invH; }

/// Contacts between moving bodies are capped at half that, an eighth of the sub-step rate, so that
/// the static contacts, staticContactScale (2) times stiffer, stay within MaxSoftHertz. Box2D v3 caps
/// its contacts the same way; issue 28 measured Box2D v3's Circle Stack sample asking for 90 Hz: v3
/// (capped at 30 Hz) asleep at step 78, this engine (then 60 Hz, static 120 Hz: half the sub-step
/// rate) at step 128, and at step 78 when set to 30 Hz.
inline float MaxContactHertz(const StepContext& context) { return 0.125f * context.invH; }

/// Velocity and position change of a moving body during one step. dp and dq accumulate over the
/// sub-steps and are applied to the transform at the end of the step.
/// Eight floats, 32 bytes: the coloured contact solver loads a body as two 4-float rows, (v, w, dp.x)
/// and (dp.y, dq, pad), and transposes four bodies into lanes (contact_graph.cpp).
struct BodyState {
  Vec2 v{0.0f, 0.0f};
  float w = 0.0f;
  Vec2 dp{0.0f, 0.0f};  // change of the centre of mass this step (m)
  Rot dq{};             // rotation this step
  float pad = 0.0f;     // the second row's fourth lane; never read
};
static_assert(sizeof(BodyState) == 8 * sizeof(float), "two 4-float rows");

/// Constant per step: mass properties and external acceleration.
struct BodyParams {
  float invMass = 0.0f;
  float invInertia = 0.0f;
  Vec2 linearAcceleration{0.0f, 0.0f};  // gravity * scale + force / m  (m/s^2)
  float angularAcceleration = 0.0f;     // torque / I (rad/s^2)
  float linearDampingFactor = 1.0f;     // per sub-step: 1 / (1 + h c)
  float angularDampingFactor = 1.0f;
  bool ballistic = true;  // no contact or joint constraint this step: integrate gravity exactly
  bool capped = false;    // a speed cap bit (IntegratePositions, CapSpeeds); DropCappedImpulses clears it
};

/// A body no constraint can move: kinematic, or dynamic with every axis locked (both inverse masses 0).
inline bool NeverMoves(const BodyParams& p) { return p.invMass == 0.0f && p.invInertia == 0.0f; }

/// Clears body `index`'s BodyParams::ballistic (a static side, index < 0, has none). kShared: ranges
/// on several workers, where two constraints of one body may clear its flag at once: a relaxed atomic
/// store of the same value, the same result in any order, made only while the flag is still set, so
/// that each body's line is written once. (A serial pass over the contact keys after the parallel
/// prepare was 1.8% of many_pyramids' calling thread on two workers.)
template <bool kShared>
inline void MarkConstrained(std::vector<BodyParams>& params, int index) {
  if (index < 0) return;
  bool& ballistic = params[static_cast<std::size_t>(index)].ballistic;
  if constexpr (kShared) {
    std::atomic_ref<bool> flag(ballistic);
    if (flag.load(std::memory_order_relaxed)) flag.store(false, std::memory_order_relaxed);
  } else {
    ballistic = false;
  }
}

// --- Speed caps (defined in body_integrator.cpp, beside the integration that applies them) -------

/// |v| <= maxSpeed (SolverSettings::maxLinearSpeed) for any finite v, even one too large to square
/// in float; the World API's setters use it too.
Vec2 ClampLinearSpeed(Vec2 v, float maxSpeed);
/// |w| <= kMaxAngularSpeed (world_types.h).
float ClampAngularSpeed(float w);

/// The most a body turns in one sub-step (rad): half a turn, 754 rad/s at 60 Hz and 4 sub-steps.
/// Why a cap: a sub-step is linear in the rotation (anchors turned by dq, a joint's levers taken at
/// the sub-step's start), so a body that turns by radians within one (a small radius of gyration
/// against a long lever: a correction dv along a constraint spins it at up to dv / (2 r_gyration))
/// leaves its constraints' levers unrelated to the ones their impulses were solved with, and warm
/// starting re-applies those impulses through the new levers: energy grows geometrically (the fuzzed
/// wheel joint: 0.03 kg, r_gyration 3.5 cm, lever 16 m, NaN in 3 steps). Box2D v3 caps the turn at a
/// quarter of this per step (B2_MAX_ROTATION, "to prevent numerical problems"), 16 times lower at 4
/// sub-steps; half a turn per sub-step bounds the growth (with DropCappedImpulses: 4000 random joints
/// on bodies down to 3e-5 kg, none non-finite) and no scene comes near it (the spinner's debris peaks
/// at 408 rad/s, a motor test at 204), so every state hash stays the same.
constexpr float kMaxRotation = std::numbers::pi_v<float>;

/// q turned by a small angle (rad): the first-order update, renormalised. Exact to O(angle^2), cheap,
/// and stays unit.
inline Rot TurnRotation(Rot q, float angle) {
  Rot r{q.c - angle * q.s, q.s + angle * q.c};
  float inv = 1.0f / std::sqrt(r.c * r.c + r.s * r.s);
  return {r.c * inv, r.s * inv};
}

}  // namespace mk
