// SPDX-License-Identifier: MIT
// Internal: the replay file's encoding (minkowski/replay.h describes the format). One description per
// definition (Fields) serves both the writer (recording, World API entries) and the reader (loading
// and playing), so the two cannot drift apart.
#pragma once

#include "minkowski/replay.h"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

namespace mk {

/// A body's name as the world keeps it (World::SetName): at most kMaxBodyNameLength characters and
/// a terminating zero; a plain array, so snapshots copy it as bytes.
struct BodyName {
  char text[kMaxBodyNameLength + 1] = {};
  static BodyName Of(const char* name) {
    BodyName n;
    for (int i = 0; name != nullptr && i < kMaxBodyNameLength && name[i] != '\0'; ++i) n.text[i] = name[i];
    return n;
  }
};

/// The record kinds. Values are the file's opcodes: append new ones, never renumber.
enum class ReplayOp : std::uint8_t {
  Step = 1,
  SetGravity,
  SetSolverSettings,
  CreateBody,
  DestroyBody,
  SetTransform,
  SetLinearVelocity,
  SetAngularVelocity,
  ApplyForce,
  ApplyForceToCenter,
  ApplyTorque,
  ApplyLinearImpulse,
  ApplyLinearImpulseToCenter,
  ApplyAngularImpulse,
  SetLinearDamping,
  SetAngularDamping,
  SetGravityScale,
  SetFixedRotation,
  SetAwake,
  SetSleepEnabled,
  SetBullet,
  SetEnabled,
  CreateCircle,
  CreateCapsule,
  CreateSegment,
  CreatePolygon,
  DestroyShape,
  SetFriction,
  SetRestitution,
  SetDensity,
  EnablePreSolveEvents,
  SetFilter,
  CreateChain,
  DestroyChain,
  CreateRevoluteJoint,
  CreatePrismaticJoint,
  CreateDistanceJoint,
  CreateWeldJoint,
  CreateWheelJoint,
  CreateMouseJoint,
  DestroyJoint,
  SetMotorSpeed,
  SetMouseTarget,
  SetPreSolveCallback,  // a bool: set (true) or cleared; the pointer is not recordable
  Explode,
  SetContinuousRecording,
  SetMaterial,
  SetMotionLocks,
  SetType,
  SetMassData,
  ApplyMassFromShapes,
  SetTargetTransform,
  SetSleepThreshold,
  WakeTouching,
  SetName,
  CreateMotorJoint,
  CreateFilterJoint,
  SetJointValue,  // a joint id, a JointValue, two floats (joint_api.h's setters)
  SetCircle,      // a shape id and the geometry (World::SetCircle, modify_geometry.cpp)
  SetCapsule,
  SetSegment,
  SetPolygon,
  SetJointLocalFrame,       // version 4: a joint id, a bool (frame B), the frame's origin, cos, sin
  CreateChainSegmentShape,  // version 4: a body id, a ShapeDef, a ChainSegment (shape_api.h)
  SetChainSegment,          // version 4: a shape id and a ChainSegment
  End                       // one past the last opcode
};

/// What a SetJointValue record sets (joint_api.cpp): values are the file's, append only. Flags are
/// recorded as 0 / 1 in the first float.
enum class JointValue : std::uint8_t {
  CollideConnected = 0,
  WakeBodies,
  ConstraintTuning,
  ForceThreshold,
  TorqueThreshold,
  DestroyOnBreak,
  EnableLimit,
  Limits,
  EnableMotor,
  MaxMotorForce,
  EnableSpring,
  SpringHertz,
  SpringDampingRatio,
  DistanceLength,
  SpringForceRange,
  WeldAngularHertz,
  WeldAngularDampingRatio,
  MotorLinearOffset,
  MotorAngularOffset,
  MotorMaxForce,
  MotorMaxTorque,
  MotorCorrectionFactor,
  Count
};

// The large-world build writes positions as doubles: its files have their own magic, so neither build
// misreads the other's (Replay::Load: BadMagic).
#if defined(MK_LARGE_WORLDS)
inline constexpr char kReplayMagic[8] = {'M', 'K', 'R', 'E', 'P', 'L', 'Y', 'W'};
#else
inline constexpr char kReplayMagic[8] = {'M', 'K', 'R', 'E', 'P', 'L', 'A', 'Y'};
#endif
/// magic, version, reserved, body size, checksum.
inline constexpr std::size_t kReplayHeaderBytes = 8 + 4 + 4 + 8 + 8;

/// FNV-1a, 64 bits, over the body (the checksum of the header).
inline std::uint64_t ReplayChecksum(std::span<const std::byte> bytes) {
  std::uint64_t hash = 14695981039346656037ull;
  for (std::byte b : bytes) {
    hash ^= static_cast<std::uint64_t>(b);
    hash *= 1099511628211ull;
  }
  return hash;
}

/// Appends little-endian fields to a byte vector. Ids are written with a byte saying whether they
/// are the recording world's (`tag`): a replay gives those its own world's tag.
class ReplayWriter {
 public:
  static constexpr bool kWrites = true;
  static constexpr std::uint32_t version = kReplayVersion;  // the writer writes the current format
  ReplayWriter(std::vector<std::byte>& out, std::uint32_t tag) : out_(out), tag_(tag) {}

