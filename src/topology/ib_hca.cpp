#include "topology/ib_hca.hpp"

#include <algorithm>
#include <cctype>

#include "core/error.hpp"

namespace gf {

const std::string& ib_name(const ServerNode& nic) { return nic.label.empty() ? nic.name : nic.label; }

bool IbHcaFilter::matches(const ServerNode& nic) const {
  const std::string& name = ib_name(nic);
  const int port = 1;  // one port per NIC node
  for (const Entry& e : entries) {
    const bool name_ok = exact ? name == e.name : name.compare(0, e.name.size(), e.name) == 0;
    if (name_ok && (e.port < 0 || e.port == port)) return true;
  }
  return false;
}

IbHcaFilter parse_ib_hca(const std::string& value, const std::string& where) {
  IbHcaFilter f;
  size_t i = 0;
  if (i < value.size() && value[i] == '^') f.exclude = true, ++i;
  if (i < value.size() && value[i] == '=') f.exact = true, ++i;
  const std::string list = value.substr(i);
  auto bad = [&](const std::string& why) {
    throw InputError({where, 0, 0}, "NCCL_IB_HCA", "'" + value + "': " + why,
                     "NCCL's form: mlx5 (every name starting so), =mlx5_0:1,mlx5_1:1 (exact names, port 1), "
                     "^=mlx5_4,mlx5_5 (all but these)");
  };
  if (list.empty()) bad("names no NIC");
  size_t start = 0;
  while (start <= list.size()) {
    const size_t comma = list.find(',', start);
    std::string tok = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    start = comma == std::string::npos ? list.size() + 1 : comma + 1;
    IbHcaFilter::Entry e;
    const size_t colon = tok.find(':');
    if (colon != std::string::npos) {
      const std::string port = tok.substr(colon + 1);
      if (port.empty() || port.size() > 3 ||
          !std::all_of(port.begin(), port.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
        bad("'" + tok + "' has a port that is not a number");
      e.port = std::stoi(port);
      tok = tok.substr(0, colon);
    }
    if (tok.empty()) bad("an empty NIC name in the list");
    e.name = tok;
    f.entries.push_back(std::move(e));
  }
  return f;
}

std::vector<std::string> apply_ib_hca(ServerTemplate& server, const std::string& value, bool needs_nics,
                                      const std::string& where) {
  const IbHcaFilter f = parse_ib_hca(value, where);
  std::vector<std::string> out, names;
  int kept = 0;
  for (ServerNode& n : server.nodes) {
    if (!n.compute_nic()) continue;
    names.push_back(ib_name(n));
    n.nccl_excluded = !f.keeps(n);
    if (n.nccl_excluded)
      out.push_back(ib_name(n));
    else
      ++kept;
  }
  if (kept == 0 && needs_nics && !names.empty()) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    throw InputError(
        {where, 0, 0}, "NCCL_IB_HCA",
        "NCCL_IB_HCA=" + value + " leaves server '" + server.name + "' no NIC (its compute NICs: " + list + ")",
        "name some of them, e.g. NCCL_IB_HCA=" + (names.empty() ? std::string("mlx5") : "=" + names.front()));
  }
  return out;
}

}  // namespace gf
