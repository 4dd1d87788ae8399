// SPDX-License-Identifier: MIT
// Joint solver: prepare, dispatch, warm starting, the store with its reaction readout, and the
// shared pieces (coefficients, the 2x2 point constraint, angular rows). Weld and mouse joints live
// here too (they are the point constraint plus at most one angular row); revolute, prismatic / wheel
// and distance have their own files.
#include "solver/joint_solver.h"

#include "core/parallel.h"
#include "solver/solver.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numbers>
#include <span>
#include <vector>

namespace mk {

namespace joint {

// The float solve overflows when the determinant does (very heavy bodies) and also when only a product
// of K with the right-hand side does (a very light body far from its anchor: K of 1e35 times a speed
// of 1e5); either way the double-precision solve takes over, whose exponent range holds both.
Vec2 Solve22(float k11, float k12, float k22, Vec2 b) {
  float det = k11 * k22 - k12 * k12;
  if (det == 0.0f) return {0.0f, 0.0f};
  float inv = 1.0f / det;
  const Vec2 x{inv * (k22 * b.x - k12 * b.y), inv * (k11 * b.y - k12 * b.x)};
  if (!std::isfinite(det + x.x + x.y)) [[unlikely]]
    return Solve22Wide(k11, k12, k22, b);
  return x;
}

Vec2 Solve22Wide(float k11, float k12, float k22, Vec2 b) {
  const double a = k11, c = k12, d = k22;
  const double det = a * d - c * c;
  if (det == 0.0 || !std::isfinite(det)) return {0.0f, 0.0f};
  return {static_cast<float>((d * b.x - c * b.y) / det), static_cast<float>((a * b.y - c * b.x) / det)};
}

void SolveWeld(JointConstraint& c, BodyState& a, BodyState& b, JointPass pass, const StepContext& context) {
  // Angle first (cheap, and the point row then sees the rotation it must follow). A weld with its
  // own hertz is a spring (same coefficients in every pass); without, the joint softness applies.
  // A spring row has no position error to remove: the position pass skips it.
  const bool position = pass == JointPass::Position;
  float angle = CurrentAngle(c, a, b);
  if (!(position && c.angularSpring)) {
    Coefficients ka =
        c.angularSpring ? Spring(angle, c.angularSoftness) : Equality(angle, c.softness, pass, context);
    SolveAngular(c, a, b, 0.0f, ka, c.impulses.angular, -1e30f, 1e30f);
  }
  if (position && c.linearSpring) return;
  Frame f = CurrentFrame(c, a, b);
  Coefficients kl =
      c.linearSpring ? Spring(1.0f, c.springSoftness) : Equality(1.0f, c.softness, pass, context);
  SolvePoint(c, a, b, f.rA, f.rB, kl.bias * f.d, kl.massScale, kl.impulseScale, c.impulses.linear);
}

void SolveMouse(JointConstraint& c, BodyState& a, BodyState& b, JointPass pass, const StepContext&) {
  if (pass == JointPass::Position) return;  // a spring through and through: no position error to remove
  // Rotation damper: the pull below only damps the grabbed point's motion, so a body held by one
  // point would swing about it like an undamped pendulum. A velocity-only soft row (the pull's
  // softness without its position term) brings wB towards 0, with a torque capped at maxForce times
  // the body's radius of gyration (prepared into maxMotorImpulse).
  if (c.angularMass > 0.0f) {
    Coefficients damper{0.0f, c.springSoftness.massScale, c.springSoftness.impulseScale};
    SolveAngular(c, a, b, 0.0f, damper, c.impulses.angular, -c.maxMotorImpulse, c.maxMotorImpulse);
  }
  // The point constraint towards a static target (body A is the world, deltaCenter = cB - target),
  // as a spring in every pass, with the accumulated impulse capped at maxForce h.
  Frame f = CurrentFrame(c, a, b);
  Coefficients k = Spring(1.0f, c.springSoftness);
  SolvePoint(c, a, b, f.rA, f.rB, k.bias * f.d, k.massScale, k.impulseScale, c.impulses.linear, c.maxImpulse);
}

}  // namespace joint

namespace {

/// Linear impulse P on B (at the anchors) and pure angular impulse L, with A's lever arm; the sum of
/// what a joint's rows apply. Used to warm start and for the reaction readout.
struct Wrench {
  Vec2 P{0.0f, 0.0f};
  float L = 0.0f;
  Vec2 armA{0.0f, 0.0f}, armB{0.0f, 0.0f};
};

// Inlined by force: after the store's rework (787e241) GCC stopped inlining it into the warm start,
// and the call, with the Wrench returned through memory, cost rain 0.3 M instructions a step.
[[gnu::always_inline]] inline Wrench TotalWrench(const JointConstraint& c, const BodyState& a,
                                                 const BodyState& b) {
  using joint::Frame;
  const JointImpulses& i = c.impulses;
  Frame f = joint::CurrentFrame(c, a, b);
  Wrench out{{0.0f, 0.0f}, 0.0f, f.rA, f.rB};
  switch (c.type) {
    case JointType::Revolute:
      out.P = i.linear;
      out.L = i.spring + i.motor + i.lower - i.upper;
      break;
    case JointType::Weld:
    case JointType::Motor:
      out.P = i.linear;
      out.L = i.angular;
      break;
    case JointType::Filter:
      break;
    case JointType::Mouse:
      out.P = i.linear;
      out.L = i.angular;
      break;
    case JointType::Prismatic:
    case JointType::Wheel: {
      // Axial and perpendicular rows act on A at anchor B's position (arm d + rA, see prismatic_joint.cpp).
      Vec2 axis = Rotate(a.dq, c.axis0);
      float axial = i.spring + i.lower - i.upper + (c.type == JointType::Prismatic ? i.motor : 0.0f);
      out.P = i.perpendicular * LeftPerp(axis) + axial * axis;
      out.L = c.type == JointType::Prismatic ? i.angular : i.motor;
      out.armA = f.d + f.rA;
      break;
    }
    case JointType::Distance: {
      float len = Length(f.d);
      Vec2 axis = len > 1e-6f ? f.d / len : Vec2{1.0f, 0.0f};
      out.P = (i.axial + i.spring + i.motor + i.lower - i.upper) * axis;
      break;
    }
  }
  return out;
}

void SolveJoint(JointConstraint& c, BodyState& a, BodyState& b, JointPass pass, const StepContext& context) {
  switch (c.type) {
    case JointType::Revolute:
      joint::SolveRevolute(c, a, b, pass, context);
      break;
    case JointType::Prismatic:
      joint::SolvePrismatic(c, a, b, pass, context);
      break;
    case JointType::Distance:
      joint::SolveDistance(c, a, b, pass, context);
      break;
    case JointType::Weld:
      joint::SolveWeld(c, a, b, pass, context);
      break;
    case JointType::Wheel:
      joint::SolveWheel(c, a, b, pass, context);
      break;
    case JointType::Mouse:
      joint::SolveMouse(c, a, b, pass, context);
      break;
    case JointType::Motor:
      joint::SolveMotorJoint(c, a, b, pass, context);
      break;
    case JointType::Filter:
      break;  // never gathered (solve.cpp): no rows
  }
}

BodyState& StateOf(SolverArrays& solver, int index, BodyState& scratch) {
  if (index >= 0) return solver.states[index];
  scratch = BodyState{};  // static body or the mouse's target: at rest, never moves
  return scratch;
}

}  // namespace

namespace {

// Positional softness: the joint's own hertz / damping ratio, else (negative: kUseWorldSetting) the
// world's; capped like contacts (MaxSoftHertz). 0 is a value: 0 Hz is rigid, 0 damping undamped.
Softness PositionalSoftness(const JointData& j, const Softness& worldSoftness, const StepContext& context) {
  if (j.constraintHertz < 0.0f && j.constraintDampingRatio < 0.0f) return worldSoftness;
  const SolverSettings& settings = context.settings;
  float hertz = j.constraintHertz >= 0.0f ? j.constraintHertz : settings.jointHertz;
  float zeta = j.constraintDampingRatio >= 0.0f ? j.constraintDampingRatio : settings.jointDampingRatio;
  return MakeSoftness(std::min(hertz, MaxSoftHertz(context)), zeta, context.h);
}

// The lane of a joint that IsPlainHinge will call plain (PrepareConstraint's enableSpring is
// enableSpring && hertz > 0 for a revolute joint), computed as PrepareConstraint computes the same
// fields: the same bits.
bool IsPlainHingeInput(const JointData& j, int ia, int ib) {
  return j.type == JointType::Revolute && !(j.enableSpring && j.hertz > 0.0f) && !j.enableMotor &&
         !j.enableLimit && (ia != ib || ia < 0);
}

// Always inlined, as PrepareConstraint below (two callers).
[[gnu::always_inline]] inline HingeLane PrepareHingeLane(const JointInput& input, const SolverArrays& solver,
                                                         const Softness& worldSoftness,
                                                         const StepContext& context) {
  const JointData& j = *input.joint;
  const int ia = input.bodyA.index, ib = input.bodyB.index;
  HingeLane lane;
  lane.indexA = ia;
  lane.indexB = ib;
  if (ia >= 0) lane.invMassA = solver.params[ia].invMass, lane.invIA = solver.params[ia].invInertia;
  if (ib >= 0) lane.invMassB = solver.params[ib].invMass, lane.invIB = solver.params[ib].invInertia;
  lane.rA0 = Rotate(input.bodyA.q, j.localAnchorA - input.bodyA.localCenter);
  lane.rB0 = Rotate(input.bodyB.q, j.localAnchorB - input.bodyB.localCenter);
  lane.deltaCenter = input.bodyB.center - input.bodyA.center;
  lane.softness = PositionalSoftness(j, worldSoftness, context);
  if (context.settings.enableWarmStarting) lane.impulse = j.impulses.linear;
  return lane;
}

// Stiffest undamped spring run as velocity Verlet, as h w (rad). Verlet is stable up to h w = 2 for a
// lone oscillator; a body held by several springs oscillates faster than any one of them (a chain's
// highest mode: sqrt 2 times), so the cut-off keeps a factor 4: at 60 Hz and 4 sub-steps, springs up
// to 19 Hz. Stiffer undamped springs stay soft (stable at any stiffness, at the cost of the energy).
constexpr float kMaxVerletHOmega = 0.5f;

// JointConstraint::springKickRate: w^2 h / 2 for an undamped spring that runs as velocity Verlet, 0
// for one that runs soft. Verlet needs both half kicks (the relax pass) and the warm start that the
// biased pass undoes; classic mode has neither, so its springs stay soft.
float UndampedKickRate(const JointData& j, const StepContext& context) {
  const SolverSettings& settings = context.settings;
  const bool springKind = j.type == JointType::Distance || j.type == JointType::Revolute ||
                          j.type == JointType::Prismatic || j.type == JointType::Wheel;
  if (!springKind || !j.enableSpring || j.hertz <= 0.0f || j.dampingRatio != 0.0f) return 0.0f;
  if (settings.mode != SolverMode::SoftStep || !settings.enableRelax || !settings.enableWarmStarting)
    return 0.0f;
  const float omega = 2.0f * std::numbers::pi_v<float> * j.hertz;
  if (context.h * omega > kMaxVerletHOmega) return 0.0f;
  return 0.5f * omega * omega * context.h;
}

// Always inlined: it is called from the one-thread loop and the workers' fill, and GCC stops inlining a
// function with two callers (rain +0.24% instructions a step).
[[gnu::always_inline]] inline void PrepareConstraint(const JointInput& input, SolverArrays& solver,
                                                     const Softness& worldSoftness,
                                                     const StepContext& context, JointConstraint& c) {
  const SolverSettings& settings = context.settings;
  const float h = context.h;
  const JointData& j = *input.joint;
  const JointBody& bodyA = input.bodyA;
  const JointBody& bodyB = input.bodyB;
  const int ia = bodyA.index, ib = bodyB.index;
  c.type = j.type;
  c.indexA = ia;
  c.indexB = ib;
  const std::vector<BodyParams>& params = solver.params;
  if (ia >= 0) c.invMassA = params[ia].invMass, c.invIA = params[ia].invInertia;
  if (ib >= 0) c.invMassB = params[ib].invMass, c.invIB = params[ib].invInertia;
  c.angularMass = c.invIA + c.invIB > 0.0f ? 1.0f / (c.invIA + c.invIB) : 0.0f;
  const Rot qA = bodyA.q, qB = bodyB.q;
  // A mouse joint pulls at its target, which is body A's centre: no lever on that side.
  c.rA0 = j.type == JointType::Mouse ? Vec2{0.0f, 0.0f} : Rotate(qA, j.localAnchorA - bodyA.localCenter);
  // A motor joint's anchor A is moved by its linear offset: the target of anchor B.
  if (j.type == JointType::Motor) c.rA0 = Rotate(qA, j.localAnchorA + j.linearOffset - bodyA.localCenter);
  c.rB0 = Rotate(qB, j.localAnchorB - bodyB.localCenter);
  c.deltaCenter = bodyB.center - bodyA.center;
  c.axis0 = Rotate(qA, j.localAxisA);
  // The angle is needed by angular rows only (a plain hinge has none: skip the atan2).
  bool plainHinge = j.type == JointType::Revolute && !j.enableLimit && !j.enableSpring;
  if (!plainHinge && j.type != JointType::Mouse && j.type != JointType::Distance) {
    c.deltaAngle = WrapAngle(Angle(InvMulRot(qA, qB)) - j.referenceAngle);
  }
  c.softness = PositionalSoftness(j, worldSoftness, context);
  if (j.hertz > 0.0f) c.springSoftness = MakeSoftness(j.hertz, j.dampingRatio, h);
  c.springKickRate = UndampedKickRate(j, context);
  if (j.angularHertz > 0.0f) c.angularSoftness = MakeSoftness(j.angularHertz, j.angularDampingRatio, h);
  c.linearSpring = j.type == JointType::Weld && j.hertz > 0.0f;
  c.angularSpring = j.type == JointType::Weld && j.angularHertz > 0.0f;
  c.lower = j.lower;
  c.upper = j.upper;
  c.length = j.length;
  c.motorSpeed = j.motorSpeed;
  c.maxMotorImpulse = j.maxMotor * h;
  c.maxImpulse = j.maxForce * h;
  if (j.type == JointType::Mouse && c.invIB > 0.0f) {  // the damper's cap: maxForce at the radius of gyration
    c.maxMotorImpulse = c.maxImpulse * std::sqrt(c.invMassB / c.invIB);
  }
  c.lowerSpringImpulse = j.lowerSpringForce * h;
  c.upperSpringImpulse = j.upperSpringForce * h;
  c.correction = j.correctionFactor * context.invH;
  c.enableLimit = j.enableLimit;
  c.enableMotor = j.enableMotor;
  // A spring of 0 Hz exerts nothing (MakeSoftness(0) would be a rigid lock). The distance joint
  // keeps the flag: enableSpring there also means "not a rigid rod" (distance_joint.cpp).
  c.enableSpring = j.enableSpring && (j.hertz > 0.0f || j.type == JointType::Distance);
  if (settings.enableWarmStarting) {
    c.impulses = j.impulses;
    if (!c.enableLimit) c.impulses.lower = c.impulses.upper = 0.0f;
    if (!c.enableMotor) c.impulses.motor = 0.0f;
    if (!c.enableSpring) c.impulses.spring = 0.0f;
  }
}

// Joint i's place (SolverArrays::jointPlaces), in input order on one thread: a plain hinge's colour and
// slot, and for every other joint, or a hinge its bodies leave no colour for, the next JointConstraint
// index (`scalarCount`, counted up) and its scalar colour. The group a hinge takes then exists (lanes
// unwritten); the constraints are made by the caller and filled by FillJoints. `key`: the joint's
// bodies and kind, which the workers read before (the read of each joint's kind from its definition
// was three quarters of the serial colouring).
template <class F>
void PlaceJoint(const JointPlaceKey& key, HingePlace& place, HingeGraph<F>& hinges, int& scalarCount) {
  place = key.plain ? ColorPlainHinge(key.indexA, key.indexB, hinges) : HingePlace{};
  if (place.color >= 0) {
    if (place.slot % F::kLanes == 0) hinges.groups[place.color].emplace_back();
  } else {
    place.slot = scalarCount++;
    AddScalarJoint(key.indexA, key.indexB, place.slot, hinges);
  }
}

// Inputs [begin, end) into their places: a plain hinge's lane, or its JointConstraint. Each joint
// writes only its own, so ranges may run on any threads. Returns false when some joint's kind is not
// the one its key says (JointPlaceKey::plain, taken from the last step when its bodies stayed): its
// place is then wrong, and the caller places the joints again.
bool FillJoints(std::span<const JointInput> inputs, SolverArrays& solver, const Softness& worldSoftness,
                const StepContext& context, bool colored, int begin, int end) {
  bool kindsHeld = true;
  for (int i = begin; i < end; ++i) {
    const JointInput& input = inputs[static_cast<size_t>(i)];
    const HingePlace place = solver.jointPlaces[static_cast<size_t>(i)];
    const bool plain = colored && IsPlainHingeInput(*input.joint, input.bodyA.index, input.bodyB.index);
    kindsHeld = kindsHeld && plain == solver.jointPlaceKeys[static_cast<size_t>(i)].plain;
    if (place.color >= 0) {
      // A plain hinge goes straight into a lane: the 19,800 of joint_grid then never write the
      // 170 bytes of a constraint they would not read again.
      const HingeLane lane = PrepareHingeLane(input, solver, worldSoftness, context);
      WithGraphs(solver, [&](auto&, auto& hinges) { PackHingeAt(hinges, place, lane, i); });
    } else {
      // Reset here, on the workers: 170 bytes a joint, which the calling thread wrote for each of
      // rain's 10,000 ragdoll joints while it placed them (the constraints are kept from step to step).
      JointConstraint& c = solver.joints[static_cast<size_t>(place.slot)];
      c = JointConstraint{};
      PrepareConstraint(input, solver, worldSoftness, context, c);
      c.input = i;
    }
  }
  return kindsHeld;
}

// PrepareJoints on one thread: each joint placed and filled in turn, its definition read once (the
// workers' split, kinds then places then fill, costs one thread 4% of joint_grid's solver: the
// definitions leave the cache between the passes). The same places and values as the split.
void PrepareJointsInOrder(std::span<const JointInput> inputs, SolverArrays& solver,
                          const Softness& worldSoftness, const StepContext& context, bool colored) {
  std::vector<JointConstraint>& out = solver.joints;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const JointInput& input = inputs[i];
    const int ia = input.bodyA.index, ib = input.bodyB.index;
    MarkConstrained<false>(solver.params, ia);
    MarkConstrained<false>(solver.params, ib);
    // A plain hinge goes straight into a lane: the 19,800 of joint_grid then never write the
    // 170 bytes of a constraint they would not read again.
    if (colored && IsPlainHingeInput(*input.joint, ia, ib)) {
      const HingeLane lane = PrepareHingeLane(input, solver, worldSoftness, context);
      const int index = static_cast<int>(i);
      if (WithGraphs(solver, [&](auto&, auto& hinges) { return AddPlainHinge(lane, index, hinges); }))
        continue;
    }
    JointConstraint& c = out.emplace_back();  // filled in place, not copied
    PrepareConstraint(input, solver, worldSoftness, context, c);
    c.input = static_cast<int>(i);
    const int constraint = static_cast<int>(out.size() - 1);
    WithGraphs(solver, [&](auto&, auto& hinges) { AddScalarJoint(c.indexA, c.indexB, constraint, hinges); });
  }
}

// The joints' keys (bodies and kind) on the workers, and each one's bodies marked constrained; true
// when a key changed. With `trustKinds`, a joint whose bodies are last step's keeps last step's kind
// without reading its definition, a line missed for each of joint_grid's 19,800 joints (0.12 ms of
// CPU a two-worker step, read again by the fill); the fill checks every kind so trusted.
bool UpdateJointPlaceKeys(std::span<const JointInput> inputs, SolverArrays& solver,
                          const StepContext& context, bool colored, bool trustKinds) {
  const int count = static_cast<int>(inputs.size());
  std::vector<JointPlaceKey>& keys = solver.jointPlaceKeys;
  std::atomic<bool> changed{keys.size() != inputs.size()};
  trustKinds = trustKinds && keys.size() == inputs.size();
  keys.resize(inputs.size());
  ParallelFor(context.tasks, count, kMinJointsPerRange, [&](int begin, int end) {
    bool rangeChanged = false;
    for (int i = begin; i < end; ++i) {
      const JointInput& input = inputs[static_cast<size_t>(i)];
      const int ia = input.bodyA.index, ib = input.bodyB.index;
      JointPlaceKey& key = keys[static_cast<size_t>(i)];
      const bool bodiesHeld = key.indexA == ia && key.indexB == ib;
      if (!(trustKinds && bodiesHeld)) {
        const JointPlaceKey read{ia, ib, colored && IsPlainHingeInput(*input.joint, ia, ib)};
        if (key != read) {  // written only then: a net's keys stay for many steps
          key = read;
          rangeChanged = true;
        }
      }
      MarkConstrained<true>(solver.params, ia);
      MarkConstrained<true>(solver.params, ib);
    }
    if (rangeChanged) changed.store(true, std::memory_order_relaxed);  // stored only then: no shared line
  });
  return changed.load(std::memory_order_relaxed);  // ordered by the parallel-for's end
}

// PrepareJoints on workers: the joints' keys read on the workers, the colouring on this thread in input
// order (it is greedy), the lanes and constraints filled on the workers again; the pool's schedule
// gives a worker the same joints in both passes. When the keys' version, the body count and the lane
// width are those of the last colouring, it would come out the same, so its places, groups and scalar
// lists are kept and only the fill runs: a net or a chain whose joints all stay awake is coloured once
// (joint_grid: the colouring was 0.09 ms of each two-worker step, on this thread alone). Returns false,
// the graph unfinished, when a trusted kind was wrong (UpdateJointPlaceKeys): the caller runs it again
// with every kind read.
bool PrepareJointsOnWorkers(std::span<const JointInput> inputs, SolverArrays& solver,
                            const Softness& worldSoftness, const StepContext& context, bool colored,
                            bool trustKinds) {
  const int count = static_cast<int>(inputs.size());
  if (UpdateJointPlaceKeys(inputs, solver, context, colored, trustKinds)) ++solver.jointKeysVersion;
  const ColoredFrom from{solver.jointKeysVersion, static_cast<int>(solver.states.size()), solver.lanes};
  const bool recolor = solver.jointsColoredFrom != from;
  WithGraphs(solver, [&](auto&, auto& hinges) {
    if (!recolor) return;
    BeginHingeGraph(from.bodyCount, hinges);
    int scalarCount = 0;
    const std::vector<JointPlaceKey>& keys = solver.jointPlaceKeys;
    for (size_t i = 0; i < keys.size(); ++i) PlaceJoint(keys[i], solver.jointPlaces[i], hinges, scalarCount);
    solver.joints.resize(static_cast<size_t>(scalarCount));  // constructs only past last step's count
    solver.jointsColoredFrom = from;
  });
  std::atomic<bool> kindsHeld{true};
  ParallelFor(context.tasks, count, kMinJointsPerRange, [&](int begin, int end) {
    if (!FillJoints(inputs, solver, worldSoftness, context, colored, begin, end))
      kindsHeld.store(false, std::memory_order_relaxed);  // stored only then: no shared line
  });
  if (!kindsHeld.load(std::memory_order_relaxed)) return false;
  WithGraphs(solver, [&](auto&, auto& hinges) {
    if (recolor) {
      FinishHingeGraph(hinges);
    } else {
      PadHingeGroups(hinges);  // the scalar lists stand; the last groups' empty lanes are made again
    }
  });
  return true;
}

}  // namespace

