// SPDX-License-Identifier: MIT
// The world lock (World's class comment; docs/design.md 6b): every mutating call made from inside Step
// (the pre-solve callback) or from a query callback fails one MK_ASSERT and changes nothing, and works
// again once the Step or query has returned. One table of named calls drives every check, so a call
// added to World needs one line here.
#include "minkowski/world.h"
#include "minkowski/world_vector.h"
#include "world/world_state.h"
#include "world_fixture.h"

#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

using namespace mk;

namespace {

constexpr float kDt = 1.0f / 60.0f;
constexpr int kSteps = 40;  // long enough for every refused call's effect to show in the state hash

// A small world with one of everything a call can act on: boxA rests on the ground (whose shape asks
// for pre-solve), boxB on a chain loop held by a mouse joint, a wheel hangs from the ground by a motor.
struct Scene {
  World world;
  BodyId ground, boxA, boxB, wheel, chainBody;
  ShapeId groundShape, shapeA, shapeB;
  JointId motor, mouse;
  ChainId chain;
  std::vector<std::byte> snapshot;  // the scene before its first step
  void (*call)(Scene&) = nullptr;   // made once, from inside the first callback that runs
  bool called = false;
  bool locked = false;  // true while `call` runs from a callback: what its return values must say
  int preSolveCalls = 0;
};

void RunCallOnce(Scene& s) {
  if (s.call == nullptr || s.called) return;
  s.called = true;
  s.locked = true;
  s.call(s);
  s.locked = false;
}

bool PreSolve(ShapeId, ShapeId, const Manifold&, void* context) {
  Scene& s = *static_cast<Scene*>(context);
  ++s.preSolveCalls;
  RunCallOnce(s);
  return true;
}

std::unique_ptr<Scene> MakeScene() {
  auto s = std::make_unique<Scene>();
  World& w = s->world;
  s->ground = w.CreateBody({.position = {0.0f, -1.0f}});
  s->groundShape = w.CreateShape(s->ground, {.enablePreSolveEvents = true}, MakeBox(50.0f, 1.0f).value);
  s->boxA = w.CreateBody({.type = BodyType::Dynamic, .position = {0.0f, 0.52f}});
  s->shapeA = w.CreateShape(s->boxA, {}, MakeBox(0.5f, 0.5f).value);
  s->chainBody = w.CreateBody({});
  const std::array<Vec2, 4> loop{Vec2{18.0f, 0.5f}, Vec2{22.0f, 0.5f}, Vec2{22.0f, 1.0f}, Vec2{18.0f, 1.0f}};
  s->chain = w.CreateChain(s->chainBody, {.points = loop, .isLoop = true});
  s->boxB = w.CreateBody({.type = BodyType::Dynamic, .position = {20.0f, 1.52f}});
  s->shapeB = w.CreateShape(s->boxB, {.enablePreSolveEvents = true}, MakeBox(0.5f, 0.5f).value);
  s->mouse = w.CreateJoint(MouseJointDef{.body = s->boxB, .target = {20.0f, 1.52f}, .maxForce = 5.0f});
  s->wheel = w.CreateBody({.type = BodyType::Dynamic, .position = {-4.0f, 3.0f}});
  w.CreateShape(s->wheel, {}, Circle{{0.0f, 0.0f}, 0.5f});
  w.SetMassData(s->wheel, {.mass = 9.0f, .rotationalInertia = 1.0f});  // for ApplyMassFromShapes
  RevoluteJointDef motor;
  motor.bodyA = s->ground;
  motor.bodyB = s->wheel;
  motor.localAnchorA = {-4.0f, 4.0f};
  motor.enableMotor = true;
  motor.motorSpeed = 2.0f;
  motor.maxMotorTorque = 100.0f;
  s->motor = w.CreateJoint(motor);
  s->snapshot = mk::SaveSnapshot(w);
  w.SetPreSolveCallback(&PreSolve, s.get());
  return s;
}

std::uint64_t HashAfter(Scene& s, int steps) {
  for (int i = 0; i < steps; ++i) s.world.Step(kDt);
  return s.world.StateHash();
}

const Body& BodyOf(const Scene& s, BodyId id) { return s.world.State().bodies[s.world.State().BodySlot(id)]; }

// A mutating call, made on the scene; `effect` says whether it took effect when the state hash cannot
// (null: the hash shows it). Return values are checked against `s.locked`.
struct LockedCall {
  const char* name;
  void (*call)(Scene&);
  bool (*effect)(const Scene&) = nullptr;
  int assertsWhenUnlocked = 0;  // StartRecording: the scene is not a new world either way
  bool visible = true;          // false: the call has nothing to change in this scene (recording)
};

template <class Id>
void CheckMade(const Scene& s, Id id) {
  CHECK(id.IsNull() == s.locked);
}

const std::vector<LockedCall>& LockedCalls() {
  static const std::vector<LockedCall> calls = {
      {"Step", [](Scene& s) { CHECK(s.world.Step(kDt) == !s.locked); }},
      {"SetGravity",
       [](Scene& s) {
         s.world.SetGravity({1.0f, -20.0f});
       }},
      {"SetSolverSettings",
       [](Scene& s) {
         SolverSettings settings = s.world.GetSolverSettings();
         settings.subSteps = 8;
         CHECK(s.world.SetSolverSettings(settings) == !s.locked);
       },
       [](const Scene& s) { return s.world.GetSolverSettings().subSteps == 8; }},
      {"RestoreSnapshot",
       [](Scene& s) {
         const SnapshotResult result = s.world.RestoreSnapshot(s.snapshot);
         CHECK(result.error == (s.locked ? SnapshotError::WhileLocked : SnapshotError::None));
       }},
      {"CreateBody",
       [](Scene& s) {
         CheckMade(s, s.world.CreateBody({.type = BodyType::Dynamic, .position = {0, 5}}));
       }},
      {"DestroyBody", [](Scene& s) { CHECK(s.world.DestroyBody(s.boxA) == !s.locked); }},
      {"SetTransform",
       [](Scene& s) {
         s.world.SetTransform(s.boxA, {0.0f, 3.0f}, 0.5f);
       }},
      {"SetLinearVelocity",
       [](Scene& s) {
         s.world.SetLinearVelocity(s.boxA, {3.0f, 4.0f});
       }},
      {"SetAngularVelocity", [](Scene& s) { s.world.SetAngularVelocity(s.boxA, 5.0f); }},
      {"ApplyForce",
       [](Scene& s) {
         s.world.ApplyForce(s.boxA, {0.0f, 400.0f}, {0.3f, 0.5f});
       }},
      {"ApplyForceToCenter",
       [](Scene& s) {
         s.world.ApplyForceToCenter(s.boxA, {0.0f, 400.0f});
       }},
      {"ApplyTorque", [](Scene& s) { s.world.ApplyTorque(s.boxA, 50.0f); }},
      {"ApplyLinearImpulse",
       [](Scene& s) {
         s.world.ApplyLinearImpulse(s.boxA, {0.0f, 4.0f}, {0.3f, 0.5f});
       }},
      {"ApplyLinearImpulseToCenter",
       [](Scene& s) {
         s.world.ApplyLinearImpulseToCenter(s.boxA, {2.0f, 4.0f});
       }},
      {"ApplyAngularImpulse", [](Scene& s) { s.world.ApplyAngularImpulse(s.boxA, 3.0f); }},
      {"SetLinearDamping", [](Scene& s) { s.world.SetLinearDamping(s.boxA, 5.0f); },
       [](const Scene& s) { return BodyOf(s, s.boxA).linearDamping == 5.0f; }},
      {"SetAngularDamping", [](Scene& s) { s.world.SetAngularDamping(s.boxA, 5.0f); },
       [](const Scene& s) { return BodyOf(s, s.boxA).angularDamping == 5.0f; }},
      {"SetGravityScale", [](Scene& s) { s.world.SetGravityScale(s.wheel, -1.0f); }},
      {"SetFixedRotation", [](Scene& s) { s.world.SetFixedRotation(s.boxA, true); },
       [](const Scene& s) { return s.world.GetMotionLocks(s.boxA).angularZ; }},
      {"SetMotionLocks", [](Scene& s) { s.world.SetMotionLocks(s.boxA, {.linearX = true}); },
       [](const Scene& s) { return s.world.GetMotionLocks(s.boxA).linearX; }},
      {"SetType", [](Scene& s) { s.world.SetType(s.boxA, BodyType::Static); },
       [](const Scene& s) { return s.world.GetBodyType(s.boxA) == BodyType::Static; }},
      {"SetMassData",
       [](Scene& s) { s.world.SetMassData(s.boxA, {.mass = 7.0f, .rotationalInertia = 2.0f}); },
       [](const Scene& s) { return s.world.GetMass(s.boxA) == 7.0f; }},
      {"ApplyMassFromShapes", [](Scene& s) { s.world.ApplyMassFromShapes(s.wheel); },
       [](const Scene& s) { return s.world.GetMass(s.wheel) != 9.0f; }},
      {"SetTargetTransform",
       [](Scene& s) {
         s.world.SetTargetTransform(s.boxA, {{1.0f, 2.0f}, {1.0f, 0.0f}}, kDt);
       }},
      {"SetSleepThreshold", [](Scene& s) { s.world.SetSleepThreshold(s.boxA, 3.0f); },
       [](const Scene& s) { return s.world.GetSleepThreshold(s.boxA) == 3.0f; }},
      // Nothing touching the ground sleeps in this scene: only the refusal shows.
      {"WakeTouching", [](Scene& s) { s.world.WakeTouching(s.ground); }, nullptr, 0, false},
      {"SetName", [](Scene& s) { s.world.SetName(s.boxA, "a"); },
       [](const Scene& s) { return s.world.GetName(s.boxA)[0] == 'a'; }},
      {"SetAwake", [](Scene& s) { s.world.SetAwake(s.wheel, false); }},
      {"SetSleepEnabled", [](Scene& s) { s.world.SetSleepEnabled(s.boxA, false); },
       [](const Scene& s) { return !BodyOf(s, s.boxA).enableSleep; }},
      {"SetBullet", [](Scene& s) { s.world.SetBullet(s.boxA, true); },
       [](const Scene& s) { return s.world.IsBullet(s.boxA); }},
      {"SetEnabled", [](Scene& s) { s.world.SetEnabled(s.wheel, false); }},
      {"CreateShape circle",
       [](Scene& s) {
         CheckMade(s, s.world.CreateShape(s.boxA, {}, Circle{{1, 0}, 0.5f}));
       }},
      {"CreateShape capsule",
       [](Scene& s) {
         CheckMade(s, s.world.CreateShape(s.boxA, {}, Capsule{{0, 0}, {1.5f, 0}, 0.2f}));
       }},
      {"CreateShape segment",
       [](Scene& s) {
         CheckMade(s, s.world.CreateShape(s.ground, {}, Segment{{-1, 1.2f}, {1, 1.2f}}));
       }},
      {"CreateShape polygon",
       [](Scene& s) { CheckMade(s, s.world.CreateShape(s.boxA, {}, MakeBox(1.5f, 0.2f).value)); }},
      {"DestroyShape", [](Scene& s) { CHECK(s.world.DestroyShape(s.shapeB) == !s.locked); }},
      {"SetFriction", [](Scene& s) { s.world.SetFriction(s.shapeA, 0.1f); },
       [](const Scene& s) { return s.world.GetFriction(s.shapeA) == 0.1f; }},
      {"SetRestitution", [](Scene& s) { s.world.SetRestitution(s.shapeA, 0.5f); },
       [](const Scene& s) { return s.world.GetRestitution(s.shapeA) == 0.5f; }},
      {"SetMaterial", [](Scene& s) { s.world.SetMaterial(s.shapeA, {.tangentSpeed = 2.0f}); },
       [](const Scene& s) { return s.world.GetMaterial(s.shapeA).tangentSpeed == 2.0f; }},
      {"SetFrictionCallback",
       [](Scene& s) {
         s.world.SetFrictionCallback([](float, std::uint64_t, float, std::uint64_t) { return 0.0f; });
       },
       [](const Scene& s) { return s.world.State().frictionFn != nullptr; }},
      {"SetRestitutionCallback",
       [](Scene& s) {
         s.world.SetRestitutionCallback([](float, std::uint64_t, float, std::uint64_t) { return 0.0f; });
       },
       [](const Scene& s) { return s.world.State().restitutionFn != nullptr; }},
      {"SetCustomFilterCallback",
       [](Scene& s) {
         s.world.SetCustomFilterCallback([](ShapeId, ShapeId, void*) { return true; }, nullptr);
       },
       [](const Scene& s) { return s.world.State().customFilterFn != nullptr; }},
      {"SetUserData world", [](Scene& s) { s.world.SetUserData(&s); },
       [](const Scene& s) { return s.world.GetUserData() == &s; }},
      {"SetDensity", [](Scene& s) { s.world.SetDensity(s.shapeA, 3.0f); },
       [](const Scene& s) { return s.world.GetMass(s.boxA) == 3.0f; }},
      {"SetCircle",
       [](Scene& s) {
         SetCircle(s.world, s.shapeA, {{0.0f, 0.0f}, 0.7f});
       },
       [](const Scene& s) { return s.world.GetShapeType(s.shapeA) == ShapeType::Circle; }},
      {"SetCapsule",
       [](Scene& s) {
         SetCapsule(s.world, s.shapeA, {{-0.4f, 0.0f}, {0.4f, 0.0f}, 0.3f});
       },
       [](const Scene& s) { return s.world.GetShapeType(s.shapeA) == ShapeType::Capsule; }},
      {"SetSegment",
       [](Scene& s) {
         SetSegment(s.world, s.groundShape, {{-9.0f, 1.0f}, {9.0f, 1.0f}});
       },
       [](const Scene& s) { return s.world.GetShapeType(s.groundShape) == ShapeType::Segment; }},
      {"SetPolygon", [](Scene& s) { SetPolygon(s.world, s.shapeA, MakeBox(1.0f, 0.25f).value); },
       [](const Scene& s) { return GetPolygon(s.world, s.shapeA).vertices[0].x == -1.0f; }},
      {"SetChainSegment",
       [](Scene& s) {
         SetChainSegment(s.world, s.shapeA, {{-1.0f, 0.0f}, {{-0.5f, 0.0f}, {0.5f, 0.0f}}, {1.0f, 0.0f}});
       },
       [](const Scene& s) { return s.world.GetShapeType(s.shapeA) == ShapeType::ChainSegment; }},
      {"CreateChainSegmentShape",
       [](Scene& s) {
         const ChainSegment segment{
             {2.0f, 1.3f}, {{1.0f, 1.3f}, {-1.0f, 1.3f}}, {-2.0f, 1.3f}};  // y = 0.3 in the world
         CheckMade(s, CreateChainSegmentShape(s.world, s.ground, {}, segment));
       }},
      {"EnablePreSolveEvents", [](Scene& s) { s.world.EnablePreSolveEvents(s.groundShape, false); },
       [](const Scene& s) { return !s.world.IsPreSolveEnabled(s.groundShape); }},
      {"SetFilter", [](Scene& s) { s.world.SetFilter(s.shapeA, {.categoryBits = 2, .maskBits = 4}); }},
      {"CreateChain",
       [](Scene& s) {
         const std::array<Vec2, 3> points{Vec2{1.0f, 0.3f}, Vec2{0.0f, 0.3f}, Vec2{-1.0f, 0.3f}};
         CheckMade(s, s.world.CreateChain(s.ground, {.points = points}));
       },
       [](const Scene& s) { return s.world.State().chainIds.LiveCount() == 2; }},
      {"DestroyChain", [](Scene& s) { CHECK(s.world.DestroyChain(s.chain) == !s.locked); }},
      {"CreateJoint revolute",
       [](Scene& s) {
         CheckMade(s, s.world.CreateJoint(RevoluteJointDef{{.bodyA = s.boxA, .bodyB = s.wheel}}));
       }},
      {"CreateJoint prismatic",
       [](Scene& s) {
         CheckMade(s, s.world.CreateJoint(PrismaticJointDef{{.bodyA = s.boxA, .bodyB = s.wheel}}));
       }},
      {"CreateJoint distance",
       [](Scene& s) {
         DistanceJointDef def;
         def.bodyA = s.boxA;
         def.bodyB = s.wheel;
         def.length = 1.0f;
         CheckMade(s, s.world.CreateJoint(def));
       }},
      {"CreateJoint weld",
       [](Scene& s) {
         CheckMade(s, s.world.CreateJoint(WeldJointDef{{.bodyA = s.boxA, .bodyB = s.wheel}}));
       }},
      {"CreateJoint wheel",
       [](Scene& s) {
         CheckMade(s, s.world.CreateJoint(WheelJointDef{{.bodyA = s.boxA, .bodyB = s.wheel}}));
       }},
      {"CreateJoint mouse",
       [](Scene& s) {
         CheckMade(s, s.world.CreateJoint(MouseJointDef{.body = s.boxA, .target = {0, 0.52f}}));
       },
       [](const Scene& s) { return s.world.State().jointIds.LiveCount() == 3; }},
      {"DestroyJoint", [](Scene& s) { CHECK(s.world.DestroyJoint(s.motor) == !s.locked); }},
      {"SetMotorSpeed", [](Scene& s) { s.world.SetMotorSpeed(s.motor, -6.0f); }},
      {"CreateJoint motor",
       [](Scene& s) {
         CheckMade(s, s.world.CreateJoint(MotorJointDef{{.bodyA = s.boxA, .bodyB = s.wheel}}));
       },
       [](const Scene& s) { return s.world.State().jointIds.LiveCount() == 3; }},
      {"CreateJoint filter",
       [](Scene& s) {
         CheckMade(s, s.world.CreateJoint(FilterJointDef{{.bodyA = s.boxA, .bodyB = s.wheel}}));
       },
       [](const Scene& s) { return s.world.State().jointIds.LiveCount() == 3; }},
      {"SetJointLimits", [](Scene& s) { SetJointLimits(s.world, s.motor, -0.5f, 0.5f); },
       [](const Scene& s) { return GetJointLowerLimit(s.world, s.motor) == -0.5f; }},
      {"EnableJointLimit", [](Scene& s) { EnableJointLimit(s.world, s.motor, true); },
       [](const Scene& s) { return IsJointLimitEnabled(s.world, s.motor); }},
      {"EnableJointMotor", [](Scene& s) { EnableJointMotor(s.world, s.motor, false); },
       [](const Scene& s) { return !IsJointMotorEnabled(s.world, s.motor); }},
      {"SetJointMaxMotorForce", [](Scene& s) { SetJointMaxMotorForce(s.world, s.motor, 7.0f); },
       [](const Scene& s) { return GetJointMaxMotorForce(s.world, s.motor) == 7.0f; }},
      {"EnableJointSpring", [](Scene& s) { EnableJointSpring(s.world, s.motor, true); },
       [](const Scene& s) { return IsJointSpringEnabled(s.world, s.motor); }},
      {"SetJointSpringHertz", [](Scene& s) { SetJointSpringHertz(s.world, s.motor, 3.0f); },
       [](const Scene& s) { return GetJointSpringHertz(s.world, s.motor) == 3.0f; }},
      {"SetJointSpringDampingRatio", [](Scene& s) { SetJointSpringDampingRatio(s.world, s.motor, 0.3f); },
       [](const Scene& s) { return GetJointSpringDampingRatio(s.world, s.motor) == 0.3f; }},
      {"SetJointCollideConnected", [](Scene& s) { SetJointCollideConnected(s.world, s.motor, true); },
       [](const Scene& s) { return GetJointCollideConnected(s.world, s.motor); }},
      {"SetJointConstraintTuning", [](Scene& s) { SetJointConstraintTuning(s.world, s.motor, 30.0f, 0.0f); },
       [](const Scene& s) { return GetJointConstraintHertz(s.world, s.motor) == 30.0f; }},
      {"SetJointForceThreshold", [](Scene& s) { SetJointForceThreshold(s.world, s.motor, 1e6f); },
       [](const Scene& s) { return GetJointForceThreshold(s.world, s.motor) == 1e6f; }},
      {"SetJointTorqueThreshold", [](Scene& s) { SetJointTorqueThreshold(s.world, s.motor, 1e6f); },
       [](const Scene& s) { return GetJointTorqueThreshold(s.world, s.motor) == 1e6f; }},
      {"SetJointDestroyOnBreak", [](Scene& s) { SetJointDestroyOnBreak(s.world, s.motor, true); },
       [](const Scene& s) { return GetJointDestroyOnBreak(s.world, s.motor); }},
      {"SetJointLocalFrameA",
       [](Scene& s) {
         SetJointLocalFrameA(s.world, s.motor, {{-4.0f, 4.0f}, MakeRot(0.5f)});
       },
       [](const Scene& s) { return GetJointLocalFrameA(s.world, s.motor).q.s > 0.4f; }},
      {"SetJointLocalFrameB",
       [](Scene& s) {
         SetJointLocalFrameB(s.world, s.motor, {{0.0f, 0.25f}, Rot{}});
       },
       [](const Scene& s) { return GetJointLocalFrameB(s.world, s.motor).p.y == 0.25f; }},
      // (the wheel is awake already: WakeJointBodies has nothing to show)
      {"WakeJointBodies", [](Scene& s) { WakeJointBodies(s.world, s.motor); }, nullptr, 0, false},
      {"SetMouseTarget",
       [](Scene& s) {
         s.world.SetMouseTarget(s.mouse, {21.0f, 4.0f});
       }},
      {"Explode",
       [](Scene& s) {
         s.world.Explode({.position = {0.0f, 0.0f}, .radius = 2.0f});
       }},
      {"SetPreSolveCallback", [](Scene& s) { s.world.SetPreSolveCallback(nullptr, nullptr); },
       [](const Scene& s) { return !s.world.State().preSolve; }},
      {"SetPreSolveCallable", [](Scene& s) { s.world.SetPreSolveCallback(PreSolveCallable{}); },
       [](const Scene& s) { return !s.world.State().preSolve; }},
      {"SetContinuousRecording", [](Scene& s) { s.world.SetContinuousRecording(true); },
       [](const Scene& s) { return s.world.IsContinuousRecording(); }},
      {"StartRecording", [](Scene& s) { CHECK_FALSE(s.world.StartRecording()); }, nullptr, 1, false},
      {"StopRecording", [](Scene& s) { CHECK(mk::StopRecording(s.world).empty()); }, nullptr, 0, false},
  };
  return calls;
}

// The reference: the scene stepped kSteps times with no call.
std::uint64_t ReferenceHash() {
  auto s = MakeScene();
  return HashAfter(*s, kSteps);
}

// The call made between the first two steps: no assert, and it shows (the check has teeth).
void CheckTakesEffectUnlocked(const LockedCall& entry, std::uint64_t reference) {
  auto s = MakeScene();
  test::AssertCounter asserts;
  s->world.Step(kDt);
  entry.call(*s);
  CHECK(asserts.Count() == entry.assertsWhenUnlocked);
  const std::uint64_t hash = HashAfter(*s, kSteps - 1);
  if (!entry.visible) return;
  if (entry.effect != nullptr) {
    CHECK(entry.effect(*s));
  } else {
    CHECK(hash != reference);
  }
}

// After a call refused from a callback: one assert, the world as if it was never made.
void CheckRefused(const Scene& s, const test::AssertCounter& asserts, std::uint64_t hash,
                  const LockedCall& entry, std::uint64_t reference) {
  CHECK(s.called);
  CHECK(asserts.Count() == 1);
  CHECK(hash == reference);
  if (entry.effect != nullptr) CHECK_FALSE(entry.effect(s));
  CHECK(s.world.State().lockDepth == 0);
  CHECK(s.world.State().walkDepth == 0);
}

// Runs `query` on a scene after its first step with the call made from the query's callback.
template <class Query>
void CheckRefusedFromQuery(Query query) {
  const std::uint64_t reference = ReferenceHash();
  for (const LockedCall& entry : LockedCalls()) {
    CAPTURE(entry.name);
    auto s = MakeScene();
    s->world.Step(kDt);
    s->call = entry.call;
    test::AssertCounter asserts;
    query(*s);
    const std::uint64_t hash = HashAfter(*s, kSteps - 1);
    CheckRefused(*s, asserts, hash, entry, reference);
  }
}

class CallingDraw final : public DebugDraw {
 public:
  explicit CallingDraw(Scene& s) : scene_(s) {}
  void DrawPolygon(const Vec2*, int, Color) override { RunCallOnce(scene_); }
  void DrawSolidPolygon(const Transform&, const Vec2*, int, float, Color) override { RunCallOnce(scene_); }
  void DrawCircle(Vec2, float, Color) override { RunCallOnce(scene_); }
  void DrawSolidCircle(const Transform&, float, Color) override { RunCallOnce(scene_); }
  void DrawSolidCapsule(Vec2, Vec2, float, Color) override { RunCallOnce(scene_); }
  void DrawSegment(Vec2, Vec2, Color) override { RunCallOnce(scene_); }
  void DrawTransform(const Transform&, float) override {}
  void DrawPoint(Vec2, float, Color) override {}
  void DrawString(Vec2, const char*, Color) override {}

