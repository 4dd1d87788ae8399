// World snapshots: SaveSnapshot writes the whole persistent state, RestoreSnapshot reads it into a new
// WorldState, validates every index, list, number and geometry, and only then moves it in (all or
// nothing). Format and limits: minkowski/snapshot.h; design and costs: docs/design.md, Snapshots.
// [SECTION] Format: header, layout signature, what is copied as bytes
// [SECTION] Save
// [SECTION] Load: parsing
// [SECTION] Load: validation
// [SECTION] Restore
//
// Plain structs (Body, Shape, Contact, Joint, settings, events) are copied as their bytes, so a field
// added to one is saved and restored without touching this file; the layout signature changes with
// its size, and RestoreSnapshot refuses snapshots of the old layout. A new field the engine trusts
// (an index, a count, a number that must be finite) still needs its check below: the static_asserts
// on the sizes stop the build until someone has looked.
#include "broadphase/broadphase_impl.h"
#include "broadphase/broadphase_snapshot.h"
#include "core/byte_stream.h"
#include "minkowski/world.h"
#include "world/world_internal.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <type_traits>
#include <utility>

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
// bytes); add a check to the validation below if the engine indexes with it or needs it finite,
// then update the size here. (Sizes of the x86-64 / AArch64 builds.)
static_assert(sizeof(Body) == 176, "Body changed: review ValidBody in snapshot.cpp");
static_assert(sizeof(Shape) == 104, "Shape changed: review ValidShape in snapshot.cpp");
static_assert(sizeof(Contact) == 212, "Contact changed: review ValidContact in snapshot.cpp");
static_assert(sizeof(Joint) == 208, "Joint changed: review ValidJoint in snapshot.cpp");