void PrepareJoints(std::span<const JointInput> inputs, SolverArrays& solver, const StepContext& context,
                   bool colorHinges) {
  const SolverSettings& settings = context.settings;
  const Softness worldSoftness = MakeSoftness(std::min(settings.jointHertz, MaxSoftHertz(context)),
                                              settings.jointDampingRatio, context.h);
  const bool colored = colorHinges && settings.mode != SolverMode::Classic;
  solver.jointPlaces.resize(inputs.size());
  if (HasWorkers(context.tasks) && static_cast<int>(inputs.size()) > kMinJointsPerRange) {
    // A joint whose kind changed while its bodies stayed (a limit or motor switched on) is found by
    // the fill; the second pass reads every kind, so it cannot fail.
    if (!PrepareJointsOnWorkers(inputs, solver, worldSoftness, context, colored, /*trustKinds=*/true))
      PrepareJointsOnWorkers(inputs, solver, worldSoftness, context, colored, /*trustKinds=*/false);
    return;
  }
  solver.jointsColoredFrom = {};  // coloured as it fills: nothing for the workers' next step to keep
  WithGraphs(solver,
             [&](auto&, auto& hinges) { BeginHingeGraph(static_cast<int>(solver.states.size()), hinges); });
  solver.joints.clear();
  PrepareJointsInOrder(inputs, solver, worldSoftness, context, colored);
  WithGraphs(solver, [](auto&, auto& hinges) { FinishHingeGraph(hinges); });
}

