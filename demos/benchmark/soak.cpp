// SPDX-License-Identifier: MIT
// Soak: a long run of rain-like churn (issue 16), checking that the engine's memory stays flat after
// warm-up, that no body ever holds a non-finite value, and that the run is reproducible.
//
//   soak [--steps N] [--report N] [--seed N] [--twice]
//
// The world: three floors of small static boxes (as rain's) and, above them, a changing crowd. Every
// 4 steps the oldest ragdoll (11 capsules, 10 revolute joints) is destroyed and a new one dropped at a
// random place; every 3 steps a random box, circle, capsule or polygon is created and, once there are
// 200 of them, the oldest destroyed; every 500 steps a random body is disabled or enabled again and
// the gravity tilts a little. Every body the program made is checked after every step (finite pose
// and velocity). Every --report steps it prints: step, bodies, contacts, the process's resident memory
// and heap in use (mallinfo2, MB), heap calls since warm-up (all, and those inside World::Step; the
// others come from building shapes: MakePolygon's hull uses scratch vectors), ms per step, and the
// state hash. --twice
// runs the whole soak again in the same process and compares the final hashes; running the program
// twice compares them across processes. Exit code 1 on a non-finite value or a hash mismatch.
#include "bench_args.h"
#include "bench_clock.h"
#include "ragdoll.h"

#include <array>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <deque>
#include <malloc.h>
#include <new>
#include <random>

namespace {

// Heap calls in the whole process (the engine's and this program's), to show what steady churn costs.
std::size_t g_allocations = 0;

}  // namespace

