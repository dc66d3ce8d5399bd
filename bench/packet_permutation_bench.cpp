// The packet model's scale benchmark (issue 5, "Speed"): a 1,024-host permutation of 2 MB flows
// on a k = 16 fat-tree of 100 Gb/s links with 4 KB packets (bench/clusters/packet-fat-tree-k16.yaml,
// 1,024 x ceil(2,000,000 / 4,096) = 500,736 data packets). Every host sends one flow to its image
// under a seeded random permutation without fixed points; all start at time 0.
//
//   packet_permutation_bench [--lb auto|ecmp|spray|flowlet|adaptive] [--size 2MB] [--mtu 4096]
//                            [--seed 1] [--cluster FILE] [--csv]
//
// Reports the makespan, the aggregate goodput (bytes / makespan) and the mean flow completion,
// wall time split into setup (cluster, routes) and run, packet-hop events per second and peak
// memory. --csv prints one row:
//   tool,lb,hosts,S,makespan_s,goodput_Gbps,mean_fct_s,wall_s,setup_s,run_s,packet_hops,events,hops_per_s,peak_packets,drops,peak_rss_mib
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "bench_args.hpp"
#include "bench_clock.hpp"
#include "config/cluster_yaml.hpp"
#include "core/hash.hpp"
#include "model/packet/packet_model.hpp"
#include "routing/router.hpp"
#include "topology/cluster_spec.hpp"

namespace {

struct Options {
  gf::LoadBalance lb = gf::LoadBalance::Ecmp;
  std::string lb_name = "ecmp";
  gf::Bytes size = gf::Bytes(2000000);
  int64_t mtu = 4096;
  uint64_t seed = 1;
  std::string cluster = (std::filesystem::path(GPUFABRIC_BENCH_DIR) / "clusters" / "packet-fat-tree-k16.yaml").string();
  bool csv = false;
};

Options parse(int argc, char** argv) {
  Options o;
  gfbench::ArgReader in(argc, argv,
                        "packet_permutation_bench [--lb auto|ecmp|spray|flowlet|adaptive] [--size 2MB] [--mtu 4096] "
                        "[--seed 1] [--cluster FILE] [--csv]");
  while (in.next()) {
    const std::string& a = in.flag();
    if (a == "--lb") {
      // The library's names and its error (which lists them): gf::parse_load_balance.
      o.lb_name = in.value();
      o.lb = gf::parse_load_balance(o.lb_name, {}, "--lb");
    } else if (a == "--size") {
      o.size = in.size();
    } else if (a == "--mtu") {
      o.mtu = in.whole();
    } else if (a == "--seed") {
      o.seed = static_cast<uint64_t>(in.whole());
    } else if (a == "--cluster") {
      o.cluster = in.value();
    } else if (a == "--csv") {
      o.csv = true;
    } else {
      in.bad("unknown option");
    }
  }
  return o;
}

struct Finish final : gf::CompletionSink {
  std::vector<gf::Time> at;
  void completed(gf::TransferId id, gf::Time t) override { at[static_cast<size_t>(id)] = t; }
};

}  // namespace

