#include "collective/nccl_constants.hpp"

#include <cmath>

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

double nccl_tree_ll128_per_channel_bw(const std::string& arch, int nnodes) {
  static const double k[4][3] = {{20, 20, 20}, {20, 20, 20}, {36.7, 36.7, 29.0}, {55.6, 31.67, 20.0}};
  return k[arch_index(arch)][node_index(nnodes)];
}

double nccl_nvlstree_per_channel_bw(const std::string& arch, int nnodes) {
  static const double k[4][3] = {{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {0.0, 57.7, 45.5}, {0.0, 96.0, 80.0}};
  return k[arch_index(arch)][node_index(nnodes)];
}

double nccl_tree_correction(Protocol p, Bytes bytes) {
  static const double k[3][24] = {
      {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0, 1.0},
      {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0, 1.0},
      {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9}};
  const double units = static_cast<double>(bytes.count()) / 64.0;
  if (units < 1) return 1.0;
  const int i = static_cast<int>(std::log2(units));
  return i < 24 ? k[static_cast<size_t>(p)][i] : 1.0;
}

bool library_uses_pxn(const Communicator& comm) {
  static const char* const kNvidia[] = {"volta", "ampere", "ada", "hopper", "blackwell"};
  bool nvidia = false;
  for (const char* a : kNvidia) nvidia = nvidia || comm.arch == a;
  // NCCL_PXN_DISABLE=1 (the cluster's TransportSettings): paths.cc adds no relay paths, so
  // ncclTopoGetNetDev gives each GPU its own NIC.
  const bool disabled = comm.cluster && comm.cluster->server_template().transport.net.pxn_disabled;
  return nvidia && comm.nvlink && !disabled;
}

double nccl_nvls_efficiency(const std::string& arch) {
  if (arch == "hopper") return 0.85;
  if (arch == "blackwell") return 0.74;
  return 0.0;
}

}  // namespace gf
