// World API: creation, destruction, getters and setters. Every entry validates its ids and values
// first (MK_ASSERT + neutral result on misuse), so the state below it can assume valid input.
#include "minkowski/world.h"

#include "minkowski/assert.h"
#include "world/world_internal.h"
#include "world/world_state.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

namespace mk {

namespace {

bool ValidBodyDef(const BodyDef& def) {
  return IsFinite(def.position) && IsFinite(def.angle) && IsFinite(def.linearVelocity) &&
         IsFinite(def.angularVelocity) && IsFinite(def.linearDamping) && def.linearDamping >= 0.0f &&
         IsFinite(def.angularDamping) && def.angularDamping >= 0.0f && IsFinite(def.gravityScale) &&
         IsFinite(def.sleepThreshold) && def.sleepThreshold >= 0.0f;
}

bool ValidShapeDef(const ShapeDef& def) {
  return IsFinite(def.density) && def.density >= 0.0f && IsFinite(def.friction) && def.friction >= 0.0f &&
         IsFinite(def.restitution) && def.restitution >= 0.0f;
}

}  // namespace

World::World(const WorldDef& def) : state_(std::make_unique<WorldState>()) {
  state_->gravity = IsFinite(def.gravity) ? def.gravity : Vec2{0.0f, -10.0f};
  SetSolverSettings(def.settings);
}

World::~World() = default;
World::World(World&&) noexcept = default;
World& World::operator=(World&&) noexcept = default;

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
  body.linearVelocity = def.type == BodyType::Static ? Vec2{0.0f, 0.0f} : def.linearVelocity;
  body.angularVelocity = def.type == BodyType::Static ? 0.0f : def.angularVelocity;
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
  int slot = static_cast<int>(id.index1) - 1;
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
  return live ? &w.bodies[id.index1 - 1] : nullptr;
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
  MK_ASSERT(IsFinite(position) && IsFinite(angle));
  if (!b || !IsFinite(position) || !IsFinite(angle)) return;
  b->xf = MakeTransform(position, angle);
  b->center = TransformPoint(b->xf, b->localCenter);
  int slot = static_cast<int>(id.index1) - 1;
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
  b->linearVelocity = velocity;
  if (LengthSquared(velocity) > 0.0f) WakeBody(*state_, static_cast<int>(id.index1) - 1);
}

float World::GetAngularVelocity(BodyId id) const {
  const Body* b = FindBody(*state_, id);
  return b ? b->angularVelocity : 0.0f;
}

void World::SetAngularVelocity(BodyId id, float omega) {
  Body* b = FindBody(*state_, id);
  MK_ASSERT(IsFinite(omega));
  if (!b || !IsFinite(omega) || b->type == BodyType::Static || b->fixedRotation) return;
  b->angularVelocity = omega;
  if (omega != 0.0f) WakeBody(*state_, static_cast<int>(id.index1) - 1);
}

void World::ApplyForce(BodyId id, Vec2 force, Vec2 worldPoint, bool wake) {
  Body* b = FindBody(*state_, id);
  MK_ASSERT(IsFinite(force) && IsFinite(worldPoint));
  if (!b || !IsFinite(force) || !IsFinite(worldPoint) || b->type != BodyType::Dynamic) return;
  int slot = static_cast<int>(id.index1) - 1;
  if (wake) WakeBody(*state_, slot);
  if (!b->awake) return;  // forces on sleeping bodies are dropped, as in Box2D
  b->force += force;
  b->torque += Cross(worldPoint - b->center, force);
}

void World::ApplyForceToCenter(BodyId id, Vec2 force, bool wake) {
  Body* b = FindBody(*state_, id);
  if (b) ApplyForce(id, force, b->center, wake);
}

void World::ApplyTorque(BodyId id, float torque, bool wake) {
  Body* b = FindBody(*state_, id);
  MK_ASSERT(IsFinite(torque));
  if (!b || !IsFinite(torque) || b->type != BodyType::Dynamic) return;
  if (wake) WakeBody(*state_, static_cast<int>(id.index1) - 1);
  if (b->awake) b->torque += torque;
}

void World::ApplyLinearImpulse(BodyId id, Vec2 impulse, Vec2 worldPoint, bool wake) {
  Body* b = FindBody(*state_, id);
  MK_ASSERT(IsFinite(impulse) && IsFinite(worldPoint));
  if (!b || !IsFinite(impulse) || !IsFinite(worldPoint) || b->type != BodyType::Dynamic) return;
  if (wake) WakeBody(*state_, static_cast<int>(id.index1) - 1);
  if (!b->awake) return;
  b->linearVelocity += b->invMass * impulse;
  b->angularVelocity += b->invInertia * Cross(worldPoint - b->center, impulse);
}

