// SPDX-License-Identifier: MIT
// The graph-coloured plain hinges (solver/hinge_graph.h) against their definition: a colouring where
// no colour holds a moving body twice, every other joint (and every hinge without a free colour) on
// the scalar list in input order, and passes that give the bits of the scalar joint passes run over
// the joints in colour order, on random joints for both kernel widths (4 lanes, and 8 where the build
// and the CPU have them) and the scalar twins.
#include "minkowski/task_system.h"
#include "random_bodies.h"
#include "solver_rig.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <span>
#include <vector>

using namespace mk;
using namespace mk::test;

namespace {

// Random prepared joints between `bodyCount` moving bodies and static ones (index -1): mostly plain
// hinges, some with a limit or a motor (the scalar path), some with a body whose huge inverse inertia
// and long lever overflow K in float (SolvePoint's double-precision path), and with hubContacts > 0 a
// hub hinged to more bodies than there are colours.
struct RandomJoints {
  SolverArrays solver;
  StepContext context;

  RandomJoints(Rng& rng, int bodyCount, int jointCount, int hubJoints) {
    context = MakeStepContext(1.0f / 60.0f, SolverSettings{});
    AddRandomBodies(rng, bodyCount, solver, 30);
    for (int i = 0; i < jointCount; ++i) {
      const auto [a, b] = RandomPair(rng, bodyCount, i, hubJoints);
      solver.joints.push_back(MakeJoint(rng, a, b));
    }
  }

  JointConstraint MakeJoint(Rng& rng, int a, int b) const {
    JointConstraint c;
    c.type = JointType::Revolute;
    SetBodies(c, solver, a, b);
    c.angularMass = c.invIA + c.invIB > 0.0f ? 1.0f / (c.invIA + c.invIB) : 0.0f;
    const float lever = rng.Int(0, 10) == 0 ? 1e5f : 1.0f;
    c.rA0 = rng.InBox(lever);
    c.rB0 = rng.InBox(1.0f);
    c.deltaCenter = rng.InBox(2.0f);
    c.softness = MakeSoftness(rng.Uniform(5.0f, 60.0f), rng.Uniform(0.0f, 5.0f), context.h);
    c.impulses.linear = rng.InBox(2.0f);
    switch (rng.Int(0, 9)) {
      case 0:  // a limit: scalar path
        c.enableLimit = true, c.lower = -0.5f, c.upper = 0.5f;
        c.deltaAngle = rng.Uniform(-1.0f, 1.0f);
        break;
      case 1:  // a motor: scalar path
        c.enableMotor = true, c.motorSpeed = 1.0f, c.maxMotorImpulse = 0.1f;
        break;
      default:
        break;
    }
    return c;
  }
};

// The joints in the order the coloured passes solve them: colour by colour, lane by lane, then the
// scalar list.
template <class F>
std::vector<int> HingeOrder(const HingeGraph<F>& graph) {
  std::vector<int> order;
  for (const std::vector<WideHingeGroup<F>>& groups : graph.groups)
    for (const WideHingeGroup<F>& g : groups)
      for (int k = 0; k < F::kLanes; ++k)
        if (g.joint[k] >= 0) order.push_back(g.joint[k]);
  order.insert(order.end(), graph.scalar.begin(), graph.scalar.end());
  return order;
}

bool SameBits(float a, float b) { return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b); }

template <class F>
void CheckPassesEqualScalar(std::uint64_t seed) {
  Rng rng(seed);
  int overflowLanes = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const int bodies = rng.Int(2, 60);
    RandomJoints setup(rng, bodies, rng.Int(1, 200), trial % 4 == 0 ? 40 : 0);
    SolverArrays wide = setup.solver, scalar = setup.solver;
    HingeGraph<F> graph;
    BuildHingeGraph<F>(wide.joints, bodies, graph);
    const std::vector<int> order = HingeOrder(graph);
    REQUIRE(order.size() == wide.joints.size());
    for (const JointConstraint& c : wide.joints) {
      const float iA = c.invIA, iB = c.invIB;
      if (IsPlainHinge(c) && (iA > 1e29f || iB > 1e29f) && LengthSquared(c.rA0) > 1.0f) ++overflowLanes;
    }

    wide.states.push_back(BodyState{});  // the static slot
    WarmStartHingeGroups<F>(graph, wide.states);
    WarmStartJoints(wide, graph.scalar);
    SolveHingeGroups<F, true>(graph, wide.states);
    SolveJoints(wide, setup.context, JointPass::Biased, graph.scalar);
    SolveHingeGroups<F, false>(graph, wide.states);
    SolveJoints(wide, setup.context, JointPass::Relax, graph.scalar);
    StoreHingeGroups<F>(graph, wide.joints);
    const BodyState slot = wide.states.back();
    CHECK((slot.v.x == 0.0f && slot.v.y == 0.0f && slot.w == 0.0f && slot.dp.x == 0.0f));
    wide.states.pop_back();

    WarmStartJoints(scalar, order);
    SolveJoints(scalar, setup.context, JointPass::Biased, order);
    SolveJoints(scalar, setup.context, JointPass::Relax, order);

    int different = 0;
    for (size_t i = 0; i < wide.states.size(); ++i) {
      const BodyState &p = wide.states[i], &q = scalar.states[i];
      if (!SameBits(p.v.x, q.v.x) || !SameBits(p.v.y, q.v.y) || !SameBits(p.w, q.w)) ++different;
    }
    for (size_t i = 0; i < wide.joints.size(); ++i) {
      const JointImpulses &p = wide.joints[i].impulses, &q = scalar.joints[i].impulses;
      if (!SameBits(p.linear.x, q.linear.x) || !SameBits(p.linear.y, q.linear.y)) ++different;
    }
    CHECK_MESSAGE(different == 0, "trial " << trial);
  }
  CHECK(overflowLanes > 10);  // the double-precision path was exercised
}

}  // namespace