namespace {

void WarmStartJoint(SolverArrays& solver, JointConstraint& c) {
  BodyState scratchA, scratchB;
  BodyState& a = StateOf(solver, c.indexA, scratchA);
  BodyState& b = StateOf(solver, c.indexB, scratchB);
  if (c.type == JointType::Revolute && !c.enableSpring && !c.enableMotor && !c.enableLimit) {
    // The common plain hinge (joint_grid, chains): only the point impulse.
    joint::ApplyWrench(c, a, b, Rotate(a.dq, c.rA0), Rotate(b.dq, c.rB0), c.impulses.linear, 0.0f);
    return;
  }
  const Wrench wrench = TotalWrench(c, a, b);
  joint::ApplyWrench(c, a, b, wrench.armA, wrench.armB, wrench.P, wrench.L);
}

void SolveJointOf(SolverArrays& solver, JointConstraint& c, const StepContext& context, JointPass pass) {
  BodyState scratchA, scratchB;
  BodyState& a = StateOf(solver, c.indexA, scratchA);
  BodyState& b = StateOf(solver, c.indexB, scratchB);
  SolveJoint(c, a, b, pass, context);
}

}  // namespace

void WarmStartJoints(SolverArrays& solver) {
  for (JointConstraint& c : solver.joints) WarmStartJoint(solver, c);
}

