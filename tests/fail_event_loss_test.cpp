// A scenario event carrying a packet loss rate (`{at: 1ms, degrade: server0/nic0, loss: 1e-3}`):
// the flow model prices it from that time as `perf --degrade X=loss:P` does, go-back-N's share of
// the link (topology/faults.hpp loss_efficiency).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "workload/scenario.hpp"
#include "workload/scenario_yaml.hpp"

using namespace gf;

namespace {

// One GPU on each of two DGX H100 (fail_events_test's job): every transfer of the 2-rank ring
// crosses both servers' nic0, a 400 Gb/s NDR cable.
std::string scenario(const std::string& events) {
  return "cluster: dgx-h100-2node\n"
         "jobs:\n  - {name: a, servers: 0-1, gpus_per_server: 1, repeat: 4, calls: [{collective: all_reduce, size: 64M}]}\n"
         "events:\n" + events;
}

ScenarioResult run_text(const std::string& text) { return run_scenario(parse_scenario_yaml(text, "ev.yaml")); }

}  // namespace

TEST(FailEventLoss, ALossEventRunsTheLinkAtGoBackNsShareFromItsTime) {
  // 400 Gb/s = 50 GB/s and the default 10 us round trip: N = ceil(50e9 x 10e-6 / 4096) = 123
  // packets in flight, so loss 1e-3 keeps (1 - p) / (1 + (N - 1) p) = 0.999 / 1.122 = 89.04 % of
  // the link. The event must give the job exactly what `bandwidth:` at that fraction gives, from
  // the same time; rtt: 2us (N = 25) keeps 0.999 / 1.024.
  for (const auto& [rtt, kept] : {std::pair<std::string, double>{"", (1 - 1e-3) / (1 + 122 * 1e-3)},
                                                         {", rtt: 2us", (1 - 1e-3) / (1 + 24 * 1e-3)}}) {
    char bw[64];
    std::snprintf(bw, sizeof bw, "%.17g", kept);
    const ScenarioResult loss = run_text(scenario("  - {at: 1ms, degrade: server0/nic0, loss: 1e-3" + rtt + "}\n"));
    const ScenarioResult same = run_text(scenario("  - {at: 1ms, degrade: server0/nic0, bandwidth: " + std::string(bw) + "}\n"));
    EXPECT_EQ(loss.jobs[0].end, same.jobs[0].end) << rtt;
    EXPECT_GT(loss.jobs[0].end, loss.jobs[0].outcome->baseline_end) << rtt;
    ASSERT_FALSE(loss.event_lines.empty());
    EXPECT_NE(loss.event_lines[0].find("loss 0.001, go-back-N over a"), std::string::npos) << loss.event_lines[0];
  }
}

TEST(FailEventLoss, BadLossEventsAreErrorsAtTheirKey) {
  auto key = [](const std::string& events) {
    try {
      run_text(scenario(events));
    } catch (const InputError& e) {
      return e.key();
    }
    return std::string("no error");
  };
  EXPECT_EQ(key("  - {at: 1ms, degrade: server0/nic0, loss: 1.5}\n"), "events[0].loss");
  EXPECT_EQ(key("  - {at: 1ms, degrade: server0/nic0, loss: x}\n"), "events[0].loss");
  EXPECT_EQ(key("  - {at: 1ms, degrade: server0/nic0, loss: 1e-3, bandwidth: 0.5}\n"), "events[0].loss");
  EXPECT_EQ(key("  - {at: 1ms, degrade: server0/nic0, bandwidth: 0.5, rtt: 2us}\n"), "events[0].rtt");
  EXPECT_EQ(key("  - {at: 1ms, down: server0/nic0, loss: 1e-3}\n"), "events[0].loss");
}
