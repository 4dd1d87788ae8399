// SPDX-License-Identifier: MIT
// The graph-coloured contact solver (solver/contact_graph.h) against its definition: a colouring where
// no colour holds a moving body twice and every contact takes the first colour its bodies leave free,
// and passes that equal the scalar solver run over the contacts in colour order (same values; only
// the sign of a zero may differ), on random constraints for both kernel widths (4 lanes, and 8 where
// the build and the CPU have them) and the scalar twins.
#include "minkowski/task_system.h"
#include "random_bodies.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <set>
#include <span>
#include <vector>

using namespace mk;
using namespace mk::test;

namespace {

// Random prepared contacts between `bodyCount` moving bodies and static ones (index -1): masses,
// levers and normals of any size a scene makes, impulses carried over, one or two points.
struct RandomContacts {
  SolverArrays solver;
  StepContext context;

  RandomContacts(Rng& rng, int bodyCount, int contactCount, int hubContacts) {
    context = MakeStepContext(1.0f / 60.0f, SolverSettings{});
    AddRandomBodies(rng, bodyCount, solver);
    for (int i = 0; i < contactCount; ++i) {
      const auto [a, b] = RandomPair(rng, bodyCount, i, hubContacts);
      solver.contacts.push_back(MakeContact(rng, a, b));
      // The key PrepareContacts would write beside it (no surface row, no restitution).
      const auto pointCount = static_cast<std::uint8_t>(solver.contacts.back().pointCount);
      solver.contactKeys.push_back({a, b, false, false, pointCount});
    }
  }

