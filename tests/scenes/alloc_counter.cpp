// SPDX-License-Identifier: MIT
// Replacement global operator new/delete that count while enabled (see alloc_counter.h).
#include "alloc_counter.h"

#include <atomic>
#include <cstdlib>
#include <new>
#if defined(__GLIBC__)
#include <execinfo.h>
#include <unistd.h>
#elif defined(_WIN32)
#include <malloc.h>  // _aligned_malloc, _aligned_free
#endif

namespace {

std::atomic<bool> gCounting{false};
std::atomic<std::size_t> gCount{0};
std::atomic<std::size_t> gBytes{0};
bool gBacktrace = false;

// MK_ALLOC_BACKTRACE prints who allocated, where glibc's backtrace() exists (not on Windows).
void PrintBacktrace() {
#if defined(__GLIBC__)
  void* frames[32];
  const int n = backtrace(frames, 32);
  backtrace_symbols_fd(frames, n, 2);
  static const char kSeparator[] = "----\n";
  (void)!write(2, kSeparator, sizeof(kSeparator) - 1);
#endif
}

void Record(std::size_t size) {
  if (!gCounting.load(std::memory_order_relaxed)) return;
  gCount.fetch_add(1, std::memory_order_relaxed);
  gBytes.fetch_add(size, std::memory_order_relaxed);
  if (gBacktrace) {
    gCounting.store(false);  // backtrace() may allocate on first use
    PrintBacktrace();
    gCounting.store(true);
  }
}

void* Allocate(std::size_t size) {
  Record(size);
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

void* AllocateAligned(std::size_t size, std::align_val_t alignment) {
  Record(size);
  const std::size_t a = static_cast<std::size_t>(alignment);
#if defined(_WIN32)
  // Windows' C runtime has no aligned_alloc; its aligned blocks must go back through _aligned_free.
  void* p = _aligned_malloc(size == 0 ? 1 : size, a);
#else
  void* p = std::aligned_alloc(a, (size + a - 1) / a * a);
#endif
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

void FreeAligned(void* p) {
#if defined(_WIN32)
  _aligned_free(p);
#else
  std::free(p);
#endif
}

}  // namespace

namespace mk::test {

void StartCountingAllocations() {
  gBacktrace = std::getenv("MK_ALLOC_BACKTRACE") != nullptr;
  gCount = 0;
  gBytes = 0;
  gCounting = true;
}

void StopCountingAllocations() { gCounting = false; }
std::size_t CountedAllocations() { return gCount; }
std::size_t CountedAllocationBytes() { return gBytes; }

}  // namespace mk::test

void* operator new(std::size_t size) { return Allocate(size); }
void* operator new[](std::size_t size) { return Allocate(size); }
void* operator new(std::size_t size, std::align_val_t a) { return AllocateAligned(size, a); }
void* operator new[](std::size_t size, std::align_val_t a) { return AllocateAligned(size, a); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  Record(size);
  return std::malloc(size == 0 ? 1 : size);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  Record(size);
  return std::malloc(size == 0 ? 1 : size);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { FreeAligned(p); }
void operator delete[](void* p, std::align_val_t) noexcept { FreeAligned(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { FreeAligned(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { FreeAligned(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
