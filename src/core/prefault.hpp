// Asks the kernel to map a large array's pages in one call before the program first writes them,
// instead of taking one page fault per 4 KiB page on first touch. A run's per-transfer arrays are
// megabytes (the job runner's are 32 B per transfer: 4 MiB for the SimGrid peer's ring at
// N = 256), and on the shared development VM a page fault costs 2.3-3.3 us against 1.5-2.4 us per
// page populated in one madvise(MADV_POPULATE_WRITE) (Linux 5.14+, measured by a 64 MiB probe,
// 2026-11-22). Only a hint: where the call is missing or fails, pages fault in as usual, and the
// array's contents are never touched.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace gf {

// Arrays below this many bytes are left to fault in: the call would cost more than it saves.
inline constexpr size_t kPrefaultMin = size_t{1} << 18;

// Maps the whole pages inside [p, p + bytes) writable now.
inline void prefault(void* p, size_t bytes) {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  if (bytes < kPrefaultMin) return;
  constexpr uintptr_t kPage = 4096;
  const auto begin = (reinterpret_cast<uintptr_t>(p) + kPage - 1) & ~(kPage - 1);
  const auto end = (reinterpret_cast<uintptr_t>(p) + bytes) & ~(kPage - 1);
  if (end > begin) (void)madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE);
#else
  (void)p;
  (void)bytes;
#endif
}

// Reserves room for n elements in v and prefaults it: call before the first resize/assign to n.
template <class T>
void reserve_prefaulted(std::vector<T>& v, size_t n) {
  v.reserve(n);
  prefault(v.data(), n * sizeof(T));
}

}  // namespace gf