  ContactConstraint MakeContact(Rng& rng, int a, int b) const {
    ContactConstraint c;
    SetBodies(c, solver, a, b);
    c.normal = rng.Direction();
    c.friction = rng.Uniform(0.0f, 1.0f);
    c.pointCount = rng.Int(1, 2);
    const Vec2 tangent = RightPerp(c.normal);
    for (int j = 0; j < c.pointCount; ++j) {
      ContactConstraintPoint& cp = c.points[j];
      cp.rA = rng.InBox(1.0f);
      cp.rB = rng.InBox(1.0f);
      // Overlapping, touching and speculative points, and some deep enough for the push-out cap.
      cp.adjustedSeparation = rng.Uniform(-0.3f, 0.02f) - Dot(cp.rB - cp.rA, c.normal);
      cp.rnA = Cross(cp.rA, c.normal), cp.rnB = Cross(cp.rB, c.normal);
      cp.rtA = Cross(cp.rA, tangent), cp.rtB = Cross(cp.rB, tangent);
      const float m = c.invMassA + c.invMassB;
      cp.normalMass = 1.0f / (m + c.invIA * cp.rnA * cp.rnA + c.invIB * cp.rnB * cp.rnB);
      cp.tangentMass = 1.0f / (m + c.invIA * cp.rtA * cp.rtA + c.invIB * cp.rtB * cp.rtB);
      cp.normalImpulse = rng.Uniform(0.0f, 2.0f);
      cp.tangentImpulse = rng.Uniform(-1.0f, 1.0f);
    }
    return c;
  }
};

// The contacts in the order the coloured passes solve them: colour by colour, lane by lane, then the
// overflow.
template <class F>
std::vector<int> ColorOrder(const ContactGraph<F>& graph) {
  std::vector<int> order;
  for (const WideContactGroup<F>& g : graph.groups)
    for (int k = 0; k < F::kLanes; ++k)
      if (g.constraint[k] >= 0) order.push_back(g.constraint[k]);
  order.insert(order.end(), graph.overflow.begin(), graph.overflow.end());
  return order;
}

void CheckSameStates(const SolverArrays& wide, const SolverArrays& scalar) {
  for (size_t i = 0; i < wide.states.size(); ++i) {
    CHECK(wide.states[i].v.x == scalar.states[i].v.x);
    CHECK(wide.states[i].v.y == scalar.states[i].v.y);
    CHECK(wide.states[i].w == scalar.states[i].w);
  }
  for (size_t i = 0; i < wide.contacts.size(); ++i) {
    for (int j = 0; j < wide.contacts[i].pointCount; ++j) {
      const ContactConstraintPoint &p = wide.contacts[i].points[j], &q = scalar.contacts[i].points[j];
      CHECK(p.normalImpulse == q.normalImpulse);
      CHECK(p.tangentImpulse == q.tangentImpulse);
      CHECK(p.maxNormalImpulse == q.maxNormalImpulse);
    }
  }
}

// The warm start, a soft pass and a relax pass on `graph`'s lanes and overflow, then the impulses
// stored into the constraints (as RunSubSteps does them, without the integrators). Returns the static
// slot the kernels took after the bodies, as they left it.
template <class F>
BodyState RunColoredPasses(SolverArrays& solver, ContactGraph<F>& graph, const StepContext& context) {
  solver.states.push_back(BodyState{});
  WarmStartContactGroups<F>(graph, solver.states);
  WarmStartContacts(solver, graph.overflow);
  SolveContactGroups<F, true>(graph, solver.states, context);
  SolveContacts(solver, context, graph.overflow);
  SolveContactGroups<F, false>(graph, solver.states, context);
  RelaxContacts(solver, context, graph.overflow);
  StoreContactGroups<F>(graph, solver.contactKeys, solver.contacts);
  const BodyState slot = solver.states.back();
  solver.states.pop_back();
  return slot;
}

// Warm start, a soft pass and a relax pass, coloured against scalar in colour order.
template <class F>
void CheckPassesEqualScalar(std::uint64_t seed) {
  Rng rng(seed);
  for (int trial = 0; trial < 40; ++trial) {
    const int bodies = rng.Int(2, 60);
    RandomContacts setup(rng, bodies, rng.Int(1, 200), trial % 4 == 0 ? 40 : 0);
    // Support levels (the relax pass's rows on a support, RelaxNormalRows) in every other trial: few
    // levels, so that contacts between equal and unequal levels both occur.
    if (trial % 2 == 1) {
      setup.solver.levels.resize(static_cast<size_t>(bodies));
      for (int& level : setup.solver.levels) level = rng.Int(0, 3) == 3 ? kUnsupported : rng.Int(0, 2);
    }
    SolverArrays wide = setup.solver, scalar = setup.solver;
    ContactGraph<F> graph;
    BuildContactGraph<F>(wide.contacts, wide.contactKeys, wide.levels, bodies, graph);
    const std::vector<int> order = ColorOrder(graph);
    REQUIRE(order.size() == wide.contacts.size());

    // The static slot the kernels take after the bodies (RunSubSteps appends it the same way).
    REQUIRE(graph.staticSlot == bodies);
    const BodyState slot = RunColoredPasses(wide, graph, setup.context);
    // Static and empty lanes wrote the slot; it is back at rest, as a static body.
    CHECK((slot.v.x == 0.0f && slot.v.y == 0.0f && slot.w == 0.0f));
    CHECK((slot.dp.x == 0.0f && slot.dp.y == 0.0f && slot.dq.c == 1.0f && slot.dq.s == 0.0f));

    WarmStartContacts(scalar, order);
    SolveContacts(scalar, setup.context, order);
    RelaxContacts(scalar, setup.context, order);
    CheckSameStates(wide, scalar);
  }
}

}  // namespace

