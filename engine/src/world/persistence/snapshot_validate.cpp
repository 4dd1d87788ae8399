// SPDX-License-Identifier: MIT
// Snapshot validation (snapshot_validate.h): the checks a parsed state passes before RestoreSnapshot
// moves it in. Format and limits: minkowski/snapshot.h; the parser and the rest of the restore:
// snapshot.cpp. When a struct copied as bytes gains a field the engine indexes with or needs finite,
// its check goes here (snapshot.cpp's static_asserts on the struct sizes point to this file).
#include "world/persistence/snapshot_validate.h"

#include "broadphase/broadphase_impl.h"
#include "broadphase/broadphase_snapshot.h"
#include "world/world_internal.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace mk {

namespace {

// Bounds the loader holds numbers to. Each is far beyond what a valid world reaches, and keeps the
// products the solver forms (squares of speeds, lever arm times impulse) finite.
constexpr float kMaxCoordinate = 1e18f;                    // world positions and points (m)
constexpr float kMaxLocalLength = 8.0f * kMaxWorldLength;  // body-frame lengths: centres, anchors (m)
constexpr float kMaxSpeed = 1.01e5f;  // a component of a linear velocity (m/s): the top cap
constexpr float kMaxImpulse = 1e30f;  // stored impulses (N s)
// A joint's reference angle as the API stores it, unwound to [-pi, pi] (fuzz_snapshot found one of
// 4e37 that stepped to NaN); limits within kMaxWorldLength, as the API checks them.
constexpr float kMaxReferenceAngle = 3.1416f;
constexpr float kUnitTolerance = 1e-3f;  // |q| and axes: unit within this (squared length)
// Vectors the engine derives from accepted rotations inherit their error, multiplied: a recycling
// origin's relative rotation and local normal come from two body rotations (and a unit normal), a
// reused manifold normal is an origin's turned by a body's. Each bound covers the products below it,
// so a world accepted here saves again after any number of steps.
constexpr float kOriginUnitTolerance = 3e-3f;
constexpr float kManifoldUnitTolerance = 5e-3f;

bool Finite(float x) { return std::isfinite(x); }
bool Within(float x, float bound) { return std::fabs(x) <= bound; }  // false for NaN
bool Within(Vec2 v, float bound) { return Within(v.x, bound) && Within(v.y, bound); }
#if defined(MK_LARGE_WORLDS)
bool Within(Pos p, float bound) { return std::fabs(p.x) <= bound && std::fabs(p.y) <= bound; }
#endif
bool InRange(float x, float lo, float hi) { return x >= lo && x <= hi; }
bool Unit(float c, float s, float tolerance = kUnitTolerance) {
  return Within(c * c + s * s - 1.0f, tolerance);
}

// Validation of a parsed state. Checks run in dependency order (pools and sizes, then each object's
// own values, then the links between objects), so each check may index what the earlier ones proved
// in range. The first failure is kept.
class Validator {
 public:
  explicit Validator(WorldState& t) : t_(t) {}

  SnapshotResult Run(const std::vector<bool>& geometryValid) {
    if (!Sizes()) return result_;
    ClearDeadSlots();
    for (int b = 0; b < Capacity(t_.bodyIds); ++b) {
      if (t_.bodyIds.IsLive(b) && !ValidBody(t_.bodies[b])) return result_;
    }
    for (int s = 0; s < Capacity(t_.shapeIds); ++s) {
      if (!t_.shapeIds.IsLive(s)) continue;
      if (!geometryValid[s]) {
        Invalid("shape geometry");
        return result_;
      }
      if (!ValidShape(s)) return result_;
    }
    for (int c = 0; c < Capacity(t_.contactIds); ++c) {
      if (t_.contactIds.IsLive(c) && !ValidContact(c)) return result_;
    }
    for (int j = 0; j < Capacity(t_.jointIds); ++j) {
      if (t_.jointIds.IsLive(j) && !ValidJoint(t_.joints[j])) return result_;
    }
    if (!BodyLists() || !Masses() || !Chains() || !SleepGroups() || !Proxies() || !Events()) return result_;
    return {};
  }

