// SPDX-License-Identifier: MIT
// Minkowski — broadphase: banded sweep-and-prune over fat AABBs with a persistent pair set.
//
// The world owns one BroadPhase. Each shape gets a proxy holding a *fat* AABB (the tight AABB grown
// by a margin, 0.1 m by default), so that small motion changes nothing: MoveProxy only touches the
// structure when the tight box leaves the fat one. UpdatePairs then brings the structure up to date
// and reports the pairs that began and the pairs that ended since the previous call, in a
// deterministic order. The world turns begun pairs into contacts and destroys contacts of ended pairs.
//
// Contract (what tests check against an O(n^2) oracle): after UpdatePairs, the pair set is exactly the
// set of proxy pairs whose fat AABBs overlap (touching counts) and that pass the filter (see
// ProxyFilter and ShouldCollideFn). Sleep and the static flag change the cost, never the result:
//  - static proxies never pair with each other;
//  - pairs among proxies that do not move (static, asleep, or awake but inside their fat box) persist
//    unchanged, in particular pairs between two sleeping proxies;
//  - a sleeping or static proxy that is moved anyway (teleport) has its pairs brought up to date.
// Only proxies whose fat box changed since the last update (and new, re-filtered or woken ones) are
// processed, so static and sleeping proxies cost nothing per update.
//
// Ids, not pointers: a ProxyId carries a generation, so a stale id is detected (MK_ASSERT + error).
// Slots are reused; create/destroy cycles do not grow memory. No allocation per update after warm-up
// (CapacityBytes() proves it). Not thread-safe: queries also bring the structure up to date.
#pragma once

#include "minkowski/cast_types.h"  // RayCastInput
#include "minkowski/export.h"
#include "minkowski/math.h"
#include "minkowski/owned_ptr.h"
#include "minkowski/span.h"
#include "minkowski/task_system.h"

#include <cstddef>
#include <cstdint>

namespace MK_API mk {

class DebugDraw;

/// Handle to a proxy. Zero-initialised = null. `index1` is the slot + 1; `generation` changes each
/// time the slot is reused, so handles to destroyed proxies are detected.
struct ProxyId {
  std::uint32_t index1 = 0;      ///< slot + 1; 0 = null
  std::uint32_t generation = 0;  ///< slot generation when the handle was made (>= 1 for real ids)

  /// True for the null handle.
  bool IsNull() const { return index1 == 0; }
  /// The same slot and generation.
  friend bool operator==(ProxyId a, ProxyId b) {
    return a.index1 == b.index1 && a.generation == b.generation;
  }
  friend bool operator!=(ProxyId a, ProxyId b) { return !(a == b); }  ///< not ==
};

/// Static proxies never move in normal use (ground, walls); moving proxies belong to dynamic or
/// kinematic bodies and may be put to sleep.
enum class ProxyType : std::uint8_t { Moving = 0, Static };

/// No body: the same-body rule never applies.
inline constexpr std::uint32_t kNoBody = 0xFFFFFFFFu;

/// Per-proxy collision filter, given at creation (SetProxyFilter changes it). Two proxies pair only
/// when all of these allow it, in this order:
///  1. not both static;
///  2. not the same body (bodyId equal and != kNoBody);
///  3. group: the same non-zero groupIndex decides alone: > 0 always pairs, < 0 never pairs;
///  4. otherwise (categoryBitsA & maskBitsB) != 0 and (categoryBitsB & maskBitsA) != 0;
///  5. the optional ShouldCollideFn (e.g. joints that disable collision) returns true.
struct ProxyFilter {
  std::uint32_t bodyId = kNoBody;  ///< owning body; proxies of one body never pair
  std::uint64_t categoryBits = 1;  ///< what this proxy is
  std::uint64_t maskBits = ~0ull;  ///< what it pairs with
  std::int32_t groupIndex = 0;     ///< see rule 3 (Box2D semantics)
};

/// Rules 3 and 4 above (group, then category and mask bits): whether two filters let their proxies
/// pair. The broadphase applies it to every new pair; the world applies it where it asks the broadphase
/// only for boxes (continuous collision).
inline bool FiltersAllowPair(const ProxyFilter& a, const ProxyFilter& b) {
  if (a.groupIndex != 0 && a.groupIndex == b.groupIndex) return a.groupIndex > 0;
  return (a.categoryBits & b.maskBits) != 0 && (b.categoryBits & a.maskBits) != 0;
}

/// Everything needed to create a proxy.
struct ProxyDef {
  AABB aabb{};                         ///< tight AABB in metres; the broadphase adds the margin
  std::uint64_t userData = 0;          ///< returned in pairs and queries (the world stores the shape id)
  ProxyType type = ProxyType::Moving;  ///< static or moving
  bool awake = true;                   ///< moving proxies only: false creates it asleep
  ProxyFilter filter{};                ///< pair filter
  /// This proxy's fat margin (m): its fat box is its tight box grown by this much, here and whenever
  /// MoveProxy / RefitProxy re-centre it without a margin of their own. Negative (the default): the
  /// broadphase's margin (BroadPhaseDef::margin, SetMargin). Not finite: MK_ASSERT, and the default.
  float margin = -1.0f;
};

/// Why a call was refused. A refused call leaves the structure unchanged.
enum class BroadPhaseError : std::uint8_t {
  None = 0,
  InvalidAABB,  ///< NaN or infinite bound, or lower > upper
  StaleId,      ///< null id, id of a destroyed proxy (e.g. destroyed twice), or out of range
};

/// CreateProxy's answer: an id, or an error and a null id.
struct ProxyResult {
  ProxyId id{};                                   ///< the new proxy; null on error
  BroadPhaseError error = BroadPhaseError::None;  ///< None on success

