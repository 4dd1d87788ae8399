// Solver stage glue: gathers awake bodies and touching contacts into the dense solver arrays, runs
// the solver's stages (engine/src/solver) and writes velocities, transforms and impulses back.
#include "solver/solver.h"
#include "world/world_internal.h"

#include <cmath>

namespace mk {

namespace {

// Bodies that move this step (awake, enabled, not static) get a solver index, in slot order.
void GatherBodies(WorldState& world, const StepContext& context) {
  SolverArrays& solver = world.solver;
  solver.states.clear();
  solver.params.clear();
  world.solverBodies.clear();
  for (int slot = 0; slot < world.bodyIds.Capacity(); ++slot) {
    if (!world.bodyIds.IsLive(slot)) continue;
    Body& body = world.bodies[slot];
    body.solverIndex = kNull;
    if (body.type == BodyType::Static || !body.awake || !body.enabled) continue;
    body.solverIndex = static_cast<int>(solver.states.size());
    world.solverBodies.push_back(slot);
    solver.states.push_back({body.linearVelocity, body.angularVelocity, {0.0f, 0.0f}, Rot{}});
    BodyParams params;  // kinematic: no mass, no acceleration
    if (body.type == BodyType::Dynamic) {
      params = MakeBodyParams({.invMass = body.invMass,
                               .invInertia = body.invInertia,
                               .gravity = body.gravityScale * world.gravity,
                               .force = body.force,
                               .torque = body.torque,
                               .linearDamping = body.linearDamping,
                               .angularDamping = body.angularDamping},
                              context);
    }
    solver.params.push_back(params);
  }
}

void PrepareContacts(WorldState& world, const StepContext& context) {
  SolverArrays& solver = world.solver;
  solver.contacts.clear();
  const bool warm = context.settings.enableWarmStarting;
  for (int slot = 0; slot < world.contactIds.Capacity(); ++slot) {
    if (!world.contactIds.IsLive(slot)) continue;
    const Contact& contact = world.contacts[slot];
    if (contact.manifold.pointCount == 0) continue;
    const Body& bodyA = world.bodies[world.shapes[contact.shapeA].body];
    const Body& bodyB = world.bodies[world.shapes[contact.shapeB].body];
    if (bodyA.solverIndex == kNull && bodyB.solverIndex == kNull) continue;
    ContactConstraint c;
    c.contact = slot;
    c.indexA = bodyA.solverIndex;
    c.indexB = bodyB.solverIndex;
    c.invMassA = c.indexA == kNull ? 0.0f : solver.params[c.indexA].invMass;
    c.invIA = c.indexA == kNull ? 0.0f : solver.params[c.indexA].invInertia;
    c.invMassB = c.indexB == kNull ? 0.0f : solver.params[c.indexB].invMass;
    c.invIB = c.indexB == kNull ? 0.0f : solver.params[c.indexB].invInertia;
    c.normal = contact.manifold.normal;
    c.friction = contact.friction;
    c.restitution = contact.restitution;
    c.softness = (c.invMassA == 0.0f || c.invMassB == 0.0f) ? context.staticSoftness : context.contactSoftness;
    c.pointCount = contact.manifold.pointCount;
    if (c.indexA != kNull) solver.params[c.indexA].ballistic = false;
    if (c.indexB != kNull) solver.params[c.indexB].ballistic = false;
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
    solver.contacts.push_back(c);
  }
}

void StoreImpulsesAndHits(WorldState& world) {
  const float hitThreshold = world.settings.hitEventThreshold;
  for (const ContactConstraint& c : world.solver.contacts) {
    Contact& contact = world.contacts[c.contact];
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
      world.hitEvents.push_back({world.MakeShapeId(contact.shapeA), world.MakeShapeId(contact.shapeB),
                                 contact.manifold.points[hitPoint].point, c.normal, approach});
    }
  }
}

// Velocities and the step's motion (dp, dq) back to the bodies; their proxies follow.
void ScatterBodies(WorldState& world) {
  const SolverArrays& solver = world.solver;
  for (size_t i = 0; i < world.solverBodies.size(); ++i) {
    Body& body = world.bodies[world.solverBodies[i]];
    const BodyState& state = solver.states[i];
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
    UpdateBodyShapesInBroadphase(world, world.solverBodies[i], /*teleport=*/false);
  }
}

}  // namespace

// The stage list of the solver step (the sub-steps' own list is RunSubSteps, solver/solver.cpp).
void SolveStep(WorldState& world, float dt) {
  const StepContext context = MakeStepContext(dt, world.settings);
  SolverArrays& solver = world.solver;
  WakeJointPartners(world);
  GatherBodies(world, context);
  PrepareContacts(world, context);
  PrepareJoints(world, context);
  RunSubSteps(solver, context);
  if (context.settings.enableRestitution) ApplyRestitution(solver, context);
  if (CapSpeeds(solver, context)) DropCappedImpulses(solver);
  StoreImpulsesAndHits(world);
  StoreJointImpulses(world, context);
  ScatterBodies(world);
}

}  // namespace mk
