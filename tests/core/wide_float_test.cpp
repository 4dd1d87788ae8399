// SPDX-License-Identifier: MIT
// The wide-float layer (core/wide_float.h): every operation of every lane type against plain float
// math with the documented semantics, the SSE2 type against its scalar twin bit for bit (NaN and
// infinities included), and ArgMax against a scalar scan.
#include "core/lane_test_util.h"

#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

using namespace mk;
using test::SameBits;

namespace {

/// Every result of a set of operations, named, as bits: two runs agree exactly when these do.
struct Results {
  std::vector<std::string> names;
  std::vector<std::uint32_t> bits;
  std::vector<bool> isNan;          // a float result that is a NaN (of any payload)
  std::vector<bool> isCommutative;  // the result of a + b or a * b
  void Add(const std::string& name, float x) {
    names.push_back(name);
    bits.push_back(std::bit_cast<std::uint32_t>(x));
    isNan.push_back(x != x);
    isCommutative.push_back(name.starts_with("add[") || name.starts_with("mul["));
  }
  void Add(const std::string& name, unsigned x) {
    names.push_back(name);
    bits.push_back(x);
    isNan.push_back(false);
    isCommutative.push_back(false);
  }
  void Add(const std::string& name, bool x) { Add(name, x ? 1u : 0u); }
};

/// Which NaN payloads must agree. x86 returns the first operand's NaN when both are NaNs, but C++
/// (and GCC's vector types behind _mm_add_ps) treat + and * as commutative, so which operand comes
/// first is the compiler's choice, made per build by register allocation: MinGW's GCC 12 puts b first
/// in Sse2Float4's + where Linux's puts a first (147 of 20000 trials, each a sum of two NaNs of
/// opposite signs). No kernel reads a payload (a NaN is only ever tested for being one), so the
/// promise leaves them out: of sums and products (kSumsAndProducts), or everywhere (kAny, AVX2).
enum class NanPayloads { kExact, kSumsAndProducts, kAny };

/// The first result where two runs differ ("" when none).
std::string FirstDifference(const Results& a, const Results& b, NanPayloads payloads = NanPayloads::kExact) {
  if (a.bits.size() != b.bits.size()) return "result count";
  for (std::size_t i = 0; i < a.bits.size(); ++i) {
    const bool anyPayload =
        payloads == NanPayloads::kAny || (payloads == NanPayloads::kSumsAndProducts && a.isCommutative[i]);
    if (anyPayload && a.isNan[i] && b.isNan[i]) continue;
    if (a.bits[i] != b.bits[i]) return a.names[i];
  }
  return "";
}

template <class F>
void AddLanes(Results& r, const char* op, F x) {
  const auto lanes = test::ToArray(x);
  for (int i = 0; i < F::kLanes; ++i) r.Add(std::string(op) + "[" + std::to_string(i) + "]", lanes[i]);
}

/// Every operation of the layer on a[0..N), b[0..N) and the pairs p[0..N / 2).
template <class F>
Results RunLayer(const float* a, const float* b, const Vec2* p) {
  constexpr int N = F::kLanes;
  const F x = F::Load(a), y = F::Load(b);
  Results r;
  AddLanes(r, "load", x);
  AddLanes(r, "splat", F::Splat(b[0]));
  AddLanes(r, "zero", F::Zero());
  AddLanes(r, "splat pair", F::SplatPair(a[0], b[0]));
  AddLanes(r, "load pairs", F::LoadPairs(p));
  AddLanes(r, "add", x + y);
  AddLanes(r, "sub", x - y);
  AddLanes(r, "mul", x * y);
  AddLanes(r, "min", Min(x, y));
  AddLanes(r, "max", Max(x, y));
  r.Add("==", Bits(x == y));
  r.Add("<", Bits(x < y));
  r.Add("<=", Bits(x <= y));
  r.Add(">", Bits(x > y));
  r.Add(">=", Bits(x >= y));
  r.Add("&", Bits((x <= y) & (x >= y)));
  r.Add("|", Bits((x < y) | (x == y)));
  r.Add("any <", Any(x < y));
  r.Add("all <=", All(x <= y));
  r.Add("all ==", All(x == x));
  AddLanes(r, "select", Select(x < y, x, y));
  AddLanes(r, "evens", Evens(x, y));
  AddLanes(r, "odds", Odds(x, y));
  AddLanes(r, "swap pairs", SwapPairs(x));
  AddLanes(r, "reduce min", ReduceMin(x));
  AddLanes(r, "reduce max", ReduceMax(x));
  r.Add("first lane", FirstLane(y));
  Vec2 stored[N / 2];
  StorePairs(stored, x);
  for (int i = 0; i < N / 2; ++i) {
    r.Add("store pairs x", stored[i].x);
    r.Add("store pairs y", stored[i].y);
  }
  AddLanes(r, "neg", Neg(x));
  if constexpr (N == 4) {
    AddLanes(r, "set", F::Set(a[3], b[2], a[1], b[0]));
    // No arithmetic in the rows: a second x + y here let the compiler swap the operands of one of
    // them, and an add of two NaNs keeps the first one's payload.
    F rows[4] = {x, y, SwapPairs(x), Neg(y)};
    Transpose4(rows[0], rows[1], rows[2], rows[3]);
    for (const F& row : rows) AddLanes(r, "transpose", row);
  }
  if constexpr (N == 8) {
    AddLanes(r, "low", Low(x));
    AddLanes(r, "high", High(x));
    AddLanes(r, "combine", F::Combine(High(y), Low(x)));
  }
  return r;
}

// The semantics the layer documents, in plain float code.
float MinLane(float a, float b) { return a < b ? a : b; }
float MaxLane(float a, float b) { return a > b ? a : b; }

template <int N>
void AddArray(Results& r, const char* op, const float* lanes) {
  for (int i = 0; i < N; ++i) r.Add(std::string(op) + "[" + std::to_string(i) + "]", lanes[i]);
}

template <int N, class Op>
void AddMap(Results& r, const char* op, const float* a, const float* b, Op f) {
  float out[N];
  for (int i = 0; i < N; ++i) out[i] = f(a[i], b[i]);
  AddArray<N>(r, op, out);
}

template <int N, class Op>
unsigned MaskBits(const float* a, const float* b, Op f) {
  unsigned bits = 0;
  for (int i = 0; i < N; ++i) bits |= f(a[i], b[i]) ? 1u << i : 0u;
  return bits;
}

// Lane i becomes op(lane i, lane i ^ step) for step = 1, 2, ..., N / 2.
template <int N, class Op>
void AddButterfly(Results& r, const char* name, const float* a, Op op) {
  float lanes[N];
  for (int i = 0; i < N; ++i) lanes[i] = a[i];
  for (int step = 1; step < N; step *= 2) {
    float next[N];
    for (int i = 0; i < N; ++i) next[i] = op(lanes[i], lanes[i ^ step]);
    for (int i = 0; i < N; ++i) lanes[i] = next[i];
  }
  AddArray<N>(r, name, lanes);
}

template <int N>
Results RunOracle(const float* a, const float* b, const Vec2* p) {
  Results r;
  float lanes[N];
  AddArray<N>(r, "load", a);
  for (float& x : lanes) x = b[0];
  AddArray<N>(r, "splat", lanes);
  for (float& x : lanes) x = 0.0f;
  AddArray<N>(r, "zero", lanes);
  for (int i = 0; i < N; ++i) lanes[i] = i % 2 == 0 ? a[0] : b[0];
  AddArray<N>(r, "splat pair", lanes);
  for (int i = 0; i < N; ++i) lanes[i] = i % 2 == 0 ? p[i / 2].x : p[i / 2].y;
  AddArray<N>(r, "load pairs", lanes);
  AddMap<N>(r, "add", a, b, [](float x, float y) { return x + y; });
  AddMap<N>(r, "sub", a, b, [](float x, float y) { return x - y; });
  AddMap<N>(r, "mul", a, b, [](float x, float y) { return x * y; });
  AddMap<N>(r, "min", a, b, MinLane);
  AddMap<N>(r, "max", a, b, MaxLane);
  r.Add("==", MaskBits<N>(a, b, [](float x, float y) { return x == y; }));
  r.Add("<", MaskBits<N>(a, b, [](float x, float y) { return x < y; }));
  r.Add("<=", MaskBits<N>(a, b, [](float x, float y) { return x <= y; }));
  r.Add(">", MaskBits<N>(a, b, [](float x, float y) { return x > y; }));
  r.Add(">=", MaskBits<N>(a, b, [](float x, float y) { return x >= y; }));
  r.Add("&", MaskBits<N>(a, b, [](float x, float y) { return x <= y && x >= y; }));
  r.Add("|", MaskBits<N>(a, b, [](float x, float y) { return x < y || x == y; }));
  const unsigned all = (1u << N) - 1u;
  r.Add("any <", MaskBits<N>(a, b, [](float x, float y) { return x < y; }) != 0);
  r.Add("all <=", MaskBits<N>(a, b, [](float x, float y) { return x <= y; }) == all);
  r.Add("all ==", MaskBits<N>(a, a, [](float x, float y) { return x == y; }) == all);
  AddMap<N>(r, "select", a, b, [](float x, float y) { return x < y ? x : y; });
  for (int i = 0; i < N / 2; ++i) {
    lanes[i] = a[2 * i];
    lanes[N / 2 + i] = b[2 * i];
  }
  AddArray<N>(r, "evens", lanes);
  for (int i = 0; i < N / 2; ++i) {
    lanes[i] = a[2 * i + 1];
    lanes[N / 2 + i] = b[2 * i + 1];
  }
  AddArray<N>(r, "odds", lanes);
  for (int i = 0; i < N; ++i) lanes[i] = a[i ^ 1];
  AddArray<N>(r, "swap pairs", lanes);
  AddButterfly<N>(r, "reduce min", a, MinLane);
  AddButterfly<N>(r, "reduce max", a, MaxLane);
  r.Add("first lane", b[0]);
  for (int i = 0; i < N / 2; ++i) {
    r.Add("store pairs x", a[2 * i]);
    r.Add("store pairs y", a[2 * i + 1]);
  }
  for (int i = 0; i < N; ++i) lanes[i] = -a[i];
  AddArray<N>(r, "neg", lanes);
  if constexpr (N == 4) {
    const float set[4] = {a[3], b[2], a[1], b[0]};
    AddArray<4>(r, "set", set);
    // Rows a, b, a with pairs swapped, -b; the transpose's row j holds lane j of each.
    for (int j = 0; j < 4; ++j) {
      const float column[4] = {a[j], b[j], a[j ^ 1], -b[j]};
      AddArray<4>(r, "transpose", column);
    }
  }
  if constexpr (N == 8) {
    AddArray<4>(r, "low", a);
    AddArray<4>(r, "high", a + 4);
    const float combined[8] = {b[4], b[5], b[6], b[7], a[0], a[1], a[2], a[3]};
    AddArray<8>(r, "combine", combined);
  }
  return r;
}

struct Inputs {
  float a[8];
  float b[8];
  Vec2 p[4];
};

// b often repeats a (ties, -0 against +0); pairs from both.
Inputs RandomInputs(test::Rng& rng, bool nan) {
  Inputs in;
  for (int i = 0; i < 8; ++i) in.a[i] = test::EdgeFloat(rng, in.a, i, nan);
  for (int i = 0; i < 8; ++i) in.b[i] = rng.Int(0, 3) == 0 ? in.a[i] : test::EdgeFloat(rng, in.a, 8, nan);
  for (int i = 0; i < 4; ++i) in.p[i] = {in.b[2 * i], in.a[2 * i + 1]};
  return in;
}

}  // namespace

