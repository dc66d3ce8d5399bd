#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "collective/algorithm.hpp"

namespace gf {

#define GF_ALGORITHM(x) std::unique_ptr<Algorithm> make_##x();
#include "collective/algorithms/registry.inc"
#undef GF_ALGORITHM

bool AlgorithmTraits::implements(CollectiveKind kind) const {
  return std::find(collectives.begin(), collectives.end(), kind) != collectives.end();
}

double EstimateInput::bus() const { return nnodes <= 1 ? bw_intra : std::min(bw_intra, bw_inter); }

int EstimateInput::nsteps() const {
  if (kind == CollectiveKind::AllReduce) return 2 * (nranks - 1);
  return kind == CollectiveKind::AllGather || kind == CollectiveKind::ReduceScatter ? nranks - 1 : nranks;
}

double EstimateInput::ring_factor() const { return static_cast<double>(nranks) / std::max(1, nsteps()); }

double EstimateInput::log2_nodes() const { return std::log2(static_cast<double>(std::max(1, nnodes))); }

StepLatency step_latency(const NcclLatencies& l, Protocol p, const EstimateInput& in) {
  const auto i = static_cast<size_t>(p);
  return {in.nvlink ? l.hw_us[0][i] : l.hw_us[1][i], l.hw_us[2][i] + in.transport_us, Time::us(l.base_us[i]).to_us()};
}

std::optional<Time> nccl_time(double latency_us, double alg_bw_gbps, Bytes bytes) {
  if (alg_bw_gbps <= 0) return std::nullopt;
  const double us = latency_us + static_cast<double>(bytes.count()) / (1000.0 * alg_bw_gbps);
  return Time::ps(static_cast<int64_t>(std::llround(us * 1e6)));
}

Schedule Algorithm::build_steady(const Communicator&, const CollectiveCall&, const AlgorithmOptions&) const {
  throw std::logic_error("algorithm '" + name() + "' has no steady-state form");
}

void Algorithm::apply_latencies(Schedule& s, Protocol p) const {
  const NcclLatencies& l = traits().latency;
  const auto i = static_cast<size_t>(p);
  Time base = Time::us(l.base_us[i]);
  std::array<Time, 3> step = {Time::us(l.hw_us[0][i]), Time::us(l.hw_us[1][i]), Time::us(l.hw_us[2][i])};
  if (l.nvlink_once) {
    base += step[0];
    step[0] = Time::zero();
  }
  s.set_base_latency(base);
  s.set_step_latency(step);
}

std::string traits_problem(const Algorithm& a) {
  const AlgorithmTraits& t = a.traits();
  const std::string who = "algorithm '" + t.name + "': ";
  if (t.name.empty()) return "an algorithm has no name";
  if (t.description.empty()) return who + "no description";
  if (t.source.empty()) return who + "no source";
  if (t.collectives.empty()) return who + "implements no collective";
  if (t.protocols.list().empty()) return who + "runs no protocol";
  for (size_t i = 0; i < kProtocols; ++i) {
    bool ok = std::isfinite(t.latency.base_us[i]) && t.latency.base_us[i] >= 0;
    for (const auto& row : t.latency.hw_us) ok = ok && std::isfinite(row[i]) && row[i] >= 0;
    if (!ok) return who + "latency for protocol " + to_string(static_cast<Protocol>(i)) + " is not a finite figure >= 0";
  }
  return "";
}

const std::vector<std::unique_ptr<Algorithm>>& algorithm_registry() {
  // Immutable table of stateless algorithms, in the order `gpufabric list algorithms` prints.
  static const std::vector<std::unique_ptr<Algorithm>> kAlgorithms = [] {
    std::vector<std::unique_ptr<Algorithm>> v;
#define GF_ALGORITHM(x) v.push_back(make_##x());
#include "collective/algorithms/registry.inc"
#undef GF_ALGORITHM
    std::set<std::string> names;
    std::set<int> ranks;
    for (const auto& a : v) {
      if (std::string why = traits_problem(*a); !why.empty()) throw std::logic_error(why);
      if (!names.insert(a->name()).second) throw std::logic_error("algorithm '" + a->name() + "' registered twice");
      const AutoChoice& c = a->traits().automatic;
      if (c.allowed() && !ranks.insert(c.rank()).second)
        throw std::logic_error("algorithm '" + a->name() + "': auto tie rank " + std::to_string(c.rank()) + " is taken");
    }
    return v;
  }();
  return kAlgorithms;
}

const Algorithm* find_algorithm(const std::string& name) {
  for (const auto& a : algorithm_registry())
    if (a->name() == name) return a.get();
  return nullptr;
}

std::vector<std::string> algorithm_names() {
  std::vector<std::string> out;
  for (const auto& a : algorithm_registry()) out.push_back(a->name());
  return out;
}

int nccl_search_channels(const Communicator& comm) {
  const Cluster& c = *comm.cluster;
  int nics = static_cast<int>(c.nic_locals().size());
  // NCCL never runs more than MAXCHANNELS = 64 channels (src/include/device.h in current NCCL;
  // 32 in releases before 2.12): a 72-GPU NVL72 node with 4 NICs per tray would otherwise ask 144.
  constexpr int kMaxChannels = 64;
  // A direct GPU mesh (xGMI, NVLink bridges) has R link-disjoint rings (Communicator::ring);
  // channels come in whole multiples of R, and across servers R x ppn of them, so every ring leaves
  // the server from every GPU once and every NIC carries the same share (48 on an 8-GPU xGMI mesh).
  const bool mesh = comm.nvlink && !comm.nvswitch;
  const int rings = comm.distinct_rings();
  if (comm.nnodes > 1 && nics > 0) {
    const int want = std::max(2, 2 * nics / std::max(1, c.gpus_per_server()) * comm.ppn);
    if (!mesh) return std::min(kMaxChannels, want);
    const int unit = rings * std::max(1, comm.ppn);
    return unit <= kMaxChannels ? unit : kMaxChannels / rings * rings;
  }
  if (comm.nvswitch) return 16;
  if (mesh) return 2 * rings;  // two channels per ring, as before on NVLink boxes
  return 2;
}

Bytes piece(Bytes total, int parts, int index) {
  int64_t base = total.count() / parts, extra = total.count() % parts;
  return Bytes(base + (index < extra ? 1 : 0));
}

}  // namespace gf
