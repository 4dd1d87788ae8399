// SPDX-License-Identifier: MIT
// Counts heap allocations made through the global operator new while counting is on. The counting
// versions of operator new/delete (alloc_counter.cpp) replace the global ones in mk_tests and forward
// to malloc/free; they count nothing while counting is off, so the rest of the suite is unaffected.
#pragma once

#include <cstddef>

namespace mk::test {

/// Starts counting (resets the totals). With the environment variable MK_ALLOC_BACKTRACE set, every
/// counted allocation also prints a backtrace to stderr (addresses: resolve them with addr2line).
void StartCountingAllocations();
/// Stops counting; the totals stay readable.
void StopCountingAllocations();
/// Allocations counted since the last start.
std::size_t CountedAllocations();
/// Bytes requested by those allocations.
std::size_t CountedAllocationBytes();

}  // namespace mk::test
