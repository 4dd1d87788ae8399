// Solver stage glue: gathers awake bodies and touching contacts into the dense solver arrays, runs
// the sub-steps, and writes velocities, transforms and impulses back.
#include "solver/contact_solver.h"
#include "solver/joint_solver.h"
#include "world/world_internal.h"

#include <algorithm>
#include <cmath>

namespace mk {

namespace {

Vec2 ClampComponents(Vec2 v, float limit) {
  return {std::clamp(v.x, -limit, limit), std::clamp(v.y, -limit, limit)};
}

// Classic mode's position passes per step (Box2D 2.x's default).
constexpr int kClassicPositionIterations = 3;

void GatherBodies(WorldState& w, const StepContext& context) {
  SolverArrays& s = w.solver;
  s.states.clear();
  s.params.clear();
  s.bodies.clear();
  for (int slot = 0; slot < w.bodyIds.Capacity(); ++slot) {
    if (!w.bodyIds.IsLive(slot)) continue;
    Body& body = w.bodies[slot];
    body.solverIndex = kNull;
    if (body.type == BodyType::Static || !body.awake || !body.enabled) continue;
    body.solverIndex = static_cast<int>(s.states.size());
    s.bodies.push_back(slot);
    s.states.push_back({body.linearVelocity, body.angularVelocity, {0.0f, 0.0f}, Rot{}});
    BodyParams p;
    if (body.type == BodyType::Dynamic) {
      p.invMass = body.invMass;
      p.invInertia = body.invInertia;
      // Each term is clamped to what one sub-step can use: any more would be cut by the speed
      // limits anyway, and it keeps huge forces on light bodies finite (no Inf - Inf = NaN).
      const float maxLinear = context.settings.maxLinearSpeed * context.invH;
      const float maxAngular = kMaxAngularSpeed * context.invH;
      p.linearAcceleration = ClampComponents(body.gravityScale * w.gravity, maxLinear) +
                             ClampComponents(body.invMass * body.force, maxLinear);
      p.angularAcceleration = std::clamp(body.invInertia * body.torque, -maxAngular, maxAngular);
      // Implicit damping, stable for any coefficient: v / (1 + h c) per sub-step.
      p.linearDampingFactor = 1.0f / (1.0f + context.h * body.linearDamping);
      p.angularDampingFactor = 1.0f / (1.0f + context.h * body.angularDamping);
    }
    s.params.push_back(p);
  }
}

void PrepareContacts(WorldState& w, const StepContext& context) {
  SolverArrays& s = w.solver;
  s.contacts.clear();
  const bool warm = context.settings.enableWarmStarting;
  for (int slot = 0; slot < w.contactIds.Capacity(); ++slot) {
    if (!w.contactIds.IsLive(slot)) continue;
    const Contact& contact = w.contacts[slot];
    if (contact.manifold.pointCount == 0) continue;
    const Body& bodyA = w.bodies[w.shapes[contact.shapeA].body];
    const Body& bodyB = w.bodies[w.shapes[contact.shapeB].body];
    if (bodyA.solverIndex == kNull && bodyB.solverIndex == kNull) continue;
    ContactConstraint c;
    c.contact = slot;
    c.indexA = bodyA.solverIndex;
    c.indexB = bodyB.solverIndex;
    c.invMassA = c.indexA == kNull ? 0.0f : s.params[c.indexA].invMass;
    c.invIA = c.indexA == kNull ? 0.0f : s.params[c.indexA].invInertia;
    c.invMassB = c.indexB == kNull ? 0.0f : s.params[c.indexB].invMass;
    c.invIB = c.indexB == kNull ? 0.0f : s.params[c.indexB].invInertia;
    c.normal = contact.manifold.normal;
    c.friction = contact.friction;
    c.restitution = contact.restitution;
    c.softness = (c.invMassA == 0.0f || c.invMassB == 0.0f) ? context.staticSoftness : context.contactSoftness;
    c.pointCount = contact.manifold.pointCount;
    if (c.indexA != kNull) s.params[c.indexA].ballistic = false;
    if (c.indexB != kNull) s.params[c.indexB].ballistic = false;
    Vec2 tangent = RightPerp(c.normal);
    for (int j = 0; j < c.pointCount; ++j) {
      const ManifoldPoint& mp = contact.manifold.points[j];
      ContactConstraintPoint& cp = c.points[j];
      cp.rA = mp.point - bodyA.center;
      cp.rB = mp.point - bodyB.center;
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
    }
    s.contacts.push_back(c);
  }
}

// A speed cap bit the bodies flagged BodyParams::capped: the impulses their contacts and joints have
// accumulated were solved for velocities the cap has since cut, so they restart from zero. Kept, they
// are warm-started again every sub-step with nothing to absorb them and grow without bound (measured
// with the caps alone: 1e26 N s inside a revolute joint between two calm-looking bodies, then NaN; 7
// of 2000 random joints went non-finite, none with this).
void DropCappedImpulses(SolverArrays& s, std::vector<JointConstraint>& joints) {
  auto capped = [&s](int index) { return index >= 0 && s.params[index].capped; };
  for (ContactConstraint& c : s.contacts) {
    if (!capped(c.indexA) && !capped(c.indexB)) continue;
    for (int j = 0; j < c.pointCount; ++j) c.points[j].normalImpulse = c.points[j].tangentImpulse = 0.0f;
  }
  for (JointConstraint& c : joints) {
    if (capped(c.indexA) || capped(c.indexB)) c.impulses = {};
  }
  for (BodyParams& p : s.params) p.capped = false;
}

// Joints go before contacts in every pass: contacts, solved last, then have the final say on
// non-penetration, which is the error players notice first.
void RunSubSteps(WorldState& w, const StepContext& context) {
  SolverArrays& s = w.solver;
  std::vector<JointConstraint>& joints = w.jointConstraints;
  const SolverSettings& settings = context.settings;
  if (settings.mode == SolverMode::Classic) {
    IntegrateVelocities(s, context);
    if (settings.enableWarmStarting) {
      WarmStartJoints(joints, s);
      WarmStartContacts(s);
    }
    for (int i = 0; i < settings.classicIterations; ++i) {
      SolveJoints(joints, s, context, JointPass::Classic);
      SolveContactsClassic(s, context);
    }
    if (IntegratePositions(s, context)) DropCappedImpulses(s, joints);
    for (int i = 0; i < kClassicPositionIterations; ++i) {
      SolveJointPositions(joints, s, context);
      SolveContactPositionsClassic(s, context);
    }
    return;
  }
  for (int i = 0; i < settings.subSteps; ++i) {
    IntegrateVelocities(s, context);
    if (settings.enableWarmStarting) {
      WarmStartJoints(joints, s);
      WarmStartContacts(s);
    }
    SolveJoints(joints, s, context, JointPass::Biased);
    SolveContacts(s, context, /*useBias=*/true);
    if (IntegratePositions(s, context)) DropCappedImpulses(s, joints);
    if (settings.enableRelax) {
      SolveJoints(joints, s, context, JointPass::Relax);
      SolveContacts(s, context, /*useBias=*/false);
    }
  }
}

void StoreImpulsesAndHits(WorldState& w) {
  const float hitThreshold = w.settings.hitEventThreshold;
  for (const ContactConstraint& c : w.solver.contacts) {
    Contact& contact = w.contacts[c.contact];
    float approach = 0.0f;
    int hitPoint = -1;
    for (int j = 0; j < c.pointCount; ++j) {
      contact.manifold.points[j].normalImpulse = c.points[j].normalImpulse;
      contact.manifold.points[j].tangentImpulse = c.points[j].tangentImpulse;
      float speed = -c.points[j].relativeVelocity;
      if (c.points[j].maxNormalImpulse > 0.0f && speed > approach) {
        approach = speed;
        hitPoint = j;
      }
    }
    if (contact.enableHitEvents && hitPoint >= 0 && approach > hitThreshold) {
      w.hitEvents.push_back({w.MakeShapeId(contact.shapeA), w.MakeShapeId(contact.shapeB),
                             contact.manifold.points[hitPoint].point, c.normal, approach});
    }
  }
}

void FinalizeBodies(WorldState& w) {
  const SolverArrays& s = w.solver;
  for (size_t i = 0; i < s.bodies.size(); ++i) {
    Body& body = w.bodies[s.bodies[i]];
    const BodyState& state = s.states[i];
    body.linearVelocity = state.v;
    body.angularVelocity = state.w;
    body.center += state.dp;
    body.xf.q = MulRot(state.dq, body.xf.q);
    // Renormalise so rounding never accumulates into a non-unit rotation over long runs.
    float inv = 1.0f / std::sqrt(body.xf.q.c * body.xf.q.c + body.xf.q.s * body.xf.q.s);
    body.xf.q = {body.xf.q.c * inv, body.xf.q.s * inv};
    body.xf.p = body.center - Rotate(body.xf.q, body.localCenter);
    body.force = {0.0f, 0.0f};
    body.torque = 0.0f;
    UpdateBodyShapesInBroadphase(w, s.bodies[i], /*teleport=*/false);
  }
}

}  // namespace

void SolveStep(WorldState& w, float dt) {
  StepContext context = MakeStepContext(dt, w.settings);
  WakeJointPartners(w);
  GatherBodies(w, context);
  PrepareContacts(w, context);
  PrepareJoints(w, context);
  RunSubSteps(w, context);
  if (context.settings.enableRestitution) ApplyRestitution(w.solver, context);
  if (CapSpeeds(w.solver, context)) DropCappedImpulses(w.solver, w.jointConstraints);
  StoreImpulsesAndHits(w);
  StoreJointImpulses(w, context);
  FinalizeBodies(w);
}

}  // namespace mk
