// A trace streamed call by call (TraceWriter::stream, as perf --trace and run --trace write it)
// must be the very file write() makes from the records kept whole, and a route that comes back in
// a later call's own cache is kept once (TraceWriter::route_index) without mixing up routes that
// differ: each slice's path is its own call's route.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <tuple>

#include "collective/algorithm.hpp"
#include "config/presets.hpp"
#include "engine/executor.hpp"
#include "engine/transfer_routes.hpp"
#include "model/model_factory.hpp"
#include "report/trace.hpp"
#include "topology/bundle.hpp"

namespace gf {
namespace {

// 64 DGX H100 on the default rail-optimized fat tree: servers 0 and 63 share rails but not their
// leaves (tests/html_topo_path_test.cpp), so their transfers cross the spines by ECMP, whose
// choice follows the seed.
const Cluster& fabric() {
  static const Cluster keep = build_cluster(resolve_cluster("dgx-h100", 64));
  return keep;
}

struct Sweep {
  Router router{fabric()};
  Communicator comm;
  std::vector<std::unique_ptr<Schedule>> schedules;
  std::vector<std::unique_ptr<RouteCache>> caches;  // one per call, as the sweep routes each size
  std::vector<ScheduleRun> runs;
  std::vector<uint64_t> seeds;
  Sweep() : comm(make_communicator(fabric(), router, servers(), locals())) {
    // Four calls: two sizes, each under two seeds; LL and Simple, so the step slices differ too.
    int i = 0;
    for (const Bytes size : {Bytes::kib(256), Bytes::mib(8)})
      for (const uint64_t seed : {uint64_t{0}, uint64_t{7}}) {
        CollectiveCall c;
        c.kind = CollectiveKind::AllReduce;
        c.bytes = size;
        const Protocol p = i++ % 2 == 0 ? Protocol::LL : Protocol::Simple;
        schedules.push_back(std::make_unique<Schedule>(find_algorithm("ring")->build(comm, c, {p, 4})));
        caches.push_back(std::make_unique<RouteCache>(*schedules.back(), comm, router, seed, RoutingPolicy::Ecmp));
        std::unique_ptr<Model> model = make_model("flow", fabric());
        runs.push_back(run_schedule(*schedules.back(), comm, router, *model, seed, RoutingPolicy::Ecmp, caches.back().get()));
        seeds.push_back(seed);
      }
  }
  static std::span<const int64_t> servers() {
    static const int64_t s[] = {0, 63};
    return s;
  }
  static std::span<const int> locals() {
    static const int l[] = {0, 1};
    return l;
  }
  // Every call drawn into `w`, 10 us apart, each with its own cache.
  void draw(TraceWriter& w) {
    Time at = Time::zero();
    for (size_t k = 0; k < runs.size(); ++k) {
      w.add_call("all_reduce", *schedules[k], runs[k], at, seeds[k], RoutingPolicy::Ecmp, caches[k].get());
      at = at + runs[k].duration + Time::us(10);
    }
  }
};

TEST(TraceStream, StreamedCallByCallIsTheFileWriteMakes) {
  Sweep sw;
  TraceWriter whole(sw.comm, sw.router, {});
  sw.draw(whole);
  std::ostringstream a;
  const size_t na = whole.write(a);
  TraceWriter streamed(sw.comm, sw.router, {});
  std::ostringstream b;
  streamed.stream(b);
  sw.draw(streamed);  // each call formatted as it is drawn (into the 1 MiB buffer the stream gets)
  const size_t nb = streamed.write(b);
  EXPECT_EQ(na, nb);
  ASSERT_EQ(a.str().size(), b.str().size());
  EXPECT_TRUE(a.str() == b.str());
  const nlohmann::json file = nlohmann::json::parse(b.str());
  EXPECT_EQ(file["traceEvents"].size(), nb);
  EXPECT_GT(file["otherData"]["link_counters"].get<int>(), 0);
}

TEST(TraceStream, WritingToAnotherStreamThanTheOneStreamedToIsRefused) {
  Sweep sw;
  TraceWriter w(sw.comm, sw.router, {});
  std::ostringstream a, b;
  w.stream(a);
  EXPECT_THROW(w.write(b), std::logic_error);
}

TEST(TraceStream, EachSliceShowsItsOwnCallsRoute) {
  // The two seeds route some (source, destination, channel) over other spines; the routes kept once
  // by content must still give each call's slices its own: the path text of transfer t is the
  // first leg of transfer_legs(t) under that call's seed.
  Sweep sw;
  TraceWriter w(sw.comm, sw.router, {});
  sw.draw(w);
  const nlohmann::json file = w.finish();
  const Cluster& c = fabric();
  auto path_text = [&](const Route& r) {
    std::string p;
    for (size_t i = 0; i < r.front().path.links.size(); ++i) {
      const Link& l = c.link(r.front().path.links[i]);
      if (i == 0) p += c.node_name(l.src);
      p += " > " + c.node_name(l.dst) + cable_suffix(c, r.front().path.links[i]);
    }
    return p;
  };
  // Expected (call start, src, dst, channel) -> path; calls told apart by their start on the
  // timeline, as draw() lays them out.
  std::map<std::tuple<int64_t, std::string, std::string, int>, std::string> want;
  std::set<std::string> differ;  // keys whose path the seeds change
  Time at = Time::zero();
  std::vector<int64_t> starts;
  for (size_t k = 0; k < sw.runs.size(); ++k) {
    starts.push_back(at.picoseconds());
    const Schedule& s = *sw.schedules[k];
    for (TransferId id = 0; id < static_cast<TransferId>(s.size()); ++id) {
      const Transfer& t = s.transfer(id);
      const Route r = transfer_legs(s, id, sw.comm, sw.router, sw.seeds[k]);
      const std::string src = "rank " + std::to_string(t.src), dst = "rank " + std::to_string(t.dst);
      want[{at.picoseconds(), src, dst, t.channel}] = path_text(r);
      if (k % 2 == 1) {
        const Route r0 = transfer_legs(s, id, sw.comm, sw.router, sw.seeds[k - 1]);
        if (path_text(r0) != path_text(r)) differ.insert(src + dst + std::to_string(t.channel));
      }
    }
    at = at + sw.runs[k].duration + Time::us(10);
  }
  ASSERT_FALSE(differ.empty()) << "the seeds route every transfer alike: the case shows nothing";
  size_t checked = 0;
  for (const auto& e : file["traceEvents"]) {
    if (e["ph"] != "X" || !e["args"].contains("path")) continue;
    const auto ts = static_cast<int64_t>(std::llround(e["ts"].get<double>() * 1e6));
    const int64_t call = *std::prev(std::upper_bound(starts.begin(), starts.end(), ts));
    const auto key = std::make_tuple(call, e["args"]["src"].get<std::string>(), e["args"]["dst"].get<std::string>(),
                                     e["args"]["channel"].get<int>());
    ASSERT_TRUE(want.count(key));
    EXPECT_EQ(e["args"]["path"].get<std::string>(), want[key]);
    ++checked;
  }
  EXPECT_GT(checked, 100u);
}

}  // namespace
}  // namespace gf