  /// True when `id` is valid.
  bool ok() const { return error == BroadPhaseError::None; }
};

/// A pair of proxies. `proxyA.index1 < proxyB.index1`. For an ended pair whose proxy was destroyed,
/// the id is stale and the user data is the value it had.
struct ProxyPair {
  ProxyId proxyA{};             ///< the proxy with the lower index1
  ProxyId proxyB{};             ///< the other proxy
  std::uint64_t userDataA = 0;  ///< proxyA's ProxyDef::userData
  std::uint64_t userDataB = 0;  ///< proxyB's ProxyDef::userData
};

/// Extra pair filter, called last (see ProxyFilter) with the two proxies' user data, only when a pair
/// is about to begin (or for RefilterProxy). Return false to keep the pair out.
using ShouldCollideFn = bool (*)(std::uint64_t userDataA, std::uint64_t userDataB, void* context);

/// QueryAABB callback: one proxy whose fat AABB overlaps the box. Return false to stop the query.
using QueryFn = bool (*)(ProxyId id, std::uint64_t userData, void* context);

/// RayCast callback: one proxy whose fat AABB the ray enters at fraction `entryFraction` (0 when the
/// origin is inside). Proxies arrive in increasing entryFraction. Return:
///  - a value < 0 to ignore this proxy and go on unchanged;
///  - 0 to stop at once;
///  - f > 0 to clip the ray to t <= f (typically the exact hit fraction on the shape); proxies whose
///    entry lies beyond f are not visited. Returning the current maxFraction (or 1) goes on unchanged.
using RayCastFn = float (*)(ProxyId id, std::uint64_t userData, const RayCastInput& input,
                            float entryFraction, void* context);

/// Which axis to sweep along.
enum class SweepAxisMode : std::uint8_t {
  Auto = 0,  ///< the axis along which proxy centres spread most (re-evaluated every few updates)
  X,         ///< forced x (for benchmarks and debugging)
  Y,         ///< forced y
};

/// The most bands a BroadPhaseDef::maxBands may ask for (about 64 MB of empty bands); a larger value
/// is refused (MK_ASSERT) and clamped to it. The automatic layout stops at 65,536.
inline constexpr int kMaxBroadPhaseBands = 1 << 20;

/// Construction settings.
struct BroadPhaseDef {
  float margin = 0.1f;                       ///< fat AABB margin in metres (>= 0)
  SweepAxisMode axis = SweepAxisMode::Auto;  ///< sweep axis choice
  int maxBands = 0;             ///< 0 = automatic; 1 = classic single-list SAP; at most kMaxBroadPhaseBands
  int reevaluateInterval = 32;  ///< updates between cheap axis/band re-evaluations (>= 1)
  ShouldCollideFn shouldCollide = nullptr;  ///< optional extra filter
  void* shouldCollideContext = nullptr;     ///< passed to shouldCollide
};

/// How space is currently cut (debug data for the sandbox). The sweep axis is sorted; the other axis
/// (the cross axis) is cut into `bandCount` bands of `bandHeight` metres starting at `bandOrigin`;
/// the first and last bands extend to infinity.
struct BroadPhaseLayout {
  int sweepAxis = 0;        ///< 0 = x, 1 = y
  float bandOrigin = 0.0f;  ///< cross-axis coordinate of the lower edge of band 0, metres
  float bandHeight = 1.0f;  ///< metres
  int bandCount = 1;        ///< >= 1
};

/// One proxy as the debug accessor sees it.
struct ProxyInfo {
  ProxyId id{};                        ///< the proxy
  AABB fatAABB{};                      ///< metres
  std::uint64_t userData = 0;          ///< ProxyDef::userData
  ProxyType type = ProxyType::Moving;  ///< static or moving
  bool awake = true;                   ///< false while asleep (SetProxyAwake)
  float sweepLower = 0.0f;             ///< the fat box's interval on the sweep axis, metres: lower end
  float sweepUpper = 0.0f;             ///< upper end
  bool large = false;                  ///< kept in the list of large proxies instead of the bands
};

/// Counters, for profiles and tests.
struct BroadPhaseStats {
  int proxyCount = 0;       ///< live proxies
  int pairCount = 0;        ///< pairs in the persistent set
  int movedLastUpdate = 0;  ///< proxies processed by the last UpdatePairs
  int fullRebuilds = 0;     ///< full re-sorts so far (layout changes, bulk creation)
  int largeCount = 0;       ///< proxies in the large list
  int pairCompactions = 0;  ///< times the pair nodes were laid out again (once as many pairs changed)
};

/// What Draw shows.
struct BroadPhaseDrawOptions {
  bool fatAABBs = true;  ///< fat boxes coloured by type (static, moving, sleeping)
  bool bands = true;     ///< band edges across the occupied sweep range
  bool pairs = true;     ///< a segment between box centres for every pair
};

/// Incremental banded sweep-and-prune with a persistent pair set (docs/design.md section 6).
class BroadPhase {
 public:
  /// Empty broadphase. An invalid def (negative or non-finite margin, interval < 1) is clamped and
  /// reported through MK_ASSERT.
  explicit BroadPhase(const BroadPhaseDef& def = {});
  ~BroadPhase();
  /// Moving transfers the proxies and pairs with their ids; the moved-from broadphase may only be
  /// destroyed or assigned to.
  ///@{
  BroadPhase(BroadPhase&&) noexcept;
  BroadPhase& operator=(BroadPhase&&) noexcept;
  ///@}
  BroadPhase(const BroadPhase&) = delete;
  BroadPhase& operator=(const BroadPhase&) = delete;

