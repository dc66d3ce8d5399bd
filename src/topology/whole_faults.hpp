// The components that stand for more than a set of links (topology/faults.hpp): a whole server
// and an NVSwitch chip (or an NVL72 switch tray), named as `topo` names them.
//
// - "server3": every link from the server's devices to the rest of the cluster (its NIC cables,
//   its GPUs' links to an NVLink domain's switch plane), so its GPUs are cut off. A server down
//   is down; it cannot be degraded (degrade its NICs, or slow its GPUs' compute).
// - "server0/nvswitch2" on an NVSwitch baseboard (DGX/HGX H100: four chips, each GPU's 18 NVLinks
//   split 5/4/4/5 over them, src/topology/servers/dgx_h100.cpp): the chip's links to the GPUs.
//   Routing spreads GPU-to-GPU traffic over the chips in proportion to their bandwidth
//   (Router::scale_up_route), so with a chip out each GPU has the rest of its NVLinks.
// - "nvl-domain0/nvswitch5" and "nvl-domain0/switch-tray3" in an NVL72-style domain: the domain's
//   chips are built as one plane node, each GPU's NVLinks one bonded link to it
//   (topology/cluster_builder.cpp), and every GPU has the same links to every chip, so one chip
//   down takes 1/chips of every GPU's link (share = chips named / chips). A GB200 NVL72 switch
//   tray holds two NVLink Switch chips (NVIDIA GB200 NVL72: nine switch trays, 18 chips).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "topology/faults.hpp"

namespace gf {

// NVLink Switch chips per NVL72 switch tray (NVIDIA GB200 NVL72 datasheet: 18 chips in 9 trays).
constexpr int kChipsPerSwitchTray = 2;

// "serverN" -> its links to the outside; nullopt for any other name. Throws InputError naming
// `flag` for a server number the cluster does not have.
std::optional<ComponentLinks> server_component(const Cluster& c, const std::string& name, const std::string& flag);

// An NVSwitch chip inside a server (a node of kind NvSwitch) or a chip / switch tray of an
// NVLink domain's plane; nullopt for any other name. Throws InputError for a chip or tray
// number the domain does not have.
std::optional<ComponentLinks> nvswitch_component(const Cluster& c, const std::string& name, const std::string& flag);

// The names of these components a user could have meant, for a did-you-mean: every server, the
// in-server chips of `server`, and each domain's chips and trays.
std::vector<std::string> whole_component_names(const Cluster& c, int64_t server);

}  // namespace gf
