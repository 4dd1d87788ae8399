// SPDX-License-Identifier: MIT
// World snapshots: SaveSnapshot writes the whole persistent state, RestoreSnapshot reads it into a new
// WorldState, validates every index, list, number and geometry, and only then moves it in (all or
// nothing). Format and limits: minkowski/snapshot.h; design and costs: docs/design.md, Snapshots.
// The validation is snapshot_validate.cpp.
// [SECTION] Format: header, layout signature, what is copied as bytes
// [SECTION] Save
// [SECTION] Load: parsing
// [SECTION] Restore
//
// Plain structs (Body, Shape, Contact, Joint, settings, events) are copied as their bytes, so a field
// added to one is saved and restored without touching this file; the layout signature changes with
// its size, and RestoreSnapshot refuses snapshots of the old layout. A new field the engine trusts
// (an index, a count, a number that must be finite) still needs its check in snapshot_validate.cpp: the
// static_asserts on the sizes stop the build until someone has looked.
#include "broadphase/broadphase_impl.h"
#include "broadphase/broadphase_snapshot.h"
#include "core/byte_stream.h"
#include "minkowski/world.h"
#include "world/persistence/snapshot_validate.h"
#include "world/world_internal.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace mk {

// ---------------------------------------------------------------------------------------------
// [SECTION] Format: header, layout signature, what is copied as bytes
// ---------------------------------------------------------------------------------------------

namespace {

constexpr char kMagic[8] = {'M', 'K', 'S', 'N', 'A', 'P', '0', '1'};

struct Header {
  char magic[8];
  std::uint32_t version;
  std::uint32_t reserved;
  std::uint64_t totalSize;  // bytes, header included
  std::uint64_t layout;     // LayoutSignature() of the writer
  std::uint64_t checksum;   // SnapshotChecksum of the payload (the bytes after the header)
};
static_assert(sizeof(Header) == kSnapshotHeaderBytes);

template <class... T>
constexpr bool kAllTrivial = (std::is_trivially_copyable_v<T> && ...);
static_assert(
    kAllTrivial<Body, Shape, Contact, Joint, SolverSettings, Counters, ContactBeginEvent, ContactEndEvent,
                ContactHitEvent, SensorBeginEvent, SensorEndEvent, ProxySlot, PairNode, BandEntry, ProxyPair,
                LayoutParams, Circle, Capsule, Segment, ChainSegment>,
    "snapshots copy these structs as bytes");

// When one of these fails, a field was added: it is saved automatically (the struct is copied as
// bytes); add a check to the validation (snapshot_validate.cpp) if the engine indexes with it or needs it
// finite, then update the size here. (Sizes of the 64-bit builds, x86-64 / AArch64, and of the 32-bit
// WebAssembly one, the browser sandbox: its 4-byte pointers make Body, Shape and Joint smaller. The
// large-world build's positions are doubles: Body::xf, center, center0 and Joint::target.)
constexpr bool kPointers64 = sizeof(void*) == 8;
#if defined(MK_LARGE_WORLDS)
static_assert(!kPointers64 || sizeof(Body) == 208, "Body changed: review ValidBody in snapshot_validate.cpp");
static_assert(!kPointers64 || sizeof(Joint) == 216,
              "Joint changed: review ValidJoint in snapshot_validate.cpp");
#else
static_assert(sizeof(Body) == (kPointers64 ? 184 : 172),
              "Body changed: review ValidBody in snapshot_validate.cpp");
static_assert(sizeof(Joint) == (kPointers64 ? 208 : 200),
              "Joint changed: review ValidJoint in snapshot_validate.cpp");
#endif
static_assert(sizeof(Shape) == (kPointers64 ? 120 : 112),
              "Shape changed: review ValidShape in snapshot_validate.cpp");
static_assert(sizeof(Contact) == 212, "Contact changed: review ValidContact in snapshot_validate.cpp");

// A hash of the sizes of everything copied as bytes: a snapshot from a build whose structs differ
// (another engine version, compiler or platform) is refused as LayoutMismatch rather than misread.
std::uint64_t LayoutSignature() {
  const std::size_t sizes[] = {sizeof(Body),
                               sizeof(Shape),
                               sizeof(Contact),
                               sizeof(Joint),
                               sizeof(SolverSettings),
                               sizeof(Counters),
                               sizeof(Manifold),
                               sizeof(SimplexCache),
                               sizeof(ContactHitEvent),
                               sizeof(ContactBeginEvent),
                               sizeof(ShapeId),
                               sizeof(ProxySlot),
                               sizeof(PairNode),
                               sizeof(BandEntry),
                               sizeof(LayoutParams),
                               sizeof(ProxyPair),
                               sizeof(void*),
                               kMaxPolygonVertices,
                               alignof(Body)};
  std::uint64_t hash = 14695981039346656037ull;
  for (std::size_t s : sizes) hash = (hash ^ s) * 1099511628211ull;
  return hash;
}

}  // namespace

