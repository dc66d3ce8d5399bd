// Reading the `packet:` block (see packet_yaml.hpp for the schema).
#include "model/packet/packet_yaml.hpp"

#include <limits>

#include "config/yaml_fields.hpp"
#include "model/packet/congestion_control.hpp"
#include "model/packet/packet_yaml_fields.hpp"

namespace gf {
namespace {

const std::vector<std::string> kEcnKeys = {"kmin", "kmax", "pmax"};
const std::vector<std::string> kPfcKeys = {"xoff", "xon", "headroom"};

// The block's own keys, then every congestion-control scheme's block (in block-name order), then
// the rest.
std::vector<std::string> packet_keys() {
  std::vector<std::string> keys = {"mtu", "header", "port_buffer", "shared_buffer", "flow_control",
                                   "congestion_control", "load_balance", "flowlet_gap", "ecn", "pfc"};
  for (const CongestionControl* scheme : congestion_control_blocks()) keys.push_back(scheme->block());
  for (const char* k : {"seed", "traffic_classes", "class_scheduling"}) keys.emplace_back(k);
  return keys;
}

// Where the dotted `key` ("pfc.xon") is written under `block`; the block itself when it is not
// (the offending value is a default). Lookups go through const nodes: yaml-cpp's non-const
// operator[] would insert the key.
SourceLocation key_location(const YAML::Node& block, const std::string& key, const std::string& file) {
  YAML::Node node = block;  // a handle; reset() moves it, operator= would overwrite the document
  size_t start = 0;
  while (start <= key.size()) {
    const size_t dot = key.find('.', start);
    const std::string part = key.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    const YAML::Node& cnode = node;
    if (!cnode.IsMap() || !cnode[part].IsDefined()) return location_of(block, file);
    node.reset(cnode[part]);
    start = dot == std::string::npos ? key.size() + 1 : dot + 1;
  }
  return location_of(node, file);
}

}  // namespace

const std::vector<std::string>& packet_yaml_keys() {
  static const std::vector<std::string> kKeys = packet_keys();  // immutable once built
  return kKeys;
}

PacketParams parse_packet_yaml(const YAML::Node& block, const std::string& file, const std::string& path,
                               const PacketParams& defaults) {
  PacketParams p = defaults;
  const YamlFields f(block, file, path, packet_yaml_keys());
  size_field(f, "mtu", p.mtu);
  size_field(f, "header", p.header);
  size_field(f, "port_buffer", p.port_buffer);
  size_field(f, "shared_buffer", p.shared_buffer);
  if (f.has("flow_control"))
    p.flow_control = parse_flow_control(f.string_or("flow_control", ""), f.where("flow_control"), f.key_path("flow_control"));
  if (f.has("congestion_control"))
    p.congestion_control = parse_congestion_control(f.string_or("congestion_control", ""), f.where("congestion_control"),
                                                    f.key_path("congestion_control"));
  if (f.has("load_balance"))
    p.load_balance = parse_load_balance(f.string_or("load_balance", ""), f.where("load_balance"), f.key_path("load_balance"));
  time_field(f, "flowlet_gap", p.flowlet_gap);
  p.seed = static_cast<uint64_t>(f.integer_or("seed", static_cast<int64_t>(p.seed), 0));
  // The range is checked here, before narrowing to int; validate() checks it again (for PacketParams
  // filled in code) and the classes' share of port_buffer.
  const int64_t classes = f.integer_or("traffic_classes", p.traffic_classes, std::numeric_limits<int32_t>::min());
  if (classes > 8 || classes < 1)
    f.fail("traffic_classes", "must be 1 to 8, got " + std::to_string(classes),
           "1 is one queue per port (the default); RoCE deployments use 2 or 3 (RDMA, CNPs, other traffic), up to 8 priorities");
  p.traffic_classes = static_cast<int>(classes);
  if (f.has("class_scheduling"))
    p.class_scheduling = parse_class_scheduling(f.string_or("class_scheduling", ""), f.where("class_scheduling"),
                                                f.key_path("class_scheduling"));

  if (f.has("ecn")) {
    const YamlFields e(f.get("ecn"), file, f.key_path("ecn"), kEcnKeys);
    size_field(e, "kmin", p.ecn.kmin);
    size_field(e, "kmax", p.ecn.kmax);
    p.ecn.pmax = e.number_or("pmax", p.ecn.pmax, 0.0);
  }
  if (f.has("pfc")) {
    const YamlFields e(f.get("pfc"), file, f.key_path("pfc"), kPfcKeys);
    size_field(e, "xoff", p.pfc.xoff);
    size_field(e, "xon", p.pfc.xon);
    size_field(e, "headroom", p.pfc.headroom);
  }
  // Every scheme's block is read whichever scheme runs (a lossy flow runs TCP under any of them).
  for (const CongestionControl* scheme : congestion_control_blocks()) {
    const std::string name = scheme->block();
    if (!f.has(name)) continue;
    const YamlFields e(f.get(name), file, f.key_path(name), scheme->keys());
    scheme->parse(e, p.cc);
  }

  // validate() names a key relative to the block ("pfc.xon"); report it where that key is written,
  // or at the block when the offending value is a default.
  try {
    p.validate(f.where());
  } catch (const InputError& e) {
    throw InputError(key_location(block, e.key(), file), path.empty() ? e.key() : path + "." + e.key(), e.message(),
                     e.hint());
  }
  return p;
}

}  // namespace gf