 private:
  static int Capacity(const IdPool& pool) { return pool.Capacity(); }

  bool Fail(SnapshotError error, const char* detail) {
    result_ = {error, detail};
    return false;
  }
  bool Inconsistent(const char* detail) { return Fail(SnapshotError::Inconsistent, detail); }
  bool Invalid(const char* detail) { return Fail(SnapshotError::InvalidValue, detail); }

  bool Sizes() {
    const auto same = [](std::size_t size, const IdPool& pool) {
      return size == static_cast<std::size_t>(pool.Capacity());
    };
    if (!same(t_.bodies.size(), t_.bodyIds) || !same(t_.shapes.size(), t_.shapeIds) ||
        !same(t_.contacts.size(), t_.contactIds) || !same(t_.joints.size(), t_.jointIds) ||
        !same(t_.chains.size(), t_.chainIds) || !same(t_.sleepGroupHead.size(), t_.sleepGroupIds)) {
      return Inconsistent("array sizes differ from their id pools");
    }
    if (t_.bodyNames.size() > t_.bodies.size()) return Inconsistent("more body names than bodies");
    for (BodyName& name : t_.bodyNames) {
      if (name.text[kMaxBodyNameLength] != '\0') return Invalid("body name");
    }
    SolverSettings clamped = t_.settings;
    const SolverSettings& s = t_.settings;
    const bool bools = BoolByteOk(s.enableWarmStarting) && BoolByteOk(s.enableRelax) &&
                       BoolByteOk(s.enableRestitution) && BoolByteOk(s.enableSleep) &&
                       BoolByteOk(s.enableContinuous) && BoolByteOk(s.enableContactRecycling);
    if (!bools || !EnumOk(s.mode, 2) || !ClampSolverSettings(clamped, s)) return Invalid("solver settings");
    // Any finite gravity, as World::SetGravity takes (a world stepping under 1e30 m/s^2 must save a
    // snapshot that restores: the world fuzzer's check after every step).
    if (!IsFinite(t_.gravity)) return Invalid("gravity");
    if (!Within(t_.origin, kMaxCoordinate)) return Invalid("origin");
    return true;
  }

  // Dead slots are never read (creation overwrites a slot before use); their bytes from the input are
  // dropped anyway, so nothing unchecked stays in the world.
  void ClearDeadSlots() {
    for (int i = 0; i < Capacity(t_.bodyIds); ++i) {
      if (!t_.bodyIds.IsLive(i)) t_.bodies[i] = Body{};
    }
    for (int i = 0; i < Capacity(t_.shapeIds); ++i) {
      if (!t_.shapeIds.IsLive(i)) t_.shapes[i] = Shape{};
    }
    for (int i = 0; i < Capacity(t_.contactIds); ++i) {
      if (!t_.contactIds.IsLive(i)) t_.contacts[i] = Contact{};
    }
    for (int i = 0; i < Capacity(t_.jointIds); ++i) {
      if (!t_.jointIds.IsLive(i)) t_.joints[i] = Joint{};
    }
  }

