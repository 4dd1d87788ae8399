// SPDX-License-Identifier: MIT
// Ids in events (issue 29): contact ids that follow a contact across steps (World::GetContactData,
// IsValid(ContactId)), and the getters that take stale ids from events quietly. Each is checked
// against an independent answer: the contacts ForEachTouchingContact visits, the pair the event
// names, and the assert counter.
#include "minkowski/world.h"
#include "minkowski/world_vector.h"
#include "test_util.h"
#include "world_fixture.h"

#include <doctest/doctest.h>

#include <map>
#include <utility>
#include <vector>

using namespace mk;

namespace {

constexpr float kDt = 1.0f / 60.0f;

using ShapePair = std::pair<std::uint32_t, std::uint32_t>;  // index1 of shapeA, shapeB

// A pile of boxes and circles dropped on the ground from random places (fixed seed).
void BuildPile(World& world, std::uint64_t seed, int count) {
  test::AddGround(world);
  test::Rng rng(seed);
  for (int i = 0; i < count; ++i) {
    const Vec2 p{rng.Uniform(-3.0f, 3.0f), rng.Uniform(0.6f, 8.0f)};
    const BodyId body = world.CreateBody({.type = BodyType::Dynamic, .position = p});
    const ShapeDef def{.enableHitEvents = true};
    if (i % 2 == 0) {
      world.CreateShape(body, def, MakeBox(rng.Uniform(0.2f, 0.5f), rng.Uniform(0.2f, 0.5f)).value);
    } else {
      world.CreateShape(body, def, Circle{{0.0f, 0.0f}, rng.Uniform(0.2f, 0.5f)});
    }
  }
}

// The manifolds of the touching contacts by shape pair, as ForEachTouchingContact sees them.
std::map<ShapePair, ContactView> TouchingByPair(const World& world) {
  std::map<ShapePair, ContactView> touching;
  world.ForEachTouchingContact([&](const ContactView& v) {
    touching[{v.shapeA.index1, v.shapeB.index1}] = v;
  });
  return touching;
}

bool SameManifold(const Manifold& a, const Manifold& b) {
  if (a.pointCount != b.pointCount || a.normal.x != b.normal.x || a.normal.y != b.normal.y) return false;
  for (int i = 0; i < a.pointCount; ++i) {
    if (a.points[i].point.x != b.points[i].point.x || a.points[i].point.y != b.points[i].point.y ||
        a.points[i].normalImpulse != b.points[i].normalImpulse)
      return false;
  }
  return true;
}

}  // namespace

