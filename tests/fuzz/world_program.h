// SPDX-License-Identifier: MIT
// A world-API program interpreter for fuzzing: bytes become a sequence of World calls (create and
// destroy bodies, shapes, chains and joints, setters, forces, settings, steps, events read while destroying,
// moves of the world) with values drawn from a table of hostile floats (NaN, infinities, denormals,
// 1e30, float max, just past the documented bounds) and ids that are stale, foreign or any bit
// pattern. After every Step the world must be finite (every body we know of has a finite position,
// rotation and velocity) and its snapshot must restore into a fresh world with the same state hash.
// Used by the libFuzzer target (fuzz_world.cpp) and by a seeded property test
// (tests/world/world_fuzz_test.cpp), so a crash the fuzzer finds can become a test case.
#pragma once

#include "minkowski/world.h"
#include "minkowski/world_vector.h"

#include <array>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace mk::fuzz {

/// Reads the input front to back; past the end it yields zeros.
class ByteReader {
 public:
  explicit ByteReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
  bool AtEnd() const { return at_ >= bytes_.size(); }
  std::size_t Offset() const { return at_; }
  std::uint8_t Byte() { return at_ < bytes_.size() ? bytes_[at_++] : 0; }
  std::uint32_t Word() {
    std::uint32_t w = 0;
    for (int i = 0; i < 4; ++i) w = (w << 8) | Byte();
    return w;
  }
  bool Bool() { return (Byte() & 1) != 0; }
  /// 64 filter bits: one bit (any of 64), all, none, or any pattern.
  std::uint64_t Bits() {
    const std::uint8_t how = Byte();
    if (how < 100) return std::uint64_t{1} << (Byte() % 64);
    if (how < 130) return ~std::uint64_t{0};
    if (how < 140) return 0;
    const std::uint64_t high = Word();
    return (high << 32) | Word();
  }

  /// Mostly ordinary values (-10..10 in 1/12.7 steps), else one of the hostile ones.
  float Value() {
    const std::uint8_t pick = Byte();
    if (pick < 160) return static_cast<float>(static_cast<int>(Byte()) - 128) / 12.7f;
    static constexpr float kNasty[] = {0.0f,      -0.0f,     1e-45f, 1e-30f, 1e-6f,  5e-3f,   1e5f,
                                       1.0001e5f, -1e5f,     1e6f,   1e30f,  -1e30f, 3.4e38f, -3.4e38f,
                                       1e4f,      1.0001e4f, 2e6f,   0.5f,   1e-20f, -1e-45f};
    const std::uint8_t which = Byte();
    if (which < 200) return kNasty[which % (sizeof kNasty / sizeof kNasty[0])];
    if (which < 210) return std::numeric_limits<float>::quiet_NaN();
    if (which < 220) return std::numeric_limits<float>::infinity();
    if (which < 230) return -std::numeric_limits<float>::infinity();
    const std::uint32_t bits = Word();
    float raw;
    std::memcpy(&raw, &bits, sizeof raw);
    return raw;
  }
  Vec2 Point() {
    const float x = Value();
    return {x, Value()};
  }
  /// A joint frame: an origin, and half the time a unit rotation of any angle, else raw (mostly
  /// non-unit, sometimes hostile) cosine and sine.
  Transform Frame() {
    const Vec2 p = Point();
    if (Bool()) return {p, MakeRot(Value())};
    const float c = Value();
    return {p, {c, Value()}};
  }
  /// A positive size: mostly 0.05..2.6 m, sometimes hostile.
  float Size() {
    const std::uint8_t pick = Byte();
    return pick < 200 ? 0.05f + static_cast<float>(Byte()) / 100.0f : Value();
  }

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t at_ = 0;
};

/// A DebugDraw that only counts, so Draw runs its whole path.
class CountingDraw final : public DebugDraw {
 public:
  int calls = 0;
  void DrawPolygon(const Vec2*, int, Color) override { ++calls; }
  void DrawSolidPolygon(const Transform&, const Vec2*, int, float, Color) override { ++calls; }
  void DrawCircle(Vec2, float, Color) override { ++calls; }
  void DrawSolidCircle(const Transform&, float, Color) override { ++calls; }
  void DrawSolidCapsule(Vec2, Vec2, float, Color) override { ++calls; }
  void DrawSegment(Vec2, Vec2, Color) override { ++calls; }
  void DrawTransform(const Transform&, float) override { ++calls; }
  void DrawPoint(Vec2, float, Color) override { ++calls; }
  void DrawString(Vec2, const char*, Color) override { ++calls; }
};

/// Runs one program. Returns nullptr when every check held, else what failed.
class WorldProgram {
 public:
  static constexpr int kMaxOps = 400;
  static constexpr int kMaxBodies = 48;

  /// When set, every operation is printed (index, opcode, bytes read so far) and the world is
  /// checked after each one, not only after Steps: the way to find which call broke a failing input.
  std::FILE* trace = nullptr;

  /// When set, the world records the whole program (World::StartRecording) and every Step call on it
  /// appends the state hash after it and whether it stepped; the recording is left in `recording`.
  struct StepLog {
    std::vector<std::uint64_t> hashes;
    std::vector<bool> stepped;
    std::vector<std::byte> recording;
  };
  StepLog* log = nullptr;