// The scalar list against a greedy colouring written here: joint by joint in input order, the lowest
// colour neither moving body holds among the scalar joints before it, or the overflow when all
// kGraphColorCount are held. The list must be those joints sorted by (colour, input order), with the
// colours' ranges in scalarColorStart; a colour's joints then share no moving body. Returns whether
// the overflow holds any.
template <class F>
bool CheckScalarColouring(const HingeGraph<F>& graph, const std::vector<JointConstraint>& joints) {
  std::vector<int> inputOrder = graph.scalar;
  std::sort(inputOrder.begin(), inputOrder.end());
  std::vector<std::set<int>> held(graph.staticSlot > 0 ? static_cast<size_t>(graph.staticSlot) : 0u);
  std::vector<std::pair<int, int>> expected;  // (colour, joint)
  for (int i : inputOrder) {
    std::set<int> taken;
    for (int body : {joints[i].indexA, joints[i].indexB})
      if (body >= 0)
        taken.insert(held[static_cast<size_t>(body)].begin(), held[static_cast<size_t>(body)].end());
    int color = 0;
    while (color < kGraphColorCount && taken.count(color) != 0) ++color;
    if (color < kGraphColorCount)
      for (int body : {joints[i].indexA, joints[i].indexB})
        if (body >= 0) held[static_cast<size_t>(body)].insert(color);
    expected.emplace_back(color, i);  // kGraphColorCount: the overflow, last
  }
  std::stable_sort(expected.begin(), expected.end(),
                   [](const auto& p, const auto& q) { return p.first < q.first; });
  REQUIRE(expected.size() == graph.scalar.size());
  for (size_t k = 0; k < expected.size(); ++k) {
    CHECK(graph.scalar[k] == expected[k].second);
    const int color = expected[k].first;
    CHECK(static_cast<int>(k) >= graph.scalarColorStart[color]);
    CHECK(static_cast<int>(k) < graph.scalarColorStart[color + 1]);
  }
  CHECK(graph.scalarColorStart[0] == 0);
  CHECK(graph.scalarColorStart[HingeGraph<F>::kScalarOverflow + 1] == static_cast<int>(graph.scalar.size()));
  // Independently of the greedy rule: no colour's range holds a moving body twice.
  for (int c = 0; c < HingeGraph<F>::kScalarOverflow; ++c) {
    std::set<int> bodiesOfColor;
    for (int k = graph.scalarColorStart[c]; k < graph.scalarColorStart[c + 1]; ++k) {
      const JointConstraint& j = joints[static_cast<size_t>(graph.scalar[static_cast<size_t>(k)])];
      if (j.indexA >= 0) CHECK(bodiesOfColor.insert(j.indexA).second);
      if (j.indexB >= 0 && j.indexB != j.indexA) CHECK(bodiesOfColor.insert(j.indexB).second);
    }
  }
  const int overflow = HingeGraph<F>::kScalarOverflow;
  return graph.scalarColorStart[overflow + 1] > graph.scalarColorStart[overflow];
}

