// SPDX-License-Identifier: MIT
// A random broadphase scenario checked against the O(n^2) oracle after every update (pair_set_test.cpp,
// and parallel_pairs_test.cpp, which runs it on workers in lockstep with the serial one).
#pragma once

#include "broadphase/broadphase_oracle.h"
#include "core/parallel.h"
#include "minkowski/broadphase.h"
#include "minkowski/task_system.h"
#include "minkowski/world_vector.h"
#include "test_util.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace mk::test {

// Symmetric extra filter: rejects pairs whose user data sum is a multiple of *context.
inline bool RejectMultiples(std::uint64_t a, std::uint64_t b, void* context) {
  return (a + b) % static_cast<std::uint64_t>(*static_cast<int*>(context)) != 0;
}

struct ScenarioOptions {
  int proxies = 200;
  int updates = 200;
  std::uint64_t seed = 1;
  bool shuffleMoves = false;          // call MoveProxy in a random order (results must not change)
  const TaskSystem* tasks = nullptr;  // UpdatePairs(*tasks): the candidate search on these workers
  // Moves as RefitProxy, on `tasks` when given (last move first without), then QueueRefittedProxy in
  // MoveProxy's order: the state must be MoveProxy's.
  bool refitMoves = false;
  // With refitMoves: each refit claimed where it ran (ClaimRefittedProxy), and the tickets queued in
  // MoveProxy's order in pieces (QueueClaimedProxies) instead of QueueRefittedProxy.
  bool claimMoves = false;
};

// Random scene: moving, static, sleeping, large and zero-size proxies with random filters; coherent
// drift with bounces, occasional teleports (also of static and sleeping proxies), sleep and wake,
// creation and destruction, filter changes, a switch of the extra filter with RefilterProxy, and at
// half time a change of the region's aspect (wide to tall) that teleports most proxies at once and
// flips the sweep axis. After every update the pair set, the begun and the ended pairs are compared
// with the oracle.
class Scenario {
 public:
  explicit Scenario(const ScenarioOptions& options)
      : options_(options), rng_(options.seed), shuffleRng_(options.seed + 99) {
    const float scale = std::sqrt(options.proxies / 2000.0f);
    halfWidth_ = 50.0f * scale;
    halfHeight_ = 20.0f * scale;
    broadPhase_.SetShouldCollide(RejectMultiples, &modulus_);
    for (int i = 0; i < options.proxies; ++i) Create();
  }

  // Runs all updates; returns a hash of every report (ids and user data) for determinism checks.
  std::uint64_t Run() {
    std::uint64_t hash = 1469598103934665603ull;
    for (int update = 0; update < options_.updates; ++update) {
      Step(update);
      for (auto pairs : {broadPhase_.BegunPairs(), broadPhase_.EndedPairs()}) {
        for (const ProxyPair& p : pairs) {
          for (std::uint64_t v : {std::uint64_t{p.proxyA.index1}, std::uint64_t{p.proxyA.generation},
                                  std::uint64_t{p.proxyB.index1}, std::uint64_t{p.proxyB.generation},
                                  p.userDataA, p.userDataB}) {
            hash = (hash ^ v) * 1099511628211ull;
          }
        }
        hash = (hash ^ 0xFF) * 1099511628211ull;
      }
      if (failed_) break;
    }
    return hash;
  }

  /// One update (changes, UpdatePairs, the oracle's check), for tests that run scenarios in lockstep.
  void Update(int update) { Step(update); }
  const BroadPhase& GetBroadPhase() const { return broadPhase_; }

  bool Failed() const { return failed_; }
  int SleepingPairsSeen() const { return sleepingPairsSeen_; }

 private:
  AABB RandomBox(Vec2 centre, float halfX, float halfY) {
    return {centre - Vec2{halfX, halfY}, centre + Vec2{halfX, halfY}};
  }

  void Create() {
    ModelProxy m;
    m.userData = nextUserData_++;
    const float kind = rng_.Uniform(0.0f, 1.0f);
    Vec2 centre = {rng_.Uniform(-halfWidth_, halfWidth_), rng_.Uniform(-halfHeight_, halfHeight_)};
    AABB tight;
    if (kind < 0.02f) {
      tight = RandomBox(centre, 0.0f, 0.0f);  // zero size
    } else if (kind < 0.03f) {
      tight = RandomBox(centre, rng_.Uniform(0.3f, 0.8f) * halfWidth_, 0.5f);  // a ground: large list
      m.type = ProxyType::Static;
    } else {
      tight = RandomBox(centre, rng_.LogUniform(0.05f, 1.0f), rng_.LogUniform(0.05f, 1.0f));
    }
    if (m.type != ProxyType::Static && rng_.Unit() < 0.15) m.type = ProxyType::Static;
    if (m.type == ProxyType::Moving && rng_.Unit() < 0.15) m.awake = false;
    m.filter = RandomFilter(m.userData);
    ProxyResult r = broadPhase_.CreateProxy(
        {.aabb = tight, .userData = m.userData, .type = m.type, .awake = m.awake, .filter = m.filter});
    REQUIRE(r.ok());
    m.id = r.id;
    m.fat = Inflate(tight, broadPhase_.Margin());
    model_.push_back(m);
    tight_.push_back(tight);
    velocity_.push_back(rng_.Direction() * rng_.Uniform(0.0f, 4.0f));
  }