TEST_SUITE("core.wide_float") {

TEST_CASE("every lane operation matches plain float math with the documented semantics") {
  test::ForEachLaneType([]<class F>() {
    test::Rng rng(12);
    int mismatches = 0;
    std::string first;
    for (int trial = 0; trial < 20000; ++trial) {
      const Inputs in = RandomInputs(rng, false);
      const std::string difference =
          FirstDifference(RunLayer<F>(in.a, in.b, in.p), RunOracle<F::kLanes>(in.a, in.b, in.p));
      if (!difference.empty() && mismatches++ == 0) first = difference + " at trial " + std::to_string(trial);
    }
    CHECK_MESSAGE(mismatches == 0, std::string(test::LaneTypeName<F>())
                                       << ": " << mismatches << " mismatches, first " << first);
  });
}

TEST_CASE(
    "the SSE2 lanes and the scalar twin give the same bits on every operation with NaN and infinities too") {
  // Every bit but the payload of a sum or product of two NaNs (NanPayloads, above).
  test::Rng rng(13);
  int mismatches = 0;
  std::string first;
  for (int trial = 0; trial < 20000; ++trial) {
    const Inputs in = RandomInputs(rng, true);
    const Results twin = RunLayer<wide::ScalarFloat<4>>(in.a, in.b, in.p);
    test::ForEachFourLaneType([&]<class F>() {
      const std::string difference =
          FirstDifference(RunLayer<F>(in.a, in.b, in.p), twin, NanPayloads::kSumsAndProducts);
      if (!difference.empty() && mismatches++ == 0) {
        first =
            std::string(test::LaneTypeName<F>()) + " " + difference + " at trial " + std::to_string(trial);
      }
    });
  }
  CHECK_MESSAGE(mismatches == 0, mismatches << " mismatches, first " << first);
}

#if defined(MK_TEST_AVX2_LANES)
// Which NaN an operation on two NaNs returns is the first operand's, and with AVX's three-operand
// forms the compiler swaps the operands of + and * freely: NaN payloads are not part of the promise
// here (no kernel reads one; a NaN is only ever tested for being one), every other bit is.
TEST_CASE(
    "the AVX2 lanes and the 8-lane scalar twin give the same bits on every operation but NaN payloads") {
  test::Rng rng(15);
  int mismatches = 0;
  std::string first;
  for (int trial = 0; trial < 20000; ++trial) {
    const Inputs in = RandomInputs(rng, true);
    const std::string difference =
        FirstDifference(RunLayer<wide::Avx2Float8>(in.a, in.b, in.p),
                        RunLayer<wide::ScalarFloat<8>>(in.a, in.b, in.p), NanPayloads::kAny);
    if (!difference.empty() && mismatches++ == 0) first = difference + " at trial " + std::to_string(trial);
  }
  CHECK_MESSAGE(mismatches == 0, mismatches << " mismatches, first " << first);
}
#endif

TEST_CASE("reductions hold the minimum and maximum of all lanes in every lane") {
  test::ForEachLaneType([]<class F>() {
    test::Rng rng(14);
    for (int trial = 0; trial < 2000; ++trial) {
      const Inputs in = RandomInputs(rng, false);
      float lo = in.a[0], hi = in.a[0];
      for (int i = 1; i < F::kLanes; ++i) {
        lo = in.a[i] < lo ? in.a[i] : lo;
        hi = in.a[i] > hi ? in.a[i] : hi;
      }
      const F x = F::Load(in.a);
      for (float v : test::ToArray(ReduceMin(x))) CHECK(v == lo);
      for (float v : test::ToArray(ReduceMax(x))) CHECK(v == hi);
    }
  });
}

TEST_CASE("ArgMax over overlapping groups gives the lowest index of the maximum like a scalar scan") {
  test::ForEachLaneType([]<class F>() {
    constexpr int kLanes = F::kLanes;
    test::Rng rng(15);
    int mismatches = 0;
    for (int trial = 0; trial < 20000; ++trial) {
      // Groups at 0, min(kLanes, count - kLanes) and count - kLanes, as the support scan lays them.
      const int count = rng.Int(kLanes, 3 * kLanes);
      float values[3 * kLanes];
      const int distinct = rng.Int(1, count);  // few distinct values: many ties
      for (int i = 0; i < count; ++i)
        values[i] = i < distinct ? test::EdgeFloat(rng, values, i) : values[rng.Int(0, distinct - 1)];
      const int last = count - kLanes;
      const int middle = last < kLanes ? last : kLanes;
      const F groups[3] = {F::Load(values), F::Load(values + middle), F::Load(values + last)};
      const wide::LaneMax best = wide::ArgMax(groups, {0, middle, last});
      int expected = 0;
      for (int i = 1; i < count; ++i) expected = values[i] > values[expected] ? i : expected;
      mismatches += best.index == expected && best.value == values[expected] ? 0 : 1;
      // One register.
      const wide::LaneMax one = wide::ArgMax(groups[0]);
      int expectedOne = 0;
      for (int i = 1; i < kLanes; ++i) expectedOne = values[i] > values[expectedOne] ? i : expectedOne;
      mismatches += one.index == expectedOne && one.value == values[expectedOne] ? 0 : 1;
    }
    CHECK_MESSAGE(mismatches == 0, std::string(test::LaneTypeName<F>()));
  });
}

TEST_CASE("ArgMax of a NaN maximum is -1 and the twins agree on NaN inputs") {
  test::Rng rng(16);
  int mismatches = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    float values[8];
    for (int i = 0; i < 8; ++i) values[i] = test::EdgeFloat(rng, values, i, true);
    const int second = rng.Int(0, 4);
    const wide::ScalarFloat<4> twin[2] = {wide::ScalarFloat<4>::Load(values),
                                          wide::ScalarFloat<4>::Load(values + second)};
    const wide::LaneMax expected = wide::ArgMax(twin, {0, second});
    test::ForEachFourLaneType([&]<class F>() {
      const F groups[2] = {F::Load(values), F::Load(values + second)};
      const wide::LaneMax best = wide::ArgMax(groups, {0, second});
      mismatches += best.index == expected.index && SameBits(best.value, expected.value) ? 0 : 1;
    });
  }
  CHECK(mismatches == 0);
  test::ForEachLaneType([]<class F>() { CHECK(wide::ArgMax(F::Splat(std::nanf(""))).index == -1); });
}

// Division (the hinge kernels' K^-1) on its own: a kernel only tests a quotient for being NaN, so
// NaN payloads are not compared; every other bit must be plain float division's, zeros and
// infinities included.
TEST_CASE("division in every lane type equals plain float division on edge values") {
  test::ForEachLaneType([]<class F>() {
    constexpr int N = F::kLanes;
    test::Rng rng(16);
    int mismatches = 0;
    for (int trial = 0; trial < 20000; ++trial) {
      const Inputs in = RandomInputs(rng, true);
      float quotient[N];
      wide::Store(quotient, F::Load(in.a) / F::Load(in.b));
      for (int k = 0; k < N; ++k) {
        const float expected = in.a[k] / in.b[k];
        const bool same = std::isnan(expected) ? std::isnan(quotient[k])
                                               : std::bit_cast<std::uint32_t>(quotient[k]) ==
                                                     std::bit_cast<std::uint32_t>(expected);
        if (!same) ++mismatches;
      }
    }
    CHECK_MESSAGE(mismatches == 0, std::string(test::LaneTypeName<F>())
                                       << ": " << mismatches << " mismatches");
  });
}

}  // TEST_SUITE("core.wide_float")
