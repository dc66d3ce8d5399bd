// Reading the `packet:` block (see packet_yaml.hpp for the schema).
#include "model/packet/packet_yaml.hpp"

#include <limits>

#include "config/yaml_fields.hpp"
#include "core/parse_units.hpp"

namespace gf {
namespace {

const std::vector<std::string> kEcnKeys = {"kmin", "kmax", "pmax"};
const std::vector<std::string> kPfcKeys = {"xoff", "xon", "headroom"};
const std::vector<std::string> kDcqcnKeys = {"g", "initial_alpha", "alpha_timer", "rate_timer", "byte_counter",
                                             "fast_recovery_steps", "rate_ai", "rate_hai", "cnp_interval", "min_rate"};
const std::vector<std::string> kIbCcKeys = {"threshold", "ccti_increase", "ccti_limit", "ccti_min", "ccti_timer", "cct_step", "marking_rate"};
const std::vector<std::string> kTcpKeys = {"init_cwnd", "min_rto", "initial_rto", "max_rto", "dupack_threshold"};
const std::vector<std::string> kPacketKeys = {"mtu", "header", "port_buffer", "shared_buffer", "flow_control",
                                              "congestion_control", "load_balance", "flowlet_gap", "ecn", "pfc",
                                              "dcqcn", "ibcc", "tcp", "seed", "traffic_classes", "class_scheduling"};

void size_field(const YamlFields& f, const std::string& key, Bytes& out) {
  if (!f.has(key)) return;
  const YAML::Node v = f.get(key);
  if (!v.IsScalar()) f.fail(key, "expected a size such as 4096, 64KiB or 32MiB", "write `" + key + ": 64KiB` on one line");
  try {
    out = parse_size(v.Scalar());
  } catch (const UnitError& e) {
    f.fail(key, e.what(), "sizes look like 4096, 64KiB, 32MiB (K, M, G are powers of 1024)");
  }
}

void time_field(const YamlFields& f, const std::string& key, Time& out) {
  if (auto t = f.time(key)) out = *t;
}

void rate_field(const YamlFields& f, const std::string& key, Bandwidth& out) {
  if (auto b = f.bandwidth(key)) out = *b;
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

const std::vector<std::string>& packet_yaml_keys() { return kPacketKeys; }

PacketParams parse_packet_yaml(const YAML::Node& block, const std::string& file, const std::string& path,
                               const PacketParams& defaults) {
  PacketParams p = defaults;
  const YamlFields f(block, file, path, kPacketKeys);
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
  if (f.has("dcqcn")) {
    const YamlFields e(f.get("dcqcn"), file, f.key_path("dcqcn"), kDcqcnKeys);
    p.dcqcn.g = e.number_or("g", p.dcqcn.g, 0.0);
    p.dcqcn.initial_alpha = e.number_or("initial_alpha", p.dcqcn.initial_alpha, 0.0);
    time_field(e, "alpha_timer", p.dcqcn.alpha_timer);
    time_field(e, "rate_timer", p.dcqcn.rate_timer);
    size_field(e, "byte_counter", p.dcqcn.byte_counter);
    p.dcqcn.fast_recovery_steps = static_cast<int>(e.integer_or("fast_recovery_steps", p.dcqcn.fast_recovery_steps, 0));
    rate_field(e, "rate_ai", p.dcqcn.rate_ai);
    rate_field(e, "rate_hai", p.dcqcn.rate_hai);
    time_field(e, "cnp_interval", p.dcqcn.cnp_interval);
    rate_field(e, "min_rate", p.dcqcn.min_rate);
  }
  if (f.has("ibcc")) {
    const YamlFields e(f.get("ibcc"), file, f.key_path("ibcc"), kIbCcKeys);
    size_field(e, "threshold", p.ibcc.threshold);
    p.ibcc.ccti_increase = static_cast<int>(e.integer_or("ccti_increase", p.ibcc.ccti_increase, 1));
    p.ibcc.ccti_limit = static_cast<int>(e.integer_or("ccti_limit", p.ibcc.ccti_limit, 1));
    p.ibcc.ccti_min = static_cast<int>(e.integer_or("ccti_min", p.ibcc.ccti_min, 0));
    time_field(e, "ccti_timer", p.ibcc.ccti_timer);
    p.ibcc.cct_step = e.number_or("cct_step", p.ibcc.cct_step, 0.0);
    p.ibcc.marking_rate = static_cast<int>(e.integer_or("marking_rate", p.ibcc.marking_rate, 0));
  }
  if (f.has("tcp")) {
    const YamlFields e(f.get("tcp"), file, f.key_path("tcp"), kTcpKeys);
    p.tcp.init_cwnd_packets = static_cast<int>(e.integer_or("init_cwnd", p.tcp.init_cwnd_packets, 1));
    time_field(e, "min_rto", p.tcp.min_rto);
    time_field(e, "initial_rto", p.tcp.initial_rto);
    time_field(e, "max_rto", p.tcp.max_rto);
    p.tcp.dupack_threshold = static_cast<int>(e.integer_or("dupack_threshold", p.tcp.dupack_threshold, 1));
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