void WarmStartJoints(SolverArrays& solver, std::span<const int> order) {
  for (int i : order) WarmStartJoint(solver, solver.joints[static_cast<size_t>(i)]);
}

void SolveJoints(SolverArrays& solver, const StepContext& context, JointPass pass) {
  for (JointConstraint& c : solver.joints) SolveJointOf(solver, c, context, pass);
}

void SolveJoints(SolverArrays& solver, const StepContext& context, JointPass pass,
                 std::span<const int> order) {
  for (int i : order) SolveJointOf(solver, solver.joints[static_cast<size_t>(i)], context, pass);
}

void SolveJointPositions(SolverArrays& solver, const StepContext& context) {
  BodyState scratchA, scratchB;
  const float dt = context.h;  // classic mode: one sub-step, the whole step
  for (JointConstraint& c : solver.joints) {
    BodyState& a = StateOf(solver, c.indexA, scratchA);
    BodyState& b = StateOf(solver, c.indexB, scratchB);
    const BodyState velocityA = a, velocityB = b;
    const JointImpulses impulses = c.impulses;
    a.v = b.v = {0.0f, 0.0f};
    a.w = b.w = 0.0f;
    c.impulses = {};
    SolveJoint(c, a, b, JointPass::Position, context);
    c.impulses = impulses;
    a.dp += dt * a.v;
    b.dp += dt * b.v;
    a.dq = TurnRotation(a.dq, dt * a.w);
    b.dq = TurnRotation(b.dq, dt * b.w);
    a.v = velocityA.v, a.w = velocityA.w;
    b.v = velocityB.v, b.w = velocityB.w;
  }
}

