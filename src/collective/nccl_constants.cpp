#include "collective/nccl_constants.hpp"

#include "collective/communicator.hpp"
#include "collective/schedule.hpp"

namespace gf {

namespace {
int arch_index(const std::string& arch) {
  if (arch == "volta") return 0;
  if (arch == "ampere") return 1;
  if (arch == "hopper") return 2;
  if (arch == "blackwell") return 3;
  return 2;  // non-NVIDIA accelerators: Hopper-era constants (an assumption, see docs/models.md)
}
int node_index(int nnodes) { return nnodes <= 1 ? 0 : nnodes == 2 ? 1 : 2; }
}  // namespace

Time nccl_base_latency(const std::string& algorithm, Protocol p) {
  const auto i = static_cast<size_t>(p);
  static const double kTree[] = {6.8, 14.0, 8.4}, kRing[] = {6.6, 14.0, 8.4};
  if (algorithm == "tree") return Time::us(kTree[i]);
  if (algorithm.rfind("collnet", 0) == 0 || algorithm.rfind("nvls", 0) == 0) return Time::zero();
  if (algorithm == "pat") return Time::us(8.0);
  return Time::us(kRing[i]);
}

std::array<double, 3> nccl_hw_latency_us(const std::string& algorithm, Protocol p) {
  // [link class NVLINK, PCI, NET][protocol LL, LL128, Simple]
  using Table = std::array<std::array<double, 3>, 3>;
  static const Table kTree = {{{0.6, 1.25, 4.0}, {1.0, 1.9, 4.0}, {5.0, 8.5, 14.0}}};
  static const Table kRing = {{{0.6, 1.9, 3.4}, {1.0, 2.5, 5.7}, {2.7, 4.0, 14.0}}};
  static const Table kCollNetDirect = {{{0, 0, 3.7}, {0, 0, 3.7}, {0, 0, 31.0}}};
  static const Table kCollNetChain = {{{0, 0, 2.8}, {0, 0, 2.8}, {0, 0, 30.0}}};
  static const Table kNvls = {{{0, 0, 25.0}, {0, 0, 0}, {0, 0, 18.0}}};
  static const Table kNvlsTree = {{{0, 0, 25.0}, {0, 0, 0}, {0, 0, 20.9}}};
  static const Table kPat = {{{0, 0, 4.0}, {0, 0, 4.0}, {0, 0, 14.0}}};
  const Table& t = algorithm == "tree"             ? kTree
                   : algorithm == "collnet_direct" ? kCollNetDirect
                   : algorithm == "collnet_chain"  ? kCollNetChain
                   : algorithm == "nvls"           ? kNvls
                   : algorithm == "nvlstree"       ? kNvlsTree
                   : algorithm == "pat"            ? kPat
                                                   : kRing;
  const auto i = static_cast<size_t>(p);
  return {t[0][i], t[1][i], t[2][i]};
}

void apply_nccl_latencies(Schedule& s, const std::string& algorithm, Protocol p) {
  std::array<double, 3> row = nccl_hw_latency_us(algorithm, p);
  Time base = nccl_base_latency(algorithm, p);
  if (algorithm == "nvls" || algorithm == "nvlstree") {
    base += Time::us(row[0]);
    row[0] = 0;
  }
  s.set_base_latency(base);
  s.set_step_latency({Time::us(row[0]), Time::us(row[1]), Time::us(row[2])});
}

double nccl_ll_max_bw(const std::string& arch, int nnodes) {
  // Rows Volta, Ampere, Hopper, Blackwell; columns 1 node, 2 nodes, more.
  static const double k[4][3] = {{39.0, 39.0, 20.4}, {87.7, 22.5, 19.0}, {141.0, 45.0, 35.0}, {282.0, 90.0, 70.0}};
  return k[arch_index(arch)][node_index(nnodes)];
}

double nccl_ring_ll128_per_channel_bw(const std::string& arch) {
  static const double k[4] = {20.0, 20.0, 36.7, 40.0};
  return k[arch_index(arch)];
}

double nccl_tree_per_channel_bw(const std::string& arch, int nnodes) {
  static const double k[4][3] = {{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}, {70.0, 42.8, 24.0}};
  return k[arch_index(arch)][node_index(nnodes)];
}

bool library_uses_pxn(const Communicator& comm) {
  static const char* const kNvidia[] = {"volta", "ampere", "ada", "hopper", "blackwell"};
  bool nvidia = false;
  for (const char* a : kNvidia) nvidia = nvidia || comm.arch == a;
  return nvidia && comm.nvlink;
}

double nccl_nvls_efficiency(const std::string& arch) {
  if (arch == "hopper") return 0.85;
  if (arch == "blackwell") return 0.74;
  return 0.0;
}

}  // namespace gf