const char* ToString(SnapshotError error) {
  switch (error) {
    case SnapshotError::None:
      return "no error";
    case SnapshotError::Truncated:
      return "truncated";
    case SnapshotError::BadMagic:
      return "not a Minkowski snapshot";
    case SnapshotError::BadVersion:
      return "unsupported snapshot version";
    case SnapshotError::LayoutMismatch:
      return "written by a build with another memory layout";
    case SnapshotError::SizeMismatch:
      return "size does not match the header";
    case SnapshotError::BadChecksum:
      return "checksum mismatch";
    case SnapshotError::Oversized:
      return "a count exceeds its limit or the bytes left";
    case SnapshotError::Malformed:
      return "payload ends early or has trailing bytes";
    case SnapshotError::Inconsistent:
      return "inconsistent structure";
    case SnapshotError::InvalidValue:
      return "invalid value";
    case SnapshotError::WhileRecording:
      return "the world is recording";
    case SnapshotError::WhileLocked:
      return "the world is locked (inside Step or a query callback)";
  }
  return "unknown snapshot error";
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Save
// ---------------------------------------------------------------------------------------------

namespace {

void PutPool(ByteWriter& out, const IdPool& pool) {
  out.PutArray(pool.Generations());
  out.PutArray(pool.FreeSlots());
}

// By value, per type: a polygon's points and normals (out of line above 8 points) are written in
// full; the invalid geometry of a dead slot is its type alone.
void PutGeometry(ByteWriter& out, const ShapeGeometry& g, bool live) {
  const ShapeType type = live ? g.Type() : ShapeType::Count;
  out.Put(type);
  switch (type) {
    case ShapeType::Circle:
      out.Put(g.AsCircle());
      break;
    case ShapeType::Capsule:
      out.Put(g.AsCapsule());
      break;
    case ShapeType::Segment:
      out.Put(g.AsSegment());
      break;
    case ShapeType::ChainSegment:
      out.Put(g.AsChainSegment());
      break;
    case ShapeType::Polygon:
      out.Put(g.Radius());
      out.PutArray(std::span<const Vec2>(g.Points(), static_cast<std::size_t>(g.Count())));
      out.PutArray(std::span<const Vec2>(g.Normals(), static_cast<std::size_t>(g.Count())));
      break;
    case ShapeType::Count:
      break;
  }
}

}  // namespace

std::size_t World::SaveSnapshot(Span<std::byte> bytes) const {
  const WorldState& s = *state_;
  std::vector<std::byte>& out = state_->snapshotScratch;
  out.clear();
  out.resize(sizeof(Header));
  ByteWriter w(out);
  w.Put(s.gravity);
#if defined(MK_LARGE_WORLDS)
  w.Put(s.origin);
#endif
  w.Put(s.settings);
  w.Put(s.counters);
  for (const IdPool* pool :
       {&s.bodyIds, &s.shapeIds, &s.contactIds, &s.jointIds, &s.chainIds, &s.sleepGroupIds})
    PutPool(w, *pool);
  w.PutArray(s.bodies);
  w.PutArray(s.shapes);
  w.Put(static_cast<std::uint32_t>(s.geometries.size()));
  for (std::size_t i = 0; i < s.geometries.size(); ++i)
    PutGeometry(w, s.geometries[i], s.shapeIds.IsLive(static_cast<int>(i)));
  w.PutArray(s.contacts);
  w.PutArray(s.joints);
  w.Put(static_cast<std::uint32_t>(s.chains.size()));
  for (const Chain& chain : s.chains) {
    w.Put(chain.body);
    w.PutArray(chain.shapes);
  }
  w.PutArray(s.sleepGroupHead);
  w.PutArray(s.bodyNames);
  w.PutArray(s.beginEvents);
  w.PutArray(s.endEvents);
  w.PutArray(s.hitEvents);
  w.PutArray(s.sensorBeginEvents);
  w.PutArray(s.sensorEndEvents);
  w.PutArray(s.pendingEndEvents);
  w.PutArray(s.pendingSensorEndEvents);
  BroadPhaseSnapshot::Save(s.broadphase, w);

  Header header{};
  std::memcpy(header.magic, kMagic, sizeof kMagic);
  header.version = kSnapshotVersion;
  header.totalSize = out.size();
  header.layout = LayoutSignature();
  header.checksum = SnapshotChecksum(std::span<const std::byte>(out).subspan(sizeof(Header)));
  std::memcpy(out.data(), &header, sizeof header);
  if (bytes.size() >= out.size()) std::memcpy(bytes.data(), out.data(), out.size());
  return out.size();
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Load: parsing
// ---------------------------------------------------------------------------------------------

namespace {

SnapshotResult Refuse(SnapshotError error, const char* detail) { return {error, detail}; }

// A parse failure: a count over its cap or over the bytes left is Oversized, anything else Malformed.
SnapshotResult ParseFailure(const ByteReader& in, const char* detail) {
  return Refuse(in.CountRefused() ? SnapshotError::Oversized : SnapshotError::Malformed, detail);
}

bool GetPool(ByteReader& in, IdPool& pool) {
  std::vector<std::uint32_t> generations;
  std::vector<int> freeSlots;
  return in.GetArray(generations, kMaxSnapshotCount) && in.GetArray(freeSlots, kMaxSnapshotCount) &&
         pool.Assign(std::move(generations), std::move(freeSlots));
}

// One typed shape, validated as CreateShape / CreateChain validate theirs.
template <class Typed>
bool GetTyped(ByteReader& in, ShapeGeometry& out, bool& valid) {
  Typed typed;
  if (!in.Get(typed)) return false;
  valid = ValidGeometry(typed);
  out = typed;
  return true;
}

// A polygon's points and normals; AsPolygon then supplies the centroid ValidatePolygon checks.
bool GetPolygon(ByteReader& in, ShapeGeometry& out, bool& valid) {
  float radius;
  std::vector<Vec2> points, normals;
  if (!in.Get(radius) || !in.GetArray(points, kMaxPolygonVertices) ||
      !in.GetArray(normals, kMaxPolygonVertices))
    return false;
  valid = points.size() == normals.size() && points.size() >= 3;
  if (!valid) return true;
  Polygon p;
  p.count = static_cast<int>(points.size());
  p.radius = radius;
  std::copy(points.begin(), points.end(), p.vertices);
  std::copy(normals.begin(), normals.end(), p.normals);
  out = p;
  valid = ValidGeometry(out.AsPolygon());
  return true;
}

// A geometry written by PutGeometry: false when the bytes run out; `valid` says whether it passed the
// checks (live slots hold a valid geometry, dead ones the invalid one).
bool GetGeometry(ByteReader& in, ShapeGeometry& out, bool live, bool& valid) {
  ShapeType type;
  if (!in.Get(type)) return false;
  valid = EnumOk(type, static_cast<int>(ShapeType::Count) + 1) && (type == ShapeType::Count) == !live;
  if (!valid) return true;
  switch (type) {
    case ShapeType::Circle:
      return GetTyped<Circle>(in, out, valid);
    case ShapeType::Capsule:
      return GetTyped<Capsule>(in, out, valid);
    case ShapeType::Segment:
      return GetTyped<Segment>(in, out, valid);
    case ShapeType::ChainSegment:
      return GetTyped<ChainSegment>(in, out, valid);
    case ShapeType::Polygon:
      return GetPolygon(in, out, valid);
    case ShapeType::Count:
      out = ShapeGeometry();
      return true;
  }
  return true;
}

// Retags ids of the saving world to this one (null ids stay null).
template <class Id>
void Retag(Id& id, std::uint32_t tag) {
  id.world = id.IsNull() ? 0u : tag;
}
template <class Event>
void RetagPair(std::vector<Event>& events, std::uint32_t tag) {
  for (Event& e : events) {
    if constexpr (requires { e.sensorShape; }) {
      Retag(e.sensorShape, tag), Retag(e.visitorShape, tag);
    } else {
      Retag(e.shapeA, tag), Retag(e.shapeB, tag), Retag(e.contact, tag);
    }
  }
}

SnapshotResult Parse(ByteReader& in, WorldState& t, std::vector<bool>& geometryValid) {
  in.Get(t.gravity);
#if defined(MK_LARGE_WORLDS)
  in.Get(t.origin);
#endif
  in.Get(t.settings);
  in.Get(t.counters);
  if (in.Failed()) return ParseFailure(in, "settings");
  for (IdPool* pool : {&t.bodyIds, &t.shapeIds, &t.contactIds, &t.jointIds, &t.chainIds, &t.sleepGroupIds}) {
    if (!GetPool(in, *pool)) {
      if (in.Failed()) return ParseFailure(in, "id pool");
      return Refuse(SnapshotError::Inconsistent, "id pool free list");
    }
  }
  in.GetArray(t.bodies, kMaxSnapshotCount);
  in.GetArray(t.shapes, kMaxSnapshotCount);
  std::uint32_t geometryCount = 0;
  if (in.Failed() || !in.GetCount(geometryCount, kMaxSnapshotCount, sizeof(ShapeType)))
    return ParseFailure(in, "bodies or shapes");
  if (geometryCount != t.shapes.size() || static_cast<int>(geometryCount) != t.shapeIds.Capacity())
    return Refuse(SnapshotError::Inconsistent, "geometry count");
  t.geometries.resize(geometryCount);
  geometryValid.assign(geometryCount, false);
  for (std::uint32_t i = 0; i < geometryCount; ++i) {
    bool valid = false;
    if (!GetGeometry(in, t.geometries[i], t.shapeIds.IsLive(static_cast<int>(i)), valid))
      return ParseFailure(in, "geometry");
    geometryValid[i] = valid;
  }
  in.GetArray(t.contacts, kMaxSnapshotCount);
  in.GetArray(t.joints, kMaxSnapshotCount);
  std::uint32_t chainCount = 0;
  if (in.Failed() || !in.GetCount(chainCount, kMaxSnapshotCount, sizeof(int) + sizeof(std::uint32_t)))
    return ParseFailure(in, "contacts, joints or chains");
  t.chains.resize(chainCount);
  for (Chain& chain : t.chains) {
    if (!in.Get(chain.body) || !in.GetArray(chain.shapes, kMaxSnapshotCount))
      return ParseFailure(in, "chain");
  }
  in.GetArray(t.sleepGroupHead, kMaxSnapshotCount);
  in.GetArray(t.bodyNames, kMaxSnapshotCount);
  in.GetArray(t.beginEvents, kMaxSnapshotCount);
  in.GetArray(t.endEvents, kMaxSnapshotCount);
  in.GetArray(t.hitEvents, kMaxSnapshotCount);
  in.GetArray(t.sensorBeginEvents, kMaxSnapshotCount);
  in.GetArray(t.sensorEndEvents, kMaxSnapshotCount);
  in.GetArray(t.pendingEndEvents, kMaxSnapshotCount);
  in.GetArray(t.pendingSensorEndEvents, kMaxSnapshotCount);
  if (in.Failed()) return ParseFailure(in, "sleep groups or events");
  if (!BroadPhaseSnapshot::Load(in, t.broadphase, kMaxSnapshotCount)) {
    if (in.Failed()) return ParseFailure(in, "broadphase");
    return Refuse(SnapshotError::Inconsistent, "broadphase");
  }
  if (in.Remaining() != 0) return Refuse(SnapshotError::Malformed, "trailing bytes");
  return {};
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Restore
// ---------------------------------------------------------------------------------------------

namespace {

SnapshotResult CheckHeader(std::span<const std::byte> bytes) {
  if (bytes.size() < sizeof(Header)) return Refuse(SnapshotError::Truncated, "header");
  Header h;
  std::memcpy(&h, bytes.data(), sizeof h);
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0) return Refuse(SnapshotError::BadMagic, "magic");
  if (h.version != kSnapshotVersion || h.reserved != 0) return Refuse(SnapshotError::BadVersion, "version");
  if (h.layout != LayoutSignature()) return Refuse(SnapshotError::LayoutMismatch, "layout signature");
  if (h.totalSize > kMaxSnapshotBytes)
    return Refuse(SnapshotError::SizeMismatch, "total size over the limit");
  if (h.totalSize > bytes.size()) return Refuse(SnapshotError::Truncated, "shorter than the header's size");
  if (h.totalSize != bytes.size())
    return Refuse(SnapshotError::SizeMismatch, "longer than the header's size");
  if (SnapshotChecksum(bytes.subspan(sizeof(Header))) != h.checksum)
    return Refuse(SnapshotError::BadChecksum, "checksum");
  return {};
}

// Moves the restored state's persistent parts into the world's own WorldState (which stays where it
// is: the broadphase filter points at it), keeping what belongs to the receiver.
void MoveIn(WorldState& world, WorldState& t) {
  world.gravity = t.gravity;
  world.origin = t.origin;
  world.settings = t.settings;
  world.counters = t.counters;
  world.broadphase = std::move(t.broadphase);
  world.bodyIds = std::move(t.bodyIds);
  world.shapeIds = std::move(t.shapeIds);
  world.contactIds = std::move(t.contactIds);
  world.jointIds = std::move(t.jointIds);
  world.chainIds = std::move(t.chainIds);
  world.sleepGroupIds = std::move(t.sleepGroupIds);
  world.bodies.swap(t.bodies);
  world.bodyShapeMass.clear();  // derived from the old shapes: summed again when asked
  world.solverBodies.clear();   // it named the old bodies; the next Step's gather lists the new ones
  world.anyPivoting = true;     // not saved: the narrowphase's test then finds the pivoting bodies
  world.shapes.swap(t.shapes);
  world.maySurfaceShapes = false;  // as SetShapeMaterial would have raised it for these shapes
  for (const Shape& shape : world.shapes)
    if (shape.rollingResistance != 0.0f || shape.tangentSpeed != 0.0f) world.maySurfaceShapes = true;
  world.geometries.swap(t.geometries);
  RebuildShapePrev(world);  // derived: the lists' back links
  world.contacts.swap(t.contacts);
  world.joints.swap(t.joints);
  world.jointEnds.resize(world.joints.size());  // derived: each joint's body slots
  for (std::size_t slot = 0; slot < world.joints.size(); ++slot)
    world.jointEnds[slot] =
        world.joints[slot].type == JointType::Filter
            ? WorldState::JointEnds{}  // never solved (joints.cpp, NewJoint)
            : WorldState::JointEnds{world.joints[slot].edges[0].body, world.joints[slot].edges[1].body};
  world.chains.swap(t.chains);
  world.contactByShapes = std::move(t.contactByShapes);
  world.sleepGroupHead.swap(t.sleepGroupHead);
  world.bodyNames.swap(t.bodyNames);
  world.beginEvents.swap(t.beginEvents);
  world.endEvents.swap(t.endEvents);
  world.hitEvents.swap(t.hitEvents);
  world.sensorBeginEvents.swap(t.sensorBeginEvents);
  world.sensorEndEvents.swap(t.sensorEndEvents);
  world.pendingEndEvents.swap(t.pendingEndEvents);
  world.pendingSensorEndEvents.swap(t.pendingSensorEndEvents);
  const std::uint32_t tag = world.tag;
  RetagPair(world.beginEvents, tag);
  RetagPair(world.endEvents, tag);
  RetagPair(world.hitEvents, tag);
  RetagPair(world.sensorBeginEvents, tag);
  RetagPair(world.sensorEndEvents, tag);
  RetagPair(world.pendingEndEvents, tag);
  RetagPair(world.pendingSensorEndEvents, tag);
  world.continuousRecords.clear();  // the last Step's records describe the state being replaced
  world.jointEvents.clear();        // and its joint events
  world.mayBreakJoints = false;     // derived: some joint has a threshold
  for (int slot = 0; slot < world.jointIds.Capacity(); ++slot) {
    const Joint& j = world.joints[slot];
    if (world.jointIds.IsLive(slot) && (j.forceThreshold < kNoThreshold || j.torqueThreshold < kNoThreshold))
      world.mayBreakJoints = true;
  }
  world.moveEvents.clear();  // so do its move events (snapshots do not keep them)
  AttachBroadphaseFilter(world);
  RebuildContactSets(world);  // derived state: the awake contact set and the touching count
  RebuildAwakeBodySet(world);
}

}  // namespace

SnapshotResult World::RestoreSnapshot(Span<const std::byte> snapshot) {
  if (RefuseIfLocked(*state_))
    return {SnapshotError::WhileLocked, "the world is locked: restore between Steps"};
  // A recording replays calls from an empty world; a restore in the middle is not a call it can hold.
  MK_ASSERT(!IsRecording());
  if (IsRecording()) return {SnapshotError::WhileRecording, "stop the recording first"};
  if (SnapshotResult header = CheckHeader(snapshot); !header.ok()) return header;
  ByteReader in(std::span<const std::byte>(snapshot.data(), snapshot.size()).subspan(sizeof(Header)));
  auto temp = OwnedPtr<WorldState>(new WorldState());
  std::vector<bool> geometryValid;
  if (SnapshotResult parsed = Parse(in, *temp, geometryValid); !parsed.ok()) return parsed;
  if (SnapshotResult valid = ValidateSnapshotState(*temp, geometryValid); !valid.ok()) return valid;
  MoveIn(*state_, *temp);
  return {};
}

}  // namespace mk