  ProxyFilter RandomFilter(std::uint64_t userData) {
    ProxyFilter f;
    if (rng_.Unit() < 0.2) f.bodyId = static_cast<std::uint32_t>(userData / 3);  // neighbours share bodies
    f.categoryBits = 1ull << rng_.Int(0, 3);
    if (rng_.Unit() < 0.2) f.maskBits = static_cast<std::uint64_t>(rng_.Int(0, 15));
    if (rng_.Unit() < 0.2) f.groupIndex = rng_.Int(-2, 2);
    return f;
  }

  void Destroy(std::size_t i) {
    REQUIRE(broadPhase_.DestroyProxy(model_[i].id) == BroadPhaseError::None);
    model_[i] = model_.back();
    model_.pop_back();
    tight_[i] = tight_.back();
    tight_.pop_back();
    velocity_[i] = velocity_.back();
    velocity_.pop_back();
  }

  void Move(std::size_t i, const AABB& tight) {
    tight_[i] = tight;
    if (!Contains(model_[i].fat, tight)) model_[i].fat = Inflate(tight, broadPhase_.Margin());
    pendingMoves_.push_back(i);
  }

  void Teleport(std::size_t i) {
    Vec2 half = 0.5f * (tight_[i].upper - tight_[i].lower);
    Vec2 centre = {rng_.Uniform(-halfWidth_, halfWidth_), rng_.Uniform(-halfHeight_, halfHeight_)};
    Move(i, {centre - half, centre + half});
  }

  void Drift(std::size_t i) {
    constexpr float kDt = 1.0f / 60.0f;
    Vec2 c = Center(tight_[i]);
    Vec2& v = velocity_[i];
    if ((c.x > halfWidth_ && v.x > 0) || (c.x < -halfWidth_ && v.x < 0)) v.x = -v.x;
    if ((c.y > halfHeight_ && v.y > 0) || (c.y < -halfHeight_ && v.y < 0)) v.y = -v.y;
    Move(i, {tight_[i].lower + kDt * v, tight_[i].upper + kDt * v});
  }

  void Step(int update) {
    const int churn = std::max(1, options_.proxies / 500);
    for (int k = rng_.Int(0, churn); k > 0 && !model_.empty(); --k) Destroy(rng_.Next() % model_.size());
    for (int k = rng_.Int(0, churn); k > 0; --k) Create();
    if (update == options_.updates / 2) std::swap(halfWidth_, halfHeight_);  // axis flip, bulk teleport
    if (update == options_.updates / 3) {
      modulus_ = 5;  // the extra filter changed: re-filter everyone
      for (const ModelProxy& m : model_) REQUIRE(broadPhase_.RefilterProxy(m.id) == BroadPhaseError::None);
    }
    for (std::size_t i = 0; i < model_.size(); ++i) {
      ModelProxy& m = model_[i];
      if (rng_.Unit() < 0.003) {
        m.filter = RandomFilter(m.userData);
        REQUIRE(broadPhase_.SetProxyFilter(m.id, m.filter) == BroadPhaseError::None);
      }
      if (m.type == ProxyType::Moving && rng_.Unit() < (m.awake ? 0.004 : 0.01)) {
        m.awake = !m.awake;
        REQUIRE(broadPhase_.SetProxyAwake(m.id, m.awake) == BroadPhaseError::None);
      }
      Vec2 c = Center(tight_[i]);
      const bool outside = std::fabs(c.x) > halfWidth_ + 2.0f || std::fabs(c.y) > halfHeight_ + 2.0f;
      if (m.type == ProxyType::Moving && m.awake) {
        if (outside || rng_.Unit() < 0.002) {
          Teleport(i);
        } else {
          Drift(i);
        }
      } else if (rng_.Unit() < 0.001) {
        Teleport(i);  // the documented exception: static or sleeping proxies moved anyway
      }
    }
    if (options_.shuffleMoves) {
      for (std::size_t i = pendingMoves_.size(); i > 1; --i)
        std::swap(pendingMoves_[i - 1], pendingMoves_[shuffleRng_.Next() % i]);
    }
    REQUIRE((options_.refitMoves ? RefitMoves() : ApplyMoves()));
    pendingMoves_.clear();
    if (options_.tasks != nullptr) {
      broadPhase_.UpdatePairs(*options_.tasks);
    } else {
      broadPhase_.UpdatePairs();
    }
    Verify(update);
  }

