// Built-in link technologies and switch models. Bandwidths are per direction; where a datasheet
// quotes a bidirectional total, it is halved here and the comment says so. Latencies are one
// traversal of the link plus its receiving port; where no datasheet gives one, the figure is an
// estimate and its source says "estimate".
#include <algorithm>

#include "topology/link_tech.hpp"
#include "topology/nic_transport.hpp"

namespace gf {

const char* to_string(LinkFamily f) {
  switch (f) {
    case LinkFamily::NvLink: return "NVLink";
    case LinkFamily::NvLinkC2C: return "NVLink-C2C";
    case LinkFamily::Pcie: return "PCIe";
    case LinkFamily::Xgmi: return "xGMI";
    case LinkFamily::InterSocket: return "inter-socket";
    case LinkFamily::InfiniBand: return "InfiniBand";
    case LinkFamily::RoCE: return "RoCEv2";
    case LinkFamily::EthernetTcp: return "Ethernet/TCP";
    case LinkFamily::Efa: return "EFA";
    case LinkFamily::GaudiRoce: return "Gaudi RoCE";
  }
  return "?";
}

// The family's transport's term (topology/nic_transport.cpp, one table for every transport).
TransportLatency default_transport(LinkFamily f) { return transport_term(transport_of_family(f)); }

namespace {

// A network technology with its transport's term (its family's unless named).
LinkTech net(LinkTech t, std::optional<NicTransport> transport = std::nullopt) {
  const TransportLatency d = transport_term(transport.value_or(transport_of_family(t.family)));
  t.transport_latency = d.latency;
  t.transport_source = d.source;
  return t;
}

void add_nvlink(LinkCatalog& c) {
  // Per-link figures: the GPU's total NVLink bandwidth / link count, halved to one direction.
  c.add({"nvlink2", LinkFamily::NvLink, Bandwidth::gBps(25), Time::ns(100), true,
         "NVLink 2.0 link (V100: 6 links, 300 GB/s bidirectional per GPU)",
         "NVIDIA Tesla V100 datasheet: 300 GB/s NVLink per GPU over 6 links; latency estimate"});
  c.add({"nvlink3", LinkFamily::NvLink, Bandwidth::gBps(25), Time::ns(100), true,
         "NVLink 3.0 link (A100: 12 links, 600 GB/s bidirectional per GPU)",
         "NVIDIA A100 Tensor Core GPU datasheet: 600 GB/s NVLink over 12 links; latency estimate"});
  // The NVLink bridge of PCIe cards (A40, RTX A6000) joins two GPUs: one bonded link, not the
  // A100's twelve NVLink3 links to NVSwitch chips.
  c.add({"nvlink3-bridge", LinkFamily::NvLink, Bandwidth::gBps(56.25), Time::ns(100), true,
         "NVLink bridge between two PCIe cards (A40 / RTX A6000: 112.5 GB/s bidirectional)",
         "NVIDIA A40 datasheet: NVLink 112.5 GB/s (bidirectional), 2-way low-profile bridge; latency estimate"});
  c.add({"nvlink4", LinkFamily::NvLink, Bandwidth::gBps(25), Time::ns(100), true,
         "NVLink 4.0 link (H100/H200: 18 links, 900 GB/s bidirectional per GPU)",
         "NVIDIA H100 Tensor Core GPU datasheet: 900 GB/s NVLink over 18 links; latency estimate"});
  c.add({"nvlink5", LinkFamily::NvLink, Bandwidth::gBps(50), Time::ns(100), true,
         "NVLink 5.0 link (B200/GB200: 18 links, 1.8 TB/s bidirectional per GPU)",
         "NVIDIA DGX B200 and GB200 NVL72 datasheets: 1.8 TB/s NVLink per GPU over 18 links; latency estimate"});
  c.add({"nvlink-c2c", LinkFamily::NvLinkC2C, Bandwidth::gBps(450), Time::ns(100), true,
         "NVLink-C2C Grace<->GPU, 900 GB/s bidirectional",
         "NVIDIA Grace Hopper Superchip datasheet: NVLink-C2C 900 GB/s; latency estimate"});
}

void add_pcie(LinkCatalog& c) {
  // Per-lane payload rate per direction after line coding: Gen3 8 GT/s x 128/130 / 8 = 0.985 GB/s;
  // Gen4 1.969; Gen5 3.938; Gen6 64 GT/s PAM4 with FLIT mode, 7.56 GB/s (242/256 FLIT efficiency).
  // Source: PCI-SIG PCI Express Base Specifications 3.0/4.0/5.0/6.0.
  struct Gen { int gen; double gbps_per_lane; };
  for (Gen g : {Gen{3, 0.985}, Gen{4, 1.969}, Gen{5, 3.938}, Gen{6, 7.563}}) {
    for (int width : {4, 8, 16}) {
      std::string name = "pcie-gen" + std::to_string(g.gen) + "-x" + std::to_string(width);
      c.add({name, LinkFamily::Pcie, Bandwidth::gBps(g.gbps_per_lane * width), Time::ns(150), true,
             "PCIe Gen" + std::to_string(g.gen) + " x" + std::to_string(width),
             "PCI-SIG PCI Express Base Specification " + std::to_string(g.gen) +
                 ".0 (line rate less encoding); latency estimate per hop"});
    }
  }
}

void add_cpu_and_xgmi(LinkCatalog& c) {
  // NCCL's effective inter-socket bandwidths (src/graph/topo.h: SKL QPI 10, SRP 22, AMD 16 GB/s)
  // are what GPU peer traffic through the CPUs achieves; used as facts, cited.
  c.add({"upi-skylake", LinkFamily::InterSocket, Bandwidth::gBps(10), Time::ns(200), true,
         "Intel Skylake/Cascade Lake UPI between sockets (effective for P2P)",
         "NVIDIA/nccl src/graph/topo.h SKL_QPI_BW = 10 GB/s; latency estimate"});
  c.add({"upi-sapphire-rapids", LinkFamily::InterSocket, Bandwidth::gBps(22), Time::ns(200), true,
         "Intel Sapphire/Emerald Rapids UPI between sockets (effective for P2P)",
         "NVIDIA/nccl src/graph/topo.h SRP_QPI_BW = 22 GB/s; latency estimate"});
  c.add({"amd-infinity-fabric-socket", LinkFamily::InterSocket, Bandwidth::gBps(16), Time::ns(200), true,
         "AMD EPYC socket-to-socket Infinity Fabric (effective for P2P)",
         "NVIDIA/nccl src/graph/topo.h AMD_BW = 16 GB/s; latency estimate"});
  c.add({"host-bridge", LinkFamily::InterSocket, Bandwidth::gBps(64), Time::ns(100), true,
         "between PCIe host bridges inside one socket (nvidia-smi NODE)",
         "estimate: on-die mesh, not a bottleneck for one PCIe Gen5 x16"});
  c.add({"xgmi-mi300x", LinkFamily::Xgmi, Bandwidth::gBps(64), Time::ns(150), true,
         "AMD Infinity Fabric (xGMI) GPU link, MI300X: 7 links, 896 GB/s aggregate",
         "AMD Instinct MI300X datasheet: 7 Infinity Fabric links, 128 GB/s bidirectional each; latency estimate"});
  c.add({"xgmi-mi355x", LinkFamily::Xgmi, Bandwidth::gBps(76.8), Time::ns(150), true,
         "AMD Infinity Fabric (xGMI) GPU link, MI355X: 7 links, 1,075 GB/s aggregate",
         "AMD Instinct MI355X datasheet: 7 Infinity Fabric links, 153.6 GB/s bidirectional each; latency estimate"});
}

void add_network(LinkCatalog& c) {
  // Port rates are the line rates of 4x ports. Latency: a few metres of cable plus NIC/switch port
  // serdes, an estimate (~5 ns/m); switch forwarding is in the switch model.
  struct Rate { const char* suffix; double gbps; };
  const Time wire = Time::ns(60);
  c.add(net({"ib-edr", LinkFamily::InfiniBand, Bandwidth::gbps(100), wire, true, "InfiniBand EDR 4x, 100 Gb/s",
         "IBTA InfiniBand roadmap (EDR 25 Gb/s per lane x4)"}));
  c.add(net({"ib-hdr", LinkFamily::InfiniBand, Bandwidth::gbps(200), wire, true, "InfiniBand HDR 4x, 200 Gb/s",
         "IBTA InfiniBand roadmap; NVIDIA ConnectX-6 datasheet"}));
  c.add(net({"ib-ndr", LinkFamily::InfiniBand, Bandwidth::gbps(400), wire, true, "InfiniBand NDR 4x, 400 Gb/s",
         "IBTA InfiniBand roadmap; NVIDIA ConnectX-7 datasheet"}));
  c.add(net({"ib-xdr", LinkFamily::InfiniBand, Bandwidth::gbps(800), wire, true, "InfiniBand XDR 4x, 800 Gb/s",
         "IBTA InfiniBand roadmap; NVIDIA ConnectX-8 SuperNIC datasheet"}));
  for (Rate r : {Rate{"100g", 100}, Rate{"200g", 200}, Rate{"400g", 400}, Rate{"800g", 800}}) {
    std::string g = std::to_string(static_cast<int>(r.gbps)) + " Gb/s";
    c.add(net({std::string("roce-") + r.suffix, LinkFamily::RoCE, Bandwidth::gbps(r.gbps), wire, true,
           "Ethernet " + g + " carrying RoCEv2 (RDMA)", "IEEE 802.3 (" + g + " Ethernet); IBTA RoCEv2 annex A17"}));
    c.add(net({std::string("eth-") + r.suffix + "-tcp", LinkFamily::EthernetTcp, Bandwidth::gbps(r.gbps), wire, false,
           "Ethernet " + g + " carrying plain TCP (no RDMA)", "IEEE 802.3 (" + g + " Ethernet)"}));
  }
  // GPUDirect-TCPXO carries TCP, but the NIC offloads it and moves payload between GPU memory and
  // the wire with no host-memory staging, so it is GPU-direct like RDMA (`rdma: true` here means
  // "no host bounce", which is what the models' TCP efficiency charges for); the measured A3 Mega
  // all_gather reaches ~94% of line rate (validation/measured/gcp-a3mega-*-tcpxo-*.txt).
  c.add(net({"tcpxo-200g", LinkFamily::EthernetTcp, Bandwidth::gbps(200), wire, true,
         "Ethernet 200 Gb/s carrying GPUDirect-TCPXO (TCP offload, GPU-direct data path)",
         "Google Cloud A3 Mega documentation (GPUDirect-TCPXO, 8 x 200 Gbps GPU NICs)"},
          NicTransport::GpuDirectTcpxo));
  // GPUDirect-TCPX (A3 High): TCP through the host's kernel stack, payload received into GPU memory.
  c.add(net({"tcpx-200g", LinkFamily::EthernetTcp, Bandwidth::gbps(200), wire, true,
             "Ethernet 200 Gb/s carrying GPUDirect-TCPX (TCP, GPU-direct receive path)",
             "Google Cloud documentation, GPUDirect-TCPX on a3-highgpu-8g (4 x 200 Gbps GPU NICs)"},
            NicTransport::GpuDirectTcpx));
  c.add(net({"efa-100g", LinkFamily::Efa, Bandwidth::gbps(100), wire, true,
         "AWS EFA v2 interface, 100 Gb/s (p5.48xlarge has 32: 3,200 Gb/s)",
         "AWS EC2 P5 instance documentation: 3,200 Gbps EFAv2 networking over 32 interfaces"}));
  c.add(net({"efa-200g", LinkFamily::Efa, Bandwidth::gbps(200), wire, true,
         "AWS EFA v3 interface, 200 Gb/s (p5en.48xlarge has 16: 3,200 Gb/s)",
         "AWS EC2 P5en instance documentation: 3,200 Gbps EFAv3 over 16 interfaces"}));
  c.add(net({"gaudi2-roce-100g", LinkFamily::GaudiRoce, Bandwidth::gbps(100), wire, true,
         "Intel Gaudi 2 on-chip RoCE port, 100 GbE (24 per chip: 21 in the server, 3 out)",
         "Intel Gaudi 2 AI accelerator white paper: 24 x 100 GbE RoCE integrated ports"}));
  c.add(net({"gaudi3-roce-200g", LinkFamily::GaudiRoce, Bandwidth::gbps(200), wire, true,
         "Intel Gaudi 3 on-chip RoCE port, 200 GbE (24 per chip: 21 in the server, 3 out)",
         "Intel Gaudi 3 AI accelerator white paper: 24 x 200 GbE RoCE integrated ports"}));
}

// The SHARP limits after it are from the SHARP Rev 3.13.0 release notes ("Device Capabilities and
// Limitations", docs.nvidia.com/networking/display/sharpv3130/general-information).
// The in-network reduction field marks SHARPv2 on Quantum (HDR), SHARPv3 on Quantum-2 (NDR),
// SHARPv4 on Quantum-X800 (NVIDIA Quantum InfiniBand switch datasheets); NVLink SHARP on NVSwitch gen 3
// and later (NVIDIA H100 architecture white paper), which NCCL uses as the NVLS algorithm.
void add_switches(LinkCatalog& c) {
  c.add_switch({"quantum-qm8700", "ib-hdr", 40, Time::ns(130), "NVIDIA Quantum QM8700, 40 x HDR 200 Gb/s",
                "NVIDIA QM8700 datasheet: 40 ports of 200 Gb/s, 130 ns port-to-port", true,
                /*sharp_trees_per_switch=*/1, /*sharp_tree_per_port=*/false, /*sharp_trees_per_subnet=*/63});
  c.add_switch({"quantum2-qm9700", "ib-ndr", 64, Time::ns(130), "NVIDIA Quantum-2 QM9700, 64 x NDR 400 Gb/s",
                "NVIDIA QM9700 datasheet: 64 ports of 400 Gb/s (32 OSFP); latency estimate as QM8700", true,
                /*sharp_trees_per_switch=*/0, /*sharp_tree_per_port=*/true, /*sharp_trees_per_subnet=*/511});
  c.add_switch({"quantum-x800-q3400", "ib-xdr", 144, Time::ns(130), "NVIDIA Quantum-X800 Q3400, 144 x XDR 800 Gb/s",
                "NVIDIA Quantum-X800 datasheet: 144 ports of 800 Gb/s; latency estimate", true,
                // SHARPv4's limits are not in the SHARP 3.13 notes; Quantum-2's are assumed.
                /*sharp_trees_per_switch=*/0, /*sharp_tree_per_port=*/true, /*sharp_trees_per_subnet=*/511});
  c.add_switch({"edr-switch-36", "ib-edr", 36, Time::ns(90), "36-port EDR InfiniBand switch (Switch-IB 2)",
                "NVIDIA/Mellanox SB7800 datasheet: 36 x 100 Gb/s, 90 ns"});
  c.add_switch({"spectrum4-sn5600-800g", "roce-800g", 64, Time::ns(600), "NVIDIA Spectrum-4 SN5600 (Spectrum-X), 64 x 800 GbE",
                "NVIDIA SN5600 datasheet: 64 x 800 GbE, 51.2 Tb/s; latency estimate"});
  c.add_switch({"spectrum4-sn5600-400g", "roce-400g", 128, Time::ns(600), "NVIDIA Spectrum-4 SN5600 split to 128 x 400 GbE",
                "NVIDIA SN5600 datasheet: 128 x 400 GbE via breakout; latency estimate"});
  c.add_switch({"tomahawk5-400g", "roce-400g", 128, Time::ns(700), "Broadcom Tomahawk 5 class, 128 x 400 GbE",
                "Broadcom BCM78900 product brief: 51.2 Tb/s; latency estimate"});
  c.add_switch({"tomahawk4-200g", "roce-200g", 128, Time::ns(700), "Broadcom Tomahawk 4 class, 128 x 200 GbE",
                "Broadcom BCM56990 product brief: 25.6 Tb/s; latency estimate"});
  c.add_switch({"generic-100g", "roce-100g", 64, Time::ns(600), "64 x 100 GbE switch (Tomahawk 2 class)",
                "Broadcom BCM56970 product brief: 6.4 Tb/s; latency estimate"});
  c.add_switch({"efa-fabric", "efa-100g", 128, Time::ns(1000), "AWS network switch behind EFA (not published)",
                "estimate: AWS does not publish its fabric; radix and latency are placeholders"});
  c.add_switch({"gaudi-ethernet-400g", "gaudi2-roce-100g", 128, Time::ns(700), "Ethernet switch for Gaudi scale-out",
                "estimate: Intel Gaudi reference design uses 400/800 GbE switches, split to 100/200 GbE"});
  // NVSwitch generations (port counts are NVLink ports per chip).
  c.add_switch({"nvswitch-gen2", "nvlink3", 36, Time::ns(100), "NVSwitch gen 2 (DGX A100), 36 NVLink3 ports",
                "NVIDIA A100 / DGX A100 architecture white paper"});
  c.add_switch({"nvswitch-gen3", "nvlink4", 64, Time::ns(100), "NVSwitch gen 3 (DGX H100), 64 NVLink4 ports",
                "NVIDIA H100 architecture white paper; NVLink Switch System", true});
  c.add_switch({"nvswitch-gen4", "nvlink5", 72, Time::ns(100), "NVSwitch gen 4 (GB200 NVL72), 72 NVLink5 ports",
                "NVIDIA GB200 NVL72 / Blackwell architecture white paper", true});
}

}  // namespace

LinkCatalog LinkCatalog::builtin() {
  LinkCatalog c;
  add_nvlink(c);
  add_pcie(c);
  add_cpu_and_xgmi(c);
  add_network(c);
  add_switches(c);
  return c;
}

TechId LinkCatalog::add(LinkTech t) {
  techs_.push_back(std::move(t));
  return static_cast<TechId>(techs_.size() - 1);
}

std::optional<TechId> LinkCatalog::find(const std::string& name) const {
  for (size_t i = 0; i < techs_.size(); ++i)
    if (techs_[i].name == name) return static_cast<TechId>(i);
  return std::nullopt;
}

std::optional<SwitchModel> LinkCatalog::find_switch(const std::string& name) const {
  for (const auto& s : switches_)
    if (s.name == name) return s;
  return std::nullopt;
}

std::optional<SwitchModel> LinkCatalog::default_switch_for(const std::string& port_tech) const {
  // The first switch listed for a technology is its default; Ethernet TCP uses its RoCE twin's.
  std::string t = port_tech;
  if (t.rfind("eth-", 0) == 0 && t.size() > 8) t = "roce-" + t.substr(4, t.size() - 8);
  if (t.rfind("tcpxo-", 0) == 0) t = "roce-" + t.substr(6);
  if (t.rfind("tcpx-", 0) == 0) t = "roce-" + t.substr(5);
  if (t.rfind("efa-", 0) == 0) t = "efa-100g";
  if (t.rfind("gaudi", 0) == 0) t = "gaudi2-roce-100g";
  for (const auto& s : switches_)
    if (s.port_tech == t) return s;
  return std::nullopt;
}

std::vector<std::string> LinkCatalog::tech_names() const {
  std::vector<std::string> out;
  for (const auto& t : techs_) out.push_back(t.name);
  return out;
}

std::vector<std::string> LinkCatalog::switch_names() const {
  std::vector<std::string> out;
  for (const auto& s : switches_) out.push_back(s.name);
  return out;
}

}  // namespace gf