 private:
  Scene& scene_;
};

constexpr AABB kAroundBoxA{{-1.0f, -0.5f}, {1.0f, 2.0f}};

}  // namespace

TEST_SUITE("world.lock") {
TEST_CASE("every mutating call made from the pre-solve callback is refused and changes nothing") {
  const std::uint64_t reference = ReferenceHash();
  for (const LockedCall& entry : LockedCalls()) {
    CAPTURE(entry.name);
    auto s = MakeScene();
    s->call = entry.call;
    test::AssertCounter asserts;
    const std::uint64_t hash = HashAfter(*s, kSteps);
    CheckRefused(*s, asserts, hash, entry, reference);
  }
}

TEST_CASE("every mutating call works again once Step has returned") {
  const std::uint64_t reference = ReferenceHash();
  for (const LockedCall& entry : LockedCalls()) {
    CAPTURE(entry.name);
    CheckTakesEffectUnlocked(entry, reference);
  }
}

TEST_CASE("every mutating call made from a QueryAABB callback is refused") {
  CheckRefusedFromQuery([](Scene& s) {
    s.world.QueryAABB(kAroundBoxA, [&s](ShapeId) {
      RunCallOnce(s);
      return true;
    });
  });
}

TEST_CASE("every mutating call made from an OverlapAABB callback is refused") {
  CheckRefusedFromQuery([](Scene& s) {
    s.world.OverlapAABB(kAroundBoxA, {}, [&s](ShapeId) {
      RunCallOnce(s);
      return true;
    });
  });
}

TEST_CASE("every mutating call made from a CastRay callback is refused") {
  CheckRefusedFromQuery([](Scene& s) {
    s.world.CastRay({0.0f, 5.0f}, {0.0f, -10.0f}, {}, [&s](const CastHit&) {
      RunCallOnce(s);
      return 1.0f;
    });
  });
}

TEST_CASE("every mutating call made from a CastShape callback is refused") {
  const ShapeGeometry probe = Circle{{0.0f, 0.0f}, 0.2f};
  CheckRefusedFromQuery([&probe](Scene& s) {
    s.world.CastShape(probe, Transform{{0.0f, 5.0f}, Rot{}}, {0.0f, -10.0f}, {}, [&s](const CastHit&) {
      RunCallOnce(s);
      return 1.0f;
    });
  });
}

TEST_CASE("every mutating call made from a DebugDraw callback of Draw is refused") {
  CheckRefusedFromQuery([](Scene& s) {
    CallingDraw draw(s);
    s.world.Draw(draw);
  });
}

TEST_CASE("getters and queries work from the pre-solve callback of the narrowphase") {
  auto s = MakeScene();
  s->call = [](Scene& scene) {
    const World& w = scene.world;
    CHECK(w.IsValid(scene.boxA));
    CHECK(w.GetMass(scene.boxA) > 0.0f);
    CHECK(w.CastRayClosest({0.0f, 5.0f}, {0.0f, -10.0f}).shape == scene.shapeA);
    int found = 0;
    w.QueryAABB(kAroundBoxA, [&found](ShapeId) { return ++found > 0; });
    CHECK(found >= 2);
    CHECK(!mk::SaveSnapshot(w).empty());
  };
  test::AssertCounter asserts;
  HashAfter(*s, 2);
  CHECK(s->called);
  CHECK(asserts.Count() == 0);
}

TEST_CASE("queries are refused from the pre-solve calls of the continuous stage only") {
  // A fast box under a thin platform: the narrowphase asks about the pair once they are close, the
  // continuous stage when the box would pass it within a step (from inside its broadphase walk).
  struct Calls {
    World world;
    int narrowphase = 0, continuous = 0, refused = 0;
  } calls;
  World& w = calls.world;
  const BodyId platform = w.CreateBody({.position = {0.0f, 2.0f}});
  w.CreateShape(platform, {.enablePreSolveEvents = true}, MakeBox(2.0f, 0.05f).value);
  const BodyId fast = w.CreateBody({.type = BodyType::Dynamic, .linearVelocity = {0.0f, 30.0f}});
  w.CreateShape(fast, {}, MakeBox(0.1f, 0.1f).value);
  w.SetPreSolveCallback(
      [](ShapeId, ShapeId, const Manifold&, void* context) {
        Calls& c = *static_cast<Calls*>(context);
        const bool inWalk = c.world.State().walkDepth > 0;
        ++(inWalk ? c.continuous : c.narrowphase);
        int seen = 0;
        c.world.QueryAABB({{-5.0f, -5.0f}, {5.0f, 5.0f}}, [&seen](ShapeId) { return ++seen > 0; });
        if (seen == 0) ++c.refused;
        return true;
      },
      &calls);
  test::AssertCounter asserts;
  for (int i = 0; i < 10; ++i) w.Step(kDt);
  CHECK(calls.continuous > 0);
  CHECK(calls.narrowphase > 0);
  CHECK(calls.refused == calls.continuous);
  CHECK(asserts.Count() == calls.continuous);
  CHECK(w.GetPosition(fast).y < 2.0f);  // kept under the platform: the continuous stage still asked
}

TEST_CASE("a query from a CastRay callback is refused and the outer cast is unchanged") {
  auto s = MakeScene();
  s->world.Step(kDt);
  const std::vector<CastHit> expected = mk::CastRayAll(s->world, {-30.0f, 0.9f}, {60.0f, 0.0f});
  REQUIRE(expected.size() >= 2);  // boxA and the chain loop
  test::AssertCounter asserts;
  std::vector<CastHit> hits;
  s->world.CastRay({-30.0f, 0.9f}, {60.0f, 0.0f}, {}, [&](const CastHit& hit) {
    CHECK_FALSE(s->world.CastRayClosest({0.0f, 5.0f}, {0.0f, -10.0f}).hit);
    hits.push_back(hit);
    return 1.0f;
  });
  CHECK(hits.size() == expected.size());
  CHECK(asserts.Count() == static_cast<int>(hits.size()));
}

TEST_CASE("queries work from an OverlapAABB callback") {
  auto s = MakeScene();
  s->world.Step(kDt);
  test::AssertCounter asserts;
  int inner = 0;
  s->world.OverlapAABB(kAroundBoxA, {}, [&](ShapeId) {
    inner += s->world.CastRayClosest({0.0f, 5.0f}, {0.0f, -10.0f}).hit ? 1 : 0;
    return true;
  });
  CHECK(inner >= 2);
  CHECK(asserts.Count() == 0);
}

TEST_CASE("moving a world from its own callback is refused") {
  auto s = MakeScene();
  s->call = [](Scene& scene) {
    World moved(std::move(scene.world));
    CHECK_FALSE(moved.IsValid(moved.AdoptId(scene.boxA)));
    World other;
    other = std::move(scene.world);
    CHECK(other.GetCounters().bodies == 0);
    CHECK(scene.world.IsValid(scene.boxA));
  };
  test::AssertCounter asserts;
  const std::uint64_t hash = HashAfter(*s, kSteps);
  CHECK(asserts.Count() == 2);
  CHECK(hash == ReferenceHash());
}

TEST_CASE("a recording world keeps recording when StopRecording is called from the pre-solve callback") {
  World world;
  REQUIRE(world.StartRecording());
  test::AddGround(world);
  world.CreateShape(test::AddBox(world, {0.0f, 0.52f}), {.enablePreSolveEvents = true}, Circle{});
  struct Context {
    World* world;
    bool stopped = false;
  } context{&world};
  world.SetPreSolveCallback(
      [](ShapeId, ShapeId, const Manifold&, void* ctx) {
        Context& c = *static_cast<Context*>(ctx);
        c.stopped = c.stopped || !mk::StopRecording(*c.world).empty();
        return true;
      },
      &context);
  test::AssertCounter asserts;
  for (int i = 0; i < 3; ++i) world.Step(kDt);
  CHECK(asserts.Count() > 0);
  CHECK_FALSE(context.stopped);
  CHECK(world.IsRecording());
  CHECK_FALSE(mk::StopRecording(world).empty());
}
}  // TEST_SUITE("world.lock")