TEST_SUITE("solver.graph") {
TEST_CASE(
    "colouring: no colour holds a moving body twice and a contact with a static body comes after its moving "
    "body's") {
  ForEachGraphWidth(/*runsKernels=*/false, []<class F>() {
    Rng rng(0xC0104);
    for (int trial = 0; trial < 200; ++trial) {
      const int bodies = rng.Int(2, 80);
      RandomContacts setup(rng, bodies, rng.Int(1, 300), trial % 5 == 0 ? 50 : 0);
      const std::vector<ContactConstraint>& contacts = setup.solver.contacts;
      ContactGraph<F> graph;
      BuildContactGraph(std::span<const ContactConstraint>(contacts), setup.solver.contactKeys, {}, bodies,
                        graph);

      // Every contact exactly once, in the colour it was given.
      std::vector<int> seen(contacts.size(), 0);
      for (int color = 0; color < kGraphColorCount; ++color) {
        std::set<int> bodiesOfColor;
        for (int g = graph.colorGroupStart[color]; g < graph.colorGroupStart[color + 1]; ++g) {
          const auto& group = graph.groups[static_cast<size_t>(g)];
          for (int k = 0; k < F::kLanes; ++k) {
            const int i = group.constraint[k];
            if (i < 0) continue;
            ++seen[static_cast<size_t>(i)];
            CHECK(graph.colorOf[static_cast<size_t>(i)] == color);
            // A static side reads the static slot (one past the bodies).
            CHECK(group.indexA[k] == (contacts[i].indexA >= 0 ? contacts[i].indexA : bodies));
            CHECK(group.indexB[k] == (contacts[i].indexB >= 0 ? contacts[i].indexB : bodies));
            for (int body : {contacts[i].indexA, contacts[i].indexB}) {
              if (body < 0) continue;
              CHECK(bodiesOfColor.insert(body).second);  // no moving body twice in a colour
            }
          }
        }
      }
      for (int i : graph.overflow) ++seen[static_cast<size_t>(i)];
      CHECK(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));

      // Replayed by brute force: contacts between moving bodies first, in input order, each in the lowest
      // colour neither body holds yet; then each contact with a static side, in input order, in the
      // lowest colour its moving body does not hold above every colour it holds (the lowest free one if
      // none is free above), so that it is solved after all of them.
      std::vector<std::set<int>> held(static_cast<size_t>(bodies));
      const auto isFree = [&](int body, int color) {
        return held[static_cast<size_t>(body)].count(color) == 0;
      };
      for (int pass = 0; pass < 2; ++pass) {
        for (size_t i = 0; i < contacts.size(); ++i) {
          const int a = contacts[i].indexA, b = contacts[i].indexB;
          const bool againstStatic = a < 0 || b < 0;
          if (againstStatic != (pass == 1)) continue;
          int expected = -1;
          if (!againstStatic) {
            for (int color = 0; color < kGraphColorCount && expected < 0; ++color)
              if (isFree(a, color) && isFree(b, color)) expected = color;
          } else {
            const int body = a < 0 ? b : a;
            const std::set<int>& h = held[static_cast<size_t>(body)];
            for (int color = h.empty() ? 0 : *h.rbegin() + 1; color < kGraphColorCount && expected < 0;
                 ++color)
              expected = color;
            for (int color = 0; color < kGraphColorCount && expected < 0; ++color)
              if (isFree(body, color)) expected = color;
          }
          CHECK(graph.colorOf[i] == expected);
          if (expected < 0) continue;
          for (int body : {a, b})
            if (body >= 0) held[static_cast<size_t>(body)].insert(expected);
        }
      }
      // The order it gives: a static contact is solved after every contact its moving body has with
      // another moving body, wherever the colours above them have room for the body's static contacts.
      std::vector<int> staticSeen(static_cast<size_t>(bodies), 0);
      for (size_t i = 0; i < contacts.size(); ++i) {
        const int a = contacts[i].indexA, b = contacts[i].indexB;
        if ((a < 0) == (b < 0)) continue;
        const int body = a < 0 ? b : a;
        int highestMoving = -1;
        for (size_t j = 0; j < contacts.size(); ++j) {
          const int ja = contacts[j].indexA, jb = contacts[j].indexB;
          if (ja >= 0 && jb >= 0 && (ja == body || jb == body))
            highestMoving = std::max<int>(highestMoving, graph.colorOf[j]);
        }
        if (highestMoving + 1 + staticSeen[static_cast<size_t>(body)]++ < kGraphColorCount)
          CHECK(graph.colorOf[i] > highestMoving);
      }
    }
  });
}

TEST_CASE("a hub with more contacts than colours overflows exactly the rest") {
  Rng rng(7);
  RandomContacts setup(rng, 41, 40, 40);  // body 0 touches bodies 1..40 once each
  ForEachGraphWidth(/*runsKernels=*/false, [&setup]<class F>() {
    ContactGraph<F> graph;
    BuildContactGraph(std::span<const ContactConstraint>(setup.solver.contacts), setup.solver.contactKeys, {},
                      41, graph);
    CHECK(graph.overflow.size() == 40 - kGraphColorCount);
    for (int color = 0; color < kGraphColorCount; ++color) CHECK(graph.colorSize[color] == 1);
  });
}

