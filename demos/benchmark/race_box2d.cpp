// SPDX-License-Identifier: MIT
// Box2D 2.4.1's copies of the race's scenes (the Box2D v3 benchmark set; demos/scenes), built with
// Box2D 2.4.1's own API and stepped as its testbed steps (8 velocity and 3 position iterations per 1/60 s
// step; 2.4.1 has no sub-steps). Not ported: rain (2.4.1's revolute joint has no spring, and it has no
// capsule) and spinner (no capsule or rounded box; the 2.4.1 run did not finish). Without Box2D
// (MK_COMPARE_BOX2D off or not found) no scene is ported.
#include "race.h"

#ifdef MK_HAVE_BOX2D
#include <box2d/box2d.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>
#endif

namespace mk::race {

#ifndef MK_HAVE_BOX2D

std::unique_ptr<SceneRun> MakeBox2DRun(std::string_view) { return nullptr; }

#else

namespace {

constexpr int kVelocityIterations = 8;
constexpr int kPositionIterations = 3;

Vec2 ToMk(const b2Vec2& v) { return {v.x, v.y}; }

class Box2DRun final : public SceneRun {
 public:
  using QualityFn = std::function<std::string(const Box2DRun&)>;

  Box2DRun(b2Vec2 gravity, bool sleep) : world_(gravity) { world_.SetAllowSleeping(sleep); }

  void Step(int) override { world_.Step(1.0f / 60.0f, kVelocityIterations, kPositionIterations); }
  std::string Quality() const override { return quality_ ? quality_(*this) : ""; }

  b2World& B2() { return world_; }
  void SetQuality(QualityFn quality) { quality_ = std::move(quality); }

  // The bodies a scene lists (creation order), with their start x for the pyramids' drift.
  b2Body* Add(const b2BodyDef& def, const b2Shape& shape, const b2FixtureDef& material) {
    b2Body* body = world_.CreateBody(&def);
    b2FixtureDef fixture = material;
    fixture.shape = &shape;
    body->CreateFixture(&fixture);
    bodies_.push_back(body);
    startX_.push_back(def.position.x);
    return body;
  }

  std::vector<Vec2> Positions(std::size_t first = 0) const {
    std::vector<Vec2> out;
    for (std::size_t i = first; i < bodies_.size(); ++i) out.push_back(ToMk(bodies_[i]->GetPosition()));
    return out;
  }
  const std::vector<b2Body*>& Bodies() const { return bodies_; }
  const std::vector<float>& StartX() const { return startX_; }