  bool ApplyMoves() {
    bool movesOk = true;
    for (std::size_t i : pendingMoves_)
      movesOk &= broadPhase_.MoveProxy(model_[i].id, tight_[i]) == BroadPhaseError::None;
    return movesOk;
  }

  // The two halves of MoveProxy: the refits in any order (on the workers, one move an item), the
  // queueing in MoveProxy's order.
  bool RefitMoves() {
    const int count = static_cast<int>(pendingMoves_.size());
    std::vector<std::uint8_t> ok(pendingMoves_.size(), 0);
    std::vector<std::uint64_t> tickets(pendingMoves_.size(), 0);
    ParallelFor(options_.tasks, count, 4, [&](int begin, int end) {
      for (int k = end - 1; k >= begin; --k) {
        const std::size_t i = pendingMoves_[static_cast<std::size_t>(k)];
        bool refitted = false;
        bool fine = broadPhase_.RefitProxy(model_[i].id, tight_[i], refitted) == BroadPhaseError::None;
        if (options_.claimMoves)
          fine &= broadPhase_.ClaimRefittedProxy(model_[i].id, tickets[static_cast<std::size_t>(k)]) ==
                  BroadPhaseError::None;
        ok[static_cast<std::size_t>(k)] = fine ? 1 : 0;
      }
    });
    bool movesOk = std::all_of(ok.begin(), ok.end(), [](std::uint8_t b) { return b != 0; });
    if (options_.claimMoves) {
      // In pieces of 1 to 8 tickets, zeros (proxies not refitted) among them, as a caller's ranges come.
      for (std::size_t at = 0; at < tickets.size();) {
        const std::size_t piece = std::min<std::size_t>(tickets.size() - at, 1 + at % 8);
        broadPhase_.QueueClaimedProxies(Span<const std::uint64_t>(tickets.data() + at, piece));
        at += piece;
      }
      return movesOk;
    }
    for (std::size_t i : pendingMoves_)
      movesOk &= broadPhase_.QueueRefittedProxy(model_[i].id) == BroadPhaseError::None;
    return movesOk;
  }

  void Verify(int update) {
    std::vector<std::uint64_t> oracle = test::OraclePairs(model_, RejectMultiples, &modulus_);
    std::vector<ProxyPair> pairs;
    mk::CollectPairs(broadPhase_, pairs);
    std::vector<std::uint64_t> actual = test::KeysOf(pairs);
    std::vector<std::uint64_t> begun = test::KeysOf(broadPhase_.BegunPairs());
    std::vector<std::uint64_t> ended = test::KeysOf(broadPhase_.EndedPairs());
    const bool ok = actual == oracle && begun == test::Difference(oracle, previous_) &&
                    ended == test::Difference(previous_, oracle) &&
                    test::InDocumentedOrder(broadPhase_.BegunPairs()) &&
                    test::InDocumentedOrder(broadPhase_.EndedPairs()) &&
                    broadPhase_.Stats().pairCount == static_cast<int>(oracle.size()) &&
                    broadPhase_.Stats().proxyCount == static_cast<int>(model_.size());
    if (!ok) {
      failed_ = true;
      INFO("update ", update, ": pairs ", actual.size(), " oracle ", oracle.size(), " missing ",
           test::Difference(oracle, actual).size(), " extra ", test::Difference(actual, oracle).size(),
           " begun ", begun.size(), " ended ", ended.size());
      CHECK(ok);
    }
    for (const ModelProxy& m : model_) {
      AABB fat = broadPhase_.GetFatAABB(m.id);
      if (fat.lower != m.fat.lower || fat.upper != m.fat.upper) {
        failed_ = true;
        CHECK_MESSAGE(false, "fat box differs at update ", update);
        break;
      }
    }
    // Count persisting pairs whose proxies are both asleep (the scenario must exercise them).
    for (const ProxyPair& p : pairs) {
      auto asleep = [&](ProxyId id) {
        for (const ModelProxy& m : model_) {
          if (m.id == id) return m.type == ProxyType::Moving && !m.awake;
        }
        return false;
      };
      if (sleepingPairsSeen_ < 50 && asleep(p.proxyA) && asleep(p.proxyB)) ++sleepingPairsSeen_;
    }
    previous_ = std::move(oracle);
  }

  ScenarioOptions options_;
  test::Rng rng_;
  test::Rng shuffleRng_;
  BroadPhase broadPhase_;
  std::vector<ModelProxy> model_;
  std::vector<AABB> tight_;
  std::vector<Vec2> velocity_;
  std::vector<std::size_t> pendingMoves_;
  std::vector<std::uint64_t> previous_;
  std::uint64_t nextUserData_ = 1;
  int modulus_ = 7;
  float halfWidth_ = 1.0f, halfHeight_ = 1.0f;
  bool failed_ = false;
  int sleepingPairsSeen_ = 0;
};

}  // namespace mk::test