  void operator()(const std::uint8_t& v) { out_.push_back(static_cast<std::byte>(v)); }
  void operator()(const bool& v) { (*this)(static_cast<std::uint8_t>(v ? 1 : 0)); }
  void operator()(const std::uint32_t& v) { PutLittleEndian(v, 4); }
  void operator()(const std::uint64_t& v) { PutLittleEndian(v, 8); }
  void operator()(const std::int32_t& v) { (*this)(static_cast<std::uint32_t>(v)); }
  void operator()(const float& v) { (*this)(std::bit_cast<std::uint32_t>(v)); }
  void operator()(const Vec2& v) { (*this)(v.x), (*this)(v.y); }
#if defined(MK_LARGE_WORLDS)
  void operator()(const Pos& p) {
    (*this)(std::bit_cast<std::uint64_t>(p.x)), (*this)(std::bit_cast<std::uint64_t>(p.y));
  }
#endif
  template <class E>
  requires std::is_enum_v<E>
  void operator()(const E& v) {
    static_assert(sizeof(E) == 1, "enums are recorded as one byte");
    (*this)(static_cast<std::uint8_t>(v));
  }
  template <class Id>
  requires requires(Id id) { id.index1, id.generation, id.world; }
  void operator()(const Id& id) {
    (*this)(id.index1), (*this)(id.generation);
    (*this)(static_cast<std::uint8_t>(id.world == tag_ && id.index1 != 0 ? 1 : 0));
  }

 private:
  void PutLittleEndian(std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out_.push_back(static_cast<std::byte>((v >> (8 * i)) & 0xFF));
  }
  std::vector<std::byte>& out_;
  std::uint32_t tag_;
};

/// Reads what ReplayWriter wrote, bounds-checked: past the end, or on a byte outside a field's
/// encoding (a bool other than 0 or 1, an id's own-flag other than 0 or 1), `ok` turns false and
/// fields read as zero. Own ids get `tag`; other non-null ids get tag 0, which no World has, so they
/// stay foreign in the replay as they were in the recording.
class ReplayReader {
 public:
  static constexpr bool kWrites = false;
  ReplayReader(std::span<const std::byte> bytes, std::size_t at, std::uint32_t tag)
      : bytes_(bytes), at_(at), tag_(tag) {}

  bool ok = true;
  /// The file's format: version 1 files (before issue 29's surface materials and joint fields) and
  /// version 2 files (32-bit filter bits) are read too, their new fields left at the defaults
  /// (HasMaterials, Fields, FilterBits).
  std::uint32_t version = kReplayVersion;
  std::size_t Offset() const { return at_; }
  std::size_t Remaining() const { return bytes_.size() - at_; }