TEST_SUITE("solver.graph") {
TEST_CASE(
    "hinge colouring: no colour holds a moving body twice and the rest go scalar coloured on their own") {
  ForEachGraphWidth(/*runsKernels=*/false, []<class F>() {
    Rng rng(0x41E6E);
    int scalarOverflows = 0;
    for (int trial = 0; trial < 200; ++trial) {
      const int bodies = rng.Int(2, 80);
      RandomJoints setup(rng, bodies, rng.Int(1, 300), trial % 5 == 0 ? 50 : 0);
      const std::vector<JointConstraint>& joints = setup.solver.joints;
      HingeGraph<F> graph;
      BuildHingeGraph(std::span<const JointConstraint>(joints), bodies, graph);
      REQUIRE(graph.staticSlot == bodies);

      std::vector<int> seen(joints.size(), 0);
      std::vector<std::set<int>> held(static_cast<size_t>(bodies));  // colours each body holds
      for (int color = 0; color < kGraphColorCount; ++color) {
        std::set<int> bodiesOfColor;
        int lanesOfColor = 0, previous = -1;
        for (const auto& group : graph.groups[color]) {
          for (int k = 0; k < F::kLanes; ++k) {
            const int i = group.joint[k];
            if (i < 0) {  // an empty lane: nothing but the static slot
              CHECK((group.indexA[k] == bodies && group.indexB[k] == bodies && group.invMassA[k] == 0.0f &&
                     group.invMassB[k] == 0.0f && group.invIA[k] == 0.0f && group.invIB[k] == 0.0f));
              continue;
            }
            ++seen[static_cast<size_t>(i)];
            ++lanesOfColor;
            CHECK(i > previous);  // a colour's hinges in input order
            previous = i;
            CHECK(IsPlainHinge(joints[i]));
            CHECK(group.indexA[k] == (joints[i].indexA >= 0 ? joints[i].indexA : bodies));
            CHECK(group.indexB[k] == (joints[i].indexB >= 0 ? joints[i].indexB : bodies));
            for (int body : {joints[i].indexA, joints[i].indexB}) {
              if (body < 0) continue;
              CHECK(bodiesOfColor.insert(body).second);
              held[static_cast<size_t>(body)].insert(color);
            }
          }
        }
        // Full groups, then the colour's last one padded with empty lanes.
        CHECK(lanesOfColor == graph.colorSize[color]);
        CHECK(graph.groups[color].size() == static_cast<size_t>((lanesOfColor + F::kLanes - 1) / F::kLanes));
      }
      // The scalar list: every joint not in a group, once; a plain hinge there found every colour
      // taken by its bodies.
      for (int i : graph.scalar) {
        ++seen[static_cast<size_t>(i)];
        if (!IsPlainHinge(joints[i])) continue;
        std::set<int> taken;
        for (int body : {joints[i].indexA, joints[i].indexB})
          if (body >= 0)
            taken.insert(held[static_cast<size_t>(body)].begin(), held[static_cast<size_t>(body)].end());
        CHECK(taken.size() == static_cast<size_t>(kGraphColorCount));
      }
      CHECK(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
      if (CheckScalarColouring(graph, joints)) ++scalarOverflows;
    }
    CHECK(scalarOverflows > 0);  // the hubs overflowed the scalar colours too
  });
}

// Bit-for-bit equality of two impulse sets.
bool SameImpulses(const JointImpulses& p, const JointImpulses& q) {
  return SameBits(p.linear.x, q.linear.x) && SameBits(p.linear.y, q.linear.y) &&
         SameBits(p.angular, q.angular) && SameBits(p.perpendicular, q.perpendicular) &&
         SameBits(p.axial, q.axial) && SameBits(p.spring, q.spring) && SameBits(p.motor, q.motor) &&
         SameBits(p.lower, q.lower) && SameBits(p.upper, q.upper);
}

namespace {

// Random bodies (2 to maxBodies, a sixth of them static) and joints between them: plain hinges,
// welds, and hinges with a limit, a motor or a spring, with random impulses and some with their own
// softness.
void AddRandomJoints(SolverRig& rig, Rng& rng, int maxBodies, int minJoints, int maxJoints) {
  const int bodies = rng.Int(2, maxBodies);
  for (int i = 0; i < bodies; ++i) {
    const bool isStatic = rng.Int(0, 5) == 0;
    const int b = rig.AddBody(rng.InBox(10.0f), isStatic ? 0.0f : rng.Uniform(0.5f, 3.0f),
                              isStatic ? 0.0f : rng.Uniform(0.1f, 2.0f));
    rig.bodies[b].q = MakeRot(rng.Uniform(-3.0f, 3.0f));
  }
  for (int i = 0, n = rng.Int(minJoints, maxJoints); i < n; ++i) {
    RigJoint j;
    j.a = rng.Int(0, bodies - 1);
    j.b = rng.Int(0, bodies - 1);
    j.data.localAnchorA = rng.InBox(1.0f);
    j.data.localAnchorB = rng.InBox(1.0f);
    j.data.impulses.linear = rng.InBox(1.0f);
    j.data.impulses.angular = rng.Uniform(-1.0f, 1.0f);  // rows a joint may not use: kept or zeroed
    j.data.impulses.motor = rng.Uniform(-1.0f, 1.0f);    // as PrepareJoints decides
    j.data.impulses.lower = rng.Uniform(0.0f, 1.0f);
    if (rng.Int(0, 3) == 0) j.data.constraintHertz = rng.Uniform(5.0f, 200.0f);  // its own softness
    switch (rng.Int(0, 6)) {
      case 0:
        j.data.type = JointType::Weld;
        break;
      case 1:
        j.data.enableLimit = true, j.data.lower = -1.0f, j.data.upper = 1.0f;
        break;
      case 2:
        j.data.enableMotor = true, j.data.maxMotor = 1.0f;
        break;
      case 3:  // a spring of 0 Hz: still a plain hinge; of 2 Hz: not
        j.data.enableSpring = true, j.data.hertz = rng.Int(0, 1) == 0 ? 0.0f : 2.0f;
        break;
      default:
        break;  // a plain hinge
    }
    rig.joints.push_back(j);
  }
}

}  // namespace

// PrepareJoints puts a plain hinge that finds a colour straight into a lane, without a constraint.
// Against the reference, PrepareJoints without colouring (a constraint for every joint, in input
// order) and BuildHingeGraph over those: the same lanes bit for bit, and the same joints left to
// the scalar path with the same constraints. In classic mode every joint gets a constraint. After
// the sub-steps, StoreJointImpulses gives a lane's joint the reference constraint's impulses with the
// lane's linear impulse, the reaction impulse / h and no torque, and every other joint its own
// constraint's impulses; with and without warm starting.
TEST_CASE("PrepareJoints' lanes and constraints equal the reference's and the store reads them") {
  ForEachGraphWidth(/*runsKernels=*/true, []<class F>() {
    Rng rng(0x41E6E3);
    for (int trial = 0; trial < 40; ++trial) {
      SolverRig rig;
      if (trial % 8 == 7) rig.settings.mode = SolverMode::Classic;
      if (trial % 3 == 1) rig.settings.enableWarmStarting = false;
      AddRandomJoints(rig, rng, 40, 1, 150);
      rig.solver.lanes = F::kLanes;
      rig.Prepare(1.0f / 60.0f);
      const HingeGraph<F>& built = HingesOf<F>(rig.solver);
      const std::vector<JointConstraint>& constraints = rig.solver.joints;
      SolverArrays reference = rig.solver;
      PrepareJoints(rig.jointInputs, reference, rig.context, /*colorHinges=*/false);
      REQUIRE(reference.joints.size() == rig.joints.size());
      CHECK(built.staticSlot == static_cast<int>(rig.solver.states.size()));
      // Every constraint once on the scalar list (in colour order), the constraints in input order.
      std::vector<int> listed = built.scalar, everyConstraint(constraints.size());
      std::sort(listed.begin(), listed.end());
      for (size_t k = 0; k < constraints.size(); ++k) everyConstraint[k] = static_cast<int>(k);
      CHECK(listed == everyConstraint);
      for (size_t k = 1; k < constraints.size(); ++k) CHECK(constraints[k - 1].input < constraints[k].input);
      if (rig.settings.mode == SolverMode::Classic) {  // every joint one by one
        REQUIRE(constraints.size() == rig.joints.size());
        for (size_t k = 0; k < constraints.size(); ++k) CHECK(constraints[k].input == static_cast<int>(k));
        for (const auto& groups : built.groups) CHECK(groups.empty());
        continue;
      }
      HingeGraph<F> expected;
      BuildHingeGraph(std::span<const JointConstraint>(reference.joints),
                      static_cast<int>(rig.solver.states.size()), expected);
      REQUIRE(expected.scalar.size() == constraints.size());
      for (size_t k = 0; k < constraints.size(); ++k) {  // the same joints in the same order
        const JointConstraint &c = constraints[static_cast<size_t>(built.scalar[k])],
                              &r = reference.joints[static_cast<size_t>(expected.scalar[k])];
        CHECK(c.input == expected.scalar[k]);
        CHECK((SameBits(c.rA0.x, r.rA0.x) && SameBits(c.rB0.y, r.rB0.y) &&
               SameBits(c.deltaAngle, r.deltaAngle) && SameBits(c.softness.massScale, r.softness.massScale) &&
               SameImpulses(c.impulses, r.impulses) && c.type == r.type && c.enableSpring == r.enableSpring));
      }
      std::vector<Vec2> laneImpulse(rig.joints.size());
      std::vector<bool> inLane(rig.joints.size(), false);
      for (int color = 0; color < kGraphColorCount; ++color) {
        CHECK(built.colorSize[color] == expected.colorSize[color]);
        REQUIRE(built.groups[color].size() == expected.groups[color].size());
        for (size_t g = 0; g < built.groups[color].size(); ++g) {
          CHECK(std::memcmp(&built.groups[color][g], &expected.groups[color][g], sizeof(WideHingeGroup<F>)) ==
                0);
        }
      }

      RunSubSteps(rig.solver, rig.context);
      for (const auto& groups : built.groups) {
        for (const auto& g : groups) {
          for (int k = 0; k < F::kLanes; ++k) {
            if (g.joint[k] < 0) continue;
            inLane[static_cast<size_t>(g.joint[k])] = true;
            laneImpulse[static_cast<size_t>(g.joint[k])] = {g.impulseX[k], g.impulseY[k]};
          }
        }
      }
      std::vector<JointImpulses> want(rig.joints.size());
      for (size_t i = 0; i < want.size(); ++i) {
        want[i] =
            reference.joints[i].impulses;  // as prepared: disabled rows zeroed, or all without warm start
        want[i].linear = laneImpulse[i];
      }
      for (const JointConstraint& c : constraints) want[static_cast<size_t>(c.input)] = c.impulses;
      rig.Finish();
      for (size_t i = 0; i < want.size(); ++i) {
        CHECK(SameImpulses(rig.joints[i].data.impulses, want[i]));
        if (!inLane[i]) continue;
        const Vec2 force = rig.joints[i].data.reactionForce;
        CHECK((SameBits(force.x, rig.context.invH * want[i].linear.x) &&
               SameBits(force.y, rig.context.invH * want[i].linear.y)));
        CHECK(SameBits(rig.joints[i].data.reactionTorque, 0.0f));
      }
    }
  });
}

namespace {

// Every field PrepareJoints writes into a constraint, bit for bit.
bool SameConstraint(const JointConstraint& c, const JointConstraint& r) {
  auto same = [](Vec2 p, Vec2 q) { return SameBits(p.x, q.x) && SameBits(p.y, q.y); };
  auto sameSoftness = [](const Softness& p, const Softness& q) {
    return SameBits(p.biasRate, q.biasRate) && SameBits(p.massScale, q.massScale) &&
           SameBits(p.impulseScale, q.impulseScale);
  };
  return SameImpulses(c.impulses, r.impulses) && same(c.rA0, r.rA0) && same(c.rB0, r.rB0) &&
         same(c.deltaCenter, r.deltaCenter) && same(c.axis0, r.axis0) &&
         SameBits(c.deltaAngle, r.deltaAngle) && SameBits(c.invMassA, r.invMassA) &&
         SameBits(c.invIB, r.invIB) && SameBits(c.angularMass, r.angularMass) &&
         sameSoftness(c.softness, r.softness) && sameSoftness(c.springSoftness, r.springSoftness) &&
         SameBits(c.maxMotorImpulse, r.maxMotorImpulse) && c.indexA == r.indexA && c.indexB == r.indexB &&
         c.input == r.input && c.type == r.type && c.enableLimit == r.enableLimit &&
         c.enableMotor == r.enableMotor && c.enableSpring == r.enableSpring;
}

// What PrepareJoints made in `many` against what it made in `one`, bit for bit: the coloured hinges'
// groups, the scalar lists and every constraint.
template <class F>
void CheckSamePreparedJoints(SolverArrays& many, SolverArrays& one) {
  const HingeGraph<F>& a = HingesOf<F>(many);
  const HingeGraph<F>& b = HingesOf<F>(one);
  int differing = 0;
  for (int color = 0; color < kGraphColorCount; ++color) {
    CHECK(a.colorSize[color] == b.colorSize[color]);
    REQUIRE(a.groups[color].size() == b.groups[color].size());
    for (size_t g = 0; g < b.groups[color].size(); ++g)
      differing +=
          std::memcmp(&a.groups[color][g], &b.groups[color][g], sizeof(WideHingeGroup<F>)) == 0 ? 0 : 1;
  }
  CHECK(a.scalar == b.scalar);
  CHECK(std::equal(std::begin(a.scalarColorStart), std::end(a.scalarColorStart),
                   std::begin(b.scalarColorStart)));
  REQUIRE(many.joints.size() == one.joints.size());
  for (size_t k = 0; k < many.joints.size(); ++k)
    differing += SameConstraint(many.joints[k], one.joints[k]) ? 0 : 1;
  CHECK(differing == 0);
}

}  // namespace

// PrepareJoints with workers reads the joints' kinds on them, colours on the calling thread and fills
// the lanes and constraints on them again; on one thread it does all of it joint by joint. Both must
// give the same graph and constraints, bit for bit: random joints of several kinds, few enough bodies
// that some hinges find no colour, more joints than one range holds.
TEST_CASE("PrepareJoints on 2 and 3 workers gives the one-thread lanes and constraints") {
  ForEachGraphWidth(/*runsKernels=*/false, []<class F>() {
    Rng rng(0x41E6E5);
    for (int workers : {2, 3}) {
      TaskPool pool(workers, PoolThreads::AsAsked);
      const TaskSystem tasks = pool.GetTaskSystem();
      for (int trial = 0; trial < 20; ++trial) {
        SolverRig rig;
        if (trial % 3 == 1) rig.settings.enableWarmStarting = false;
        AddRandomJoints(rig, rng, 60, 65, 400);
        rig.solver.lanes = F::kLanes;
        rig.Prepare(1.0f / 60.0f);  // one thread (the rig's context has no tasks)
        SolverArrays shared = rig.solver;
        StepContext context = rig.context;
        context.tasks = &tasks;
        PrepareJoints(rig.jointInputs, shared, context);
        INFO("workers " << workers << ", trial " << trial << ", joints " << rig.joints.size());
        CheckSamePreparedJoints<F>(shared, rig.solver);
      }
    }
  });
}

namespace {

// One change to a rig's joints or bodies between two steps, each of what the colouring reads.
void ChangeJoints(SolverRig& rig, Rng& rng, int change) {
  RigJoint& j = rig.joints[static_cast<size_t>(rng.Int(0, static_cast<int>(rig.joints.size()) - 1))];
  switch (change) {
    case 1: {  // one joint's second body: another moving body (a key's index changes)
      const int from = rig.bodies[static_cast<size_t>(j.b)].index;
      for (int b = 0; b < static_cast<int>(rig.bodies.size()); ++b) {
        const int index = rig.bodies[static_cast<size_t>(b)].index;
        if (index >= 0 && index != from && b != j.a) {
          j.b = b;
          break;
        }
      }
      break;
    }
    case 2:  // one joint's kind: a plain hinge gets a motor, any other becomes a plain hinge
      if (j.data.type == JointType::Revolute && !j.data.enableMotor && !j.data.enableLimit &&
          !(j.data.enableSpring && j.data.hertz > 0.0f)) {
        j.data.enableMotor = true, j.data.maxMotor = 1.0f;
      } else {
        j.data.type = JointType::Revolute;
        j.data.enableMotor = j.data.enableLimit = j.data.enableSpring = false;
      }
      break;
    case 3:  // a joint fewer
      rig.joints.pop_back();
      break;
    case 4:  // a moving body more, last, in no joint: only the body count changes
      rig.AddBody({0.0f, 0.0f}, 1.0f, 1.0f);
      break;
    case 5:  // two joints trade places: the same keys in another order
      std::swap(j, rig.joints.front());
      break;
    default:
      break;  // nothing: the colouring is kept
  }
}

// What the joints' colouring reads, computed here from hinge_graph.h's definition of a plain hinge
// (a revolute joint without spring, motor or limit between two different bodies; two static ones
// count as different), not by the engine's code.
std::vector<JointPlaceKey> PlaceKeysOf(std::span<const JointInput> inputs) {
  std::vector<JointPlaceKey> keys;
  for (const JointInput& input : inputs) {
    const JointData& j = *input.joint;
    const int a = input.bodyA.index, b = input.bodyB.index;
    const bool spring = j.enableSpring && j.hertz > 0.0f;
    const bool plain =
        j.type == JointType::Revolute && !spring && !j.enableMotor && !j.enableLimit && (a != b || a < 0);
    keys.push_back({a, b, plain});
  }
  return keys;
}

// A prepare on the other lane width between two steps on F's, compared with a one-thread prepare on
// that width. A world keeps its width for life (WorldDef::simdWidth), but the solver's arrays take
// theirs each step (SolverArrays::lanes) and the joints' places serve both: a switch must colour
// again. False where the other width cannot run.
template <class F>
bool PrepareOnOtherWidth(SolverRig& rig, SolverArrays& shared, const TaskSystem& tasks) {
#if defined(MK_HAS_FLOAT8)
  if (!CpuHasAvx2()) return false;
  using Other = std::conditional_t<F::kLanes == 4, wide::Float8, wide::Float4>;
  rig.solver.lanes = shared.lanes = Other::kLanes;
  rig.Prepare(1.0f / 60.0f);
  shared.states = rig.solver.states;
  shared.params = rig.solver.params;
  StepContext context = rig.context;
  context.tasks = &tasks;
  PrepareJoints(rig.jointInputs, shared, context);
  CheckSamePreparedJoints<Other>(shared, rig.solver);
  rig.solver.lanes = shared.lanes = F::kLanes;
  return true;
#else
  (void)rig, (void)shared, (void)tasks;
  return false;
#endif
}

}  // namespace

// PrepareJoints on workers keeps the last step's colouring (places, groups, scalar lists) while every
// joint's bodies and kind, the body count and the lane width stay. Step after step, with one change
// of each kind the colouring reads between two steps or none, the pooled prepare must give the lanes
// and constraints of a one-thread prepare from scratch, bit for bit. The pooled arrays are solved on
// the workers in between, as the world's are (the stages move the lanes' static slots), and the bodies
// move, so that lanes kept but not refilled would differ.
TEST_CASE("PrepareJoints on workers keeps the last colouring only while every joint's bodies and kind stay") {
  ForEachGraphWidth(/*runsKernels=*/true, []<class F>() {
    Rng rng(0x41E6E9);
    int keptCount = 0;
    for (int workers : {2, 3}) {
      TaskPool pool(workers, PoolThreads::AsAsked);
      const TaskSystem tasks = pool.GetTaskSystem();
      for (int trial = 0; trial < 24; ++trial) {
        SolverRig rig;
        AddRandomJoints(rig, rng, trial % 2 == 0 ? 60 : 400, 200, 600);
        rig.solver.lanes = F::kLanes;
        SolverArrays shared;
        shared.lanes = F::kLanes;
        std::vector<JointPlaceKey> lastKeys;
        size_t lastBodyCount = 0;
        bool otherWidthBetween = false;
        for (int step = 0; step < 4; ++step) {
          const int change = step == 0 ? 0 : (trial + step) % 6;
          if (step > 0) ChangeJoints(rig, rng, change);
          rig.Prepare(1.0f / 60.0f);  // one thread, coloured from scratch
          shared.states = rig.solver.states;
          shared.params = rig.solver.params;
          StepContext context = rig.context;
          context.tasks = &tasks;
          const std::uint64_t version = shared.jointKeysVersion;
          PrepareJoints(rig.jointInputs, shared, context);
          INFO("workers " << workers << ", trial " << trial << ", step " << step << ", change " << change);
          CheckSamePreparedJoints<F>(shared, rig.solver);
          // The version moves exactly when the keys do, and the colouring is kept exactly when they
          // and the body count stayed (a change may be none: a swap of two equal keys, a body with
          // no other moving body to move to).
          const std::vector<JointPlaceKey> keys = PlaceKeysOf(rig.jointInputs);
          const bool keysSame = step > 0 && keys == lastKeys;
          CHECK((shared.jointKeysVersion != version) == !keysSame);
          std::vector<std::uint32_t>& bodyColors = HingesOf<F>(shared).bodyColors;
          const bool kept = !bodyColors.empty() && bodyColors.front() == kKeptMark;
          CHECK(kept == (keysSame && shared.states.size() == lastBodyCount && !otherWidthBetween));
          keptCount += kept ? 1 : 0;
          // Only the colouring writes bodyColors (nothing reads it after): a mark that survives the
          // next prepare tells a kept colouring from one made again.
          std::fill(bodyColors.begin(), bodyColors.end(), kKeptMark);
          lastKeys = keys;
          lastBodyCount = shared.states.size();
          RunSubSteps(shared, context);  // what the world's workers do to the kept lanes
          RunSubSteps(rig.solver, rig.context);
          rig.Finish();
          otherWidthBetween = trial % 4 == 3 && step == 1 && PrepareOnOtherWidth<F>(rig, shared, tasks);
        }
      }
    }
    // The keep itself was exercised, not only the colouring from scratch (25 keeps on each width).
    CHECK(keptCount > 15);
  });
}

// StoreJointImpulses with workers cuts every hinge colour and every scalar colour into slices (the part
// of each colour a worker solved): each joint must still be stored once, with what one thread stores.
// Random joints of several kinds, enough for several slices, with few bodies (most joints on the scalar
// colours and their overflow) and with many (several groups a hinge colour). What every store writes
// is poisoned between the two stores, so a joint no slice reaches keeps a NaN and fails.
TEST_CASE("StoreJointImpulses on 2 and 3 workers stores every joint as one thread does") {
  ForEachGraphWidth(/*runsKernels=*/true, []<class F>() {
    Rng rng(0x41E6E7);
    for (int workers : {2, 3}) {
      TaskPool pool(workers, PoolThreads::AsAsked);
      const TaskSystem tasks = pool.GetTaskSystem();
      for (int trial = 0; trial < 16; ++trial) {
        SolverRig rig;
        if (trial % 3 == 1) rig.settings.enableWarmStarting = false;
        AddRandomJoints(rig, rng, trial % 2 == 0 ? 60 : 600, 300, 900);
        rig.solver.lanes = F::kLanes;
        rig.Prepare(1.0f / 60.0f);
        RunSubSteps(rig.solver, rig.context);
        StoreJointImpulses(rig.jointInputs, rig.solver, rig.context);  // one thread
        std::vector<JointData> one;
        for (const RigJoint& j : rig.joints) one.push_back(j.data);
        const float nan = std::numeric_limits<float>::quiet_NaN();
        for (RigJoint& j : rig.joints) {
          // What both kinds of store write (a lane's keeps its other rows and its motor force).
          j.data.impulses.linear = {nan, nan};
          j.data.impulses.spring = nan;
          j.data.reactionForce = {nan, nan};
          j.data.reactionTorque = nan;
        }
        StepContext context = rig.context;
        context.tasks = &tasks;
        StoreJointImpulses(rig.jointInputs, rig.solver, context);
        INFO("workers " << workers << ", trial " << trial << ", joints " << rig.joints.size());
        int differing = 0;
        for (size_t i = 0; i < one.size(); ++i) {
          const JointData &many = rig.joints[i].data, &want = one[i];
          const bool same = SameImpulses(many.impulses, want.impulses) &&
                            SameBits(many.reactionForce.x, want.reactionForce.x) &&
                            SameBits(many.reactionForce.y, want.reactionForce.y) &&
                            SameBits(many.reactionTorque, want.reactionTorque) &&
                            SameBits(many.motorForce, want.motorForce);
          differing += same ? 0 : 1;
        }
        CHECK(differing == 0);
      }
    }
  });
}

// The parallel stages' blocks of hinge groups (AssignHingeBlockStaticSlots): every lane that held the
// static slot before now holds its block's own, staticSlot + (group's place in its colour) / the
// colour's block size, and no other lane changed; the returned count covers every colour's blocks.
// With the groups shared by 2, 3 or 8 workers' slices the result must be the calling thread's, bit
// for bit: random joints with static sides, enough of them that the slices cut every colour.
TEST_CASE("hinge groups' block static slots on workers are each block's own and the calling thread's") {
  ForEachGraphWidth(/*runsKernels=*/false, []<class F>() {
    Rng rng(0x5107);
    for (int workers : {2, 3, 8}) {
      TaskPool pool(workers, PoolThreads::AsAsked);
      const TaskSystem tasks = pool.GetTaskSystem();
      for (int trial = 0; trial < 12; ++trial) {
        const int bodies = rng.Int(100, 600);
        RandomJoints setup(rng, bodies, rng.Int(300, 2500), 0);
        HingeGraph<F> before;
        BuildHingeGraph(std::span<const JointConstraint>(setup.solver.joints), bodies, before);
        HingeGraph<F> alone = before, shared = before;
        const int slotsAlone = AssignHingeBlockStaticSlots(alone, workers, nullptr);
        const int slotsShared = AssignHingeBlockStaticSlots(shared, workers, &tasks);
        INFO("workers " << workers << ", trial " << trial);
        CHECK(slotsShared == slotsAlone);
        int staticLanes = 0, wrong = 0, differing = 0, blocks = 1;
        for (int color = 0; color < kGraphColorCount; ++color) {
          const int count = static_cast<int>(before.groups[color].size());
          const int blockSize = shared.colorBlockSize[color];
          CHECK(blockSize == BlockSize(count, workers, kMinGroupsPerBlock));
          blocks = std::max(blocks, (count + blockSize - 1) / blockSize);
          for (int g = 0; g < count; ++g) {
            const WideHingeGroup<F>& was = before.groups[color][static_cast<size_t>(g)];
            const WideHingeGroup<F>& now = shared.groups[color][static_cast<size_t>(g)];
            const int slot = before.staticSlot + g / blockSize;
            for (int k = 0; k < F::kLanes; ++k) {
              for (auto side : {&WideHingeGroup<F>::indexA, &WideHingeGroup<F>::indexB}) {
                const bool isStatic = (was.*side)[k] == before.staticSlot;
                staticLanes += isStatic ? 1 : 0;
                wrong += (now.*side)[k] == (isStatic ? slot : (was.*side)[k]) ? 0 : 1;
              }
            }
            differing +=
                std::memcmp(&now, &alone.groups[color][static_cast<size_t>(g)], sizeof(now)) == 0 ? 0 : 1;
          }
        }
        CHECK(slotsShared == blocks);
        CHECK(staticLanes > 0);
        CHECK(wrong == 0);
        CHECK(differing == 0);
      }
    }
  });
}

TEST_CASE("coloured hinge passes equal the scalar joint passes in colour order: the kernels' lanes") {
  ForEachGraphWidth(/*runsKernels=*/true, []<class F>() { CheckPassesEqualScalar<F>(0x41E6E1); });
}

TEST_CASE("coloured hinge passes equal the scalar joint passes in colour order: the scalar twins") {
  CheckPassesEqualScalar<wide::ScalarFloat<4>>(0x41E6E2);
  CheckPassesEqualScalar<wide::ScalarFloat<8>>(0x41E6E4);
}
}  // TEST_SUITE("solver.graph")