namespace {

// What the general store below gives a plain hinge, read from its lane instead of its constraint:
// the constraint's impulses are the joint's with the disabled rows zeroed (PrepareJoints), or all
// zero without warm starting, and its linear impulse is the lane's; TotalWrench's L for a revolute
// joint, spring + motor + lower - upper, is then +0.
void StorePlainHinge(JointData& j, Vec2 linear, bool warmStarting, float invH) {
  if (warmStarting) {
    j.impulses.spring = j.impulses.motor = j.impulses.lower = j.impulses.upper = 0.0f;
  } else {
    j.impulses = {};
  }
  j.impulses.linear = linear;
  j.reactionForce = invH * linear;
  j.reactionTorque = 0.0f;
}

}  // namespace

namespace {

// The hinge lanes' impulses of `groups`, [begin, end), to their joints: their constraints' impulses
// were never updated.
template <class Group>
void StoreHingeGroups(std::span<const JointInput> inputs, std::span<const Group> groups, int begin, int end,
                      const StepContext& context) {
  const bool warmStarting = context.settings.enableWarmStarting;
  for (int i = begin; i < end; ++i) {
    const Group& g = groups[static_cast<size_t>(i)];
    for (int k = 0; k < g.kLanes; ++k) {
      if (g.joint[k] < 0) continue;
      StorePlainHinge(*inputs[static_cast<size_t>(g.joint[k])].joint, {g.impulseX[k], g.impulseY[k]},
                      warmStarting, context.invH);
    }
  }
}

// The scalar constraints' impulses and reactions, entries [begin, end) of `scalar`, to their joints.
void StoreScalarJoints(std::span<const JointInput> inputs, const SolverArrays& solver,
                       std::span<const int> scalar, int begin, int end, const StepContext& context) {
  const BodyState rest{};
  for (int k = begin; k < end; ++k) {
    const JointConstraint& c = solver.joints[static_cast<size_t>(scalar[static_cast<size_t>(k)])];
    JointData& j = *inputs[static_cast<size_t>(c.input)].joint;
    const BodyState& a = c.indexA >= 0 ? solver.states[c.indexA] : rest;
    const BodyState& b = c.indexB >= 0 ? solver.states[c.indexB] : rest;
    j.impulses = c.impulses;
    const Wrench reaction = TotalWrench(c, a, b);  // accumulated per sub-step: impulse / h is the force
    j.reactionForce = context.invH * reaction.P;
    j.reactionTorque = context.invH * reaction.L;
    j.motorForce = context.invH * c.impulses.motor;
  }
}

}  // namespace