  /// The pre-solve decision of the program (a replay installs the same to reproduce it): about a
  /// third of the contacts, varying with the number of steps taken before.
  static bool Disables(ShapeId a, ShapeId b, int stepsBefore) {
    return (a.index1 + b.index1 + static_cast<std::uint32_t>(stepsBefore)) % 3 == 0;
  }

  const char* Run(std::span<const std::uint8_t> bytes) {
    ByteReader in(bytes);
    if (log != nullptr) world_.StartRecording();
    AddGround();
    for (int op = 0; op < kMaxOps && !in.AtEnd(); ++op) {
      const char* failure = Execute(in, op);
      if (failure == nullptr && trace != nullptr) failure = CheckFinite();
      if (failure) return failure;
    }
    StepWorld(1.0f / 60.0f);
    if (log != nullptr) log->recording = mk::StopRecording(world_);
    return CheckFinite();
  }

  int Steps() const { return steps_; }

 private:
  void AddGround() {
    BodyId ground = world_.CreateBody({.position = {0.0f, -1.0f}});
    shapes_.push_back(world_.CreateShape(ground, {}, MakeBox(50.0f, 1.0f).value));
    bodies_.push_back(ground);
    foreign_ = other_.CreateBody({.type = BodyType::Dynamic});
    world_.SetPreSolveCallback(&PreSolve, this);
  }

  // The same pre-solve decisions through either form of World::SetPreSolveCallback: the callable must
  // be handed this program's world, wherever MoveWorld has moved it.
  void SetPreSolveForm(bool callable) {
    if (!callable) return world_.SetPreSolveCallback(&PreSolve, this);
    world_.SetPreSolveCallback([this](const World& w, ShapeId a, ShapeId b, const Manifold& m) {
      if (&w != &world_) badManifold_ = true;
      return PreSolve(a, b, m, this);
    });
  }

  // Disables about a third of the contacts it is shown (shapes with enablePreSolveEvents), varying by
  // step; every manifold it is shown must have points, finite values and a unit normal.
  static bool PreSolve(ShapeId a, ShapeId b, const Manifold& m, void* context) {
    WorldProgram& program = *static_cast<WorldProgram*>(context);
    const bool finite =
        IsFinite(m.normal) && std::isfinite(m.points[0].separation) && IsFinite(m.points[0].point);
    if (m.pointCount < 1 || m.pointCount > 2 || !finite || std::fabs(Length(m.normal) - 1.0f) > 1e-3f)
      program.badManifold_ = true;
    return !Disables(a, b, program.steps_);
  }

  // An id to act on: mostly one we made (live or stale), sometimes another world's or any bits.
  template <class Id>
  Id Pick(ByteReader& in, const std::vector<Id>& made) {
    const std::uint8_t how = in.Byte();
    if (how < 220 && !made.empty()) return made[in.Byte() % made.size()];
    if (how < 235) return Id{foreign_.index1, foreign_.generation, foreign_.world};
    return Id{in.Word(), in.Word(), in.Bool() ? BodyWorldTag() : in.Word()};
  }
  std::uint32_t BodyWorldTag() const { return bodies_.front().world; }

  // Checks every body we know of that is still live; the world must never hold a non-finite value.
  const char* CheckFinite() const {
    if (badManifold_) return "pre-solve callback shown a bad manifold";
    for (BodyId b : bodies_) {
      if (!world_.IsValid(b)) continue;
      if (!IsFinite(world_.GetPosition(b)) || !std::isfinite(world_.GetAngle(b)))
        return "non-finite position";
      if (!IsFinite(world_.GetLinearVelocity(b)) || !std::isfinite(world_.GetAngularVelocity(b))) {
        return "non-finite velocity";
      }
      if (!IsFinite(world_.GetWorldCenterOfMass(b)) || !std::isfinite(world_.GetMass(b)))
        return "non-finite mass";
    }
    return nullptr;
  }

  const char* Execute(ByteReader& in, int op) {
    const int code = in.Byte() % 24;
    if (trace != nullptr) std::fprintf(trace, "op %d: code %d at byte %zu\n", op, code, in.Offset());
    switch (code) {
      case 0:
        CreateBody(in);
        break;
      case 1:
        world_.DestroyBody(Pick(in, bodies_));
        break;
      case 2:
        CreateShape(in);
        break;
      case 3:
        world_.DestroyShape(Pick(in, shapes_));
        break;
      case 4:
        CreateJoint(in);
        break;
      case 5:
        world_.DestroyJoint(Pick(in, joints_));
        break;
      case 6:
        world_.SetTransform(Pick(in, bodies_), in.Point(), in.Value());
        break;
      case 7:
        world_.SetLinearVelocity(Pick(in, bodies_), in.Point());
        break;
      case 8:
        world_.SetAngularVelocity(Pick(in, bodies_), in.Value());
        break;
      case 9:
        world_.ApplyForce(Pick(in, bodies_), in.Point(), in.Point(), in.Bool());
        break;
      case 10:
        world_.ApplyTorque(Pick(in, bodies_), in.Value(), in.Bool());
        break;
      case 11:
        world_.ApplyLinearImpulse(Pick(in, bodies_), in.Point(), in.Point(), in.Bool());
        break;
      case 12:
        world_.ApplyAngularImpulse(Pick(in, bodies_), in.Value(), in.Bool());
        break;
      case 13:
        SetShapeProperty(in);
        break;
      case 14:
        SetBodyProperty(in);
        break;
      case 15:
        SetJointProperty(in);
        break;
      case 16:
        SetSettings(in);
        break;
      case 17:
        world_.SetGravity(in.Bool() ? in.Point() : Vec2{0.0f, -10.0f});
        break;
      case 18:
      case 19:
      case 20:
        return StepAndCheck(in);
      case 21:
        return DestroyWhileReadingEvents(in);
      case 22:
        Query(in);
        return in.Bool() ? Movers(in) : nullptr;
      default:
        MoveWorld(in);
        break;
    }
    return nullptr;
  }