  /// New proxy for a tight AABB. Its pairs appear at the next UpdatePairs. Error: InvalidAABB.
  ProxyResult CreateProxy(const ProxyDef& def);

  /// Removes a proxy; its pairs are reported as ended by the next UpdatePairs. Error (+ MK_ASSERT):
  /// StaleId, e.g. when destroying twice.
  BroadPhaseError DestroyProxy(ProxyId id);

  /// Tells the broadphase the proxy's new tight AABB (metres). Cheap when it is still inside the fat
  /// box; otherwise the fat box is re-centred and the proxy is processed at the next UpdatePairs.
  /// Errors (+ MK_ASSERT): StaleId, InvalidAABB (the proxy keeps its old box).
  BroadPhaseError MoveProxy(ProxyId id, const AABB& tightAABB);
  /// MoveProxy with this proxy's margin (m) for a re-centred fat box; negative: the broadphase's. A
  /// caller whose objects differ in size gives small ones a small margin: a crowd of small proxies
  /// then keeps far fewer pairs that never touch (the world does, WorldSettings::aabbMargin).
  BroadPhaseError MoveProxy(ProxyId id, const AABB& tightAABB, float margin);

  /// MoveProxy in two halves, for a caller that moves many proxies from several threads at once.
  /// RefitProxy does the box work: when the tight box (metres) left the fat one, it re-centres the fat
  /// box and sets `refitted`; it writes only this proxy's box and flags, so calls for distinct proxies
  /// may run side by side while no other call is made. QueueRefittedProxy, on one thread, then queues
  /// a refitted proxy for the next UpdatePairs (nothing for one that was not refitted). Queued in the
  /// order MoveProxy would have been called, the broadphase's state is MoveProxy's; every refitted
  /// proxy must be queued before the next other call. Errors as MoveProxy's (+ MK_ASSERT; refitted
  /// stays false and the proxy keeps its box); QueueRefittedProxy: StaleId.
  BroadPhaseError RefitProxy(ProxyId id, const AABB& tightAABB, bool& refitted);
  /// RefitProxy with this proxy's margin (m), as MoveProxy's.
  BroadPhaseError RefitProxy(ProxyId id, const AABB& tightAABB, float margin, bool& refitted);
  /// The second half of MoveProxy (RefitProxy says how): queues `id` for the next UpdatePairs if
  /// RefitProxy re-centred its fat box since, else does nothing. One thread. Error: StaleId.
  BroadPhaseError QueueRefittedProxy(ProxyId id);
  /// QueueRefittedProxy in two halves too, for a caller that queues from several threads.
  /// ClaimRefittedProxy (any thread; calls for distinct proxies may run side by side while no other call
  /// is made) does what QueueRefittedProxy does to the proxy itself and sets `ticket` to what is left
  /// to do: append it to the lists of the next UpdatePairs (0: nothing, it was not refitted).
  /// QueueClaimedProxies then appends the tickets' proxies. Error: StaleId (+ MK_ASSERT; ticket 0).
  BroadPhaseError ClaimRefittedProxy(ProxyId id, std::uint64_t& ticket);
  /// The second half of ClaimRefittedProxy, on one thread: appends the proxies of `tickets` (zeros are
  /// skipped) for the next UpdatePairs. Tickets queued in the order QueueRefittedProxy would have been
  /// called leave its state; every claimed ticket must be queued before the next other call.
  void QueueClaimedProxies(Span<const std::uint64_t> tickets);

