// SPDX-License-Identifier: MIT
#include "minkowski/assert.h"

#include <atomic>
#include <cstdio>

namespace mk {
namespace {

void DefaultAssertHandler(const char* expression, const char* file, int line) {
  std::fprintf(stderr, "minkowski: assertion failed: %s (%s:%d)\n", expression, file, line);
}

AssertHandler gHandler = DefaultAssertHandler;
std::atomic<int> gFailureCount{0};

}  // namespace

AssertHandler SetAssertHandler(AssertHandler handler) {
  AssertHandler previous = gHandler;
  gHandler = handler != nullptr ? handler : DefaultAssertHandler;
  return previous;
}

int AssertFailureCount() { return gFailureCount.load(std::memory_order_relaxed); }

namespace detail {
void ReportAssert(const char* expression, const char* file, int line) {
  gFailureCount.fetch_add(1, std::memory_order_relaxed);
  gHandler(expression, file, line);
}
}  // namespace detail

}  // namespace mk