  void CreateBody(ByteReader& in) {
    if (static_cast<int>(bodies_.size()) >= kMaxBodies) return;
    BodyDef def;
    def.type = static_cast<BodyType>(in.Byte() % 4);  // 3 is not a type: must be refused
    if (in.Byte() < 200) def.type = BodyType::Dynamic;
    def.position = in.Point();
    def.angle = in.Value();
    def.linearVelocity = in.Point();
    def.angularVelocity = in.Value();
    if (in.Bool()) def.linearDamping = in.Value();
    if (in.Bool()) def.angularDamping = in.Value();
    if (in.Bool()) def.gravityScale = in.Value();
    def.fixedRotation = in.Byte() < 20;
    def.isAwake = in.Byte() > 20;
    def.isEnabled = in.Byte() > 10;
    // What only a replay file set before (fuzz_replay decodes whole definitions).
    if (in.Bool()) def.sleepThreshold = in.Value();
    def.enableSleep = in.Byte() > 20;
    def.isBullet = in.Byte() < 20;
    if (in.Byte() < 30) {  // motion locks, any combination
      const std::uint8_t bits = in.Byte();
      def.motionLocks = {(bits & 1) != 0, (bits & 2) != 0, (bits & 4) != 0};
    }
    bodies_.push_back(world_.CreateBody(def));
  }

  ShapeDef MakeShapeDef(ByteReader& in) {
    ShapeDef def;
    if (in.Bool()) def.density = in.Value();
    if (in.Bool()) def.friction = in.Value();
    if (in.Bool()) def.restitution = in.Value();
    def.isSensor = in.Byte() < 20;
    def.enableHitEvents = in.Bool();
    def.enablePreSolveEvents = in.Byte() < 80;
    def.enableContactEvents = in.Byte() > 20;
    def.enableSensorEvents = in.Byte() > 20;
    if (in.Byte() < 40) def.filter = {in.Bits(), in.Bits(), static_cast<std::int32_t>(in.Word() % 5) - 2};
    if (in.Byte() < 60) {  // a hostile surface: rolling resistance and a belt (NaN, huge, negative)
      def.rollingResistance = in.Value();
      def.tangentSpeed = in.Value();
      def.userMaterialId = in.Word();
      def.enableCustomFiltering = in.Bool();
    }
    return def;
  }

  void CreateShape(ByteReader& in) {
    const BodyId body = Pick(in, bodies_);
    const ShapeDef def = MakeShapeDef(in);
    // The geometry's values are read first, then whether to make it heavy (Weigh).
    auto create = [&](const auto& geometry) {
      shapes_.push_back(world_.CreateShape(body, Weigh(in, def, geometry), geometry));
    };
    switch (in.Byte() % 6) {
      case 0:
        create(Circle{in.Point(), in.Size()});
        break;
      case 1:
        create(Capsule{in.Point(), in.Point(), in.Size()});
        break;
      case 2:
        create(Segment{in.Point(), in.Point()});
        break;
      case 3: {  // through the checked constructor
        Vec2 points[8];
        const int count = 3 + in.Byte() % 6;
        for (int i = 0; i < count; ++i) points[i] = in.Point();
        GeometryResult<Polygon> polygon =
            MakePolygon(std::span<const Vec2>(points, count), in.Bool() ? in.Size() : 0.0f);
        create(polygon.ok() ? polygon.value : MakeBox(in.Size(), in.Size()).value);
        break;
      }
      case 4:
        CreateOrDestroyChain(in, body, def);
        break;
      default: {  // hand-built, as a careless caller would
        Polygon polygon = MakeBox(in.Size(), in.Size()).value;
        const int edit = in.Byte() % 6;
        if (edit == 0) polygon.vertices[in.Byte() % 4] = in.Point();
        if (edit == 1) polygon.normals[in.Byte() % 4] = in.Point();
        if (edit == 2) polygon.centroid = in.Point();
        if (edit == 3) polygon.count = static_cast<int>(in.Byte() % 70);
        if (edit == 4) polygon.radius = in.Value();
        create(polygon);
        break;
      }
    }
  }

  // Sometimes a density that puts this shape's own mass or rotational inertia just under or just past
  // its bound (kMaxBodyMass, kMaxBodyInertia), or at a tiny fraction of it (a body 1e27 times
  // lighter): the extremes the world accepts, which a density from the table of values almost never
  // gives for the shape at hand. fuzz_replay reached them by mutating a density or a radius and found
  // joints that went non-finite on a heavy body, and on a jointed body whose mass dropped.
  template <class Geometry>
  ShapeDef Weigh(ByteReader& in, ShapeDef def, const Geometry& geometry) {
    if (in.Byte() >= 32) return def;
    static constexpr float kFractions[] = {1e-27f, 1e-6f, 0.01f, 0.3f, 0.99f, 1.01f};
    const float fraction = kFractions[in.Byte() % 6];
    const MassData unit = ComputeMass(geometry, 1.0f).value;
    const bool byInertia = in.Bool();
    const float perDensity = byInertia ? unit.rotationalInertia : unit.mass;
    const float bound = byInertia ? kMaxBodyInertia : kMaxBodyMass;
    if (perDensity > 0.0f && std::isfinite(perDensity)) def.density = fraction * bound / perDensity;
    return def;
  }