  /// Puts a moving proxy to sleep (false) or wakes it (true). A sleeping proxy costs nothing per
  /// update; its pairs persist. No effect on static proxies. Error (+ MK_ASSERT): StaleId.
  BroadPhaseError SetProxyAwake(ProxyId id, bool awake);

  /// Replaces a proxy's filter; its pairs are re-filtered at the next update. Error: StaleId.
  BroadPhaseError SetProxyFilter(ProxyId id, const ProxyFilter& filter);

  /// Re-runs the filter (including ShouldCollideFn) on this proxy's pairs and candidates at the next
  /// update; call it after a joint that disables collision was created or destroyed. Error: StaleId.
  BroadPhaseError RefilterProxy(ProxyId id);

  /// Replaces the extra filter. Existing pairs are not re-filtered; call RefilterProxy for that.
  /// `pure`: fn's answer depends only on its arguments and on state that does not change during an
  /// UpdatePairs call, and fn may be called from any thread, at the same time, in any order. Then
  /// UpdatePairs(tasks) asks it in the searches on the workers rather than in the merge on the calling
  /// thread; the pair set, the reports and the saved state are the same either way.
  void SetShouldCollide(ShouldCollideFn fn, void* context, bool pure = false);

  /// Brings the structure up to date and computes the pairs begun and ended since the last call.
  void UpdatePairs();

  /// UpdatePairs with the moved proxies' searches for candidate partners (and the tests that pick the
  /// pairs to end and the new candidates) run as a parallel-for on `tasks` (minkowski/task_system.h;
  /// its callbacks are called from this thread); the pairs are then added and ended on the calling
  /// thread, in the order UpdatePairs() uses, so the pair set, the reports, the saved state and the
  /// calls of ShouldCollideFn (all on the calling thread) are those of UpdatePairs() for any worker
  /// count and any scheduling. A filter set as pure (SetShouldCollide) is asked on the workers
  /// instead, once for each new candidate pair, in no set order. With one worker or a null
  /// callback, or fewer than 64 moved proxies, it is UpdatePairs().
  void UpdatePairs(const TaskSystem& tasks);

  /// Pairs that began at the last UpdatePairs, sorted by (proxyA.index1, proxyB.index1). Valid until
  /// the next UpdatePairs; owned by the broadphase.
  Span<const ProxyPair> BegunPairs() const;

  /// Pairs that ended at the last UpdatePairs (including those of destroyed proxies), same order.
  Span<const ProxyPair> EndedPairs() const;

  /// Calls `fn` for every proxy whose fat AABB overlaps `box` (touching counts), each once, in a
  /// deterministic order. Sees creations and moves made since the last UpdatePairs.
  /// Queries are const: what they answer and every later answer are the same whether or not they ran.
  /// Inside, a query first re-sorts the lists that moves left unsorted and stamps the proxies it
  /// visits (shared scratch), so two queries must not run at the same time, even on a const object.
  void QueryAABB(const AABB& box, QueryFn fn, void* context) const;

  /// QueryAABB for the proxies at rest: every static and sleeping proxy whose fat AABB overlaps `box`,
  /// each once, and possibly some awake moving ones (those too large for the bands; check the type in
  /// `fn` if it matters). Much cheaper than QueryAABB inside a crowd of awake bodies: the world's
  /// continuous collision sweeps fast bodies against static shapes with it.
  void QueryRestingAABB(const AABB& box, QueryFn fn, void* context) const;