// The contacts of colour `color` in the order of the graph's lanes.
template <class F>
std::vector<int> LanesOfColor(const ContactGraph<F>& graph, int color) {
  std::vector<int> lanes;
  for (int g = graph.colorGroupStart[color]; g < graph.colorGroupStart[color + 1]; ++g)
    for (int k = 0; k < F::kLanes; ++k)
      if (graph.groups[static_cast<size_t>(g)].constraint[k] >= 0)
        lanes.push_back(graph.groups[static_cast<size_t>(g)].constraint[k]);
  return lanes;
}

TEST_CASE("with workers a colour's lanes go by ranges of body index and give the same bits") {
  // Built with workers, each colour's contacts are ordered by the range of solver indices their first
  // moving body is in (ranges of 2^s bodies, s the least that makes fewer than 64 ranges), input
  // order within a range (ColorContacts; without workers a colour holds its contacts between moving
  // bodies in input order, then those with a static side): the same colours and overflow as without
  // workers, the same contacts in each colour, and, since a colour's contacts share no moving body,
  // the same velocities and impulses bit for bit after the passes.
  TaskPool pool(2, PoolThreads::AsAsked);
  const TaskSystem tasks = pool.GetTaskSystem();
  ForEachGraphWidth(/*runsKernels=*/true, [&tasks]<class F>() {
    Rng rng(0x5107);
    int reordered = 0;
    for (int trial = 0; trial < 60; ++trial) {
      const int bodies = rng.Int(2, 500);
      RandomContacts setup(rng, bodies, rng.Int(1, 800), trial % 4 == 0 ? 40 : 0);
      SolverArrays serial = setup.solver, shared = setup.solver;
      ContactGraph<F> inputOrder, byBody;
      BuildContactGraph<F>(serial.contacts, serial.contactKeys, {}, bodies, inputOrder);
      BuildContactGraph<F>(shared.contacts, shared.contactKeys, {}, bodies, byBody, &tasks);
      CHECK(inputOrder.colorOf == byBody.colorOf);
      CHECK(inputOrder.overflow == byBody.overflow);
      int shift = 0;
      while ((bodies >> shift) >= 64) ++shift;
      const auto range = [&](int i) {
        const ContactKey& key = setup.solver.contactKeys[static_cast<size_t>(i)];
        return (key.indexA >= 0 ? key.indexA : key.indexB) >> shift;
      };
      for (int color = 0; color < kGraphColorCount; ++color) {
        const std::vector<int> plain = LanesOfColor(inputOrder, color);
        std::vector<int> expected = plain;
        std::sort(expected.begin(), expected.end(),
                  [&](int i, int j) { return range(i) != range(j) ? range(i) < range(j) : i < j; });
        CHECK(LanesOfColor(byBody, color) == expected);
        reordered += expected != plain ? 1 : 0;
      }
      RunColoredPasses(serial, inputOrder, setup.context);
      RunColoredPasses(shared, byBody, setup.context);
      for (size_t i = 0; i < serial.states.size(); ++i) {
        CHECK(std::bit_cast<std::uint32_t>(shared.states[i].v.x) ==
              std::bit_cast<std::uint32_t>(serial.states[i].v.x));
        CHECK(std::bit_cast<std::uint32_t>(shared.states[i].v.y) ==
              std::bit_cast<std::uint32_t>(serial.states[i].v.y));
        CHECK(std::bit_cast<std::uint32_t>(shared.states[i].w) ==
              std::bit_cast<std::uint32_t>(serial.states[i].w));
      }
      for (size_t i = 0; i < serial.contacts.size(); ++i) {
        for (int j = 0; j < serial.contacts[i].pointCount; ++j) {
          CHECK(std::bit_cast<std::uint32_t>(shared.contacts[i].points[j].normalImpulse) ==
                std::bit_cast<std::uint32_t>(serial.contacts[i].points[j].normalImpulse));
          CHECK(std::bit_cast<std::uint32_t>(shared.contacts[i].points[j].tangentImpulse) ==
                std::bit_cast<std::uint32_t>(serial.contacts[i].points[j].tangentImpulse));
        }
      }
    }
    CHECK(reordered > 100);  // the property above is not met by input order alone
  });
}