  // A chain segment with hostile points: NaN, huge, p2 a tiny or huge step from p1, a ghost on its
  // end point (refused) or a denormal step from it (accepted: its edge's direction is then zero).
  static ChainSegment HostileChainSegment(ByteReader& in) {
    const Vec2 p1 = in.Point();
    const Vec2 p2 = in.Bool() ? in.Point() : p1 + Vec2{in.Value(), in.Value()};
    const auto ghost = [&in](Vec2 end) {
      switch (in.Byte() % 3) {
        case 0:
          return in.Point();
        case 1:
          return end + Vec2{in.Value(), in.Value()};
        default:
          return end;
      }
    };
    const Vec2 ghost1 = ghost(p1);
    return {ghost1, {p1, p2}, ghost(p2)};
  }

  // A chain of hostile points (open or loop), or the destruction of one we made (or of a stale,
  // foreign or made-up id); its segments join the shapes the program acts on (DestroyShape on one
  // must be refused).
  void CreateOrDestroyChain(ByteReader& in, BodyId body, const ShapeDef& def) {
    const std::uint8_t how = in.Byte();
    if (how < 64) {
      world_.DestroyChain(Pick(in, chains_));
      return;
    }
    if (how < 112) {  // a standalone chain segment (any def, sensors too): DestroyShape may remove it
      const ChainSegment segment = HostileChainSegment(in);
      shapes_.push_back(CreateChainSegmentShape(world_, body, def, segment));
      return;
    }
    Vec2 points[8];
    const int count = in.Byte() % 9;
    for (int i = 0; i < count; ++i) points[i] = in.Point();
    ChainDef chain{.points = std::span<const Vec2>(points, count), .isLoop = in.Bool()};
    // Per-segment materials: a hostile count (0..8, often not the segment count) of hostile values.
    SurfaceMaterial materials[8];
    const int materialCount = in.Byte() % 9;
    for (int i = 0; i < materialCount; ++i)
      materials[i] = {in.Value(), in.Value(), in.Value(), in.Value(), in.Word(), in.Word()};
    chain.materials = std::span<const SurfaceMaterial>(materials, materialCount);
    chain.friction = def.friction;
    chain.restitution = def.restitution;
    chain.filter = def.filter;
    chain.enableSensorEvents = def.enableSensorEvents;
    const ChainId id = world_.CreateChain(body, chain);
    chains_.push_back(id);
    if (world_.IsValid(id)) {
      for (ShapeId s : mk::GetChainSegments(world_, id)) shapes_.push_back(s);
    }
  }

  JointBase MakeBase(ByteReader& in) {
    JointBase base;
    base.bodyA = Pick(in, bodies_);
    base.bodyB = Pick(in, bodies_);
    base.localAnchorA = in.Point();
    base.localAnchorB = in.Point();
    base.collideConnected = in.Bool();
    if (in.Bool()) base.constraintHertz = in.Value();
    if (in.Bool()) base.constraintDampingRatio = in.Value();
    if (in.Bool()) base.forceThreshold = in.Value(), base.torqueThreshold = in.Value();
    base.destroyOnBreak = in.Bool();
    return base;
  }

  // Half the time, the def's anchors, axis and angles come from two local frames (SetLocalFrames
  // refuses hostile ones and leaves the def as it was); a hostile frame angle now and then.
  template <class Def>
  static void MaybeFrames(ByteReader& in, Def& def) {
    if (!in.Bool()) return;
    const Transform frameA = in.Frame();
    (void)SetLocalFrames(def, frameA, in.Frame());
    if constexpr (requires { def.frameAngleA; }) {
      if (in.Byte() < 16) def.frameAngleA = in.Value();
    }
  }

