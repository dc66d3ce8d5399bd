#include "collective/steady_state.hpp"

#include "collective/algorithm.hpp"

namespace gf {

int steady_channels(int channels, int64_t per_channel, const std::function<bool(int, int)>& same) {
  int kept = channels;
  while (kept % 2 == 0 && static_cast<int64_t>(kept) * per_channel > kSteadyScheduleBudget) {
    const int half = kept / 2;
    bool ok = true;
    for (int c = half; c < channels && ok; ++c) ok = same(c, c % half);
    if (!ok) break;
    kept = half;
  }
  return kept;
}

Bytes merged_channel_bytes(Bytes total, int channels, int kept, int k) {
  int64_t b = 0;
  for (int c = k; c < channels; c += kept) b += piece(total, channels, c).count();
  return Bytes(b);
}

}  // namespace gf
