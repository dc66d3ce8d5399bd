#include "model/gdr_receive.hpp"

#include "routing/gpu_nic_path.hpp"
#include "topology/net_transport.hpp"

namespace gf {

GdrReceive::GdrReceive(const Cluster& c) : c_(c), nodes_(c.server_template().nodes.size()) {
  const NetTransportSettings& net = c.server_template().transport.net;
  gdr_.assign(nodes_ * nodes_, 0);
  if (net.socket || c.servers() == 0) return;  // sockets take host memory only: no GDR anywhere
  // Every server is a copy of the template: server 0's GPU-to-NIC path types stand for all.
  for (int g : c.gpu_locals())
    for (int n : c.all_nic_locals())
      gdr_[static_cast<size_t>(g) * nodes_ + static_cast<size_t>(n)] =
          gpu_nic_path_type(c, c.server_node(0, g), c.server_node(0, n)) <= net.gdr();
}

bool GdrReceive::operator()(const Path& p) const {
  if (p.links.empty()) return false;
  const Node& gpu = c_.node(c_.link(p.links.back()).dst);
  if (gpu.kind != NodeKind::Gpu) return false;
  // The last link into a NIC is the fabric's link into the receiving NIC: its technology says
  // whether that NIC does GPUDirect RDMA at all.
  for (auto it = p.links.rbegin(); it != p.links.rend(); ++it) {
    const Link& l = c_.link(*it);
    const Node& nic = c_.node(l.dst);
    if (nic.kind != NodeKind::Nic) continue;
    if (nic.server != gpu.server || !c_.catalog().tech(l.tech).rdma) return false;
    return gdr_[static_cast<size_t>(gpu.local) * nodes_ + static_cast<size_t>(nic.local)] != 0;
  }
  return false;
}

}  // namespace gf