  bool ValidBody(Body& b) {
    const bool flags = EnumOk(b.type, 3) && BoolByteOk(b.awake) && BoolByteOk(b.enabled) &&
                       (b.locks & ~kLockAll) == 0 && BoolByteOk(b.enableSleep) && BoolByteOk(b.isBullet) &&
                       BoolByteOk(b.heldAtStart) && EnumOk(b.motion, 4);
    if (!flags) return Invalid("body type or flag");
    const bool pose = Within(b.xf.p, kMaxCoordinate) && Within(b.center, kMaxCoordinate) &&
                      Within(b.center0, kMaxCoordinate) && Within(b.localCenter, kMaxLocalLength) &&
                      Unit(b.xf.q.c, b.xf.q.s) && Unit(b.q0.c, b.q0.s);
    const bool motion = Within(b.linearVelocity, kMaxSpeed) &&
                        Within(b.angularVelocity, 1.01f * kMaxAngularSpeed) && Finite(b.force.x) &&
                        Finite(b.force.y) && Finite(b.torque);
    const bool mass = InRange(b.mass, 0.0f, kMaxBodyMass) && InRange(b.inertia, 0.0f, kMaxBodyInertia) &&
                      Finite(b.invMass) && b.invMass >= 0.0f && Finite(b.invInertia) && b.invInertia >= 0.0f;
    const bool params =
        Finite(b.linearDamping) && b.linearDamping >= 0.0f && Finite(b.angularDamping) &&
        b.angularDamping >= 0.0f && Finite(b.gravityScale) && Finite(b.sleepThreshold) &&
        Finite(b.sleepTime) && b.sleepTime >= 0.0f && InRange(b.maxExtent, 0.0f, kMaxLocalLength) &&
        InRange(b.minExtent, 0.0f, kMaxLocalLength) && InRange(b.turnExtent, 0.0f, kMaxLocalLength);
    if (!pose) return Invalid("body pose");
    // The solver moves the centre of mass and places the origin from it (xf.p = center - R localCenter):
    // the two must agree up to that rounding. A centre elsewhere put every contact's lever arm off by
    // the difference, and fuzz_snapshot stepped such a world to NaN.
    const Pos expected = TransformPoint(b.xf, b.localCenter);
    const float tolerance =
        1e-4f * (1.0f + static_cast<float>(std::fabs(b.center.x) + std::fabs(b.center.y)) +
                 std::fabs(b.localCenter.x) + std::fabs(b.localCenter.y));
    if (!Within(b.center - expected, tolerance)) return Inconsistent("body centre and origin");
    if (!motion) return Invalid("body velocity or force");
    if (!mass || !params) return Invalid("body mass or parameter");
    // An override is what SetMassData accepts (body_features.cpp); Masses() then checks the rest.
    const MassData& o = b.massOverride;
    if (!(o.mass == 0.0f && o.rotationalInertia == 0.0f && o.center.x == 0.0f && o.center.y == 0.0f) &&
        !(o.mass > 0.0f && o.rotationalInertia >= 0.0f && Within(o.center, kMaxLocalLength) &&
          MassIsUsable(o)))
      return Invalid("body mass override");
    b.solverIndex = kNull;  // in no solver body list yet (MoveIn empties it)
    return true;
  }

  bool ValidShape(int slot) {
    Shape& s = t_.shapes[slot];
    const bool flags = BoolByteOk(s.isSensor) && BoolByteOk(s.enableContactEvents) &&
                       BoolByteOk(s.enableHitEvents) && BoolByteOk(s.enableSensorEvents) &&
                       BoolByteOk(s.enablePreSolveEvents) && BoolByteOk(s.enableCustomFiltering);
    if (!flags) return Invalid("shape flag");
    if (!IsValid(s.aabb) || !Within(s.aabb.lower, kMaxCoordinate) || !Within(s.aabb.upper, kMaxCoordinate) ||
        !Finite(s.density) || s.density < 0.0f || !ValidMaterial(GetShapeMaterial(s)))
      return Invalid("shape box or material");
    // Contact recycling trusts the extent as a bound on the shape's reach: it must be the one its
    // geometry gives, as InsertShape computed it.
    if (s.extent != ShapeExtent(t_.geometries[slot])) return Inconsistent("shape extent");
    if (!t_.bodyIds.IsLive(s.body)) return Inconsistent("shape body");
    // A chain names only chain segments; a chain segment may name none (CreateChainSegmentShape).
    const bool isChainSegment = t_.geometries[slot].Type() == ShapeType::ChainSegment;
    if (s.chain != kNull && (!isChainSegment || !t_.chainIds.IsLive(s.chain)))
      return Inconsistent("shape chain");
    s.oneSided = isChainSegment;  // derived from the type, not read (a version 3 snapshot has padding there)
    // A shape has a proxy exactly while its body is enabled (Proxies checks the broadphase side).
    if (s.proxy.IsNull() == t_.bodies[s.body].enabled) return Inconsistent("shape proxy");
    return true;
  }