void World::ApplyLinearImpulseToCenter(BodyId id, Vec2 impulse, bool wake) {
  Body* b = FindBody(*state_, id);
  if (b) ApplyLinearImpulse(id, impulse, b->center, wake);
}

void World::ApplyAngularImpulse(BodyId id, float impulse, bool wake) {
  Body* b = FindBody(*state_, id);
  MK_ASSERT(IsFinite(impulse));
  if (!b || !IsFinite(impulse) || b->type != BodyType::Dynamic) return;
  if (wake) WakeBody(*state_, static_cast<int>(id.index1) - 1);
  if (b->awake) b->angularVelocity += b->invInertia * impulse;
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
  UpdateBodyMass(*state_, static_cast<int>(id.index1) - 1);
}

void World::SetAwake(BodyId id, bool awake) {
  Body* b = FindBody(*state_, id);
  if (!b || b->type == BodyType::Static) return;
  int slot = static_cast<int>(id.index1) - 1;
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
  if (!enabled) WakeBody(*state_, static_cast<int>(id.index1) - 1);
}

void World::SetEnabled(BodyId id, bool enabled) {
  Body* b = FindBody(*state_, id);
  if (!b || b->enabled == enabled) return;
  int slot = static_cast<int>(id.index1) - 1;
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

template <class Geometry>
static ShapeId AddShape(WorldState& w, BodyId bodyId, const ShapeDef& def, const Geometry& geometry) {
  MK_ASSERT(w.IsBody(bodyId) && ValidShapeDef(def));
  if (!w.IsBody(bodyId) || !ValidShapeDef(def)) return {};
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
  int bodySlot = static_cast<int>(bodyId.index1) - 1;
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
  bool valid = IsFinite(circle.center) && IsFinite(circle.radius) && circle.radius > 0.0f;
  MK_ASSERT(valid);
  return valid ? AddShape(*state_, body, def, circle) : ShapeId{};
}

ShapeId World::CreateShape(BodyId body, const ShapeDef& def, const Capsule& capsule) {
  bool valid = MakeCapsule(capsule.p1, capsule.p2, capsule.radius).ok();
  MK_ASSERT(valid);
  return valid ? AddShape(*state_, body, def, capsule) : ShapeId{};
}

ShapeId World::CreateShape(BodyId body, const ShapeDef& def, const Segment& segment) {
  bool valid = MakeSegment(segment.p1, segment.p2).ok();
  MK_ASSERT(valid);
  return valid ? AddShape(*state_, body, def, segment) : ShapeId{};
}

ShapeId World::CreateShape(BodyId body, const ShapeDef& def, const Polygon& polygon) {
  bool valid = polygon.count >= 3 && polygon.count <= kMaxPolygonVertices && IsFinite(polygon.radius) &&
               polygon.radius >= 0.0f;
  MK_ASSERT(valid);
  return valid ? AddShape(*state_, body, def, polygon) : ShapeId{};
}

bool World::DestroyShape(ShapeId id) {
  MK_ASSERT(state_->IsShape(id));
  if (!state_->IsShape(id)) return false;
  DestroyShapeInternal(*state_, static_cast<int>(id.index1) - 1, true);
  return true;
}

bool World::IsValid(ShapeId id) const { return state_->IsShape(id); }

static Shape* FindShape(WorldState& w, ShapeId id) {
  bool live = w.IsShape(id);
  MK_ASSERT(live);
  return live ? &w.shapes[id.index1 - 1] : nullptr;
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
  MK_ASSERT(IsFinite(friction) && friction >= 0.0f);
  if (s && IsFinite(friction) && friction >= 0.0f) s->friction = friction;
}

float World::GetFriction(ShapeId id) const {
  const Shape* s = FindShape(*state_, id);
  return s ? s->friction : 0.0f;
}

void World::SetRestitution(ShapeId id, float restitution) {
  Shape* s = FindShape(*state_, id);
  MK_ASSERT(IsFinite(restitution) && restitution >= 0.0f);
  if (s && IsFinite(restitution) && restitution >= 0.0f) s->restitution = restitution;
}

float World::GetRestitution(ShapeId id) const {
  const Shape* s = FindShape(*state_, id);
  return s ? s->restitution : 0.0f;
}

void World::SetDensity(ShapeId id, float density) {
  Shape* s = FindShape(*state_, id);
  MK_ASSERT(IsFinite(density) && density >= 0.0f);
  if (!s || !IsFinite(density) || density < 0.0f) return;
  s->density = density;
  UpdateBodyMass(*state_, s->body);
}

void World::SetFilter(ShapeId id, const Filter& filter) {
  Shape* s = FindShape(*state_, id);
  if (!s) return;
  s->filter = filter;
  RefilterShape(*state_, static_cast<int>(id.index1) - 1);
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
