// SPDX-License-Identifier: MIT
// A test rig that drives the solver without a World: bodies, contacts and joints as plain data, and
// one step run through the same stage list as world/solve.cpp (gather, prepare, sub-steps,
// restitution, final caps, store, scatter). The test owns the manifolds and moves their points.
#pragma once

#include "solver/solver.h"

#include <cmath>
#include <functional>
#include <vector>

namespace mk::test {

/// A body moved by the rig. invMass = invInertia = 0 is a static body.
struct RigBody {
  Vec2 center{0.0f, 0.0f};
  Rot q{};
  Vec2 v{0.0f, 0.0f};
  float w = 0.0f;
  float invMass = 0.0f, invInertia = 0.0f;
  int index = -1;  // solver index of the step being run
};

/// A contact between bodies `a` and `b` (normal from a to b); the test writes the manifold's points.
struct RigContact {
  int a = -1, b = -1;
  Manifold manifold{};
  float friction = 0.6f, restitution = 0.0f;
};

/// A joint between bodies `a` and `b`.
struct RigJoint {
  int a = -1, b = -1;
  JointData data{};
};

struct SolverRig {
  SolverSettings settings{};
  Vec2 gravity{0.0f, -10.0f};
  std::vector<RigBody> bodies;
  std::vector<RigContact> contacts;
  std::vector<RigJoint> joints;
  std::function<void(SolverRig&)> updateManifolds;  // before each step: points from the poses

  // The step's solver data.
  StepContext context{};
  std::vector<ContactInput> contactInputs;
  std::vector<JointInput> jointInputs;
  SolverArrays solver;

  int AddBody(Vec2 center, float mass, float inertia) {
    RigBody body;
    body.center = center;
    body.invMass = mass > 0.0f ? 1.0f / mass : 0.0f;
    body.invInertia = inertia > 0.0f ? 1.0f / inertia : 0.0f;
    bodies.push_back(body);
    return static_cast<int>(bodies.size()) - 1;
  }

  /// Gather and prepare, as world/solve.cpp does before the sub-steps.
  void Prepare(float dt) {
    if (updateManifolds) updateManifolds(*this);
    context = MakeStepContext(dt, settings);
    solver.states.clear();
    solver.params.clear();
    for (RigBody& body : bodies) {
      body.index = -1;
      if (body.invMass == 0.0f && body.invInertia == 0.0f) continue;
      body.index = static_cast<int>(solver.states.size());
      solver.states.push_back({body.v, body.w, {0.0f, 0.0f}, Rot{}});
      solver.params.push_back(MakeBodyParams(
          {.invMass = body.invMass, .invInertia = body.invInertia, .gravity = gravity}, context));
    }
    contactInputs.clear();
    for (size_t i = 0; i < contacts.size(); ++i) {
      RigContact& c = contacts[i];
      if (c.manifold.pointCount == 0) continue;
      contactInputs.push_back({&c.manifold, ContactSide(bodies[c.a]), ContactSide(bodies[c.b]), c.friction,
                               c.restitution, static_cast<int>(i), false});
    }
    jointInputs.clear();
    for (RigJoint& j : joints)
      jointInputs.push_back({&j.data, JointSide(bodies[j.a]), JointSide(bodies[j.b])});
    PrepareContacts(contactInputs, solver, context);
    PrepareJoints(jointInputs, solver, context);
  }

  /// Store and scatter, as world/solve.cpp does after the sub-steps.
  void Finish() {
    if (context.settings.enableRestitution) ApplyRestitution(solver, context);
    if (CapSpeeds(solver, context)) DropCappedImpulses(solver);
    StoreContactImpulses(contactInputs, solver, context);
    ListContactHits(contactInputs, solver, context);
    StoreJointImpulses(jointInputs, solver, context);
    for (RigBody& body : bodies) {
      if (body.index < 0) continue;
      const BodyState& s = solver.states[body.index];
      body.v = s.v;
      body.w = s.w;
      body.center += s.dp;
      const Rot q = MulRot(s.dq, body.q);
      const float inv = 1.0f / std::sqrt(q.c * q.c + q.s * q.s);
      body.q = {q.c * inv, q.s * inv};
    }
  }

  void Step(float dt) {
    Prepare(dt);
    RunSubSteps(solver, context);
    Finish();
  }

  /// Sum of the normal impulses a contact carries (N s per sub-step).
  float NormalImpulse(int contact) const {
    const Manifold& m = contacts[contact].manifold;
    float sum = 0.0f;
    for (int j = 0; j < m.pointCount; ++j) sum += m.points[j].normalImpulse;
    return sum;
  }

 private:
  static ContactBody ContactSide(const RigBody& body) { return {body.center, body.v, body.w, body.index}; }
  static JointBody JointSide(const RigBody& body) { return {body.q, body.center, {0.0f, 0.0f}, body.index}; }
};

/// Manifold of a box (half extents hx, hy, pose `center`, `q`) resting on a flat face at height
/// `faceTop` below it: the box's two bottom corners, each a point midway between the corner and the
/// face; normal +y (from the face's body to the box), separation = the corner's height above the face.
/// The impulses stay (the same two features touch every step).
inline void BoxOnFace(Manifold& m, float faceTop, Vec2 center, Rot q, float hx, float hy) {
  m.normal = {0.0f, 1.0f};
  m.pointCount = 2;
  for (int j = 0; j < 2; ++j) {
    const Vec2 corner = center + Rotate(q, Vec2{j == 0 ? -hx : hx, -hy});
    const float separation = corner.y - faceTop;
    m.points[j].point = {corner.x, faceTop + 0.5f * separation};
    m.points[j].separation = separation;
    m.points[j].id = static_cast<FeatureId>(j);
  }
}

}  // namespace mk::test
