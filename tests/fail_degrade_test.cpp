// Latency and loss degradation (topology/faults.hpp "=latency:+X", "=loss:P"): go-back-N's
// effective bandwidth in closed form, and what each costs a run.
#include <gtest/gtest.h>

#include <cmath>

#include "collective/communicator.hpp"
#include "core/error.hpp"
#include "routing/router.hpp"
#include "test_clusters.hpp"
#include "topology/faults.hpp"
#include "workload/sweep.hpp"

namespace {

TEST(FailDegrade, GoBackNEfficiency) {
  // 400 Gb/s = 50 GB/s over a 10 us round trip: 500,000 B in flight = ceil(122.07) = 123 packets
  // of 4096 B. Loss 1e-4: (1 - 1e-4) / (1 + 122e-4) = 0.98785; loss 1e-2: 0.99 / 2.22 = 0.44595.
  const gf::Bandwidth bw = gf::Bandwidth::gbps(400);
  EXPECT_NEAR(gf::loss_efficiency(1e-4, bw, gf::Time::us(10)), 0.9999 / 1.0122, 1e-12);
  EXPECT_NEAR(gf::loss_efficiency(1e-2, bw, gf::Time::us(10)), 0.99 / 2.22, 1e-12);
  // A window of one packet (stop-and-wait's limit) keeps 1 - p.
  EXPECT_NEAR(gf::loss_efficiency(1e-3, gf::Bandwidth::gbps(1), gf::Time::ns(1)), 0.999, 1e-12);
}

TEST(FailDegrade, ParsesLatencyAndLoss) {
  const auto lat = gf::parse_fault("--degrade", "leaf0-spine1=latency:+5us");
  EXPECT_EQ(lat.component, "leaf0-spine1");
  EXPECT_EQ(lat.extra_latency, gf::Time::us(5));
  EXPECT_EQ(lat.keep, 1.0);
  const auto loss = gf::parse_fault("--degrade", "server1/nic3=loss:1e-4,rtt=8us");
  EXPECT_DOUBLE_EQ(loss.loss, 1e-4);
  EXPECT_EQ(loss.loss_rtt, gf::Time::us(8));
  EXPECT_EQ(gf::parse_fault("--degrade", "x=loss:1e-4").loss_rtt, gf::Time::us(10));
  for (const char* bad : {"x=latency:", "x=latency:+0us", "x=latency:fast", "x=loss:0", "x=loss:1", "x=loss:abc",
                          "x=loss:1e-4,rt=8us", "x=loss:1e-4,rtt=0us"})
    EXPECT_THROW(gf::parse_fault("--degrade", bad), gf::InputError) << bad;
}

// Two one-GPU servers on one leaf: rank 0 -> 1 crosses nic0's uplink and nic1's downlink.
double sendrecv_us(const std::vector<gf::FaultRequest>& faults, gf::Bytes size) {
  gf::Cluster c = gf::build_cluster(gftest::spec_of(gftest::small_server(), 2));
  gf::apply_faults(c, faults);
  gf::Router r(c);
  auto comm = gf::make_communicator(c, r, 2, 1);
  gf::SweepOptions o;
  o.call.kind = gf::CollectiveKind::SendRecv;
  o.min_bytes = o.max_bytes = size;
  return gf::run_sweep(comm, r, o).at(0).time.to_us();
}

TEST(FailDegrade, AddLatencyChangesBothDirectionsOfOnePairOnly) {
  // Cluster::add_latency is the setter `=latency:+X` uses: the pair's two directions each gain
  // `extra`, twice applied adds twice, and no other link moves.
  gf::Cluster c = gf::build_cluster(gftest::spec_of(gftest::small_server(), 2));
  const gf::LinkId l = gf::component_links(c, "server1/nic0", "--degrade").links.at(0);
  const gf::LinkId r = c.link(l).reverse;
  std::vector<gf::Time> before;
  for (const auto& k : c.links()) before.push_back(k.latency);
  c.add_latency(l, gf::Time::us(5));
  c.add_latency(r, gf::Time::us(2));
  for (size_t i = 0; i < c.links().size(); ++i) {
    const auto id = static_cast<gf::LinkId>(i);
    const gf::Time want = (id == l || id == r) ? before[i] + gf::Time::us(7) : before[i];
    EXPECT_EQ(c.links()[i].latency, want) << i;
  }
}

TEST(FailDegrade, AddedLatencyIsPaidOncePerCrossing) {
  // sendrecv: each rank sends to the next, so each transfer crosses server1/nic0's cable once,
  // one way or the other: an 8 B call is 5 us slower, not more.
  const gf::Bytes b{8};
  const double base = sendrecv_us({}, b);
  const double slow = sendrecv_us({gf::parse_fault("--degrade", "server1/nic0=latency:+5us")}, b);
  EXPECT_NEAR(slow - base, 5.0, 1e-3);
}

TEST(FailDegrade, LossTakesItsShareOfTheBandwidth) {
  // 1 GiB over the NIC cable (400 Gb/s) is wire-bound: at loss 1e-3 it runs at 1 / eff of the
  // time, eff = (1 - 1e-3) / (1 + 122e-3) = 0.8904 (GoBackNEfficiency's window); the fixed
  // per-call latency (a few us of 21 ms) is inside the 0.2 % tolerance.
  gf::Cluster c = gf::build_cluster(gftest::spec_of(gftest::small_server(), 2));
  const gf::LinkId nic = gf::component_links(c, "server1/nic0", "--degrade").links.at(0);
  const double before = c.link(nic).bandwidth.bytes_per_second();
  gf::apply_faults(c, {gf::parse_fault("--degrade", "server1/nic0=loss:1e-3")});
  const double eff = 0.999 / 1.122;
  EXPECT_NEAR(c.link(nic).bandwidth.bytes_per_second() / before, eff, 1e-12);
  EXPECT_NEAR(c.link(c.link(nic).reverse).bandwidth.bytes_per_second() / before, eff, 1e-12);
  const gf::Bytes b = gf::Bytes::gib(1);
  const double base = sendrecv_us({}, b);
  const double lossy = sendrecv_us({gf::parse_fault("--degrade", "server1/nic0=loss:1e-3")}, b);
  EXPECT_NEAR(lossy / base, 1 / eff, 2e-3);
}

}  // namespace