// Each joint is in one lane or one scalar entry, so ranges write disjoint joints. The ranges are slices
// across the colours, as StoreContactGroups' (ForColorSlices, contact_graph.cpp): slice j of S holds the
// j-th S-th of every hinge colour's groups and of every scalar colour's joints, and the pool gives
// worker w the w-th part of the slices, the part of each colour that SolverStages started it on, so it
// reads the lanes and constraints its own core solved. Over all the colours as one index space, a
// range held whole colours, half of them solved on the other core: joint_grid's store took as long on
// two workers as on one (docs/benchmarks.md, "The joints' store by colour slices, the relocations on
// the workers").
void StoreJointImpulses(std::span<const JointInput> inputs, const SolverArrays& solver,
                        const StepContext& context) {
  WithGraphs(solver, [&](const auto&, const auto& hinges) {
    using Group = typename std::decay_t<decltype(hinges.groups[0])>::value_type;
    constexpr int kScalarColors = std::decay_t<decltype(hinges)>::kScalarOverflow + 1;
    std::size_t hingeGroups = 0;
    for (const auto& color : hinges.groups) hingeGroups += color.size();
    const std::size_t joints = hingeGroups * Group::kLanes + hinges.scalar.size();
    const int slices = ColorSliceCount(static_cast<long long>(joints), kMinJointsPerRange);
    ParallelFor(context.tasks, slices, 1, [&](int begin, int end) {
      for (const auto& color : hinges.groups) {
        const int count = static_cast<int>(color.size());
        const int from = ColorSliceStart(0, count, begin, slices);
        const int to = ColorSliceStart(0, count, end, slices);
        if (from < to) StoreHingeGroups<Group>(inputs, color, from, to, context);
      }
      for (int c = 0; c < kScalarColors; ++c) {
        const int first = hinges.scalarColorStart[c], count = hinges.scalarColorStart[c + 1] - first;
        const int from = ColorSliceStart(first, count, begin, slices);
        const int to = ColorSliceStart(first, count, end, slices);
        if (from < to) StoreScalarJoints(inputs, solver, hinges.scalar, from, to, context);
      }
    });
  });
}

}  // namespace mk