 private:
  b2World world_;
  std::vector<b2Body*> bodies_;
  std::vector<float> startX_;
  QualityFn quality_;
};

b2BodyDef DynamicAt(float x, float y) {
  b2BodyDef def;
  def.type = b2_dynamicBody;
  def.position.Set(x, y);
  return def;
}

b2FixtureDef Material(float density, float friction) {
  b2FixtureDef def;
  def.density = density;
  def.friction = friction;
  return def;
}

void AddPyramid(Box2DRun& run, int base, float left, float bottom) {
  b2PolygonShape box;
  box.SetAsBox(0.5f, 0.5f);
  for (int i = 0; i < base; ++i) {
    for (int j = i; j < base; ++j) {
      run.Add(DynamicAt(left + 0.5f * static_cast<float>(i) + static_cast<float>(j - i),
                        bottom + static_cast<float>(i) + 0.5f),
              box, Material(1.0f, 0.6f));
    }
  }
}

void SetPyramidQuality(Box2DRun& run, bool top) {
  run.SetQuality([top](const Box2DRun& r) { return PyramidQuality(r.Positions(), r.StartX(), top); });
}

std::unique_ptr<Box2DRun> LargePyramid() {
  auto run = std::make_unique<Box2DRun>(b2Vec2(0.0f, -10.0f), false);
  b2BodyDef groundDef;
  groundDef.position.Set(0.0f, -1.0f);
  b2PolygonShape ground;
  ground.SetAsBox(100.0f, 1.0f);
  run->B2().CreateBody(&groundDef)->CreateFixture(&ground, 0.0f);
  AddPyramid(*run, 100, -49.5f, 0.0f);
  SetPyramidQuality(*run, true);
  return run;
}

std::unique_ptr<Box2DRun> ManyPyramids() {
  auto run = std::make_unique<Box2DRun>(b2Vec2(0.0f, -10.0f), false);
  b2BodyDef groundDef;
  b2Body* ground = run->B2().CreateBody(&groundDef);
  for (int r = 0; r < 20; ++r) {
    b2EdgeShape edge;
    edge.SetTwoSided(b2Vec2(-110.0f, 11.0f * static_cast<float>(r)),
                     b2Vec2(110.0f, 11.0f * static_cast<float>(r)));
    ground->CreateFixture(&edge, 0.0f);
  }
  for (int r = 0; r < 20; ++r) {
    for (int c = 0; c < 20; ++c)
      AddPyramid(*run, 10, -110.0f + 11.0f * static_cast<float>(c) + 1.0f, 11.0f * static_cast<float>(r));
  }
  SetPyramidQuality(*run, false);
  return run;
}

std::unique_ptr<Box2DRun> Tumbler() {
  auto run = std::make_unique<Box2DRun>(b2Vec2(0.0f, -10.0f), true);
  b2BodyDef groundDef;
  b2Body* ground = run->B2().CreateBody(&groundDef);
  b2BodyDef drumDef = DynamicAt(0.0f, 10.0f);
  b2Body* drum = run->B2().CreateBody(&drumDef);
  const float walls[4][4] = {{0.5f, 10.0f, 10.0f, 0.0f},
                             {0.5f, 10.0f, -10.0f, 0.0f},
                             {10.0f, 0.5f, 0.0f, 10.0f},
                             {10.0f, 0.5f, 0.0f, -10.0f}};
  for (const auto& w : walls) {
    b2PolygonShape wall;
    wall.SetAsBox(w[0], w[1], b2Vec2(w[2], w[3]), 0.0f);
    b2FixtureDef fixture = Material(50.0f, 0.6f);
    fixture.shape = &wall;
    drum->CreateFixture(&fixture);
  }
  b2RevoluteJointDef hinge;
  hinge.Initialize(ground, drum, b2Vec2(0.0f, 10.0f));
  hinge.enableMotor = true;
  hinge.motorSpeed = 25.0f * b2_pi / 180.0f;
  hinge.maxMotorTorque = 1e8f;
  run->B2().CreateJoint(&hinge);
  b2PolygonShape box;
  box.SetAsBox(0.125f, 0.125f);
  for (int i = 0; i < 45; ++i) {
    for (int j = 0; j < 45; ++j)
      run->Add(DynamicAt(-9.0f + 0.4f * static_cast<float>(j), 1.0f + 0.4f * static_cast<float>(i)), box,
               Material(1.0f, 0.6f));
  }
  run->SetQuality([drum](const Box2DRun& r) {
    return TumblerQuality(Transform{ToMk(drum->GetPosition()), MakeRot(drum->GetAngle())}, r.Positions());
  });
  return run;
}

std::unique_ptr<Box2DRun> Smash() {
  auto run = std::make_unique<Box2DRun>(b2Vec2(0.0f, 0.0f), true);
  b2BodyDef projectile = DynamicAt(-20.0f, 0.0f);
  projectile.linearVelocity.Set(40.0f, 0.0f);
  b2PolygonShape big;
  big.SetAsBox(4.0f, 4.0f);
  run->Add(projectile, big, Material(8.0f, 0.6f));
  b2PolygonShape box;
  box.SetAsBox(0.2f, 0.2f);
  for (int i = 0; i < 120; ++i) {
    for (int j = 0; j < 80; ++j) {
      b2BodyDef def = DynamicAt(30.0f + 0.4f * static_cast<float>(i), 0.4f * static_cast<float>(j - 40));
      def.awake = false;
      run->Add(def, box, Material(1.0f, 0.6f));
    }
  }
  run->SetQuality([](const Box2DRun& r) {
    int awake = 0;
    for (const b2Body* body : r.Bodies()) awake += body->IsAwake() ? 1 : 0;
    return SmashQuality(r.Positions(), awake);
  });
  return run;
}

std::unique_ptr<Box2DRun> JointGrid() {
  constexpr int n = 100;
  auto run = std::make_unique<Box2DRun>(b2Vec2(0.0f, -10.0f), false);
  b2CircleShape circle;
  circle.m_radius = 0.4f;
  b2FixtureDef material = Material(1.0f, 0.6f);
  material.filter.categoryBits = 2;
  material.filter.maskBits = static_cast<uint16>(~2u);
  std::vector<b2Body*> grid;
  for (int k = 0; k < n; ++k) {
    for (int i = 0; i < n; ++i) {
      b2BodyDef def = DynamicAt(static_cast<float>(k), -static_cast<float>(i));
      b2Body* body = nullptr;
      if (JointGridAnchor(n, k, i)) {
        def.type = b2_staticBody;
        body = run->B2().CreateBody(&def);
        material.shape = &circle;
        body->CreateFixture(&material);
      } else {
        body = run->Add(def, circle, material);
      }
      grid.push_back(body);
      b2RevoluteJointDef joint;
      joint.bodyB = body;
      if (i > 0) {
        joint.bodyA = grid[static_cast<std::size_t>(k * n + i - 1)];
        joint.localAnchorA.Set(0.0f, -0.5f);
        joint.localAnchorB.Set(0.0f, 0.5f);
        run->B2().CreateJoint(&joint);
      }
      if (k > 0) {
        joint.bodyA = grid[static_cast<std::size_t>((k - 1) * n + i)];
        joint.localAnchorA.Set(0.5f, 0.0f);
        joint.localAnchorB.Set(-0.5f, 0.0f);
        run->B2().CreateJoint(&joint);
      }
    }
  }
  run->SetQuality([grid](const Box2DRun&) {
    std::vector<Transform> transforms;
    for (const b2Body* body : grid)
      transforms.push_back({ToMk(body->GetPosition()), MakeRot(body->GetAngle())});
    return JointGridQuality(n, transforms);
  });
  return run;
}

}  // namespace

std::unique_ptr<SceneRun> MakeBox2DRun(std::string_view scene) {
  if (scene == "large_pyramid") return LargePyramid();
  if (scene == "many_pyramids") return ManyPyramids();
  if (scene == "tumbler") return Tumbler();
  if (scene == "smash") return Smash();
  if (scene == "joint_grid") return JointGrid();
  return nullptr;
}

#endif

}  // namespace mk::race