  void CreateJoint(ByteReader& in) {
    const int type = in.Byte() % 8;
    const JointBase base = MakeBase(in);
    JointId id;
    if (type == 0) {
      RevoluteJointDef d{base};
      d.referenceAngle = in.Value(), d.enableLimit = in.Bool(), d.lowerAngle = in.Value(),
      d.upperAngle = in.Value();
      d.enableMotor = in.Bool(), d.motorSpeed = in.Value(), d.maxMotorTorque = in.Value();
      d.enableSpring = in.Bool(), d.hertz = in.Value(), d.dampingRatio = in.Value();
      MaybeFrames(in, d);
      id = world_.CreateJoint(d);
    } else if (type == 1) {
      PrismaticJointDef d{base};
      d.localAxisA = in.Point(), d.referenceAngle = in.Value();
      d.enableLimit = in.Bool(), d.lowerTranslation = in.Value(), d.upperTranslation = in.Value();
      d.enableMotor = in.Bool(), d.motorSpeed = in.Value(), d.maxMotorForce = in.Value();
      d.enableSpring = in.Bool(), d.hertz = in.Value(), d.dampingRatio = in.Value();
      MaybeFrames(in, d);
      id = world_.CreateJoint(d);
    } else if (type == 2) {
      DistanceJointDef d{base};
      d.length = in.Value(), d.enableLimit = in.Bool(), d.minLength = in.Value(), d.maxLength = in.Value();
      d.enableSpring = in.Bool(), d.hertz = in.Value(), d.dampingRatio = in.Value();
      if (in.Bool()) d.lowerSpringForce = in.Value(), d.upperSpringForce = in.Value();
      d.enableMotor = in.Bool(), d.motorSpeed = in.Value(), d.maxMotorForce = in.Value();
      MaybeFrames(in, d);
      id = world_.CreateJoint(d);
    } else if (type == 6) {
      MotorJointDef d{base};
      d.linearOffset = in.Point(), d.angularOffset = in.Value(), d.maxForce = in.Value();
      d.maxTorque = in.Value(), d.correctionFactor = in.Value();
      MaybeFrames(in, d);
      id = world_.CreateJoint(d);
    } else if (type == 7) {
      FilterJointDef d{base};
      MaybeFrames(in, d);
      id = world_.CreateJoint(d);
    } else if (type == 3) {
      WeldJointDef d{base};
      d.referenceAngle = in.Value(), d.linearHertz = in.Value(), d.angularHertz = in.Value();
      d.linearDampingRatio = in.Value(), d.angularDampingRatio = in.Value();
      MaybeFrames(in, d);
      id = world_.CreateJoint(d);
    } else if (type == 4) {
      WheelJointDef d{base};
      d.localAxisA = in.Point(), d.enableSpring = in.Bool(), d.hertz = in.Value(),
      d.dampingRatio = in.Value();
      d.enableLimit = in.Bool(), d.lowerTranslation = in.Value(), d.upperTranslation = in.Value();
      d.enableMotor = in.Bool(), d.motorSpeed = in.Value(), d.maxMotorTorque = in.Value();
      MaybeFrames(in, d);
      id = world_.CreateJoint(d);
    } else {
      MouseJointDef d;
      d.body = base.bodyB, d.target = in.Point(), d.hertz = in.Value(), d.dampingRatio = in.Value();
      d.maxForce = in.Value();
      id = world_.CreateJoint(d);
    }
    joints_.push_back(id);
  }

  void SetShapeProperty(ByteReader& in) {
    const ShapeId shape = Pick(in, shapes_);
    switch (in.Byte() % 10) {
      case 9:
        ModifyGeometry(in, shape);
        break;
      case 5:
        world_.EnablePreSolveEvents(shape, in.Bool());
        if (in.Byte() < 40) SetPreSolveForm(in.Bool());
        break;
      case 6:
        world_.SetMaterial(shape, {in.Value(), in.Value(), in.Value(), in.Value(), in.Word(), in.Word()});
        break;
      case 7:  // mixing callbacks that answer NaN, out of range or fine, or none
        switch (in.Byte() % 4) {
          case 0:
            world_.SetFrictionCallback(
                [](float, std::uint64_t, float, std::uint64_t) { return std::nanf(""); });
            break;
          case 1:
            world_.SetRestitutionCallback(
                [](float a, std::uint64_t, float b, std::uint64_t) { return a + b; });
            break;
          case 2:
            world_.SetFrictionCallback(nullptr), world_.SetRestitutionCallback(nullptr);
            break;
          default:
            world_.SetFrictionCallback([](float a, std::uint64_t, float, std::uint64_t) { return a; });
            break;
        }
        break;
      case 8:  // a custom filter refusing pairs of odd slots, or none
        if (in.Bool()) {
          world_.SetCustomFilterCallback(
              [](ShapeId a, ShapeId b, void*) { return (a.index1 & 1) == 0 && (b.index1 & 1) == 0; },
              nullptr);
        } else {
          world_.SetCustomFilterCallback(nullptr, nullptr);
        }
        break;
      case 0:
        world_.SetDensity(shape, in.Value());
        break;
      case 1:
        world_.SetFriction(shape, in.Value());
        break;
      case 2:
        world_.SetRestitution(shape, in.Value());
        break;
      case 3:
        world_.SetFilter(shape, {in.Bits(), in.Bits(), static_cast<std::int32_t>(in.Word() % 5) - 2});
        break;
      default:
        world_.TestPoint(shape, in.Point());
        break;
    }
  }

  // The geometry setters with hostile geometry (NaN, huge, degenerate, hand-broken polygons), on any
  // shape (a chain's segments must be refused, standalone ones not), with a type change or not; then the
  // typed getters, which must refuse a shape of another type.
  void ModifyGeometry(ByteReader& in, ShapeId shape) {
    switch (in.Byte() % 6) {
      case 0:
        SetCircle(world_, shape, Circle{in.Point(), in.Size()});
        break;
      case 1:
        SetCapsule(world_, shape, Capsule{in.Point(), in.Point(), in.Size()});
        break;
      case 2:
        SetSegment(world_, shape, Segment{in.Point(), in.Point()});
        break;
      case 3: {  // through the checked constructor, sometimes far from the body or huge
        Vec2 points[8];
        const int count = 3 + in.Byte() % 6;
        for (int i = 0; i < count; ++i) points[i] = in.Point();
        const GeometryResult<Polygon> polygon = MakePolygon(std::span<const Vec2>(points, count));
        SetPolygon(world_, shape, polygon.ok() ? polygon.value : MakeBox(in.Size(), in.Size()).value);
        break;
      }
      case 4:  // any shape becomes a standalone chain segment, or one moves (a chain's: refused)
        SetChainSegment(world_, shape, HostileChainSegment(in));
        break;
      default: {  // hand-built, as a careless caller would
        Polygon polygon = MakeRegularPolygon(3 + in.Byte() % 14, in.Size()).value;
        const int edit = in.Byte() % 5;
        if (edit == 0) polygon.vertices[in.Byte() % 3] = in.Point();
        if (edit == 1) polygon.centroid = in.Point();
        if (edit == 2) polygon.count = static_cast<int>(in.Byte() % 70);
        if (edit == 3) polygon.radius = in.Value();
        SetPolygon(world_, shape, polygon);
        break;
      }
    }
    (void)GetCircle(world_, shape), (void)GetCapsule(world_, shape), (void)GetSegment(world_, shape);
    (void)GetPolygon(world_, shape), (void)GetChainSegment(world_, shape);
  }

