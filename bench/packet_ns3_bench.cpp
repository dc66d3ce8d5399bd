// gpufabric's side of the ns-3 comparison (bench/ns3_compare.sh): the peers' ring all-reduce
// (../shared/peers/ns3_allreduce.cpp --mode allreduce), step by step, on the peers' leaf-spine
// (bench/clusters/peer-leafspine.yaml), with the packet model at ns-3's MTU.
//
//   packet_ns3_bench --n 64 --size 16MiB [--ring stream|sync] [--mtu 1448] [--header 54]
//                    [--lb auto|ecmp|spray|flowlet|adaptive] [--cluster FILE] [--tcp] [--csv]
//
// Packets: ns3_allreduce's links have a 1500-byte MTU and its TCP segments carry MSS = MTU - 52
// = 1448 payload bytes (its usage text), under 52 bytes of IPv4 + TCP headers with options and
// a 2-byte PPP header: --mtu 1448 --header 54 by default. Links are lossless by credits, with no
// end-to-end congestion control (ns-3's ring run drops nothing either: results/*.csv, drops=0;
// ns-3 also simulates TCP's ACKs and slow start, which this run does not). --tcp runs the links
// lossy with the packet model's NewReno TCP instead (slow start, ACK clocking, loss recovery), the
// transport ns-3 runs.
//
// --csv prints one row:
//   tool,N,S,ring,sim_time_s,busbw_GBps,wall_s,setup_s,run_s,packet_hops,events,hops_per_s,peak_packets,peak_rss_mib
#include <cstdio>
#include <filesystem>
#include <string>

#include "bench_args.hpp"
#include "bench_clock.hpp"
#include "model/packet/packet_model.hpp"
#include "peer_ring.hpp"

namespace {

struct Options {
  int n = 64;
  gfpeer::RingSemantics ring = gfpeer::RingSemantics::Stream;
  gf::Bytes size = gf::Bytes::mib(16);
  int64_t mtu = 1448, header = 54;
  gf::LoadBalance lb = gf::LoadBalance::Auto;
  std::string cluster = (std::filesystem::path(GPUFABRIC_BENCH_DIR) / "clusters" / "peer-leafspine.yaml").string();
  bool csv = false;
  bool tcp = false;
};

Options parse(int argc, char** argv) {
  Options o;
  gfbench::ArgReader in(argc, argv,
                        "packet_ns3_bench --n N [--size 16MiB] [--ring stream|sync] [--mtu 1448] [--header 54] "
                        "[--lb auto|ecmp|spray|flowlet|adaptive] [--cluster FILE] [--tcp] [--csv]");
  while (in.next()) {
    const std::string& a = in.flag();
    if (a == "--n") {
      o.n = static_cast<int>(in.whole());
    } else if (a == "--ring") {
      const std::string v = in.value();
      if (!gfpeer::parse_ring(v, o.ring)) in.bad("expected sync or stream, got '" + v + "'");
    } else if (a == "--size") {
      o.size = in.size();
    } else if (a == "--mtu") {
      o.mtu = in.whole();
    } else if (a == "--header") {
      o.header = in.whole();
    } else if (a == "--lb") {
      // The library's names and its error (which lists them): gf::parse_load_balance.
      o.lb = gf::parse_load_balance(in.value(), {}, "--lb");
    } else if (a == "--cluster") {
      o.cluster = in.value();
    } else if (a == "--tcp") {
      o.tcp = true;
    } else if (a == "--csv") {
      o.csv = true;
    } else {
      in.bad("unknown option");
    }
  }
  if (o.n < 32 || o.n % gfpeer::kHostsPerLeaf != 0) in.fail("--n", "N must be a multiple of 16, at least 32 (16 hosts per leaf)");
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const auto t0 = gfbench::Clock::now();
    const Options o = parse(argc, argv);
    const gf::ClusterSpec spec = gfpeer::peer_cluster_spec(o.cluster, o.n);
    const gf::Cluster cluster = gf::build_cluster(spec);
    const gf::Router router(cluster);
    const gf::Communicator comm = gf::make_communicator(cluster, router, o.n, 1);
    const gf::Schedule sched = gfpeer::peer_ring_schedule(o.n, o.size, o.ring);
    const gf::ModelParams params = gfpeer::peer_model_params();
    gf::PacketParams packet;
    packet.mtu = gf::Bytes(o.mtu);
    packet.header = gf::Bytes(o.header);
    packet.load_balance = o.lb;
    // Lossless links without an end-to-end controller: the peers' links are labelled RoCE in the
    // cluster file, which would bring PFC and DCQCN; ns-3's ring drops nothing and its TCP is
    // past slow start after the first chunks, so the comparison is of packet transport alone.
    packet.flow_control = o.tcp ? gf::FlowControl::None : gf::FlowControl::Credit;
    packet.congestion_control = o.tcp ? gf::find_congestion_control("tcp") : gf::find_congestion_control("none");
    gf::PacketModel model(cluster, params, packet);
    const double setup = gfbench::seconds_since(t0);
    const auto t1 = gfbench::Clock::now();
    const gf::ScheduleRun run = gf::run_schedule(sched, comm, router, model);
    const double run_s = gfbench::seconds_since(t1);
    const double wall = gfbench::seconds_since(t0);
    const gf::PacketTotals& k = model.totals();
    const double sim = run.duration.to_s();
    // nccl-tests' bus bandwidth for all-reduce: S / time x 2 (N - 1) / N (as the peers print it).
    const double busbw = static_cast<double>(o.size.count()) / sim * 2.0 * (o.n - 1) / o.n / 1e9;
    const double hops_per_s = static_cast<double>(k.packet_hops) / run_s;
    if (o.csv) {
      std::printf("gpufabric-packet,%d,%lld,%s,%.9g,%.4f,%.3f,%.3f,%.3f,%lld,%lld,%.0f,%zu,%.0f\n", o.n,
                  static_cast<long long>(o.size.count()), gfpeer::to_string(o.ring), sim, busbw, wall, setup, run_s,
                  static_cast<long long>(k.packet_hops), static_cast<long long>(k.events), hops_per_s, k.peak_packets,
                  gfbench::peak_rss_mib());
    } else {
      std::printf("gpufabric packet model, ring all-reduce (%s) N=%d S=%lld B, MTU payload %lld + header %lld B\n",
                  gfpeer::to_string(o.ring), o.n, static_cast<long long>(o.size.count()), static_cast<long long>(o.mtu),
                  static_cast<long long>(o.header));
      std::printf("  simulated time : %.9g s, busbw %.4f GB/s\n", sim, busbw);
      std::printf("  wall clock     : %.3f s (setup %.3f s, run %.3f s), peak RSS %.0f MiB\n", wall, setup, run_s,
                  gfbench::peak_rss_mib());
      std::printf("  packets        : %lld sent, %lld packet-hops (%.3g per second), %lld events, peak %zu alive, %lld drops, %lld retransmissions\n",
                  static_cast<long long>(k.packets_sent), static_cast<long long>(k.packet_hops), hops_per_s,
                  static_cast<long long>(k.events), k.peak_packets, static_cast<long long>(k.drops),
                  static_cast<long long>(k.retransmits));
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
