#include "nccl/nccl_env.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <optional>

#include "collective/algorithm.hpp"
#include "core/error.hpp"
#include "core/text.hpp"
#include "topology/ib_hca.hpp"
#include "topology/transport_env.hpp"

extern char** environ;

namespace gf {

namespace {

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == ',') {
      out.push_back(cur);
      cur.clear();
    } else if (!std::isspace(static_cast<unsigned char>(c))) {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

// NCCL_ALGO names (tuning.cc ncclAlgoStr, case-insensitive) to registry names; "collnet" is
// both CollNet algorithms, as older NCCL releases spelled them. Registry names are accepted too.
std::vector<std::string> algorithms_named(const std::string& word) {
  static const std::map<std::string, std::vector<std::string>> kNccl = {
      {"tree", {"tree"}},         {"ring", {"ring"}},
      {"collnetdirect", {"collnet_direct"}}, {"collnetchain", {"collnet_chain"}},
      {"collnet", {"collnet_direct", "collnet_chain"}}, {"nvls", {"nvls"}},
      {"nvlstree", {"nvlstree"}}, {"pat", {"pat"}}};
  const std::string w = ascii_lower(word);
  if (auto it = kNccl.find(w); it != kNccl.end()) return it->second;
  if (find_algorithm(w)) return {w};
  return {};
}

// A comma-separated list, optionally behind '^' (everything but the list), over `all`.
template <typename T, typename Lookup>
std::vector<T> selection(const std::string& key, const std::string& value, const std::string& where,
                         const std::vector<T>& all, const std::vector<std::string>& names, Lookup lookup) {
  const bool exclude = !value.empty() && value[0] == '^';
  std::vector<T> listed;
  for (const std::string& word : split(exclude ? value.substr(1) : value)) {
    std::vector<T> found = lookup(word);
    if (found.empty())
      throw InputError({where, 0, 0}, key, "'" + word + "' is not " + (key == "NCCL_ALGO" ? "an algorithm" : "a protocol"),
                       suggest(ascii_lower(word), names));
    for (const T& t : found)
      if (std::find(listed.begin(), listed.end(), t) == listed.end()) listed.push_back(t);
  }
  if (!exclude) return listed;
  std::vector<T> kept;
  for (const T& t : all)
    if (std::find(listed.begin(), listed.end(), t) == listed.end()) kept.push_back(t);
  if (kept.empty())
    throw InputError({where, 0, 0}, key, "'" + value + "' excludes every choice", "exclude fewer, or drop the '^'");
  return kept;
}

int channel_count(const std::string& key, const std::string& value, const std::string& where) {
  char* end = nullptr;
  const long v = std::strtol(value.c_str(), &end, 10);
  // NCCL's MAXCHANNELS is 64 (src/include/device.h).
  if (value.empty() || *end != '\0' || v < 1 || v > 64)
    throw InputError({where, 0, 0}, key, "'" + value + "' is not a channel count from 1 to 64", "e.g. " + key + "=16");
  return static_cast<int>(v);
}

bool flag(const std::string& key, const std::string& value, const std::string& where, const std::vector<std::string>& ok) {
  if (std::find(ok.begin(), ok.end(), value) == ok.end())
    throw InputError({where, 0, 0}, key, "'" + value + "' is not a valid value", "use " + key + "=0 or " + key + "=1");
  return value != "0";
}

int queue_pairs_value(const std::string& value, const std::string& where) {
  char* end = nullptr;
  const long v = std::strtol(value.c_str(), &end, 10);
  // NCCL_IB_MAX_QPS is 128 (src/transport/net_ib/common.h).
  if (value.empty() || *end != '\0' || v < 1 || v > 128)
    throw InputError({where, 0, 0}, "NCCL_IB_QPS_PER_CONNECTION", "'" + value + "' is not a queue pair count from 1 to 128",
                     "e.g. NCCL_IB_QPS_PER_CONNECTION=4 (NCCL's default is 1)");
  return static_cast<int>(v);
}

int cross_nic_value(const std::string& value, const std::string& where) {
  if (value != "0" && value != "1" && value != "2")
    throw InputError({where, 0, 0}, "NCCL_CROSS_NIC", "'" + value + "' is not a valid value",
                     "use NCCL_CROSS_NIC=0 (rings keep to one rail), 1 (rings may change rails) or 2 (NCCL's default)");
  return value[0] - '0';
}

}  // namespace

NcclSettings nccl_settings(const std::string& algo, const std::string& proto) {
  NcclSettings s;
  if (algo != "auto") s.algorithms = {algo};
  if (proto != "auto") {
    const std::optional<Protocol> p = parse_protocol(proto);
    if (!p) throw InputError({}, "--proto", "unknown protocol '" + proto + "'", suggest(proto, {"auto", "ll", "ll128", "simple"}));
    s.protocols = {*p};
  }
  return s;
}

NcclSettings with_forced(NcclSettings s, const std::string& algo, const std::string& proto) {
  const NcclSettings flags = nccl_settings(algo, proto);
  if (!flags.algorithms.empty()) {
    s.algorithms = flags.algorithms;
    s.algo_key = flags.algo_key;
  }
  if (!flags.protocols.empty()) {
    s.protocols = flags.protocols;
    s.proto_key = flags.proto_key;
  }
  return s;
}

void apply_nccl_env(NcclSettings& s, const std::vector<std::pair<std::string, std::string>>& vars,
                    const std::string& where, bool algo_flag_given, bool proto_flag_given) {
  const std::vector<std::string> names = algorithm_names();
  const std::vector<Protocol> protos = {Protocol::LL, Protocol::LL128, Protocol::Simple};
  for (const auto& [key, value] : vars) {
    if (key.rfind("NCCL_", 0) != 0) continue;
    const std::string said = key + "=" + value;
    if (key == "NCCL_ALGO") {
      if (algo_flag_given) {
        s.ignored.push_back(said + " (--algo given on the command line wins)");
        continue;
      }
      s.algorithms = selection<std::string>(key, value, where, names, names, algorithms_named);
      s.algo_key = key;
    } else if (key == "NCCL_PROTO") {
      if (proto_flag_given) {
        s.ignored.push_back(said + " (--proto given on the command line wins)");
        continue;
      }
      s.protocols = selection<Protocol>(key, value, where, protos, {"ll", "ll128", "simple"}, [](const std::string& w) {
        std::vector<Protocol> v;
        if (auto p = parse_protocol(w)) v.push_back(*p);
        return v;
      });
      s.proto_key = key;
    } else if (key == "NCCL_COLLNET_ENABLE") {
      s.collnet = flag(key, value, where, {"0", "1"});
    } else if (key == "NCCL_NVLS_ENABLE") {
      s.nvls = flag(key, value, where, {"0", "1", "2"});
    } else if (key == "NCCL_IB_HCA") {
      parse_ib_hca(value, where);  // its syntax now; which NICs it keeps when the cluster is loaded
      s.ib_hca = value;
      s.ib_hca_where = where;
      continue;  // listed with its NICs by ib_hca_line
    } else if (key == "NCCL_P2P_DISABLE") {
      s.p2p_disabled = flag(key, value, where, {"0", "1"});
    } else if (key == "NCCL_P2P_LEVEL") {
      s.p2p_level = parse_path_type(value);
      if (!s.p2p_level)
        throw InputError({where, 0, 0}, key, "'" + value + "' is not a P2P level",
                         "use LOC, NVL, PIX, PXB, PHB or SYS (NCCL's path types, upper case), e.g. NCCL_P2P_LEVEL=PXB");
    } else if (key == "NCCL_SHM_DISABLE") {
      s.shm_disabled = flag(key, value, where, {"0", "1"});
    } else if (key == "NCCL_NET_GDR_LEVEL") {
      s.net.gdr_level = parse_gdr_level(value);
      if (!s.net.gdr_level)
        throw InputError({where, 0, 0}, key, "'" + value + "' is not a GDR level",
                         "use LOC, NVL, NVB, C2C, PIX, PXB, P2C, PXN, PHB or SYS (NCCL's path types, upper case), "
                         "e.g. NCCL_NET_GDR_LEVEL=PHB");
    } else if (key == "NCCL_NET") {
      // NCCL matches the name without case against its transports (src/net.cc); IB and Socket are
      // its built-in ones (net_ib.cc, net_socket.cc); plugins (aws-ofi-nccl, TCPX) are the cluster's.
      const std::string v = ascii_lower(value);
      if (v != "ib" && v != "socket")
        throw InputError({where, 0, 0}, key, "'" + value + "' is not a network transport gpufabric models",
                         "use NCCL_NET=IB (verbs: InfiniBand or RoCE) or NCCL_NET=Socket (TCP over the same NICs)");
      s.net.socket = v == "socket";
      s.net_ib = v == "ib";  // checked against the NICs where the cluster is loaded
      s.net_where = where;
    } else if (key == "NCCL_PXN_DISABLE") {
      s.net.pxn_disabled = flag(key, value, where, {"0", "1"});
    } else if (key == "NCCL_CROSS_NIC") {
      s.net.cross_nic = cross_nic_value(value, where);
      s.net.cross_nic_set = true;
    } else if (key == "NCCL_IB_QPS_PER_CONNECTION") {
      s.net.ib_qps = queue_pairs_value(value, where);
      s.net.ib_qps_set = true;
    } else if (key == "NCCL_IB_SPLIT_DATA_ON_QPS") {
      // Said, not modelled apart: a connection's bytes are split evenly over its QPs either way
      // (engine/queue_pairs.hpp).
      s.net.ib_split_data = flag(key, value, where, {"0", "1"}) ? 1 : 0;
    } else if (key == "NCCL_MIN_NCHANNELS") {
      s.min_channels = channel_count(key, value, where);
    } else if (key == "NCCL_MAX_NCHANNELS") {
      s.max_channels = channel_count(key, value, where);
    } else {
      s.ignored.push_back(said + " (not used by gpufabric's models)");
      continue;
    }
    s.applied.push_back(said);
  }
  if (s.min_channels > 0 && s.max_channels > 0 && s.min_channels > s.max_channels)
    throw InputError({where, 0, 0}, "NCCL_MIN_NCHANNELS",
                     "NCCL_MIN_NCHANNELS=" + std::to_string(s.min_channels) + " is above NCCL_MAX_NCHANNELS=" +
                         std::to_string(s.max_channels),
                     "make the minimum at most the maximum");
}

std::vector<std::pair<std::string, std::string>> nccl_vars_from_environment() {
  std::vector<std::pair<std::string, std::string>> out;
  for (char** e = environ; e && *e; ++e) {
    const std::string kv = *e;
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || kv.rfind("NCCL_", 0) != 0) continue;
    out.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<PathType> p2p_level_of(const NcclSettings& s) {
  if (s.p2p_disabled) return PathType::Loc;
  return s.p2p_level;
}

void apply_transport_env(TransportSettings& t, const NcclSettings& s) {
  apply_transport_vars(t, p2p_level_of(s), s.shm_disabled, s.net);
}

bool changes_cluster(const NcclSettings& s) {
  return !s.ib_hca.empty() || s.p2p_disabled || s.p2p_level.has_value() || s.shm_disabled || s.net.any();
}

std::string ib_hca_line(const NcclSettings& s, const ServerTemplate& server) {
  if (s.ib_hca.empty()) return "";
  int used = 0, all = 0;
  std::string out;
  for (const ServerNode& n : server.nodes) {
    if (!n.compute_nic()) continue;
    ++all;
    if (n.nccl_excluded) out += (out.empty() ? "" : ", ") + ib_name(n);
    else ++used;
  }
  return "NCCL_IB_HCA=" + s.ib_hca + " (" + std::to_string(used) + " of " + std::to_string(all) +
         " compute NICs per server" + (out.empty() ? "" : "; not used: " + out) + ")";
}

std::string transport_line(const ServerTemplate& server, int p2p_pairs, int shm_pairs, int net_pairs) {
  const TransportSettings& t = server.transport;
  const bool user_set = t.p2p_level_set || !t.shm || !t.p2p_capable;
  if (shm_pairs == 0 && net_pairs == 0 && !user_set) return "";
  std::string why;
  if (!t.p2p_capable) why = "the server's GPUs have no P2P (`p2p: false`)";
  else if (t.p2p_level == PathType::Loc)
    why = "P2P off (NCCL_P2P_DISABLE=1 or NCCL_P2P_LEVEL=LOC)";
  else
    why = std::string("P2P up to ") + path_type_name(t.p2p_level) +
          (t.p2p_level_set ? " (NCCL_P2P_LEVEL)" : " (NCCL's default)");
  if (!t.shm) why += "; SHM off (NCCL_SHM_DISABLE=1)";
  std::string counts;
  const auto add = [&](int n, const char* what) {
    if (n > 0) counts += (counts.empty() ? "" : ", ") + std::to_string(n) + " " + what;
  };
  add(p2p_pairs, "P2P");
  add(shm_pairs, "SHM through host memory");
  add(net_pairs, "NET through the NICs");
  return "transport in a server: GPU pairs " + counts + "; " + why;
}

std::string net_transport_line(const NetTransportSettings& n, int gpus, int staged, int path) {
  if (!n.any()) return "";
  // Without NCCL_NET=Socket the transport is the NICs' own (IB verbs on InfiniBand and RoCE, a
  // plugin on EFA or TCPX), as the cluster's technologies say.
  std::string line = n.socket ? "network transport Socket (TCP over the same NICs, NCCL_NET=Socket)"
                              : "network transport the NICs' own";
  line += "; " + std::to_string(staged) + " of " + std::to_string(gpus) + " GPUs per server stage through host memory";
  line += std::string(" (GPU to NIC path ") + nccl_path_name(path);
  if (n.socket) line += ", sockets take host memory only";
  else if (staged > 0) line += std::string(" > NCCL_NET_GDR_LEVEL ") + nccl_path_name(n.gdr());
  else line += std::string(", GPUDirect RDMA up to ") + nccl_path_name(n.gdr());
  line += ")";
  if (n.pxn_disabled) line += "; PXN off: sends leave through the sender's own NIC";
  if (n.ib_qps_set)
    line += "; " + std::to_string(n.ib_qps) + (n.ib_qps == 1 ? " queue pair" : " queue pairs") +
            " per IB/RoCE connection, each its own ECMP flow (NCCL_IB_QPS_PER_CONNECTION)";
  if (n.ib_split_data >= 0)
    line += n.ib_split_data == 1 ? "; each request split over the queue pairs (NCCL_IB_SPLIT_DATA_ON_QPS=1)"
                                 : "; requests take the queue pairs in turn (NCCL_IB_SPLIT_DATA_ON_QPS=0)";
  if (n.cross_nic_set)
    line += n.cross_nic == 1 ? "; rings may change rails between servers (NCCL_CROSS_NIC=1)"
                             : "; rings keep to one rail between servers (NCCL_CROSS_NIC=" + std::to_string(n.cross_nic) + ")";
  return line;
}

std::string in_network_line(const NcclSettings& s) {
  std::string line = s.nvls ? "NVLS on where the NVSwitches reduce (NCCL's default)"
                            : "NVLS off (NCCL_NVLS_ENABLE=0)";
  line += s.collnet ? "; CollNet (SHARP) on where the network switches reduce (NCCL_COLLNET_ENABLE=1)"
                    : "; CollNet (SHARP) off (NCCL_COLLNET_ENABLE=0, NCCL's default; --env NCCL_COLLNET_ENABLE=1 to use it)";
  return line;
}

}  // namespace gf