  void SetBodyProperty(ByteReader& in) {
    const BodyId body = Pick(in, bodies_);
    switch (in.Byte() % 16) {
      case 8:
      case 9:
      case 10:
      case 11:
      case 12:
      case 13:
      case 14:
      case 15:
        SetBodyFeature(in, body);
        break;
      case 6:
        world_.SetBullet(body, in.Bool());
        (void)world_.IsBullet(body);
        break;
      case 0:
        world_.SetEnabled(body, in.Bool());
        break;
      case 1:
        world_.SetAwake(body, in.Bool());
        break;
      case 2:
        world_.SetFixedRotation(body, in.Bool());
        break;
      case 3:
        world_.SetGravityScale(body, in.Value());
        break;
      case 4:
        world_.SetLinearDamping(body, in.Value());
        break;
      case 5:
        world_.SetAngularDamping(body, in.Value());
        break;
      default:
        world_.SetSleepEnabled(body, in.Bool());
        break;
    }
  }

  // The body features (body_features.cpp) with hostile values: the world refuses what it must and
  // stays finite.
  void SetBodyFeature(ByteReader& in, BodyId body) {
    switch (in.Byte() % 10) {
      case 0: {
        const std::uint8_t bits = in.Byte();
        world_.SetMotionLocks(body, {(bits & 1) != 0, (bits & 2) != 0, (bits & 4) != 0});
        (void)world_.GetMotionLocks(body);
        break;
      }
      case 1:
        world_.SetType(body, static_cast<BodyType>(in.Byte() % 4));  // 3 is not a type: refused
        break;
      case 2: {
        const float mass = in.Value();
        const Vec2 center = in.Point();
        world_.SetMassData(body, {mass, center, in.Value()});
        (void)world_.GetMassData(body);
        break;
      }
      case 3:
        world_.ApplyMassFromShapes(body);
        break;
      case 4: {
        const Vec2 p = in.Point();
        const Transform target =
            in.Bool() ? MakeTransform(p, in.Value()) : Transform{p, {in.Value(), in.Value()}};
        world_.SetTargetTransform(body, target, in.Bool() ? 1.0f / 60.0f : in.Value());
        break;
      }
      case 5:
        world_.SetSleepThreshold(body, in.Value());
        (void)world_.GetSleepThreshold(body);
        (void)world_.IsSleepEnabled(body);
        break;
      case 6:
        world_.WakeTouching(body);
        break;
      case 7: {
        char name[48] = {};
        const int length = in.Byte() % 47;
        for (int i = 0; i < length; ++i) name[i] = static_cast<char>(in.Byte());
        world_.SetName(body, in.Byte() < 20 ? nullptr : name);
        (void)world_.GetName(body);
        break;
      }
      case 8: {
        std::array<ShapeId, 4> shapes{};
        std::array<JointId, 4> joints{};
        const std::size_t n = in.Byte() % 5;
        (void)world_.GetShapes(body, std::span<ShapeId>(shapes.data(), n));
        (void)world_.GetJoints(body, std::span<JointId>(joints.data(), n));
        (void)(world_.GetShapeCount(body) + world_.GetJointCount(body));
        break;
      }
      default: {
        const Vec2 p = in.Point();
        (void)world_.GetLocalPoint(body, p), (void)world_.GetWorldPoint(body, p);
        (void)world_.GetLocalVector(body, p), (void)world_.GetWorldVector(body, p);
        (void)world_.GetLocalPointVelocity(body, p), (void)world_.GetWorldPointVelocity(body, p);
        break;
      }
    }
  }

