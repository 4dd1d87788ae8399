// SPDX-License-Identifier: MIT
// Record and replay (minkowski/replay.h): the recording's file, its validation and its records (the
// player: replay_player.cpp). The World API entries write records (RecordCall, recorder.h); this file
// reads them back.
#include "minkowski/replay.h"

#include "minkowski/assert.h"
#include "minkowski/joint_api.h"
#include "minkowski/world_vector.h"
#include "world/persistence/recorder.h"
#include "world/persistence/replay_format.h"
#include "world/persistence/replay_internal.h"
#include "world/world_internal.h"
#include "world/world_state.h"

#include <cstdio>
#include <cstring>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

namespace mk {

namespace {

// flags byte of the body: a pre-solve callback was set when recording started.
constexpr std::uint8_t kFlagPreSolve = 1;

// What the start of the body holds, before the records.
struct BodyPrefix {
  std::uint8_t flags = 0;
  WorldDef def{};
  std::uint64_t recordCount = 0;
  std::uint64_t stepCount = 0;
};

template <class IO>
void Fields(IO& io, ReplayField<IO, BodyPrefix>& p) {
  io(p.flags), io(p.def.gravity);
#if defined(MK_LARGE_WORLDS)
  io(p.def.origin);
#endif
  Fields(io, p.def.settings);
  io(p.recordCount), io(p.stepCount);
}

template <class T>
void Get(ReplayReader& in, T& value) {
  if constexpr (requires { in(value); }) {
    in(value);
  } else {
    Fields(in, value);
  }
}

// Reads a record's arguments (types Args, in order) and, when they decode and there is a world, makes
// the call `fn(world, args...)`.
template <class... Args, class Fn>
bool Call(ReplayReader& in, World* world, Fn fn) {
  std::tuple<Args...> args{};
  std::apply([&in](auto&... a) { (Get(in, a), ...); }, args);
  if (!in.ok) return false;
  if (world != nullptr) std::apply([&](auto&... a) { fn(*world, a...); }, args);
  return true;
}

// A chain record: body, point count, points, then the rest of the definition. The count is checked
// against the bytes left before anything is allocated.
bool CallCreateChain(ReplayReader& in, World* world, std::vector<Vec2>& points) {
  BodyId body{};
  std::uint32_t count = 0;
  in(body), in(count);
  if (!in.ok || count > kMaxReplayChainPoints || count > in.Remaining() / 8) return false;
  points.resize(count);
  for (Vec2& p : points) in(p);
  ChainDef def;
  Fields(in, def);
  std::uint32_t materialCount = 0;
  if (HasMaterials(in)) in(materialCount);
  if (!in.ok || materialCount > kMaxReplayChainPoints || materialCount > in.Remaining() / 28) return false;
  std::vector<SurfaceMaterial> materials(materialCount);
  for (SurfaceMaterial& m : materials) Fields(in, m);
  if (!in.ok) return false;
  def.points = points;
  def.materials = materials;
  if (world != nullptr) world->CreateChain(body, def);
  return true;
}

// The bodies' and shapes' setters and the Apply* calls.
bool PlayBodyRecord(ReplayOp op, ReplayReader& in, World* w) {
  switch (op) {
    case ReplayOp::CreateBody:
      return Call<BodyDef>(in, w, [](World& x, const BodyDef& d) { x.CreateBody(d); });
    case ReplayOp::DestroyBody:
      return Call<BodyId>(in, w, [](World& x, BodyId b) { x.DestroyBody(b); });
    case ReplayOp::SetTransform:
      return Call<BodyId, Pos, float>(in, w,
                                      [](World& x, BodyId b, Pos p, float a) { x.SetTransform(b, p, a); });
    case ReplayOp::SetLinearVelocity:
      return Call<BodyId, Vec2>(in, w, [](World& x, BodyId b, Vec2 v) { x.SetLinearVelocity(b, v); });
    case ReplayOp::SetAngularVelocity:
      return Call<BodyId, float>(in, w, [](World& x, BodyId b, float v) { x.SetAngularVelocity(b, v); });
    case ReplayOp::ApplyForce:
      return Call<BodyId, Vec2, Pos, bool>(
          in, w, [](World& x, BodyId b, Vec2 f, Pos p, bool wake) { x.ApplyForce(b, f, p, wake); });
    case ReplayOp::ApplyForceToCenter:
      return Call<BodyId, Vec2, bool>(
          in, w, [](World& x, BodyId b, Vec2 f, bool wake) { x.ApplyForceToCenter(b, f, wake); });
    case ReplayOp::ApplyTorque:
      return Call<BodyId, float, bool>(
          in, w, [](World& x, BodyId b, float t, bool wake) { x.ApplyTorque(b, t, wake); });
    case ReplayOp::ApplyLinearImpulse:
      return Call<BodyId, Vec2, Pos, bool>(
          in, w, [](World& x, BodyId b, Vec2 i, Pos p, bool wake) { x.ApplyLinearImpulse(b, i, p, wake); });
    case ReplayOp::ApplyLinearImpulseToCenter:
      return Call<BodyId, Vec2, bool>(
          in, w, [](World& x, BodyId b, Vec2 i, bool wake) { x.ApplyLinearImpulseToCenter(b, i, wake); });
    case ReplayOp::ApplyAngularImpulse:
      return Call<BodyId, float, bool>(
          in, w, [](World& x, BodyId b, float i, bool wake) { x.ApplyAngularImpulse(b, i, wake); });
    case ReplayOp::SetLinearDamping:
      return Call<BodyId, float>(in, w, [](World& x, BodyId b, float v) { x.SetLinearDamping(b, v); });
    case ReplayOp::SetAngularDamping:
      return Call<BodyId, float>(in, w, [](World& x, BodyId b, float v) { x.SetAngularDamping(b, v); });
    case ReplayOp::SetGravityScale:
      return Call<BodyId, float>(in, w, [](World& x, BodyId b, float v) { x.SetGravityScale(b, v); });
    case ReplayOp::SetFixedRotation:
      return Call<BodyId, bool>(in, w, [](World& x, BodyId b, bool v) { x.SetFixedRotation(b, v); });
    case ReplayOp::SetAwake:
      return Call<BodyId, bool>(in, w, [](World& x, BodyId b, bool v) { x.SetAwake(b, v); });
    case ReplayOp::SetSleepEnabled:
      return Call<BodyId, bool>(in, w, [](World& x, BodyId b, bool v) { x.SetSleepEnabled(b, v); });
    case ReplayOp::SetBullet:
      return Call<BodyId, bool>(in, w, [](World& x, BodyId b, bool v) { x.SetBullet(b, v); });
    case ReplayOp::SetEnabled:
      return Call<BodyId, bool>(in, w, [](World& x, BodyId b, bool v) { x.SetEnabled(b, v); });
    default:
      return false;
  }
}

bool PlayShapeRecord(ReplayOp op, ReplayReader& in, World* w, std::vector<Vec2>& chainPoints) {
  switch (op) {
    case ReplayOp::CreateCircle:
      return Call<BodyId, ShapeDef, Circle>(
          in, w, [](World& x, BodyId b, const ShapeDef& d, const Circle& g) { x.CreateShape(b, d, g); });
    case ReplayOp::CreateCapsule:
      return Call<BodyId, ShapeDef, Capsule>(
          in, w, [](World& x, BodyId b, const ShapeDef& d, const Capsule& g) { x.CreateShape(b, d, g); });
    case ReplayOp::CreateSegment:
      return Call<BodyId, ShapeDef, Segment>(
          in, w, [](World& x, BodyId b, const ShapeDef& d, const Segment& g) { x.CreateShape(b, d, g); });
    case ReplayOp::CreatePolygon:
      return Call<BodyId, ShapeDef, Polygon>(
          in, w, [](World& x, BodyId b, const ShapeDef& d, const Polygon& g) { x.CreateShape(b, d, g); });
    case ReplayOp::DestroyShape:
      return Call<ShapeId>(in, w, [](World& x, ShapeId s) { x.DestroyShape(s); });
    case ReplayOp::SetFriction:
      return Call<ShapeId, float>(in, w, [](World& x, ShapeId s, float v) { x.SetFriction(s, v); });
    case ReplayOp::SetRestitution:
      return Call<ShapeId, float>(in, w, [](World& x, ShapeId s, float v) { x.SetRestitution(s, v); });
    case ReplayOp::SetDensity:
      return Call<ShapeId, float>(in, w, [](World& x, ShapeId s, float v) { x.SetDensity(s, v); });
    case ReplayOp::EnablePreSolveEvents:
      return Call<ShapeId, bool>(in, w, [](World& x, ShapeId s, bool v) { x.EnablePreSolveEvents(s, v); });
    case ReplayOp::SetFilter:
      return Call<ShapeId, Filter>(in, w, [](World& x, ShapeId s, const Filter& f) { x.SetFilter(s, f); });
    case ReplayOp::CreateChain:
      return CallCreateChain(in, w, chainPoints);
    case ReplayOp::DestroyChain:
      return Call<ChainId>(in, w, [](World& x, ChainId c) { x.DestroyChain(c); });
    default:
      return false;
  }
}

bool PlayJointRecord(ReplayOp op, ReplayReader& in, World* w) {
  auto create = [](World& x, const auto& def) { x.CreateJoint(def); };
  switch (op) {
    case ReplayOp::CreateRevoluteJoint:
      return Call<RevoluteJointDef>(in, w, create);
    case ReplayOp::CreatePrismaticJoint:
      return Call<PrismaticJointDef>(in, w, create);
    case ReplayOp::CreateDistanceJoint:
      return Call<DistanceJointDef>(in, w, create);
    case ReplayOp::CreateWeldJoint:
      return Call<WeldJointDef>(in, w, create);
    case ReplayOp::CreateWheelJoint:
      return Call<WheelJointDef>(in, w, create);
    case ReplayOp::CreateMouseJoint:
      return Call<MouseJointDef>(in, w, create);
    case ReplayOp::DestroyJoint:
      return Call<JointId>(in, w, [](World& x, JointId j) { x.DestroyJoint(j); });
    case ReplayOp::SetMotorSpeed:
      return Call<JointId, float>(in, w, [](World& x, JointId j, float v) { x.SetMotorSpeed(j, v); });
    case ReplayOp::SetMouseTarget:
      return Call<JointId, Pos>(in, w, [](World& x, JointId j, Pos t) { x.SetMouseTarget(j, t); });
    case ReplayOp::CreateMotorJoint:
      return Call<MotorJointDef>(in, w, create);
    case ReplayOp::CreateFilterJoint:
      return Call<FilterJointDef>(in, w, create);
    case ReplayOp::SetJointValue:
      return Call<JointId, JointValue, float, float>(
          in, w, [](World& x, JointId j, JointValue v, float a, float b) { SetJointValue(x, j, v, a, b); });
    case ReplayOp::SetJointLocalFrame:  // version 4's
      return in.version >= 4 && Call<JointId, bool, Vec2, float, float>(
                                    in, w, [](World& x, JointId j, bool b, Vec2 p, float c, float s) {
                                      (b ? SetJointLocalFrameB : SetJointLocalFrameA)(x, j, {p, {c, s}});
                                    });
    default:
      return false;
  }
}

// The body features' calls (body_features.cpp).
bool PlayBodyFeatureRecord(ReplayOp op, ReplayReader& in, World* w) {
  switch (op) {
    case ReplayOp::SetMotionLocks:
      return Call<BodyId, MotionLocks>(in, w,
                                       [](World& x, BodyId b, MotionLocks l) { x.SetMotionLocks(b, l); });
    case ReplayOp::SetType:
      return Call<BodyId, BodyType>(in, w, [](World& x, BodyId b, BodyType t) { x.SetType(b, t); });
    case ReplayOp::SetMassData:
      return Call<BodyId, float, Vec2, float>(in, w, [](World& x, BodyId b, float m, Vec2 c, float i) {
        x.SetMassData(b, {m, c, i});
      });
    case ReplayOp::ApplyMassFromShapes:
      return Call<BodyId>(in, w, [](World& x, BodyId b) { x.ApplyMassFromShapes(b); });
    case ReplayOp::SetTargetTransform:
      return Call<BodyId, Pos, float, float, float>(
          in, w, [](World& x, BodyId b, Pos p, float c, float s, float dt) {
            x.SetTargetTransform(b, {p, {c, s}}, dt);
          });
    case ReplayOp::SetSleepThreshold:
      return Call<BodyId, float>(in, w, [](World& x, BodyId b, float v) { x.SetSleepThreshold(b, v); });
    case ReplayOp::WakeTouching:
      return Call<BodyId>(in, w, [](World& x, BodyId b) { x.WakeTouching(b); });
    case ReplayOp::SetName:
      return Call<BodyId, BodyName>(in, w,
                                    [](World& x, BodyId b, const BodyName& n) { x.SetName(b, n.text); });
    default:
      return false;
  }
}

// The shape API (modify_geometry.cpp): the geometry setters are version 3's, the standalone chain
// segment's two calls version 4's; an older file that holds one does not decode.
bool PlayGeometryRecord(ReplayOp op, ReplayReader& in, World* w) {
  if (in.version < 3) return false;
  switch (op) {
    case ReplayOp::CreateChainSegmentShape:
      return in.version >= 4 && Call<BodyId, ShapeDef, ChainSegment>(
                                    in, w, [](World& x, BodyId b, const ShapeDef& d, const ChainSegment& g) {
                                      CreateChainSegmentShape(x, b, d, g);
                                    });
    case ReplayOp::SetChainSegment:
      return in.version >= 4 &&
             Call<ShapeId, ChainSegment>(
                 in, w, [](World& x, ShapeId s, const ChainSegment& g) { SetChainSegment(x, s, g); });
    case ReplayOp::SetCircle:
      return Call<ShapeId, Circle>(in, w, [](World& x, ShapeId s, const Circle& g) { SetCircle(x, s, g); });
    case ReplayOp::SetCapsule:
      return Call<ShapeId, Capsule>(in, w,
                                    [](World& x, ShapeId s, const Capsule& g) { SetCapsule(x, s, g); });
    case ReplayOp::SetSegment:
      return Call<ShapeId, Segment>(in, w,
                                    [](World& x, ShapeId s, const Segment& g) { SetSegment(x, s, g); });
    case ReplayOp::SetPolygon:
      return Call<ShapeId, Polygon>(in, w,
                                    [](World& x, ShapeId s, const Polygon& g) { SetPolygon(x, s, g); });
    default:
      return false;
  }
}

}  // namespace

bool PlayRecord(ReplayReader& in, World* w, std::vector<Vec2>& chainPoints, ReplayOp& op, bool& preSolve) {
  std::uint8_t code = 0;
  in(code);
  if (!in.ok || code == 0 || code >= static_cast<std::uint8_t>(ReplayOp::End)) return false;
  op = static_cast<ReplayOp>(code);
  switch (op) {
    case ReplayOp::Step:
      return Call<float>(in, w, [](World& x, float dt) { x.Step(dt); });
    case ReplayOp::SetGravity:
      return Call<Vec2>(in, w, [](World& x, Vec2 g) { x.SetGravity(g); });
    case ReplayOp::SetSolverSettings:
      return Call<SolverSettings>(in, w, [](World& x, const SolverSettings& s) { x.SetSolverSettings(s); });
    case ReplayOp::SetPreSolveCallback:
      return Call<bool>(in, w, [&preSolve](World&, bool set) { preSolve = set; });
    case ReplayOp::Explode:
      return Call<ExplosionDef>(in, w, [](World& x, const ExplosionDef& d) { x.Explode(d); });
    case ReplayOp::SetContinuousRecording:
      return Call<bool>(in, w, [](World& x, bool on) { x.SetContinuousRecording(on); });
    case ReplayOp::SetMaterial:  // after the joints' opcodes: dispatched here, not by range
      return Call<ShapeId, SurfaceMaterial>(
          in, w, [](World& x, ShapeId s, const SurfaceMaterial& m) { x.SetMaterial(s, m); });
    case ReplayOp::SetMotionLocks:
    case ReplayOp::SetType:
    case ReplayOp::SetMassData:
    case ReplayOp::ApplyMassFromShapes:
    case ReplayOp::SetTargetTransform:
    case ReplayOp::SetSleepThreshold:
    case ReplayOp::WakeTouching:
    case ReplayOp::SetName:
      return PlayBodyFeatureRecord(op, in, w);
    case ReplayOp::SetCircle:
    case ReplayOp::SetCapsule:
    case ReplayOp::SetSegment:
    case ReplayOp::SetPolygon:
    case ReplayOp::CreateChainSegmentShape:
    case ReplayOp::SetChainSegment:
      return PlayGeometryRecord(op, in, w);
    default:
      break;
  }
  if (code < static_cast<std::uint8_t>(ReplayOp::CreateCircle)) return PlayBodyRecord(op, in, w);
  if (code < static_cast<std::uint8_t>(ReplayOp::CreateRevoluteJoint))
    return PlayShapeRecord(op, in, w, chainPoints);
  return PlayJointRecord(op, in, w);
}

namespace {

std::uint64_t ReadU64(std::span<const std::byte> bytes, std::size_t at) {
  ReplayReader in(bytes, at, 0);
  std::uint64_t v = 0;
  in(v);
  return v;
}

// Checks the header and that every record decodes; fills `prefix` and the first record's offset.
ReplayError Validate(std::span<const std::byte> bytes, BodyPrefix& prefix, std::size_t& firstRecord,
                     std::uint32_t& fileVersion) {
  if (bytes.size() < kReplayHeaderBytes) return ReplayError::Truncated;
  if (std::memcmp(bytes.data(), kReplayMagic, sizeof kReplayMagic) != 0) return ReplayError::BadMagic;
  ReplayReader header(bytes, sizeof kReplayMagic, 0);
  std::uint32_t version = 0, reserved = 0;
  header(version), header(reserved);
  // Versions 1 to 3 still play (replay.h says what each lacks; the opcode readers check the version).
  if (version < 1 || version > kReplayVersion || reserved != 0) return ReplayError::BadVersion;
  fileVersion = version;
  const std::uint64_t bodySize = ReadU64(bytes, 16);
  const std::uint64_t available = bytes.size() - kReplayHeaderBytes;
  if (bodySize > available) return ReplayError::Truncated;
  if (bodySize != available || bytes.size() > kMaxReplayBytes) return ReplayError::BadSize;
  if (ReplayChecksum(bytes.subspan(kReplayHeaderBytes)) != ReadU64(bytes, 24))
    return ReplayError::BadChecksum;

  ReplayReader in(bytes, kReplayHeaderBytes, 0);
  in.version = version;
  Fields(in, prefix);
  if (!in.ok || (prefix.flags & ~kFlagPreSolve) != 0) return ReplayError::BadRecord;
  if (prefix.recordCount > kMaxReplayRecords || prefix.recordCount > in.Remaining() ||
      prefix.stepCount > prefix.recordCount) {
    return ReplayError::BadCount;
  }
  firstRecord = in.Offset();
  std::uint64_t records = 0, steps = 0;
  std::vector<Vec2> chainPoints;
  while (in.Remaining() > 0) {
    if (records == prefix.recordCount) return ReplayError::BadCount;  // more records than claimed
    ReplayOp op{};
    bool preSolve = false;
    if (!PlayRecord(in, nullptr, chainPoints, op, preSolve)) return ReplayError::BadRecord;
    ++records;
    if (op == ReplayOp::Step) ++steps;
  }
  if (records != prefix.recordCount || steps != prefix.stepCount) return ReplayError::BadCount;
  return ReplayError::None;
}

}  // namespace

// --- Recording -----------------------------------------------------------------------------------

Recorder::Recorder(std::uint32_t tag, Vec2 gravity, Pos origin, const SolverSettings& settings,
                   bool preSolveSet)
    : tag_(tag), gravity_(gravity), origin_(origin), settings_(settings), preSolveSet_(preSolveSet) {}

std::vector<std::byte> Recorder::File() const {
  std::vector<std::byte> file(kReplayHeaderBytes);
  std::memcpy(file.data(), kReplayMagic, sizeof kReplayMagic);
  ReplayWriter body(file, tag_);
  BodyPrefix prefix{preSolveSet_ ? kFlagPreSolve : std::uint8_t{0}, {}, recordCount_, stepCount_};
  prefix.def.gravity = gravity_;
  prefix.def.settings = settings_;
  prefix.def.origin = origin_;
  Fields(body, prefix);
  file.insert(file.end(), records_.begin(), records_.end());

  std::vector<std::byte> header;
  ReplayWriter out(header, tag_);
  const std::uint64_t bodySize = file.size() - kReplayHeaderBytes;
  out(kReplayVersion), out(std::uint32_t{0}), out(bodySize);
  out(ReplayChecksum(std::span<const std::byte>(file).subspan(kReplayHeaderBytes)));
  std::memcpy(file.data() + sizeof kReplayMagic, header.data(), header.size());
  return file;
}

// --- Loading ---------------------------------------------------------------------------------------

Replay::Replay() = default;
Replay::~Replay() = default;
Replay::Replay(Replay&&) noexcept = default;
Replay& Replay::operator=(Replay&&) noexcept = default;

Replay::Replay(const Replay& other)
    : file_(other.file_ != nullptr ? OwnedPtr<File>(new File(*other.file_)) : OwnedPtr<File>()),
      def_(other.def_),
      startsWithPreSolve_(other.startsWithPreSolve_),
      recordCount_(other.recordCount_),
      stepCount_(other.stepCount_),
      firstRecord_(other.firstRecord_),
      version_(other.version_) {}

Replay& Replay::operator=(const Replay& other) {
  if (this != &other) *this = Replay(other);
  return *this;
}

Span<const std::byte> Replay::Bytes() const {
  if (file_ == nullptr) return {};
  return file_->bytes;
}

const char* ToString(ReplayError error) {
  switch (error) {
    case ReplayError::None:
      return "no error";
    case ReplayError::Truncated:
      return "truncated";
    case ReplayError::BadMagic:
      return "not a replay file (or one from the other build: large-world builds read and write their own)";
    case ReplayError::BadVersion:
      return "unsupported version";
    case ReplayError::BadSize:
      return "bad size";
    case ReplayError::BadChecksum:
      return "checksum mismatch";
    case ReplayError::BadRecord:
      return "bad record";
    case ReplayError::BadCount:
      return "bad record count";
    case ReplayError::FileError:
      return "file error";
  }
  return "unknown error";
}

ReplayError Replay::Load(Span<const std::byte> bytes, Replay& out) {
  BodyPrefix prefix;
  std::size_t firstRecord = 0;
  std::uint32_t version = kReplayVersion;
  const ReplayError error = Validate(bytes, prefix, firstRecord, version);
  if (error != ReplayError::None) return error;
  out.version_ = version;
  if (out.file_ == nullptr) out.file_ = OwnedPtr<Replay::File>(new Replay::File());
  out.file_->bytes.assign(bytes.begin(), bytes.end());
  out.def_ = prefix.def;
  out.startsWithPreSolve_ = (prefix.flags & kFlagPreSolve) != 0;
  out.recordCount_ = prefix.recordCount;
  out.stepCount_ = prefix.stepCount;
  out.firstRecord_ = firstRecord;
  return ReplayError::None;
}

ReplayError Replay::LoadFile(const char* path, Replay& out) {
  std::FILE* file = std::fopen(path, "rb");
  if (file == nullptr) return ReplayError::FileError;
  std::vector<std::byte> bytes;
  ReplayError error = ReplayError::FileError;
  if (std::fseek(file, 0, SEEK_END) == 0) {
    const long size = std::ftell(file);
    if (size >= 0 && static_cast<std::uint64_t>(size) > kMaxReplayBytes) {
      error = ReplayError::BadSize;  // refused before allocating
    } else if (size >= 0 && std::fseek(file, 0, SEEK_SET) == 0) {
      bytes.resize(static_cast<std::size_t>(size));
      if (std::fread(bytes.data(), 1, bytes.size(), file) == bytes.size()) error = ReplayError::None;
    }
  }
  std::fclose(file);
  return error == ReplayError::None ? Load(bytes, out) : error;
}

ReplayError SaveReplayFile(const char* path, Span<const std::byte> bytes) {
  std::FILE* file = std::fopen(path, "wb");
  if (file == nullptr) return ReplayError::FileError;
  const bool written = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
  const bool closed = std::fclose(file) == 0;
  return written && closed ? ReplayError::None : ReplayError::FileError;
}

}  // namespace mk