namespace {

// A step's touching contacts as the world hands them to the solver: inputs pointing at manifolds
// (held in an array of fixed size, so that removing an input moves no manifold).
struct ContactStream {
  std::vector<Manifold> manifolds;
  std::vector<ContactInput> inputs;

  ContactStream(Rng& rng, int bodyCount, int count) : manifolds(static_cast<size_t>(count)) {
    for (int i = 0; i < count; ++i) {
      Manifold& m = manifolds[static_cast<size_t>(i)];
      RandomPoints(rng, m);
      ContactInput input;
      input.manifold = &m;
      const auto [a, b] = RandomPair(rng, bodyCount, i, 0);
      input.bodyA.index = a, input.bodyB.index = b;
      input.bodyA.linearVelocity = rng.InBox(2.0f), input.bodyB.angularVelocity = rng.Uniform(-2.0f, 2.0f);
      input.friction = rng.Uniform(0.0f, 1.0f);
      inputs.push_back(input);
    }
  }

  static void RandomPoints(Rng& rng, Manifold& m) {
    m.normal = rng.Direction();
    m.pointCount = rng.Int(1, 2);
    for (int j = 0; j < m.pointCount; ++j) {
      m.points[j].point = rng.InBox(1.0f);
      m.points[j].separation = rng.Uniform(-0.1f, 0.02f);
      m.points[j].normalImpulse = rng.Uniform(0.0f, 2.0f);
    }
  }

  // What the colouring reads of each input, in order: its solver indices and whether it takes a
  // surface row (the overflow's then).
  std::vector<std::array<int, 3>> ColoringKeys() const {
    std::vector<std::array<int, 3>> keys;
    for (const ContactInput& in : inputs)
      keys.push_back({in.bodyA.index, in.bodyB.index, in.rollingResistance != 0.0f ? 1 : 0});
    return keys;
  }
};

// One change between two steps: to the keys the colouring reads (kinds 1-4), to the body count only
// (6), or to nothing it reads (0, 5).
void ChangeContacts(ContactStream& stream, SolverArrays& solver, Rng& rng, int kind) {
  const int count = static_cast<int>(stream.inputs.size());
  ContactInput& input = stream.inputs[static_cast<size_t>(rng.Int(0, count - 1))];
  const int bodies = static_cast<int>(solver.states.size());
  switch (kind) {
    case 1:  // a contact's moving side moves to another body
      if (input.bodyA.index >= 0) {
        input.bodyA.index = (input.bodyA.index + 1 + rng.Int(0, bodies - 2)) % bodies;
        if (input.bodyA.index == input.bodyB.index) input.bodyA.index = -1;
      } else {
        input.bodyB.index = (input.bodyB.index + 1 + rng.Int(0, bodies - 2)) % bodies;
      }
      break;
    case 2:  // a surface row starts or stops (scalarOnly)
      input.rollingResistance = input.rollingResistance == 0.0f ? 0.05f : 0.0f;
      break;
    case 3:  // a contact ends: the last, so that every other key stays in place
      stream.inputs.pop_back();
      break;
    case 4:  // two contacts trade places
      std::swap(input, stream.inputs.front());
      break;
    case 5:  // the points only: a new manifold, the same bodies
      ContactStream::RandomPoints(rng, *input.manifold);
      break;
    case 6:  // twice the bodies, none in a contact: with workers, other body ranges
      AddRandomBodies(rng, bodies, solver);
      break;
    default:
      break;  // nothing
  }
}

}  // namespace

