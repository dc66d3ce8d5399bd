// The `packet:` block of a YAML file -> PacketParams (model/packet/packet_params.hpp, a plain
// struct of the packet model's settings; config reads into it as it reads ClusterSpec). Every key
// is checked (unknown keys get a "did you mean"), sizes, times and rates parse at the edge, and
// PacketParams::validate's contradictions are reported at the offending key's file:line.
//
//   packet:
//     mtu: 4096            header: 64          port_buffer: 512KiB   shared_buffer: 32MiB
//     flow_control: auto   congestion_control: auto   load_balance: auto   flowlet_gap: 50us
//     traffic_classes: 1   class_scheduling: round_robin   (or strict; docs/models.md, "Traffic classes")
//     ecn:   {kmin: 5KB, kmax: 200KB, pmax: 0.01}
//     pfc:   {xoff: 256KiB, xon: 128KiB, headroom: 64KiB}
//     dcqcn: {g: 0.00390625, initial_alpha: 1, alpha_timer: 55us, rate_timer: 55us,
//             byte_counter: 10MB, fast_recovery_steps: 5, rate_ai: 40Mbps, rate_hai: 400Mbps,
//             cnp_interval: 50us, min_rate: 100Mbps}
//     ibcc:  {threshold: 64KiB, ccti_increase: 1, ccti_limit: 511, ccti_min: 0, ccti_timer: 10us,
//             cct_step: 0.125, marking_rate: 0}
//     tcp:   {init_cwnd: 10, min_rto: 1ms, initial_rto: 1ms, max_rto: 60s, dupack_threshold: 3}
//     seed: 0
//
// The dcqcn, ibcc and tcp blocks belong to their congestion-control schemes (congestion_control.hpp,
// cc_<name>.cpp), which list, read and check their own keys; this reader asks every registered
// scheme for its block, so a new scheme's block needs no edit here.
#pragma once

#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "model/packet/packet_params.hpp"

namespace gf {

// `block` is the value of a `packet:` key and `path` its dotted name in messages ("packet");
// keys it does not set keep `defaults`' values. The result has passed PacketParams::validate.
PacketParams parse_packet_yaml(const YAML::Node& block, const std::string& file, const std::string& path = "packet",
                               const PacketParams& defaults = {});

// The keys a `packet:` block accepts (documentation, did-you-mean).
const std::vector<std::string>& packet_yaml_keys();

}  // namespace gf