  bool ValidManifold(const Manifold& m) {
    if (m.pointCount < 0 || m.pointCount > 2) return false;
    if (!Within(m.normal, 1.01f) ||
        (m.pointCount > 0 && !Unit(m.normal.x, m.normal.y, kManifoldUnitTolerance)))
      return false;
    for (int i = 0; i < m.pointCount; ++i) {
      const ManifoldPoint& p = m.points[i];
      if (!Within(p.point, kMaxCoordinate) || !Within(p.anchorA, kMaxLocalLength) ||
          !Within(p.anchorB, kMaxLocalLength) || !Within(p.separation, kMaxLocalLength) ||
          !Within(p.normalImpulse, kMaxImpulse) || !Within(p.tangentImpulse, kMaxImpulse))
        return false;
    }
    return true;
  }

  // What contact recycling places reused points from (contacts.cpp, RecycleManifold). A computed
  // origin holds points, a unit rotation, and each point's two ends on its shapes' surfaces, apart by
  // the point's separation along the normal: at most the smaller shape's diameter when they overlap,
  // the speculative distance when they do not. Reused points are placed from these ends, so the
  // bounds here (1% and 1 m beyond what a computation gives, for rounding) keep every point a reuse
  // makes within what ValidManifold accepts: its anchors within twice its body's reach, its
  // separation within twice the smaller reach (a reach is at most 2.5e5 m; the bound is 8e5 m).
  bool ValidOrigin(const Contact& c) {
    const ManifoldOrigin& o = c.origin;
    const int count = c.manifold.pointCount;
    if (count < 1 || !Within(o.relativePose.p, kMaxCoordinate) ||
        !Unit(o.relativePose.q.c, o.relativePose.q.s, kOriginUnitTolerance) ||
        !Unit(o.localNormal.x, o.localNormal.y, kOriginUnitTolerance))
      return false;
    // Each end lies on its shape, within its reach of its body origin (the extent, plus the
    // speculative distance, at most 1 m), and a manifold with points was computed with the two shapes
    // at most that far apart, so the origins were within reachA + reachB of each other and the two
    // ends of a point within twice that. Deep overlap puts the ends as far apart as the penetration:
    // a 5 cm hexagon 2.8 m inside a rounded box (issue 28), so the smaller shape alone bounds nothing.
    const float reachA = 1.01f * t_.shapes[c.shapeA].extent + 1.0f;
    const float reachB = 1.01f * t_.shapes[c.shapeB].extent + 1.0f;
    if (!(Length(o.relativePose.p) <= reachA + reachB)) return false;
    const float apart = 2.0f * (reachA + reachB);
    for (int i = 0; i < count; ++i) {
      if (!(Length(o.localPointA[i]) <= reachA) || !(Length(o.localPointB[i]) <= reachB)) return false;
      const Vec2 endB = TransformPoint(o.relativePose, o.localPointB[i]);  // in A's body frame
      if (!(Length(endB - o.localPointA[i]) <= apart)) return false;
    }
    return true;
  }

  bool ValidContact(int slot) {
    const Contact& c = t_.contacts[slot];
    const bool flags = BoolByteOk(c.touching) && BoolByteOk(c.enableContactEvents) &&
                       BoolByteOk(c.enableHitEvents) && BoolByteOk(c.sensorEvents) &&
                       BoolByteOk(c.sensorOverlap) && BoolByteOk(c.recyclable) && BoolByteOk(c.recycled);
    if (!flags || !ValidContactMix(c) || !ValidManifold(c.manifold))
      return Invalid("contact manifold or material");
    if (!t_.shapeIds.IsLive(c.shapeA) || !t_.shapeIds.IsLive(c.shapeB) || c.shapeA >= c.shapeB)
      return Inconsistent("contact shapes");
    if (c.recyclable && !ValidOrigin(c)) return Invalid("contact recycling origin");
    if (c.edges[0].body != t_.shapes[c.shapeA].body || c.edges[1].body != t_.shapes[c.shapeB].body ||
        c.edges[0].body == c.edges[1].body)
      return Inconsistent("contact bodies");
    // The GJK cache is a hint the narrowphase checks before every use (IsCacheUsable: count and every
    // index within the shapes' points), and a valid one may hold indices another query left for
    // other shapes; only its count is bounded here.
    if (c.cache.count > 3) return Invalid("contact simplex cache");
    const std::uint64_t key = PairMap::Key(c.shapeA, c.shapeB);
    bool added = false;
    int& entry = t_.contactByShapes.Emplace(key, added);
    if (!added) return Inconsistent("two contacts for one shape pair");
    entry = slot;
    return true;
  }

