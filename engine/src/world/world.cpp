// World API: creation, destruction, getters and setters. Every entry validates its ids and values
// first (MK_ASSERT + neutral result on misuse), so the state below it can assume valid input.
#include "minkowski/world.h"

#include "minkowski/assert.h"
#include "solver/contact_solver.h"  // ClampLinearSpeed, ClampAngularSpeed: the solver's speed limits
#include "world/world_internal.h"
#include "world/world_state.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <utility>

namespace mk {

namespace {

bool ValidBodyDef(const BodyDef& def) {
  return def.type <= BodyType::Dynamic && ValidPoint(def.position) && IsFinite(def.angle) &&
         IsFinite(def.linearVelocity) && IsFinite(def.angularVelocity) && IsFinite(def.linearDamping) &&
         def.linearDamping >= 0.0f && IsFinite(def.angularDamping) && def.angularDamping >= 0.0f &&
         IsFinite(def.gravityScale) && IsFinite(def.sleepThreshold) && def.sleepThreshold >= 0.0f;
}

// Friction and restitution in 0..kMaxMaterialCoefficient (world_types.h); false for NaN.
bool ValidCoefficient(float x) { return x >= 0.0f && x <= kMaxMaterialCoefficient; }

bool ValidShapeDef(const ShapeDef& def) {
  return IsFinite(def.density) && def.density >= 0.0f && ValidCoefficient(def.friction) &&
         ValidCoefficient(def.restitution);
}

// A tag no other World of this process has had (until 2^32 - 1 worlds were made): ids carry it, so
// a call with another world's id is caught instead of acting on whatever sits in that slot here.
std::uint32_t NextWorldTag() {
  static std::atomic<std::uint32_t> counter{0};
  std::uint32_t tag = counter.fetch_add(1, std::memory_order_relaxed) + 1;
  if (tag == 0) tag = counter.fetch_add(1, std::memory_order_relaxed) + 1;  // 0 is the null ids' tag
  return tag;
}

std::unique_ptr<WorldState> NewWorldState() {
  auto state = std::make_unique<WorldState>();
  state->tag = NextWorldTag();
  return state;
}

}  // namespace

World::World(const WorldDef& def) : state_(NewWorldState()) {
  MK_ASSERT(IsFinite(def.gravity));
  state_->gravity = IsFinite(def.gravity) ? def.gravity : Vec2{0.0f, -10.0f};
  SetSolverSettings(def.settings);
}

World::~World() = default;

// The moved-from world is left empty and usable (default settings, a tag of its own) rather than
// holding no state: every call on it then behaves as on a new world instead of dereferencing null.
World::World(World&& other) : state_(std::exchange(other.state_, NewWorldState())) {}

World& World::operator=(World&& other) {
  if (this != &other) {
    std::unique_ptr<WorldState> fresh = NewWorldState();
    state_ = std::move(other.state_);
    other.state_ = std::move(fresh);
  }
  return *this;
}

// --- Settings -------------------------------------------------------------------------------------

void World::SetGravity(Vec2 gravity) {
  MK_ASSERT(IsFinite(gravity));
  if (!IsFinite(gravity)) return;
  state_->gravity = gravity;
  WakeAllBodies(*state_);
}

Vec2 World::GetGravity() const { return state_->gravity; }

bool World::SetSolverSettings(const SolverSettings& requested) {
  SolverSettings& s = state_->settings;
  bool exact = true;
  auto setFloat = [&exact](float& field, float value, float lo, float hi) {
    if (!IsFinite(value)) {
      exact = false;
      return;
    }
    float clamped = std::clamp(value, lo, hi);
    exact = exact && clamped == value;
    field = clamped;
  };
  auto setInt = [&exact](int& field, int value, int lo, int hi) {
    int clamped = std::clamp(value, lo, hi);
    exact = exact && clamped == value;
    field = clamped;
  };
  s.mode = requested.mode == SolverMode::Classic ? SolverMode::Classic : SolverMode::SoftStep;
  setInt(s.subSteps, requested.subSteps, 1, 64);
  setFloat(s.contactHertz, requested.contactHertz, 0.0f, 1000.0f);
  setFloat(s.contactDampingRatio, requested.contactDampingRatio, 0.0f, 1000.0f);
  setFloat(s.staticContactScale, requested.staticContactScale, 1.0f, 10.0f);
  setFloat(s.contactPushMaxSpeed, requested.contactPushMaxSpeed, 0.0f, 1000.0f);
  setFloat(s.jointHertz, requested.jointHertz, 0.0f, 1000.0f);
  setFloat(s.jointDampingRatio, requested.jointDampingRatio, 0.0f, 1000.0f);
  setFloat(s.restitutionThreshold, requested.restitutionThreshold, 0.0f, 1000.0f);
  setFloat(s.hitEventThreshold, requested.hitEventThreshold, 0.0f, 1e6f);
  setFloat(s.linearSlop, requested.linearSlop, 0.0f, 1.0f);
  setFloat(s.speculativeDistance, requested.speculativeDistance, 0.0f, 1.0f);
  setFloat(s.aabbMargin, requested.aabbMargin, 0.0f, 10.0f);
  setFloat(s.maxLinearSpeed, requested.maxLinearSpeed, 0.0f, 1e5f);
  setFloat(s.timeToSleep, requested.timeToSleep, 0.0f, 1e6f);
  s.enableWarmStarting = requested.enableWarmStarting;
  s.enableRelax = requested.enableRelax;
  s.enableRestitution = requested.enableRestitution;
  if (s.enableSleep && !requested.enableSleep) WakeAllBodies(*state_);
  s.enableSleep = requested.enableSleep;
  setInt(s.classicIterations, requested.classicIterations, 1, 256);
  setFloat(s.classicBaumgarte, requested.classicBaumgarte, 0.0f, 1.0f);
  return exact;
}

const SolverSettings& World::GetSolverSettings() const { return state_->settings; }
const Profile& World::GetProfile() const { return state_->profile; }
Counters World::GetCounters() const { return state_->counters; }

std::uint64_t World::StateHash() const {
  std::uint64_t hash = 14695981039346656037ull;  // FNV-1a offset basis
  auto mix = [&hash](float value) {
    std::uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    for (int i = 0; i < 4; ++i) {
      hash ^= (bits >> (8 * i)) & 0xFFu;
      hash *= 1099511628211ull;  // FNV prime
    }
  };
  for (int slot = 0; slot < state_->bodyIds.Capacity(); ++slot) {
    if (!state_->bodyIds.IsLive(slot)) continue;
    const Body& body = state_->bodies[slot];
    mix(body.xf.p.x), mix(body.xf.p.y), mix(body.xf.q.c), mix(body.xf.q.s);
    mix(body.linearVelocity.x), mix(body.linearVelocity.y), mix(body.angularVelocity);
  }
  return hash;
}

// --- Bodies ---------------------------------------------------------------------------------------

// Speeds given to a body are clamped to the solver's limits (world_types.h) at the call, not only in
// the solver: products the solver forms with a velocity before it integrates (relative contact
// speeds, restitution) then stay finite.
BodyId World::CreateBody(const BodyDef& def) {
  MK_ASSERT(ValidBodyDef(def));
  if (!ValidBodyDef(def)) return {};
  WorldState& w = *state_;
  int slot = w.bodyIds.Allocate();
  if (slot >= static_cast<int>(w.bodies.size())) w.bodies.resize(slot + 1);
  Body& body = w.bodies[slot];
  body = Body{};
  body.type = def.type;
  body.xf = MakeTransform(def.position, def.angle);
  body.center = def.position;
  if (def.type != BodyType::Static) {
    body.linearVelocity = ClampLinearSpeed(def.linearVelocity, w.settings.maxLinearSpeed);
    body.angularVelocity = ClampAngularSpeed(def.angularVelocity);
  }
  body.linearDamping = def.linearDamping;
  body.angularDamping = def.angularDamping;
  body.gravityScale = def.gravityScale;
  body.sleepThreshold = def.sleepThreshold;
  body.fixedRotation = def.fixedRotation;
  body.enableSleep = def.enableSleep;
  body.enabled = def.isEnabled;
  body.awake = def.type != BodyType::Static && def.isAwake;
  body.userData = def.userData;
  UpdateBodyMass(w, slot);
  if (!body.awake && def.type != BodyType::Static) {  // created asleep: an island of its own
    body.awake = true;
    PutIslandToSleep(w, slot);
  }
  return w.MakeBodyId(slot);
}

bool World::DestroyBody(BodyId id) {
  MK_ASSERT(state_->IsBody(id));
  if (!state_->IsBody(id)) return false;
  WorldState& w = *state_;
  int slot = state_->BodySlot(id);
  // Waking first takes the body out of its sleep group (whose member list would otherwise keep
  // pointing at the freed slot) and wakes what it rested on or hung from.
  WakeBody(w, slot);
  DestroyJointsOfBody(w, slot);
  while (w.bodies[slot].headShape != kNull) DestroyShapeInternal(w, w.bodies[slot].headShape, false);
  WakeTouchingBodies(w, slot);
  w.bodyIds.Free(slot);
  return true;
}

bool World::IsValid(BodyId id) const { return state_->IsBody(id); }

// Looks a body up, or asserts and returns nullptr for a stale id. (The World's const methods reach
// the state through unique_ptr, which does not propagate const, so one overload serves both.)
static Body* FindBody(WorldState& w, BodyId id) {
  bool live = w.IsBody(id);
  MK_ASSERT(live);
  return live ? &w.bodies[w.BodySlot(id)] : nullptr;
}

BodyType World::GetBodyType(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  return b ? b->type : BodyType::Static;
}

Vec2 World::GetPosition(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  return b ? b->xf.p : Vec2{0.0f, 0.0f};
}

float World::GetAngle(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  return b ? Angle(b->xf.q) : 0.0f;
}

Transform World::GetTransform(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  return b ? b->xf : Transform{};
}

void World::SetTransform(BodyId id, Vec2 position, float angle) {
  Body* b = FindBody(*state_, id);
  MK_ASSERT(ValidPoint(position) && IsFinite(angle));
  if (!b || !ValidPoint(position) || !IsFinite(angle)) return;
  b->xf = MakeTransform(position, angle);
  b->center = TransformPoint(b->xf, b->localCenter);
  int slot = state_->BodySlot(id);
  UpdateBodyShapesInBroadphase(*state_, slot, /*teleport=*/true);
  if (b->type != BodyType::Static) WakeBody(*state_, slot);
}

Vec2 World::GetLinearVelocity(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  return b ? b->linearVelocity : Vec2{0.0f, 0.0f};
}

void World::SetLinearVelocity(BodyId id, Vec2 velocity) {
  Body* b = FindBody(*state_, id);
  MK_ASSERT(IsFinite(velocity));
  if (!b || !IsFinite(velocity) || b->type == BodyType::Static) return;
  b->linearVelocity = ClampLinearSpeed(velocity, state_->settings.maxLinearSpeed);
  if (LengthSquared(velocity) > 0.0f) WakeBody(*state_, state_->BodySlot(id));
}

float World::GetAngularVelocity(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  return b ? b->angularVelocity : 0.0f;
}

void World::SetAngularVelocity(BodyId id, float omega) {
  Body* b = FindBody(*state_, id);
  MK_ASSERT(IsFinite(omega));
  if (!b || !IsFinite(omega) || b->type == BodyType::Static || b->fixedRotation) return;
  b->angularVelocity = ClampAngularSpeed(omega);
  if (omega != 0.0f) WakeBody(*state_, state_->BodySlot(id));
}

void World::ApplyForce(BodyId id, Vec2 force, Vec2 worldPoint, bool wake) {
  Body* b = FindBody(*state_, id);
  MK_ASSERT(IsFinite(force) && IsFinite(worldPoint));
  if (!b || !IsFinite(force) || !IsFinite(worldPoint) || b->type != BodyType::Dynamic) return;
  int slot = state_->BodySlot(id);
  if (wake) WakeBody(*state_, slot);
  if (!b->awake) return;  // forces on sleeping bodies are dropped, as in Box2D
  const Vec2 newForce = b->force + force;
  const float newTorque = b->torque + Cross(worldPoint - b->center, force);
  const bool finite = IsFinite(newForce) && IsFinite(newTorque);
  MK_ASSERT(finite);  // the accumulated force or torque would overflow
  if (!finite) return;
  b->force = newForce;
  b->torque = newTorque;
}

void World::ApplyForceToCenter(BodyId id, Vec2 force, bool wake) {
  Body* b = FindBody(*state_, id);
  if (b) ApplyForce(id, force, b->center, wake);
}

void World::ApplyTorque(BodyId id, float torque, bool wake) {
  Body* b = FindBody(*state_, id);
  MK_ASSERT(IsFinite(torque));
  if (!b || !IsFinite(torque) || b->type != BodyType::Dynamic) return;
  if (wake) WakeBody(*state_, state_->BodySlot(id));
  if (!b->awake) return;
  const bool finite = IsFinite(b->torque + torque);
  MK_ASSERT(finite);  // the accumulated torque would overflow
  if (finite) b->torque += torque;
}

void World::ApplyLinearImpulse(BodyId id, Vec2 impulse, Vec2 worldPoint, bool wake) {
  Body* b = FindBody(*state_, id);
  MK_ASSERT(IsFinite(impulse) && IsFinite(worldPoint));
  if (!b || !IsFinite(impulse) || !IsFinite(worldPoint) || b->type != BodyType::Dynamic) return;
  if (wake) WakeBody(*state_, state_->BodySlot(id));
  if (!b->awake) return;
  const Vec2 v = b->linearVelocity + b->invMass * impulse;
  const float w = b->angularVelocity + b->invInertia * Cross(worldPoint - b->center, impulse);
  const bool finite = IsFinite(v) && IsFinite(w);
  MK_ASSERT(finite);  // the impulse overflows the velocity
  if (!finite) return;
  b->linearVelocity = ClampLinearSpeed(v, state_->settings.maxLinearSpeed);
  b->angularVelocity = ClampAngularSpeed(w);
}

void World::ApplyLinearImpulseToCenter(BodyId id, Vec2 impulse, bool wake) {
  Body* b = FindBody(*state_, id);
  if (b) ApplyLinearImpulse(id, impulse, b->center, wake);
}

void World::ApplyAngularImpulse(BodyId id, float impulse, bool wake) {
  Body* b = FindBody(*state_, id);
  MK_ASSERT(IsFinite(impulse));
  if (!b || !IsFinite(impulse) || b->type != BodyType::Dynamic) return;
  if (wake) WakeBody(*state_, state_->BodySlot(id));
  if (!b->awake) return;
  const float w = b->angularVelocity + b->invInertia * impulse;
  MK_ASSERT(IsFinite(w));  // the impulse overflows the angular velocity
  if (IsFinite(w)) b->angularVelocity = ClampAngularSpeed(w);
}

float World::GetMass(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  return b ? b->mass : 0.0f;
}

float World::GetRotationalInertia(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  return b ? b->inertia : 0.0f;
}

Vec2 World::GetWorldCenterOfMass(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  return b ? b->center : Vec2{0.0f, 0.0f};
}

Vec2 World::GetLocalCenterOfMass(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  return b ? b->localCenter : Vec2{0.0f, 0.0f};
}

void World::SetLinearDamping(BodyId id, float damping) {
  Body* b = FindBody(*state_, id);
  MK_ASSERT(IsFinite(damping) && damping >= 0.0f);
  if (b && IsFinite(damping) && damping >= 0.0f) b->linearDamping = damping;
}

void World::SetAngularDamping(BodyId id, float damping) {
  Body* b = FindBody(*state_, id);
  MK_ASSERT(IsFinite(damping) && damping >= 0.0f);
  if (b && IsFinite(damping) && damping >= 0.0f) b->angularDamping = damping;
}

void World::SetGravityScale(BodyId id, float scale) {
  Body* b = FindBody(*state_, id);
  MK_ASSERT(IsFinite(scale));
  if (b && IsFinite(scale)) b->gravityScale = scale;
}

void World::SetFixedRotation(BodyId id, bool fixed) {
  Body* b = FindBody(*state_, id);
  if (!b) return;
  b->fixedRotation = fixed;
  if (fixed) b->angularVelocity = 0.0f;
  UpdateBodyMass(*state_, state_->BodySlot(id));
}

void World::SetAwake(BodyId id, bool awake) {
  Body* b = FindBody(*state_, id);
  if (!b || b->type == BodyType::Static) return;
  int slot = state_->BodySlot(id);
  if (awake) {
    WakeBody(*state_, slot);
  } else {
    PutIslandToSleep(*state_, slot);
  }
}

bool World::IsAwake(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  return b ? b->awake : false;
}

void World::SetSleepEnabled(BodyId id, bool enabled) {
  Body* b = FindBody(*state_, id);
  if (!b) return;
  b->enableSleep = enabled;
  if (!enabled) WakeBody(*state_, state_->BodySlot(id));
}

void World::SetEnabled(BodyId id, bool enabled) {
  Body* b = FindBody(*state_, id);
  if (!b || b->enabled == enabled) return;
  int slot = state_->BodySlot(id);
  b->enabled = enabled;
  SetBodyShapesInBroadphase(*state_, slot, enabled);
  if (enabled) WakeBody(*state_, slot);
}

bool World::IsEnabled(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  return b ? b->enabled : false;
}

void World::SetUserData(BodyId id, void* userData) {
  if (Body* b = FindBody(*state_, id)) b->userData = userData;
}

void* World::GetUserData(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  return b ? b->userData : nullptr;
}

// --- Shapes ---------------------------------------------------------------------------------------

// The geometry checks of each shape type: finite, within kMaxWorldLength, and what its Make*
// constructor (or ValidatePolygon) requires.
static bool ValidGeometry(const Circle& c) {
  return ValidPoint(c.center) && ValidLength(c.radius) && MakeCircle(c.center, c.radius).ok();
}
static bool ValidGeometry(const Capsule& c) {
  return ValidPoint(c.p1) && ValidPoint(c.p2) && ValidLength(c.radius) && MakeCapsule(c.p1, c.p2, c.radius).ok();
}
static bool ValidGeometry(const Segment& s) {
  return ValidPoint(s.p1) && ValidPoint(s.p2) && MakeSegment(s.p1, s.p2).ok();
}
static bool ValidGeometry(const Polygon& p) {
  if (ValidatePolygon(p) != GeometryError::None || !ValidLength(p.radius)) return false;
  for (int i = 0; i < p.count; ++i) {
    if (!ValidPoint(p.vertices[i])) return false;
  }
  return true;
}

template <class Geometry>
static ShapeId AddShape(WorldState& w, BodyId bodyId, const ShapeDef& def, const Geometry& geometry) {
  bool valid = w.IsBody(bodyId) && ValidShapeDef(def) && ValidGeometry(geometry);
  if (valid) {  // the body's mass properties with this shape must stay finite
    GeometryResult<MassData> mass = ComputeMass(geometry, def.density);
    BodyMassSum sum = SumShapeMasses(w, w.BodySlot(bodyId), kNull);
    sum.Add(mass.value);
    valid = mass.ok() && MassIsUsable(mass.value) && sum.Finite();
  }
  MK_ASSERT(valid);
  if (!valid) return {};
  int slot = w.shapeIds.Allocate();
  if (slot >= static_cast<int>(w.shapes.size())) {
    w.shapes.resize(slot + 1);
    w.cores.resize(slot + 1);
  }
  Shape& shape = w.shapes[slot];
  shape = Shape{};
  if constexpr (std::is_same_v<Geometry, Circle>) {
    shape.type = ShapeType::Circle, shape.circle = geometry;
  } else if constexpr (std::is_same_v<Geometry, Capsule>) {
    shape.type = ShapeType::Capsule, shape.capsule = geometry;
  } else if constexpr (std::is_same_v<Geometry, Segment>) {
    shape.type = ShapeType::Segment, shape.segment = geometry;
  } else {
    shape.type = ShapeType::Polygon, shape.polygon = geometry;
  }
  w.cores[slot] = MakeCompactCore(shape.Ref());
  shape.density = def.density;
  shape.friction = def.friction;
  shape.restitution = def.restitution;
  shape.filter = def.filter;
  shape.isSensor = def.isSensor;
  shape.enableContactEvents = def.enableContactEvents;
  shape.enableHitEvents = def.enableHitEvents;
  shape.enableSensorEvents = def.enableSensorEvents;
  shape.userData = def.userData;
  int bodySlot = w.BodySlot(bodyId);
  Body& body = w.bodies[bodySlot];
  shape.body = bodySlot;
  shape.nextShape = body.headShape;
  body.headShape = slot;
  shape.aabb = ComputeShapeAABB(shape, body.xf);
  if (body.enabled) AddShapeToBroadphase(w, slot);
  UpdateBodyMass(w, bodySlot);
  return w.MakeShapeId(slot);
}

ShapeId World::CreateShape(BodyId body, const ShapeDef& def, const Circle& circle) {
  return AddShape(*state_, body, def, circle);
}

ShapeId World::CreateShape(BodyId body, const ShapeDef& def, const Capsule& capsule) {
  return AddShape(*state_, body, def, capsule);
}

ShapeId World::CreateShape(BodyId body, const ShapeDef& def, const Segment& segment) {
  return AddShape(*state_, body, def, segment);
}

ShapeId World::CreateShape(BodyId body, const ShapeDef& def, const Polygon& polygon) {
  return AddShape(*state_, body, def, polygon);
}

bool World::DestroyShape(ShapeId id) {
  MK_ASSERT(state_->IsShape(id));
  if (!state_->IsShape(id)) return false;
  DestroyShapeInternal(*state_, state_->ShapeSlot(id), true);
  return true;
}

bool World::IsValid(ShapeId id) const { return state_->IsShape(id); }

static Shape* FindShape(WorldState& w, ShapeId id) {
  bool live = w.IsShape(id);
  MK_ASSERT(live);
  return live ? &w.shapes[w.ShapeSlot(id)] : nullptr;
}

void World::SetUserData(ShapeId id, void* userData) {
  if (Shape* s = FindShape(*state_, id)) s->userData = userData;
}

void* World::GetUserData(ShapeId id) const {
  const Shape* s = FindShape(*state_, id);
  return s ? s->userData : nullptr;
}

BodyId World::GetBody(ShapeId id) const {
  const Shape* s = FindShape(*state_, id);
  return s ? state_->MakeBodyId(s->body) : BodyId{};
}

ShapeType World::GetShapeType(ShapeId id) const {
  const Shape* s = FindShape(*state_, id);
  return s ? s->type : ShapeType::Count;
}

void World::SetFriction(ShapeId id, float friction) {
  Shape* s = FindShape(*state_, id);
  MK_ASSERT(ValidCoefficient(friction));
  if (s && ValidCoefficient(friction)) s->friction = friction;
}

float World::GetFriction(ShapeId id) const {
  const Shape* s = FindShape(*state_, id);
  return s ? s->friction : 0.0f;
}

void World::SetRestitution(ShapeId id, float restitution) {
  Shape* s = FindShape(*state_, id);
  MK_ASSERT(ValidCoefficient(restitution));
  if (s && ValidCoefficient(restitution)) s->restitution = restitution;
}

float World::GetRestitution(ShapeId id) const {
  const Shape* s = FindShape(*state_, id);
  return s ? s->restitution : 0.0f;
}

void World::SetDensity(ShapeId id, float density) {
  Shape* s = FindShape(*state_, id);
  if (!s) return;
  bool valid = IsFinite(density) && density >= 0.0f;
  if (valid) {  // the body's mass properties with the new density must stay finite
    Shape changed = *s;
    changed.density = density;
    const MassData mass = ShapeMass(changed);
    BodyMassSum sum = SumShapeMasses(*state_, s->body, state_->ShapeSlot(id));
    sum.Add(mass);
    valid = MassIsUsable(mass) && sum.Finite();
  }
  MK_ASSERT(valid);
  if (!valid) return;
  s->density = density;
  UpdateBodyMass(*state_, s->body);
}

void World::SetFilter(ShapeId id, const Filter& filter) {
  Shape* s = FindShape(*state_, id);
  if (!s) return;
  s->filter = filter;
  RefilterShape(*state_, state_->ShapeSlot(id));
}

Filter World::GetFilter(ShapeId id) const {
  const Shape* s = FindShape(*state_, id);
  return s ? s->filter : Filter{};
}

AABB World::GetAABB(ShapeId id) const {
  const Shape* s = FindShape(*state_, id);
  return s ? s->aabb : AABB{};
}

// --- Events and inspection ------------------------------------------------------------------------

std::span<const ContactBeginEvent> World::GetContactBeginEvents() const { return state_->beginEvents; }
std::span<const ContactEndEvent> World::GetContactEndEvents() const { return state_->endEvents; }
std::span<const ContactHitEvent> World::GetContactHitEvents() const { return state_->hitEvents; }
std::span<const SensorBeginEvent> World::GetSensorBeginEvents() const { return state_->sensorBeginEvents; }
std::span<const SensorEndEvent> World::GetSensorEndEvents() const { return state_->sensorEndEvents; }

int World::ContactCapacity() const { return state_->contactIds.Capacity(); }

bool World::GetContactView(int slot, ContactView& out) const {
  const WorldState& w = *state_;
  if (!w.contactIds.IsLive(slot)) return false;
  const Contact& c = w.contacts[slot];
  out.shapeA = w.MakeShapeId(c.shapeA);
  out.shapeB = w.MakeShapeId(c.shapeB);
  out.manifold = c.manifold;
  return true;
}

}  // namespace mk