int main(int argc, char** argv) {
  try {
    const auto t0 = gfbench::Clock::now();
    const Options o = parse(argc, argv);
    const gf::Cluster cluster = gf::build_cluster(gf::load_cluster_file(o.cluster));
    const gf::Router router(cluster);
    const auto hosts = static_cast<int>(cluster.gpu_count());
    // A seeded permutation; fixed points swap with their successor (host i never sends to itself).
    std::vector<int> dst(static_cast<size_t>(hosts));
    std::iota(dst.begin(), dst.end(), 0);
    std::mt19937_64 rng(o.seed);
    std::shuffle(dst.begin(), dst.end(), rng);
    for (int i = 0; i < hosts; ++i)
      if (dst[static_cast<size_t>(i)] == i) std::swap(dst[static_cast<size_t>(i)], dst[static_cast<size_t>((i + 1) % hosts)]);
    gf::ModelParams params;
    params.net_efficiency = 1.0;  // packets pay their headers themselves
    params.pcie_efficiency = 1.0;
    gf::PacketParams packet;
    packet.mtu = gf::Bytes(o.mtu);
    packet.load_balance = o.lb;
    packet.seed = o.seed;
    gf::PacketModel model(cluster, params, packet);
    std::vector<gf::ModelTransfer> transfers(static_cast<size_t>(hosts));
    for (int i = 0; i < hosts; ++i) {
      gf::ModelTransfer& t = transfers[static_cast<size_t>(i)];
      t.route = std::make_shared<const gf::Route>(
          router.route(cluster.gpu(i), cluster.gpu(dst[static_cast<size_t>(i)]), gf::mix_hash(o.seed, static_cast<uint64_t>(i))));
      t.bytes = o.size;
    }
    const double setup = gfbench::seconds_since(t0);
    const auto t1 = gfbench::Clock::now();
    for (int i = 0; i < hosts; ++i) model.start(i, transfers[static_cast<size_t>(i)], gf::Time::zero());
    Finish done;
    done.at.assign(static_cast<size_t>(hosts), gf::Time::infinity());
    while (!model.next_event_time().is_infinite()) model.advance_to(model.next_event_time(), done);
    const double run_s = gfbench::seconds_since(t1);
    const double wall = gfbench::seconds_since(t0);
    const gf::Time makespan = *std::max_element(done.at.begin(), done.at.end());
    if (makespan.is_infinite()) throw std::runtime_error("a flow never finished");
    double fct = 0;
    for (gf::Time t : done.at) fct += t.to_s();
    fct /= hosts;
    const gf::PacketTotals& k = model.totals();
    const double goodput = static_cast<double>(o.size.count()) * hosts * 8 / makespan.to_s() / 1e9;
    const double hops_per_s = static_cast<double>(k.packet_hops) / run_s;
    if (o.csv) {
      std::printf("gpufabric-packet,%s,%d,%lld,%.9g,%.1f,%.9g,%.3f,%.3f,%.3f,%lld,%lld,%.0f,%zu,%lld,%.0f\n", o.lb_name.c_str(),
                  hosts, static_cast<long long>(o.size.count()), makespan.to_s(), goodput, fct, wall, setup, run_s,
                  static_cast<long long>(k.packet_hops), static_cast<long long>(k.events), hops_per_s, k.peak_packets,
                  static_cast<long long>(k.drops), gfbench::peak_rss_mib());
    } else {
      std::printf("gpufabric packet model, %d-host permutation of %lld B flows, load balance %s, MTU %lld\n", hosts,
                  static_cast<long long>(o.size.count()), o.lb_name.c_str(), static_cast<long long>(o.mtu));
      int tiers[4] = {0, 0, 0, 0};
      for (const gf::Node& nd : cluster.nodes())
        if (nd.kind == gf::NodeKind::Switch && nd.tier >= 1 && nd.tier <= 3) ++tiers[nd.tier];
      std::printf("  fabric         : %d leaves, %d aggregation, %d core switches, %zu directed links\n", tiers[1], tiers[2],
                  tiers[3], cluster.links().size());
      std::printf("  makespan       : %.9g s, aggregate goodput %.1f Gb/s, mean flow completion %.9g s\n", makespan.to_s(),
                  goodput, fct);
      std::printf("  wall clock     : %.3f s (setup %.3f s, run %.3f s), peak RSS %.0f MiB\n", wall, setup, run_s,
                  gfbench::peak_rss_mib());
      std::printf("  packets        : %lld sent, %lld packet-hops (%.3g per second), %lld events, peak %zu alive, %lld drops\n",
                  static_cast<long long>(k.packets_sent), static_cast<long long>(k.packet_hops), hops_per_s,
                  static_cast<long long>(k.events), k.peak_packets, static_cast<long long>(k.drops));
    }
  } catch (const gf::InputError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