  void operator()(std::uint8_t& v) {
    if (at_ >= bytes_.size()) {
      ok = false;
      v = 0;
      return;
    }
    v = static_cast<std::uint8_t>(bytes_[at_++]);
  }
  void operator()(bool& v) {
    std::uint8_t byte = 0;
    (*this)(byte);
    ok = ok && byte <= 1;
    v = byte == 1;
  }
  void operator()(std::uint32_t& v) { v = static_cast<std::uint32_t>(GetLittleEndian(4)); }
  void operator()(std::uint64_t& v) { v = GetLittleEndian(8); }
  void operator()(std::int32_t& v) { v = static_cast<std::int32_t>(GetLittleEndian(4)); }
  void operator()(float& v) { v = std::bit_cast<float>(static_cast<std::uint32_t>(GetLittleEndian(4))); }
  void operator()(Vec2& v) { (*this)(v.x), (*this)(v.y); }
#if defined(MK_LARGE_WORLDS)
  void operator()(Pos& p) {
    std::uint64_t x = 0, y = 0;
    (*this)(x), (*this)(y);
    p = {std::bit_cast<double>(x), std::bit_cast<double>(y)};
  }
#endif
  template <class E>
  requires std::is_enum_v<E>
  void operator()(E& v) {
    std::uint8_t byte = 0;
    (*this)(byte);
    v = static_cast<E>(byte);  // any value: the World refuses those that name no enumerator
  }
  template <class Id>
  requires requires(Id id) { id.index1, id.generation, id.world; }
  void operator()(Id& id) {
    std::uint8_t own = 0;
    (*this)(id.index1), (*this)(id.generation), (*this)(own);
    ok = ok && own <= 1;
    id.world = own == 1 ? tag_ : 0u;
  }