  bool ValidJoint(const Joint& j) {
    const bool flags = EnumOk(j.type, 8) && BoolByteOk(j.enableLimit) && BoolByteOk(j.enableMotor) &&
                       BoolByteOk(j.enableSpring) && BoolByteOk(j.collideConnected) &&
                       BoolByteOk(j.destroyOnBreak);
    if (!flags) return Invalid("joint type or flag");
    const bool isMouse = j.type == JointType::Mouse;
    const int a = j.edges[0].body, b = j.edges[1].body;
    const bool bodies = t_.bodyIds.IsLive(b) && (isMouse ? a == kNull : t_.bodyIds.IsLive(a) && a != b);
    if (!bodies) return Inconsistent("joint bodies");
    const bool geometry = Within(j.localAnchorA, kMaxLocalLength) &&
                          Within(j.localAnchorB, kMaxLocalLength) && Unit(j.localAxisA.x, j.localAxisA.y) &&
                          Within(j.target, kMaxCoordinate) && Within(j.referenceAngle, kMaxReferenceAngle) &&
                          Within(j.lower, kMaxWorldLength) && Within(j.upper, kMaxWorldLength) &&
                          j.lower <= j.upper && Finite(j.length) && j.length >= 0.0f;
    const bool springs =
        (j.constraintHertz == kUseWorldSetting || InRange(j.constraintHertz, 0.0f, kMaxHertz)) &&
        (j.constraintDampingRatio == kUseWorldSetting ||
         InRange(j.constraintDampingRatio, 0.0f, kMaxDampingRatio)) &&
        InRange(j.hertz, 0.0f, kMaxHertz) && !std::isnan(j.lowerSpringForce) &&
        j.lowerSpringForce <= j.upperSpringForce && !std::isnan(j.upperSpringForce) &&
        InRange(j.dampingRatio, 0.0f, kMaxDampingRatio) && InRange(j.angularHertz, 0.0f, kMaxHertz) &&
        InRange(j.angularDampingRatio, 0.0f, kMaxDampingRatio);
    const JointImpulses& i = j.impulses;
    const bool impulses = Within(i.linear, kMaxImpulse) && Within(i.angular, kMaxImpulse) &&
                          Within(i.perpendicular, kMaxImpulse) && Within(i.axial, kMaxImpulse) &&
                          Within(i.spring, kMaxImpulse) && Within(i.motor, kMaxImpulse) &&
                          Within(i.lower, kMaxImpulse) && Within(i.upper, kMaxImpulse) &&
                          Within(j.reactionForce, kMaxImpulse) && Within(j.reactionTorque, kMaxImpulse);
    // Motor torques and forces: any finite value (scenes use FLT_MAX for "unlimited").
    const bool motor = Within(j.motorSpeed, kMaxLocalLength) && Finite(j.maxMotor) && j.maxMotor >= 0.0f &&
                       Finite(j.maxForce) && j.maxForce >= 0.0f && Finite(j.motorForce) &&
                       Within(j.linearOffset, kMaxWorldLength) && InRange(j.correctionFactor, 0.0f, 1.0f) &&
                       j.forceThreshold >= 0.0f && j.torqueThreshold >= 0.0f;
    if (!geometry || !springs || !impulses || !motor) return Invalid("joint value");
    return true;
  }

