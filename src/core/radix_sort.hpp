// Sorting the id lists an event loop sorts at every instant (transfers completed, transfers made
// ready, solver variables recomputed, an instant's event keys) into increasing order, which is
// what makes a run reproducible. Those lists are long (hundreds to thousands of ids at one
// instant of a large ring) and often already sorted or a few sorted batches one after another,
// so: nothing when already sorted, std::sort when short, a merge of the runs when there are
// fewer than eight, else an LSD radix sort, one byte per pass, skipping every byte on which
// all elements agree (ids below 2^16 need two passes of eight). The caller keeps the scratch
// vector, so after warm-up sorting allocates nothing.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace gf {

template <class T>
void sort_ids(std::vector<T>& v, std::vector<T>& scratch) {
  static_assert(std::is_integral_v<T>);
  using U = std::make_unsigned_t<T>;
  constexpr size_t kBytes = sizeof(T);
  // Ascending runs: a list appended to by a few sorted batches is a few runs, merged pairwise.
  constexpr size_t kMaxRuns = 8;
  std::array<size_t, kMaxRuns + 1> run_end{};
  size_t runs = 0;
  for (size_t i = 1; i < v.size() && runs < kMaxRuns; ++i)
    if (v[i] < v[i - 1]) run_end[runs++] = i;
  if (runs == 0) return;  // already sorted
  if (v.size() < (kBytes > 4 ? 160u : 96u)) {  // below this std::sort beats the fixed cost of the counts
    std::sort(v.begin(), v.end());
    return;
  }
  if (runs < kMaxRuns) {
    run_end[runs++] = v.size();
    scratch.resize(v.size());
    while (runs > 1) {  // merge runs 0+1, 2+3, ... into scratch, then swap
      size_t begin = 0, out = 0;
      for (size_t r = 0; r < runs; r += 2) {
        const size_t mid = run_end[r], end = r + 1 < runs ? run_end[r + 1] : mid;
        std::merge(v.begin() + static_cast<std::ptrdiff_t>(begin), v.begin() + static_cast<std::ptrdiff_t>(mid),
                   v.begin() + static_cast<std::ptrdiff_t>(mid), v.begin() + static_cast<std::ptrdiff_t>(end),
                   scratch.begin() + static_cast<std::ptrdiff_t>(begin));
        run_end[out++] = end;
        begin = end;
      }
      runs = out;
      v.swap(scratch);
    }
    return;
  }
  // Signed ids sort as unsigned with the sign bit flipped.
  constexpr U kFlip = std::is_signed_v<T> ? static_cast<U>(U{1} << (8 * kBytes - 1)) : U{0};
  std::array<std::array<uint32_t, 256>, kBytes> count{};
  for (const T x : v) {
    const U u = static_cast<U>(static_cast<U>(x) ^ kFlip);
    for (size_t b = 0; b < kBytes; ++b) ++count[b][(u >> (8 * b)) & 0xff];
  }
  scratch.resize(v.size());
  for (size_t b = 0; b < kBytes; ++b) {
    auto& c = count[b];
    // Every element has the same byte here: this pass would not move anything.
    if (c[(static_cast<U>(static_cast<U>(v.front()) ^ kFlip) >> (8 * b)) & 0xff] == v.size()) continue;
    uint32_t sum = 0;
    for (uint32_t& k : c) {
      const uint32_t here = k;
      k = sum;
      sum += here;
    }
    for (const T x : v) scratch[c[(static_cast<U>(static_cast<U>(x) ^ kFlip) >> (8 * b)) & 0xff]++] = x;
    v.swap(scratch);
  }
}

}  // namespace gf