void* operator new(std::size_t size) {
  ++g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace {

using namespace mk;
using scenes::Ragdoll;

struct Options {
  int steps = 100000;
  int report = 10000;
  int seed = 1;
  bool twice = false;
};

constexpr float kDt = 1.0f / 60.0f;
constexpr int kRagdolls = 60;      // alive at once
constexpr int kLooseBodies = 200;  // alive at once

double ResidentMegabytes() {
  long pages = 0, resident = 0;
  if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
  }
  return static_cast<double>(resident) * 4096.0 / 1e6;
}

// Heap in use: the arena's blocks (uordblks) plus the blocks malloc gave their own mappings (hblkhd).
// uordblks alone misses the large arrays while they are mapped, and glibc raises its mapping
// threshold after freeing one, so the same world counted 3.9 MB when built first in a process and
// 9.5 MB when built again.
double HeapMegabytes() {
  const struct mallinfo2 info = mallinfo2();
  return static_cast<double>(info.uordblks + info.hblkhd) / 1e6;
}

class Churn {
 public:
  explicit Churn(std::uint32_t seed) : rng_(seed) {
    world_.SetGravity({0.0f, -10.0f});
    for (int floor = 0; floor < 3; ++floor) {
      const BodyId ground = world_.CreateBody({.position = {0.0f, 30.0f * static_cast<float>(floor)}});
      // Small boxes side by side, as rain's floors, with gaps for bodies to fall through.
      for (int i = 0; i < 40; ++i) {
        if (i % 9 == 4 + floor) continue;
        const float x = -40.0f + 2.0f * static_cast<float>(i);
        world_.CreateShape(ground, {}, MakeOffsetBox(1.0f, 0.25f, {x, 0.0f}, 0.0f).value);
      }
    }
  }

  // One step of churn then World::Step; false when a body holds a non-finite value.
  bool Step(int step) {
    if (step % 4 == 0) ReplaceRagdoll(step);
    if (step % 3 == 0) ReplaceLooseBody();
    if (step % 500 == 250) ToggleRandomBody();
    if (step % 500 == 0) {
      const float tilt = Uniform(-2.0f, 2.0f);
      world_.SetGravity({tilt, -10.0f});
    }
    const std::size_t before = g_allocations;
    world_.Step(kDt);
    stepAllocations += g_allocations - before;
    return AllFinite();
  }

  const World& world() const { return world_; }
  std::size_t stepAllocations = 0;  // heap calls inside World::Step

 private:
  float Uniform(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng_); }
  int Index(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

  void ReplaceRagdoll(int step) {
    if (ragdolls_.size() == kRagdolls) {
      scenes::DestroyRagdoll(world_, ragdolls_.front());
      ragdolls_.pop_front();
    }
    const Vec2 base{Uniform(-35.0f, 35.0f), Uniform(65.0f, 80.0f)};
    ragdolls_.push_back(scenes::CreateRagdoll(world_, base, -(1 + step % 7)));
  }

  void ReplaceLooseBody() {
    if (loose_.size() == kLooseBodies) {
      world_.DestroyBody(loose_.front());
      loose_.pop_front();
    }
    const BodyId body = world_.CreateBody({.type = BodyType::Dynamic,
                                           .position = {Uniform(-35.0f, 35.0f), Uniform(65.0f, 85.0f)},
                                           .angle = Uniform(-3.0f, 3.0f)});
    const ShapeDef def{.friction = Uniform(0.0f, 1.0f), .restitution = Uniform(0.0f, 0.5f)};
    switch (Index(4)) {
      case 0:
        world_.CreateShape(body, def, MakeBox(Uniform(0.1f, 0.8f), Uniform(0.1f, 0.8f)).value);
        break;
      case 1:
        world_.CreateShape(body, def, MakeCircle({0.0f, 0.0f}, Uniform(0.1f, 0.6f)).value);
        break;
      case 2:
        world_.CreateShape(body, def, MakeCapsule({-0.3f, 0.0f}, {0.3f, 0.0f}, Uniform(0.05f, 0.3f)).value);
        break;
      default: {
        std::array<Vec2, 7> points;
        for (Vec2& p : points) p = {Uniform(-0.6f, 0.6f), Uniform(-0.6f, 0.6f)};
        const GeometryResult<Polygon> polygon = MakePolygon(points, Uniform(0.0f, 0.05f));
        world_.CreateShape(body, def, polygon.ok() ? polygon.value : MakeBox(0.3f, 0.3f).value);
        break;
      }
    }
    loose_.push_back(body);
  }

  void ToggleRandomBody() {
    if (loose_.empty()) return;
    const BodyId body = loose_[static_cast<std::size_t>(Index(static_cast<int>(loose_.size())))];
    world_.SetEnabled(body, !world_.IsEnabled(body));
  }

  bool Finite(BodyId body) const {
    const Pos p = world_.GetPosition(body);
    const Vec2 v = world_.GetLinearVelocity(body);
    return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(v.x) && std::isfinite(v.y) &&
           std::isfinite(world_.GetAngle(body)) && std::isfinite(world_.GetAngularVelocity(body));
  }

  bool AllFinite() const {
    for (const Ragdoll& ragdoll : ragdolls_)
      for (BodyId body : ragdoll.bodies)
        if (!Finite(body)) return false;
    for (BodyId body : loose_)
      if (!Finite(body)) return false;
    return true;
  }

  World world_;
  std::mt19937 rng_;
  std::deque<Ragdoll> ragdolls_;
  std::deque<BodyId> loose_;
};

// Runs the soak; returns the final state hash, or 0 after a non-finite value (reported).
std::uint64_t RunSoak(const Options& options) {
  Churn churn(static_cast<std::uint32_t>(options.seed));
  std::size_t allocationsAtWarmUp = 0;
  const int warmUp = std::min(options.report, options.steps);
  std::printf(
      "step,bodies,contacts,resident_mb,heap_mb,heap_calls_since_warm_up,of_them_in_step,ms_per_step,state_"
      "hash\n");
  std::size_t stepAllocationsAtWarmUp = 0;
  double stepSeconds = 0.0;
  for (int step = 0; step < options.steps; ++step) {
    const double start = bench::NowNs();
    const bool finite = churn.Step(step);
    stepSeconds += 1e-9 * (bench::NowNs() - start);
    if (!finite) {
      std::printf("non-finite body state after step %d\n", step);
      return 0;
    }
    if (step + 1 == warmUp) {
      allocationsAtWarmUp = g_allocations;
      stepAllocationsAtWarmUp = churn.stepAllocations;
    }
    if ((step + 1) % options.report == 0 || step + 1 == options.steps) {
      const Counters counters = churn.world().GetCounters();
      std::printf("%d,%d,%d,%.1f,%.1f,%zu,%zu,%.3f,%016" PRIx64 "\n", step + 1, counters.bodies,
                  counters.contacts, ResidentMegabytes(), HeapMegabytes(),
                  step + 1 > warmUp ? g_allocations - allocationsAtWarmUp : std::size_t{0},
                  step + 1 > warmUp ? churn.stepAllocations - stepAllocationsAtWarmUp : std::size_t{0},
                  1000.0 * stepSeconds / static_cast<double>(options.report), churn.world().StateHash());
      std::fflush(stdout);
      stepSeconds = 0.0;
    }
  }
  return churn.world().StateHash();
}

bool ParseOptions(int argc, char** argv, Options& options) {
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    const bool hasValue = i + 1 < argc;
    if (std::strcmp(arg, "--steps") == 0 && hasValue) {
      if (!bench::ParseInt(argv[++i], options.steps, 1, 100000000)) return false;
    } else if (std::strcmp(arg, "--report") == 0 && hasValue) {
      if (!bench::ParseInt(argv[++i], options.report, 1, 100000000)) return false;
    } else if (std::strcmp(arg, "--seed") == 0 && hasValue) {
      if (!bench::ParseInt(argv[++i], options.seed, 0, 1000000000)) return false;
    } else if (std::strcmp(arg, "--twice") == 0) {
      options.twice = true;
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!ParseOptions(argc, argv, options)) {
    std::fprintf(stderr, "usage: soak [--steps N] [--report N] [--seed N] [--twice]\n");
    return 2;
  }
  const std::uint64_t first = RunSoak(options);
  if (first == 0) return 1;
  std::printf("final state hash %016" PRIx64 "\n", first);
  if (options.twice) {
    const std::uint64_t second = RunSoak(options);
    std::printf("second run's final state hash %016" PRIx64 " (%s)\n", second,
                second == first ? "equal" : "DIFFERENT");
    if (second != first) return 1;
  }
  return 0;
}