 private:
  std::uint64_t GetLittleEndian(int bytes) {
    if (bytes_.size() - at_ < static_cast<std::size_t>(bytes) || at_ > bytes_.size()) {
      ok = false;
      at_ = bytes_.size();
      return 0;
    }
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= static_cast<std::uint64_t>(bytes_[at_ + i]) << (8 * i);
    at_ += static_cast<std::size_t>(bytes);
    return v;
  }
  std::span<const std::byte> bytes_;
  std::size_t at_;
  std::uint32_t tag_;
};

/// `T` for the reader, `const T` for the writer: one Fields function serves both.
template <class IO, class T>
using ReplayField = std::conditional_t<IO::kWrites, const T, T>;

// Every field of each definition, in file order. Pointers (userData) are left out: they replay null.
// A new field in one of these structs must be added here (and kReplayVersion raised).

/// Filter bits: 64 from version 3 on; versions 1 and 2 recorded 32 (read zero-extended: their
/// shapes used categories 0..31 only, so the widened mask accepts what it accepted then).
template <class IO>
void FilterBits(IO& io, ReplayField<IO, std::uint64_t>& bits) {
  if (io.version >= 3) {
    io(bits);
  } else if constexpr (!IO::kWrites) {
    std::uint32_t narrow = 0;
    io(narrow);
    bits = narrow;
  }
}

template <class IO>
void Fields(IO& io, ReplayField<IO, Filter>& f) {
  FilterBits(io, f.categoryBits), FilterBits(io, f.maskBits), io(f.groupIndex);
}

template <class IO>
void Fields(IO& io, ReplayField<IO, SolverSettings>& s) {
  io(s.mode), io(s.subSteps), io(s.contactHertz), io(s.contactDampingRatio), io(s.staticContactScale);
  io(s.contactPushMaxSpeed), io(s.jointHertz), io(s.jointDampingRatio), io(s.restitutionThreshold);
  io(s.hitEventThreshold), io(s.linearSlop), io(s.speculativeDistance), io(s.aabbMargin);
  io(s.maxLinearSpeed), io(s.timeToSleep), io(s.enableWarmStarting), io(s.enableRelax);
  io(s.enableRestitution), io(s.enableSleep), io(s.enableContinuous), io(s.enableContactRecycling);
  io(s.classicIterations), io(s.classicBaumgarte);
}

template <class IO>
void Fields(IO& io, ReplayField<IO, MotionLocks>& l) {
  io(l.linearX), io(l.linearY), io(l.angularZ);
}

// Every byte of the array; the reader ends it with a zero whatever the file says.
template <class IO>
void Fields(IO& io, ReplayField<IO, BodyName>& n) {
  for (auto& c : n.text) {
    auto byte = static_cast<std::uint8_t>(c);
    io(byte);
    if constexpr (!IO::kWrites) c = static_cast<char>(byte);
  }
  if constexpr (!IO::kWrites) n.text[kMaxBodyNameLength] = '\0';
}

template <class IO>
void Fields(IO& io, ReplayField<IO, BodyDef>& d) {
  io(d.type), io(d.position), io(d.angle), io(d.linearVelocity), io(d.angularVelocity);
  io(d.linearDamping), io(d.angularDamping), io(d.gravityScale), io(d.sleepThreshold);
  io(d.fixedRotation), io(d.isAwake), io(d.enableSleep), io(d.isEnabled), io(d.isBullet);
  // motionLocks: not here, so files of version 1 still read. World::CreateBody records a body made
  // with motion locks as this record and then a SetMotionLocks one (body.cpp).
}

/// Whether the record holds version 2's material fields (ShapeDef's, a chain's materials).
template <class IO>
bool HasMaterials(const IO& io) {
  if constexpr (IO::kWrites) {
    return true;
  } else {
    return io.version >= 2;
  }
}

template <class IO>
void Fields(IO& io, ReplayField<IO, SurfaceMaterial>& m) {
  io(m.friction), io(m.restitution), io(m.rollingResistance), io(m.tangentSpeed), io(m.userMaterialId);
  io(m.customColor);
}

template <class IO>
void Fields(IO& io, ReplayField<IO, ShapeDef>& d) {
  io(d.density), io(d.friction), io(d.restitution);
  if (HasMaterials(io)) io(d.rollingResistance), io(d.tangentSpeed), io(d.userMaterialId), io(d.customColor);
  Fields(io, d.filter);
  io(d.isSensor), io(d.enableContactEvents), io(d.enableHitEvents), io(d.enableSensorEvents);
  io(d.enablePreSolveEvents);
  if (HasMaterials(io)) io(d.enableCustomFiltering);
}

template <class IO>
void Fields(IO& io, ReplayField<IO, Circle>& c) {
  io(c.center), io(c.radius);
}

template <class IO>
void Fields(IO& io, ReplayField<IO, Capsule>& c) {
  io(c.p1), io(c.p2), io(c.radius);
}

template <class IO>
void Fields(IO& io, ReplayField<IO, Segment>& s) {
  io(s.p1), io(s.p2);
}

template <class IO>
void Fields(IO& io, ReplayField<IO, ChainSegment>& c) {
  io(c.ghost1), Fields(io, c.segment), io(c.ghost2);
}

/// A polygon as the caller passed it, hand-built ones included: its count as given (the World
/// refuses a bad one), then the vertices and normals it names, at most kMaxPolygonVertices.
template <class IO>
void Fields(IO& io, ReplayField<IO, Polygon>& p) {
  io(p.count);
  const int n = p.count < 0 ? 0 : p.count > kMaxPolygonVertices ? kMaxPolygonVertices : p.count;
  for (int i = 0; i < n; ++i) io(p.vertices[i]);
  for (int i = 0; i < n; ++i) io(p.normals[i]);
  io(p.centroid), io(p.radius);
}

/// A chain's scalars; its points are written before them by the caller (a count and the points),
/// its materials after them (a count and the materials).
template <class IO>
void Fields(IO& io, ReplayField<IO, ChainDef>& d) {
  io(d.isLoop), io(d.friction), io(d.restitution);
  Fields(io, d.filter);
  io(d.enableSensorEvents);
}

template <class IO>
void Fields(IO& io, ReplayField<IO, JointBase>& d) {
  io(d.bodyA), io(d.bodyB), io(d.localAnchorA), io(d.localAnchorB), io(d.collideConnected);
  io(d.constraintHertz), io(d.constraintDampingRatio);
  if (io.version >= 2) {
    io(d.forceThreshold), io(d.torqueThreshold), io(d.destroyOnBreak);
  } else if constexpr (!IO::kWrites) {  // version 1: 0 meant "the world's setting"
    if (d.constraintHertz == 0.0f) d.constraintHertz = kUseWorldSetting;
    if (d.constraintDampingRatio == 0.0f) d.constraintDampingRatio = kUseWorldSetting;
  }
}

template <class IO>
void Fields(IO& io, ReplayField<IO, RevoluteJointDef>& d) {
  Fields(io, static_cast<ReplayField<IO, JointBase>&>(d));
  io(d.referenceAngle), io(d.enableLimit), io(d.lowerAngle), io(d.upperAngle), io(d.enableMotor);
  io(d.motorSpeed), io(d.maxMotorTorque), io(d.enableSpring), io(d.hertz), io(d.dampingRatio);
  if (io.version >= 4) io(d.frameAngleA);
}

template <class IO>
void Fields(IO& io, ReplayField<IO, PrismaticJointDef>& d) {
  Fields(io, static_cast<ReplayField<IO, JointBase>&>(d));
  io(d.localAxisA), io(d.referenceAngle), io(d.enableLimit), io(d.lowerTranslation);
  io(d.upperTranslation), io(d.enableMotor), io(d.motorSpeed), io(d.maxMotorForce), io(d.enableSpring);
  io(d.hertz), io(d.dampingRatio);
}

template <class IO>
void Fields(IO& io, ReplayField<IO, DistanceJointDef>& d) {
  Fields(io, static_cast<ReplayField<IO, JointBase>&>(d));
  io(d.length), io(d.enableLimit), io(d.minLength), io(d.maxLength), io(d.enableSpring), io(d.hertz);
  io(d.dampingRatio);
  if (io.version >= 2) {
    io(d.lowerSpringForce), io(d.upperSpringForce), io(d.enableMotor), io(d.motorSpeed), io(d.maxMotorForce);
  }
}

template <class IO>
void Fields(IO& io, ReplayField<IO, MotorJointDef>& d) {
  Fields(io, static_cast<ReplayField<IO, JointBase>&>(d));
  io(d.linearOffset), io(d.angularOffset), io(d.maxForce), io(d.maxTorque), io(d.correctionFactor);
  if (io.version >= 4) io(d.frameAngleA);
}

template <class IO>
void Fields(IO& io, ReplayField<IO, FilterJointDef>& d) {
  Fields(io, static_cast<ReplayField<IO, JointBase>&>(d));
}

template <class IO>
void Fields(IO& io, ReplayField<IO, WeldJointDef>& d) {
  Fields(io, static_cast<ReplayField<IO, JointBase>&>(d));
  io(d.referenceAngle), io(d.linearHertz), io(d.angularHertz), io(d.linearDampingRatio);
  io(d.angularDampingRatio);
  if (io.version >= 4) io(d.frameAngleA);
}

template <class IO>
void Fields(IO& io, ReplayField<IO, WheelJointDef>& d) {
  Fields(io, static_cast<ReplayField<IO, JointBase>&>(d));
  io(d.localAxisA), io(d.enableSpring), io(d.hertz), io(d.dampingRatio), io(d.enableLimit);
  io(d.lowerTranslation), io(d.upperTranslation), io(d.enableMotor), io(d.motorSpeed);
  io(d.maxMotorTorque);
}

template <class IO>
void Fields(IO& io, ReplayField<IO, MouseJointDef>& d) {
  io(d.body), io(d.target), io(d.hertz), io(d.dampingRatio), io(d.maxForce);
}

template <class IO>
void Fields(IO& io, ReplayField<IO, ExplosionDef>& d) {
  io(d.position), io(d.radius), io(d.falloff), io(d.impulsePerLength), FilterBits(io, d.maskBits);
}

// A new field in a recorded definition changes its size: this fails until Fields above records it.
#if UINTPTR_MAX == 0xFFFFFFFFFFFFFFFFu && defined(MK_LARGE_WORLDS)
static_assert(
    sizeof(BodyDef) == 72 && sizeof(MouseJointDef) == 56 && sizeof(ExplosionDef) == 40,
    "a recorded definition changed: record its new fields (replay_format.h) and raise kReplayVersion");
#elif UINTPTR_MAX == 0xFFFFFFFFFFFFFFFFu
static_assert(
    sizeof(BodyDef) == 64 && sizeof(ShapeDef) == 80 && sizeof(SolverSettings) == 76 &&
        sizeof(RevoluteJointDef) == 120 && sizeof(PrismaticJointDef) == 120 &&
        sizeof(DistanceJointDef) == 120 && sizeof(WeldJointDef) == 96 && sizeof(WheelJointDef) == 120 &&
        sizeof(MouseJointDef) == 40 && sizeof(MotorJointDef) == 104 && sizeof(FilterJointDef) == 72 &&
        sizeof(ExplosionDef) == 32 && sizeof(ChainDef) == 88,
    "a recorded definition changed: record its new fields (replay_format.h) and raise kReplayVersion");
#endif

}  // namespace mk
