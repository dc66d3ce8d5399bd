// The Trace Event Format checks every `--trace` test can ask of a file (issue 22): metadata,
// slices, arrows and counters only; X slices with dur >= 0 that nest on each (pid, tid) track (none
// partially overlaps another: viewers do not draw those, google/perfetto#4280); each arrow's tail
// at the end of a slice on its track and its head at the start of one on its own (where the
// writer puts them: a transfer's end, the waiting transfer's start); every counter argument a
// number, and each counter's samples strictly later than the one before.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace gf {

inline void expect_well_formed(const nlohmann::json& file) {
  using Track = std::pair<int64_t, int64_t>;
  std::map<Track, std::vector<std::pair<double, double>>> tracks;
  std::vector<std::pair<Track, std::pair<std::string, double>>> arrows;  // (track, (ph, ts))
  std::map<std::string, double> counter_at;
  for (const auto& e : file["traceEvents"]) {
    const std::string ph = e["ph"];
    ASSERT_TRUE(ph == "X" || ph == "M" || ph == "s" || ph == "f" || ph == "C") << ph;
    if (ph == "X") {
      ASSERT_GE(e["dur"].get<double>(), 0);
      tracks[{e["pid"].get<int64_t>(), e["tid"].get<int64_t>()}].push_back(
          {e["ts"].get<double>(), e["ts"].get<double>() + e["dur"].get<double>()});
    }
    if (ph == "s" || ph == "f") arrows.push_back({{e["pid"].get<int64_t>(), e["tid"].get<int64_t>()}, {ph, e["ts"].get<double>()}});
    if (ph == "C") {
      const std::string name = e["name"];
      ASSERT_FALSE(e["args"].empty()) << name;
      for (const auto& [k, v] : e["args"].items()) {
        ASSERT_TRUE(v.is_number()) << name << " " << k;
        EXPECT_GE(v.get<double>(), 0) << name;
      }
      if (counter_at.count(name)) {
        EXPECT_GT(e["ts"].get<double>(), counter_at[name]) << name;
      }
      counter_at[name] = e["ts"].get<double>();
    }
  }
  std::map<Track, std::pair<std::vector<double>, std::vector<double>>> edges;  // starts, ends
  for (auto& [track, spans] : tracks) {
    std::sort(spans.begin(), spans.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first : a.second > b.second;
    });
    std::vector<double> open;
    for (const auto& [a, b] : spans) {
      while (!open.empty() && open.back() <= a + 1e-9) open.pop_back();
      if (!open.empty()) {
        ASSERT_LE(b, open.back() + 1e-9) << "slices overlap partly on track " << track.first << "/" << track.second
                                         << ": [" << a << ", " << b << ") inside one ending at " << open.back();
      }
      open.push_back(b);
      edges[track].first.push_back(a);
      edges[track].second.push_back(b);
    }
    std::sort(edges[track].second.begin(), edges[track].second.end());
  }
  // Times are us with ps in the decimals; a start plus a duration may differ from an end in the
  // last bits, so 1e-6 us (1 ps) is "the same time".
  auto near = [](const std::vector<double>& sorted, double t) {
    const auto it = std::lower_bound(sorted.begin(), sorted.end(), t - 1e-6);
    return it != sorted.end() && std::abs(*it - t) <= 1e-6;
  };
  for (const auto& [track, arrow] : arrows) {
    const auto& [ph, ts] = arrow;
    const auto it = edges.find(track);
    ASSERT_NE(it, edges.end()) << "arrow " << ph << " on track " << track.first << "/" << track.second << " has no slice";
    EXPECT_TRUE(near(ph == "s" ? it->second.second : it->second.first, ts))
        << "arrow " << ph << " at " << ts << " is not at a slice's " << (ph == "s" ? "end" : "start") << " on track "
        << track.first << "/" << track.second;
  }
}

}  // namespace gf