  void SetJointProperty(ByteReader& in) {
    const JointId joint = Pick(in, joints_);
    switch (in.Byte() % 26) {
      case 0:
        world_.SetMotorSpeed(joint, in.Value());
        break;
      case 1:
        world_.SetMouseTarget(joint, in.Point());
        break;
      case 2:
        SetJointCollideConnected(world_, joint, in.Bool());
        break;
      case 3:
        WakeJointBodies(world_, joint);
        break;
      case 4:
        SetJointConstraintTuning(world_, joint, in.Value(), in.Value());
        break;
      case 5:
        SetJointForceThreshold(world_, joint, in.Value());
        break;
      case 6:
        SetJointTorqueThreshold(world_, joint, in.Value());
        break;
      case 7:
        SetJointDestroyOnBreak(world_, joint, in.Bool());
        break;
      case 8:
        EnableJointLimit(world_, joint, in.Bool());
        break;
      case 9:
        SetJointLimits(world_, joint, in.Value(), in.Value());
        break;
      case 10:
        EnableJointMotor(world_, joint, in.Bool());
        break;
      case 11:
        SetJointMaxMotorForce(world_, joint, in.Value());
        break;
      case 12:
        EnableJointSpring(world_, joint, in.Bool());
        break;
      case 13:
        SetJointSpringHertz(world_, joint, in.Value());
        break;
      case 14:
        SetJointSpringDampingRatio(world_, joint, in.Value());
        break;
      case 15:
        SetDistanceLength(world_, joint, in.Value());
        break;
      case 16:
        SetDistanceSpringForceRange(world_, joint, in.Value(), in.Value());
        break;
      case 17:
        SetWeldAngularHertz(world_, joint, in.Value());
        break;
      case 18:
        SetWeldAngularDampingRatio(world_, joint, in.Value());
        break;
      case 19:
        SetMotorLinearOffset(world_, joint, in.Point());
        break;
      case 20:
        SetMotorAngularOffset(world_, joint, in.Value());
        break;
      case 21:
        SetMotorMaxForce(world_, joint, in.Value());
        break;
      case 22:
        SetMotorMaxTorque(world_, joint, in.Value());
        break;
      case 23:
        SetMotorCorrectionFactor(world_, joint, in.Value());
        break;
      case 24:
        SetJointLocalFrameA(world_, joint, in.Frame());
        break;
      default:
        SetJointLocalFrameB(world_, joint, in.Frame());
        break;
    }
    (void)GetJointLocalFrameA(world_, joint), (void)GetJointLocalFrameB(world_, joint);
    (void)world_.GetJointReactionForce(joint);
    (void)GetJointMotorForce(world_, joint);
    (void)GetJointBodyA(world_, joint);
  }

  void SetSettings(ByteReader& in) {
    SolverSettings s = world_.GetSolverSettings();
    switch (in.Byte() % 20) {
      case 0:
        s.mode = in.Bool() ? SolverMode::Classic : SolverMode::SoftStep;
        break;
      case 1:
        s.subSteps = static_cast<int>(in.Word() % 80) - 4;
        break;
      case 2:
        s.contactHertz = in.Value();
        break;
      case 3:
        s.contactDampingRatio = in.Value();
        break;
      case 4:
        s.contactPushMaxSpeed = in.Value();
        break;
      case 5:
        s.jointHertz = in.Value();
        break;
      case 6:
        s.maxLinearSpeed = in.Value();
        break;
      case 7:
        s.linearSlop = in.Value();
        break;
      case 8:
        s.enableWarmStarting = in.Bool(), s.enableRelax = in.Bool(), s.enableSleep = in.Bool();
        break;
      case 9:
        s.staticContactScale = in.Value();
        break;
      case 10:
        s.jointDampingRatio = in.Value();
        break;
      case 11:
        s.restitutionThreshold = in.Value();
        break;
      case 12:
        s.hitEventThreshold = in.Value();
        break;
      case 13:
        s.speculativeDistance = in.Value();
        break;
      case 14:
        s.aabbMargin = in.Value();
        break;
      case 15:
        s.timeToSleep = in.Value();
        break;
      case 16:
        s.enableRestitution = in.Bool(), s.enableContinuous = in.Bool(), s.enableContactRecycling = in.Bool();
        break;
      default:
        s.classicIterations = static_cast<int>(in.Byte()), s.classicBaumgarte = in.Value();
        break;
    }
    world_.SetSolverSettings(s);
  }

  const char* StepAndCheck(ByteReader& in) {
    const std::uint8_t pick = in.Byte();
    const float dt = pick < 230 ? 1.0f / 60.0f : pick < 240 ? 1.0f / 30.0f : in.Value();
    if (StepWorld(dt)) ++steps_;
    if (const char* failure = CheckFinite()) return failure;
    return CheckSnapshotRestores();
  }

  // Whatever a stepping world holds, its snapshot restores (issue 28: a small body deep inside a large
  // one kept a recycling origin the loader refused), into a fresh world with the same state.
  const char* CheckSnapshotRestores() {
    mk::SaveSnapshot(world_, snapshot_);
    World fresh;
    const SnapshotResult result = fresh.RestoreSnapshot(snapshot_);
    if (!result.ok()) {
      refusal_ = std::string("a stepped world's snapshot was refused: ") + result.detail;
      return refusal_.c_str();
    }
    return fresh.StateHash() == world_.StateHash() ? nullptr : "a restored snapshot has another state hash";
  }

  bool StepWorld(float dt) {
    const bool stepped = world_.Step(dt);
    if (log != nullptr) log->hashes.push_back(world_.StateHash()), log->stepped.push_back(stepped);
    return stepped;
  }