TEST_SUITE("world.event_ids") {
TEST_CASE("contact ids of begin events follow each touching pair across steps and read its manifold") {
  test::AssertCounter asserts;
  World world;
  BuildPile(world, 29, 24);
  std::map<ShapePair, ContactId> idOfPair;  // the id each begin event gave, while the pair touches
  int begins = 0, ends = 0, hits = 0, followed = 0;
  for (int step = 0; step < 240; ++step) {
    REQUIRE(world.Step(kDt));
    const std::map<ShapePair, ContactView> touching = TouchingByPair(world);
    for (const ContactEndEvent& e : world.GetContactEndEvents()) {
      ++ends;
      idOfPair.erase({e.shapeA.index1, e.shapeB.index1});
      const ContactData data = world.GetContactData(e.contact);
      if (world.IsValid(e.contact)) {  // stopped touching, the contact lives on
        CHECK(data.shapeA == e.shapeA);
        CHECK(data.shapeB == e.shapeB);
        CHECK(data.manifold.pointCount == 0);
      } else {
        CHECK(data.shapeA.IsNull());
        CHECK(data.manifold.pointCount == 0);
      }
    }
    for (const ContactBeginEvent& e : world.GetContactBeginEvents()) {
      ++begins;
      REQUIRE(world.IsValid(e.contact));
      idOfPair[{e.shapeA.index1, e.shapeB.index1}] = e.contact;
    }
    for (const ContactHitEvent& e : world.GetContactHitEvents()) {
      ++hits;
      const ContactData data = world.GetContactData(e.contact);
      CHECK(data.shapeA == e.shapeA);
      CHECK(data.shapeB == e.shapeB);
    }
    // Every touching pair has the id its begin event gave, and that id reads the same contact.
    CHECK(idOfPair.size() == touching.size());
    for (const auto& [pair, view] : touching) {
      const auto found = idOfPair.find(pair);
      REQUIRE(found != idOfPair.end());
      CHECK(view.contact == found->second);
      const ContactData data = world.GetContactData(found->second);
      CHECK(data.shapeA == view.shapeA);
      CHECK(data.shapeB == view.shapeB);
      CHECK(SameManifold(data.manifold, view.manifold));
      CHECK(data.friction == view.friction);
      ++followed;
    }
  }
  CHECK(begins > 24);
  CHECK(ends > 0);
  CHECK(hits > 0);
  CHECK(followed > 1000);
  CHECK(asserts.Count() == 0);
}

TEST_CASE("a destroyed contact's id goes stale quietly and a new contact of the pair gets a new id") {
  test::AssertCounter asserts;
  World world;
  const BodyId ground = test::AddGround(world);
  const BodyId box = test::AddBox(world, {0.0f, 0.45f});
  world.Step(kDt);
  REQUIRE(world.GetContactBeginEvents().size() == 1);
  const ContactId first = world.GetContactBeginEvents()[0].contact;
  CHECK(world.IsValid(first));
  CHECK(world.GetContactData(first).manifold.pointCount == 2);
  world.SetEnabled(box, false);  // destroys the contact: its end event comes with the next step
  world.Step(kDt);
  REQUIRE(world.GetContactEndEvents().size() == 1);
  const ContactEndEvent end = world.GetContactEndEvents()[0];
  CHECK(end.contact == first);
  CHECK_FALSE(world.IsValid(end.contact));
  const ContactData stale = world.GetContactData(end.contact);
  CHECK(stale.shapeA.IsNull());
  CHECK(stale.shapeB.IsNull());
  CHECK(stale.contact.IsNull());
  CHECK(stale.manifold.pointCount == 0);
  world.SetEnabled(box, true);
  world.Step(kDt);
  REQUIRE(world.GetContactBeginEvents().size() == 1);
  const ContactId second = world.GetContactBeginEvents()[0].contact;
  CHECK(world.IsValid(second));
  CHECK_FALSE(second == first);  // the slot may be reused, the generation differs
  CHECK_FALSE(world.IsValid(first));
  // Null and foreign ids are as quiet.
  World other;
  CHECK_FALSE(world.IsValid(ContactId{}));
  CHECK_FALSE(other.IsValid(second));
  CHECK(other.GetContactData(second).manifold.pointCount == 0);
  CHECK(world.IsValid(other.AdoptId(second)) == false);
  (void)ground;
  CHECK(asserts.Count() == 0);
}

TEST_CASE("stale ids from events give null user data quietly") {
  test::AssertCounter asserts;
  World world;
  int tokens[3] = {};
  test::AddGround(world);
  const BodyId box =
      world.CreateBody({.type = BodyType::Dynamic, .position = {0.0f, 0.45f}, .userData = &tokens[0]});
  const ShapeId shape = world.CreateShape(box, {.userData = &tokens[1]}, MakeBox(0.5f, 0.5f).value);
  DistanceJointDef jointDef;
  jointDef.bodyA =
      world.CreateBody({.position = {0.0f, 3.0f}});  // not the ground: the joint would stop the contact
  jointDef.bodyB = box;
  jointDef.length = 2.55f;
  jointDef.userData = &tokens[2];
  const JointId joint = world.CreateJoint(jointDef);
  REQUIRE(world.GetUserData(box) == &tokens[0]);
  REQUIRE(world.GetUserData(shape) == &tokens[1]);
  REQUIRE(world.GetUserData(joint) == &tokens[2]);
  world.Step(kDt);
  REQUIRE(world.DestroyBody(box));  // the joint and the shape go with it
  world.Step(kDt);
  REQUIRE(world.GetContactEndEvents().size() == 1);
  const ShapeId fromEvent = world.GetContactEndEvents()[0].shapeB;
  CHECK(fromEvent == shape);
  CHECK(world.GetUserData(box) == nullptr);
  CHECK(world.GetUserData(fromEvent) == nullptr);
  CHECK(world.GetUserData(joint) == nullptr);
  CHECK(world.GetUserData(BodyId{}) == nullptr);
  CHECK(world.GetUserData(ShapeId{}) == nullptr);
  CHECK(world.GetUserData(JointId{}) == nullptr);
  CHECK(asserts.Count() == 0);
  // The setters still assert on a stale id (they would lose the game's data silently).
  world.SetUserData(box, &tokens[0]);
  CHECK(asserts.Count() == 1);
}

TEST_CASE("a snapshot restores event contact ids under the new world's tag reading the same contacts") {
  test::AssertCounter asserts;
  World world;
  BuildPile(world, 7, 12);
  std::vector<ContactBeginEvent> begins;
  for (int step = 0; step < 120 && begins.empty(); ++step) {
    world.Step(kDt);
    begins.assign(world.GetContactBeginEvents().begin(), world.GetContactBeginEvents().end());
  }
  REQUIRE_FALSE(begins.empty());
  World other;
  REQUIRE(other.RestoreSnapshot(mk::SaveSnapshot(world)).ok());
  const auto restored = other.GetContactBeginEvents();
  REQUIRE(restored.size() == begins.size());
  for (std::size_t i = 0; i < begins.size(); ++i) {
    CHECK(restored[i].contact == other.AdoptId(begins[i].contact));
    CHECK(other.IsValid(restored[i].contact));
    CHECK_FALSE(world.IsValid(restored[i].contact));  // foreign to the saving world
    const ContactData a = world.GetContactData(begins[i].contact);
    const ContactData b = other.GetContactData(restored[i].contact);
    CHECK(b.shapeA == other.AdoptId(a.shapeA));
    CHECK(b.shapeB == other.AdoptId(a.shapeB));
    CHECK(SameManifold(a.manifold, b.manifold));
  }
  CHECK(asserts.Count() == 0);
}
}  // TEST_SUITE("world.event_ids")