// PrepareContacts counts a new keys version exactly when what the colouring reads of the contacts
// changed (each one's solver indices and surface row, in order, and their number), and
// BuildContactGraph keeps a colouring only when it was made from the same version, body count and
// slot order. Step after step, with one change of each kind or none, and with and without workers,
// the kept graph must equal one coloured from scratch, lanes included: its lanes are poisoned between
// steps, so a lane the packing did not write again fails.
TEST_CASE("the contact colouring is kept only while the keys' version and the body count stay") {
  TaskPool pool(2, PoolThreads::AsAsked);
  const TaskSystem tasks = pool.GetTaskSystem();
  ForEachGraphWidth(/*runsKernels=*/false, [&tasks]<class F>() {
    Rng rng(0x5108);
    int keptCount = 0;
    for (int trial = 0; trial < 40; ++trial) {
      SolverArrays solver;
      AddRandomBodies(rng, rng.Int(40, 300), solver);
      ContactStream stream(rng, static_cast<int>(solver.states.size()), rng.Int(100, 700));
      ContactGraph<F> graph;
      std::vector<std::array<int, 3>> lastKeys;
      for (int step = 0; step < 8; ++step) {
        const int kind = step == 0 ? 0 : rng.Int(0, 8);
        ChangeContacts(stream, solver, rng, kind);
        const bool workers = rng.Int(0, 3) != 0;
        StepContext context = MakeStepContext(1.0f / 60.0f, SolverSettings{});
        context.tasks = workers ? &tasks : nullptr;
        const std::uint64_t version = solver.contactKeysVersion;
        PrepareContacts(stream.inputs, solver, context, /*anySurface=*/true);
        const std::vector<std::array<int, 3>> keys = stream.ColoringKeys();
        INFO("trial " << trial << ", step " << step << ", change " << kind << ", workers " << workers);
        CHECK((solver.contactKeysVersion != version) == (step == 0 || keys != lastKeys));
        lastKeys = keys;
        const int bodies = static_cast<int>(solver.states.size());
        // Kept exactly when the last colouring was made from this version, body count and slot order.
        const ColoredFrom now{solver.contactKeysVersion, bodies, workers ? 1 : 0};
        const bool keepable = graph.coloredFrom == now;  // never after none (bodyCount -1)
        BuildContactGraph<F>(solver.contacts, solver.contactKeys, {}, bodies, graph, context.tasks,
                             solver.contactKeysVersion);
        const bool kept = !graph.bodyColors.empty() && graph.bodyColors.front() == kKeptMark;
        CHECK(kept == keepable);
        keptCount += kept ? 1 : 0;
        // Only the colouring writes bodyColors (it is not read after): a mark that survives the next
        // build tells a kept colouring from one made again.
        std::fill(graph.bodyColors.begin(), graph.bodyColors.end(), kKeptMark);
        ContactGraph<F> fresh;
        BuildContactGraph<F>(solver.contacts, solver.contactKeys, {}, bodies, fresh, context.tasks);
        CHECK(graph.colorOf == fresh.colorOf);
        CHECK(graph.overflow == fresh.overflow);
        CHECK(std::equal(std::begin(graph.colorGroupStart), std::end(graph.colorGroupStart),
                         std::begin(fresh.colorGroupStart)));
        REQUIRE(graph.groups.size() == fresh.groups.size());
        CHECK(std::memcmp(graph.groups.data(), fresh.groups.data(),
                          graph.groups.size() * sizeof(WideContactGroup<F>)) == 0);
        // What the stages do to the lanes and more: every byte of them made garbage.
        std::memset(static_cast<void*>(graph.groups.data()), 0xFF,
                    graph.groups.size() * sizeof(WideContactGroup<F>));
      }
    }
    CHECK(keptCount > 40);  // the keeping above was exercised
  });
}

TEST_CASE("coloured passes equal the scalar passes in colour order: the kernels' lanes") {
  ForEachGraphWidth(/*runsKernels=*/true, []<class F>() { CheckPassesEqualScalar<F>(0x5EED1); });
}

TEST_CASE("coloured passes equal the scalar passes in colour order: the scalar twins") {
  CheckPassesEqualScalar<wide::ScalarFloat<4>>(0x5EED2);
  CheckPassesEqualScalar<wide::ScalarFloat<8>>(0x5EED3);
}
}  // TEST_SUITE("solver.graph")