  // Destroys bodies while iterating the last Step's events (the span must stay valid and unchanged).
  const char* DestroyWhileReadingEvents(ByteReader& in) {
    const std::span<const ContactEndEvent> ends = world_.GetContactEndEvents();
    const std::size_t count = ends.size();
    for (const ContactEndEvent& e : ends) {
      if (in.Bool()) world_.DestroyBody(world_.GetBody(e.shapeB));
    }
    for (const ContactBeginEvent& e : world_.GetContactBeginEvents()) {
      if (contacts_.size() < 64) contacts_.push_back(e.contact);
      if (in.Bool()) world_.DestroyShape(e.shapeA);
    }
    // Contact ids from events, live, stale, foreign or any bits: quiet answers, empty when stale.
    for (int i = in.Byte() % 4; i > 0; --i) {
      const ContactId id = Pick(in, contacts_);
      const ContactData data = world_.GetContactData(id);
      if (!world_.IsValid(id) && (data.manifold.pointCount != 0 || !data.shapeA.IsNull()))
        return "a stale contact id gave contact data";
      if (world_.IsValid(id) && (!(data.contact == id) || !world_.IsValid(data.shapeA)))
        return "a live contact id gave data of no live contact";
      (void)world_.GetUserData(Pick(in, shapes_)), (void)world_.GetUserData(Pick(in, bodies_));
      (void)world_.GetUserData(Pick(in, joints_));
    }
    return world_.GetContactEndEvents().size() == count ? nullptr : "destroying changed the published events";
  }

  void Query(ByteReader& in) {
    const Vec2 a = in.Point(), b = in.Point();
    const AABB box{Min(a, b), Max(a, b)};
    int visited = 0;
    world_.QueryAABB(box, [&](ShapeId) { return ++visited < 100; });
    CountingDraw draw;
    world_.Draw(draw, {.aabbs = in.Bool(), .contactPoints = in.Bool(), .joints = in.Bool()});
    ContactData contacts[4];
    (void)world_.GetBodyContactCapacity(Pick(in, bodies_));
    (void)world_.GetBodyContactData(Pick(in, bodies_), std::span<ContactData>(contacts, in.Byte() % 5));
    ShapeId overlaps[4];
    (void)world_.GetSensorCapacity(Pick(in, shapes_));
    (void)world_.GetSensorOverlaps(Pick(in, shapes_), std::span<ShapeId>(overlaps, in.Byte() % 5));
    if (in.Bool()) {
      ExplosionDef def;
      def.position = in.Point();
      def.radius = in.Value();
      def.falloff = in.Value();
      def.impulsePerLength = in.Value();
      def.maskBits = in.Bits();
      world_.Explode(def);
    }
    if (in.Bool()) {  // world queries with 64-bit filter bits and a hostile excludeBody
      const QueryFilter filter{in.Bits(), in.Bits(), Pick(in, bodies_)};
      world_.OverlapAABB(box, filter, [&](ShapeId s) { return world_.IsValid(s); });
      (void)world_.CastRayClosest(a, b - a, filter);
    }
  }

  // The character mover calls with hostile capsules, translations, spans and planes: refused or
  // answered, never a NaN, a fraction outside [0, 1] or a plane that is not unit and finite.
  const char* Movers(ByteReader& in) {
    const Vec2 p = in.Point();
    const Capsule mover{p, in.Bool() ? p : in.Point(), in.Bool() ? in.Value() : 0.3f};
    const QueryFilter filter{in.Bool() ? in.Bits() : 1u, in.Bool() ? in.Bits() : kAllFilterBits,
                             in.Bool() ? Pick(in, bodies_) : BodyId{}};
    PlaneResult found[6];
    const int count = world_.CollideMover(mover, filter, std::span<PlaneResult>(found, in.Byte() % 7));
    CollisionPlane planes[8];
    for (int i = 0; i < count; ++i) {
      const Plane& plane = found[i].plane;
      if (!IsFinite(plane.normal) || !std::isfinite(plane.offset) ||
          std::fabs(Length(plane.normal) - 1.0f) > 1e-3f)
        return "CollideMover gave a bad plane";
      planes[i] = {.plane = plane, .pushLimit = in.Bool() ? in.Value() : FLT_MAX, .clipVelocity = in.Bool()};
    }
    int n = count;
    if (in.Bool() && n < 8) planes[n++] = {.plane = {in.Point(), in.Value()}, .pushLimit = in.Value()};
    const float fraction = world_.CastMover(mover, in.Point(), filter);
    if (!(fraction >= 0.0f && fraction <= 1.0f)) return "CastMover gave a fraction outside [0, 1]";
    const Vec2 target = in.Point();
    const PlaneSolverResult solved = SolvePlanes(target, std::span<CollisionPlane>(planes, n));
    if (IsFinite(target) && Length(target) < 1e6f && !IsFinite(solved.delta)) return "SolvePlanes gave a NaN";
    const Vec2 v = in.Point();
    if (IsFinite(v) && Length(v) < 1e6f &&
        !IsFinite(ClipVector(v, std::span<const CollisionPlane>(planes, n))))
      return "ClipVector gave a NaN";
    return nullptr;
  }

  // Moves the world out and back, or leaves a moved-from world behind and works on.
  void MoveWorld(ByteReader& in) {
    World moved(std::move(world_));
    if (in.Bool()) {
      world_ = std::move(moved);
    } else {
      world_.Step(1.0f / 60.0f);  // the moved-from world is a new empty one
      world_ = std::move(moved);
    }
  }

  World world_;
  World other_;
  BodyId foreign_;
  std::vector<BodyId> bodies_;
  std::vector<ShapeId> shapes_;
  std::vector<JointId> joints_;
  std::vector<ChainId> chains_;
  std::vector<ContactId> contacts_;  // from begin events, live or stale
  int steps_ = 0;
  bool badManifold_ = false;
  std::vector<std::byte> snapshot_;  // reused by CheckSnapshotRestores
  std::string refusal_;              // what CheckSnapshotRestores reported
};

}  // namespace mk::fuzz