  /// QueryRestingAABB without first applying the changes made since the last query or UpdatePairs
  /// (MoveProxy, SetProxyAwake, CreateProxy): proxies are visited where that call left them. Every
  /// static proxy unchanged since then is visited once if its fat AABB overlaps `box`; a changed one
  /// may be missed, and non-static proxies may be visited (check the type in `fn`). For a caller that
  /// interleaves MoveProxy of awake proxies with queries for static ones (the world's continuous
  /// collision, between whose moves static proxies never change): applying each move before the next
  /// query would rebuild a band list every time. It writes nothing inside the broadphase, so several
  /// threads may run it at once while no other call is made; a proxy destroyed since is not visited.
  void QueryStaticAABB(const AABB& box, QueryFn fn, void* context) const;

  /// Visits the proxies whose fat AABB the ray segment touches, in increasing entry fraction (ties by
  /// slot), with early termination and clipping through the callback's return value (see RayCastFn).
  /// A non-finite input visits nothing. Const, with QueryAABB's caveat on concurrent calls.
  void RayCast(const RayCastInput& input, RayCastFn fn, void* context) const;

  /// RayCast for a box of half extents `halfExtents` (metres, >= 0) centred on the ray's point: visits
  /// the proxies whose fat AABB the moving box touches, by the fraction at which the ray enters the fat
  /// AABB grown by `halfExtents` (the Minkowski sum of the two boxes), with RayCast's order, clipping
  /// and caveats. Negative or non-finite extents fail an MK_ASSERT and visit nothing.
  void BoxCast(const RayCastInput& input, Vec2 halfExtents, RayCastFn fn, void* context) const;

  /// True when `id` names a live proxy.
  bool IsValid(ProxyId id) const;

  /// The proxy's fat AABB (metres), or an empty box at the origin for a stale id.
  AABB GetFatAABB(ProxyId id) const;

  /// The proxy's user data, or 0 for a stale id.
  std::uint64_t GetUserData(ProxyId id) const;

  /// The fat AABB margin in metres.
  float Margin() const;
  /// Sets the fat AABB margin in metres (>= 0; negative or non-finite: MK_ASSERT, unchanged). Proxies
  /// created from now on get it, and each existing proxy gets it when it is next refitted (its box
  /// leaves its fat box); fat boxes already made keep their size until then.
  void SetMargin(float margin);

  /// Counters.
  BroadPhaseStats Stats() const;

  /// Bytes the broadphase holds on the heap: the capacities of its arrays (proxies, band lists, pairs,
  /// reused scratch) times their element sizes (World::GetMemoryStats).
  std::size_t MemoryBytes() const;

  /// Current layout (sweep axis and bands).
  BroadPhaseLayout Layout() const;

  /// Every current pair, sorted by (proxyA.index1, proxyB.index1): returns how many there are and
  /// writes the first min(that, out.size()) to `out`. Debug/test use (sorts in a reused scratch).
  /// Appended to a std::vector: mk::CollectPairs (world_vector.h).
  int CollectPairs(Span<ProxyPair> out) const;
  /// Refused: a std::vector here was the old appending CollectPairs; use mk::CollectPairs (world_vector.h).
  template <class C, class = std::enable_if_t<detail::IsResizable<C>::value>>
  int CollectPairs(C& container) const = delete;

  /// Every live proxy, by slot: returns how many there are and writes the first min(that,
  /// out.size()) to `out`. Debug/test use. Appended to a std::vector: mk::CollectProxies
  /// (world_vector.h).
  int CollectProxies(Span<ProxyInfo> out) const;
  /// Refused, as CollectPairs's: use mk::CollectProxies (world_vector.h).
  template <class C, class = std::enable_if_t<detail::IsResizable<C>::value>>
  int CollectProxies(C& container) const = delete;

  /// Bytes reserved by all internal arrays; constant once warmed up (no allocation per update).
  std::size_t CapacityBytes() const;

  /// Draws the structure (see BroadPhaseDrawOptions).
  void Draw(DebugDraw& draw, const BroadPhaseDrawOptions& options = {}) const;

  struct Impl;  ///< internal (engine/src/broadphase)

 private:
  friend struct BroadPhaseSnapshot;  // World snapshots copy and validate the state (engine/src/broadphase)
  void QueryAABBImpl(const AABB& box, QueryFn fn, void* context, bool restingOnly, bool sync = true) const;
  OwnedPtr<Impl> impl_;
};

}  // namespace mk