  // Walks a body's doubly linked edge list (contacts or joints), bounded by the objects' count;
  // marks each (object, side) seen so a second visit (a cycle, or an edge in two lists) fails.
  template <class Object>
  bool WalkEdges(std::vector<Object>& objects, const IdPool& pool, int head, int body,
                 std::vector<std::uint8_t>& seen) {
    int prev = kNull;
    for (int key = head; key != kNull;) {
      const int object = key >> 1, side = key & 1;
      if (key < 0 || !pool.IsLive(object)) return false;
      const BodyEdge& edge = objects[object].edges[side];
      if (edge.body != body || edge.prev != prev || (seen[object] & (1 << side)) != 0) return false;
      seen[object] |= static_cast<std::uint8_t>(1 << side);
      prev = key;
      key = edge.next;
    }
    return true;
  }

  // Every live shape, contact end and joint end is in its body's list exactly once, and nothing else is.
  bool BodyLists() {
    std::vector<std::uint8_t> shapeSeen(t_.shapes.size(), 0), contactSeen(t_.contacts.size(), 0),
        jointSeen(t_.joints.size(), 0);
    for (int b = 0; b < Capacity(t_.bodyIds); ++b) {
      if (!t_.bodyIds.IsLive(b)) continue;
      const Body& body = t_.bodies[b];
      for (int s = body.headShape; s != kNull; s = t_.shapes[s].nextShape) {
        if (!t_.shapeIds.IsLive(s) || t_.shapes[s].body != b || shapeSeen[s] != 0)
          return Inconsistent("body shape list");
        shapeSeen[s] = 1;
      }
      if (!WalkEdges(t_.contacts, t_.contactIds, body.headContactEdge, b, contactSeen))
        return Inconsistent("body contact list");
      if (!WalkEdges(t_.joints, t_.jointIds, body.headJointEdge, b, jointSeen))
        return Inconsistent("body joint list");
    }
    for (int s = 0; s < Capacity(t_.shapeIds); ++s) {
      if (t_.shapeIds.IsLive(s) && shapeSeen[s] == 0)
        return Inconsistent("shape missing from its body's list");
    }
    for (int c = 0; c < Capacity(t_.contactIds); ++c) {
      if (t_.contactIds.IsLive(c) && contactSeen[c] != 3)
        return Inconsistent("contact missing from a body's list");
    }
    for (int j = 0; j < Capacity(t_.jointIds); ++j) {
      if (!t_.jointIds.IsLive(j)) continue;
      const std::uint8_t expected = t_.joints[j].edges[0].body == kNull ? 2 : 3;
      if (jointSeen[j] != expected) return Inconsistent("joint missing from a body's list");
    }
    return true;
  }

  // A body's mass data is always what UpdateBodyMass makes of its shapes (every change to shapes,
  // density or fixed rotation recomputes it), so it is recomputed here and must match bit for bit:
  // the solver divides by and multiplies with these, and a dynamic body with a zero inverse mass or
  // an inertia that disagrees with its inverse would give NaN. The centre and the extents stay as
  // loaded (the centre moves with the body; the extents depend on the slop when they were computed).
  bool Masses() {
    for (int b = 0; b < Capacity(t_.bodyIds); ++b) {
      if (!t_.bodyIds.IsLive(b)) continue;
      Body& body = t_.bodies[b];
      const Body loaded = body;
      UpdateBodyMass(t_, b);
      const bool same = SameBits(body.mass, loaded.mass) && SameBits(body.invMass, loaded.invMass) &&
                        SameBits(body.inertia, loaded.inertia) &&
                        SameBits(body.invInertia, loaded.invInertia) &&
                        SameBits(body.localCenter.x, loaded.localCenter.x) &&
                        SameBits(body.localCenter.y, loaded.localCenter.y);
      body = loaded;
      if (!same) return Inconsistent("body mass differs from its shapes'");
    }
    return true;
  }

  static bool SameBits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