// A hash of the sizes of everything copied as bytes: a snapshot from a build whose structs differ
// (another engine version, compiler or platform) is refused as LayoutMismatch rather than misread.
std::uint64_t LayoutSignature() {
  const std::size_t sizes[] = {sizeof(Body),      sizeof(Shape),          sizeof(Contact),
                               sizeof(Joint),     sizeof(SolverSettings), sizeof(Counters),
                               sizeof(Manifold),  sizeof(SimplexCache),   sizeof(ContactHitEvent),
                               sizeof(ShapeId),   sizeof(ProxySlot),      sizeof(PairNode),
                               sizeof(BandEntry), sizeof(LayoutParams),   sizeof(ProxyPair),
                               sizeof(void*),     kMaxPolygonVertices,    alignof(Body)};
  std::uint64_t hash = 14695981039346656037ull;
  for (std::size_t s : sizes) hash = (hash ^ s) * 1099511628211ull;
  return hash;
}

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
bool InRange(float x, float lo, float hi) { return x >= lo && x <= hi; }
bool Unit(float c, float s, float tolerance = kUnitTolerance) {
  return Within(c * c + s * s - 1.0f, tolerance);
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

void World::SaveSnapshot(std::vector<std::byte>& out) const {
  const WorldState& s = *state_;
  out.clear();
  out.resize(sizeof(Header));
  ByteWriter w(out);
  w.Put(s.gravity);
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
}

std::vector<std::byte> World::SaveSnapshot() const {
  std::vector<std::byte> out;
  SaveSnapshot(out);
  return out;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Load: parsing
// ---------------------------------------------------------------------------------------------

namespace {

// Failure with the error code and the name of the check (SnapshotResult::detail).
struct LoadError {
  SnapshotError error;
  const char* detail;
};

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
void Retag(ShapeId& id, std::uint32_t tag) { id.world = id.IsNull() ? 0u : tag; }
template <class Event>
void RetagPair(std::vector<Event>& events, std::uint32_t tag) {
  for (Event& e : events) {
    if constexpr (requires { e.sensorShape; }) {
      Retag(e.sensorShape, tag), Retag(e.visitorShape, tag);
    } else {
      Retag(e.shapeA, tag), Retag(e.shapeB, tag);
    }
  }
}

SnapshotResult Parse(ByteReader& in, WorldState& t, std::vector<bool>& geometryValid) {
  in.Get(t.gravity);
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
// [SECTION] Load: validation
// ---------------------------------------------------------------------------------------------

namespace {

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
                       BoolByteOk(b.heldAtStart) && BoolByteOk(b.movedFast);
    if (!flags) return Invalid("body type or flag");
    const bool pose = Within(b.xf.p, kMaxCoordinate) && Within(b.center, kMaxCoordinate) &&
                      Within(b.center0, kMaxCoordinate) && Within(b.localCenter, kMaxLocalLength) &&
                      Unit(b.xf.q.c, b.xf.q.s) && Unit(b.q0.c, b.q0.s);
    const bool motion = Within(b.linearVelocity, kMaxSpeed) &&
                        Within(b.angularVelocity, 1.01f * kMaxAngularSpeed) && Finite(b.force.x) &&
                        Finite(b.force.y) && Finite(b.torque);
    const bool mass = InRange(b.mass, 0.0f, kMaxBodyMass) && InRange(b.inertia, 0.0f, kMaxBodyInertia) &&
                      Finite(b.invMass) && b.invMass >= 0.0f && Finite(b.invInertia) && b.invInertia >= 0.0f;
    const bool params = Finite(b.linearDamping) && b.linearDamping >= 0.0f && Finite(b.angularDamping) &&
                        b.angularDamping >= 0.0f && Finite(b.gravityScale) && Finite(b.sleepThreshold) &&
                        Finite(b.sleepTime) && b.sleepTime >= 0.0f &&
                        InRange(b.maxExtent, 0.0f, kMaxLocalLength) &&
                        InRange(b.minExtent, 0.0f, kMaxLocalLength);
    if (!pose) return Invalid("body pose");
    // The solver moves the centre of mass and places the origin from it (xf.p = center - R localCenter):
    // the two must agree up to that rounding. A centre elsewhere put every contact's lever arm off by
    // the difference, and fuzz_snapshot stepped such a world to NaN.
    const Vec2 expected = TransformPoint(b.xf, b.localCenter);
    const float tolerance = 1e-4f * (1.0f + std::fabs(b.center.x) + std::fabs(b.center.y) +
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
    const Shape& s = t_.shapes[slot];
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
    const bool isChainSegment = t_.geometries[slot].Type() == ShapeType::ChainSegment;
    if (isChainSegment != (s.chain != kNull) || (s.chain != kNull && !t_.chainIds.IsLive(s.chain)))
      return Inconsistent("shape chain");
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
    if (t_.contactByShapes.Find(key) != -1) return Inconsistent("two contacts for one shape pair");
    t_.contactByShapes.Insert(key, slot);
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
  world.solverBodies.clear();  // it named the old bodies; the next Step's gather lists the new ones
  world.shapes.swap(t.shapes);
  world.maySurfaceShapes = false;  // as SetShapeMaterial would have raised it for these shapes
  for (const Shape& shape : world.shapes)
    if (shape.rollingResistance != 0.0f || shape.tangentSpeed != 0.0f) world.maySurfaceShapes = true;
  world.geometries.swap(t.geometries);
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

SnapshotResult World::RestoreSnapshot(std::span<const std::byte> snapshot) {
  if (RefuseIfLocked(*state_))
    return {SnapshotError::WhileLocked, "the world is locked: restore between Steps"};
  // A recording replays calls from an empty world; a restore in the middle is not a call it can hold.
  MK_ASSERT(!IsRecording());
  if (IsRecording()) return {SnapshotError::WhileRecording, "stop the recording first"};
  if (SnapshotResult header = CheckHeader(snapshot); !header.ok()) return header;
  ByteReader in(snapshot.subspan(sizeof(Header)));
  auto temp = std::make_unique<WorldState>();
  std::vector<bool> geometryValid;
  if (SnapshotResult parsed = Parse(in, *temp, geometryValid); !parsed.ok()) return parsed;
  if (SnapshotResult valid = Validator(*temp).Run(geometryValid); !valid.ok()) return valid;
  MoveIn(*state_, *temp);
  return {};
}

}  // namespace mk