  // A chain's segments are live shapes of its body that name it; every shape naming a chain is in it.
  bool Chains() {
    std::size_t listed = 0, naming = 0;
    for (int c = 0; c < Capacity(t_.chainIds); ++c) {
      Chain& chain = t_.chains[c];
      if (!t_.chainIds.IsLive(c)) {
        chain = Chain{};
        continue;
      }
      if (!t_.bodyIds.IsLive(chain.body) || chain.shapes.empty()) return Inconsistent("chain body");
      for (int s : chain.shapes) {
        if (!t_.shapeIds.IsLive(s) || t_.shapes[s].chain != c || t_.shapes[s].body != chain.body)
          return Inconsistent("chain segment");
      }
      listed += chain.shapes.size();
    }
    for (int s = 0; s < Capacity(t_.shapeIds); ++s) {
      if (t_.shapeIds.IsLive(s) && t_.shapes[s].chain != kNull) ++naming;
    }
    // Each listed segment names its chain, so equal counts mean no shape is listed twice.
    return listed == naming || Inconsistent("chain segment listed twice");
  }

  // Each live sleep group lists its bodies (asleep, not static, naming the group) once; every body naming a
  // group is in its list; awake bodies name none, and every asleep body that is not static names one (the
  // step wakes sleepers through their joints only while a group is live: MayHaveSleepers).
  bool SleepGroups() {
    std::vector<bool> seen(t_.bodies.size(), false);
    for (int g = 0; g < Capacity(t_.sleepGroupIds); ++g) {
      if (!t_.sleepGroupIds.IsLive(g)) continue;
      for (int b = t_.sleepGroupHead[g]; b != kNull; b = t_.bodies[b].nextInSleepGroup) {
        if (!t_.bodyIds.IsLive(b) || seen[b] || t_.bodies[b].sleepGroup != g || t_.bodies[b].awake ||
            t_.bodies[b].type == BodyType::Static)
          return Inconsistent("sleep group list");
        seen[b] = true;
      }
    }
    for (int b = 0; b < Capacity(t_.bodyIds); ++b) {
      if (!t_.bodyIds.IsLive(b)) continue;
      const Body& body = t_.bodies[b];
      if (body.sleepGroup != kNull && !seen[b]) return Inconsistent("body names a sleep group it is not in");
      if (!body.awake && body.type != BodyType::Static && body.sleepGroup == kNull)
        return Inconsistent("asleep body in no sleep group");
    }
    return true;
  }

  // Shapes and proxies correspond one to one: each shape's proxy is live with the shape's slot as user
  // data, its filter and its body's type (the broadphase's same-body rule must see the true body),
  // and there are no other proxies.
  bool Proxies() {
    int withProxy = 0;
    for (int s = 0; s < Capacity(t_.shapeIds); ++s) {
      if (!t_.shapeIds.IsLive(s) || t_.shapes[s].proxy.IsNull()) continue;
      const Shape& shape = t_.shapes[s];
      const ProxyType type =
          t_.bodies[shape.body].type == BodyType::Static ? ProxyType::Static : ProxyType::Moving;
      if (!t_.broadphase.IsValid(shape.proxy) ||
          t_.broadphase.GetUserData(shape.proxy) != static_cast<std::uint64_t>(s) ||
          !BroadPhaseSnapshot::ProxyIs(t_.broadphase, shape.proxy, MakeProxyFilter(shape), type))
        return Inconsistent("shape proxy");
      ++withProxy;
    }
    return withProxy == t_.broadphase.Stats().proxyCount || Inconsistent("proxy without a shape");
  }

  bool Events() {
    for (const ContactHitEvent& e : t_.hitEvents) {
      if (!Within(e.point, kMaxCoordinate) || !Within(e.normal, 1.01f) || !Finite(e.approachSpeed))
        return Invalid("hit event");
    }
    return true;
  }

  WorldState& t_;
  SnapshotResult result_{};
};

}  // namespace

SnapshotResult ValidateSnapshotState(WorldState& state, const std::vector<bool>& geometryValid) {
  return Validator(state).Run(geometryValid);
}

}  // namespace mk
