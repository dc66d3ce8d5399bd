// 2D or 3D torus of servers, no switches (Google TPU pods: each chip cabled to six neighbours in
// 3D). A server's NICs are its torus ports: rail r serves direction r % (2 x dims), directions
// ordered +x, -x, +y, -y, +z, -z; the j-th +k NIC of a server is cabled to the j-th -k NIC of
// its +k neighbour, so several NICs on one direction are parallel links. NICs left without a
// partner (more on +k than on -k) stay uncabled. A dimension of size 2 has one neighbour both
// ways: one cable set between the pair, not two; a dimension of size 1 has none.
// Traffic passing through a server is forwarded by that server's torus router (the chip's ICI
// router on a TPU), one fabric node per server joined on-chip to each of the server's ports:
// GPUs themselves never forward, so the router is what lets a route cross several servers.
#include <algorithm>
#include <cmath>
#include <limits>

#include "topology/fabrics/fabric_common.hpp"
#include "topology/fabrics/fabrics.hpp"

namespace gf {
namespace {

std::string str(int64_t v) { return std::to_string(v); }

// The factorization of n into 2 or 3 sides of at least 2 (what torus_dims accepts) with the
// smallest largest side, preferring 3 sides: a suggestion for the hint. "" when n has none (n
// prime, or below 4).
std::string near_cube(int64_t n) {
  int64_t best[3] = {0, 0, 0};
  for (int64_t a = 2; a * a * a <= n; ++a) {
    if (n % a != 0) continue;
    for (int64_t b = a; a * b * b <= n; ++b)
      if ((n / a) % b == 0 && (best[0] == 0 || n / a / b < best[2])) best[0] = a, best[1] = b, best[2] = n / a / b;
  }
  if (best[0] != 0) return "[" + str(best[0]) + ", " + str(best[1]) + ", " + str(best[2]) + "]";
  for (int64_t a = static_cast<int64_t>(std::sqrt(static_cast<double>(n))); a >= 2; --a)
    if (n % a == 0) return "[" + str(a) + ", " + str(n / a) + "]";
  return "";
}

struct TorusPlan {
  std::vector<int64_t> dims, stride;
  std::vector<std::vector<int>> plus, minus;  // per dimension: rails facing +k and -k
  std::vector<int64_t> pairs;                 // per dimension: cables to the +k neighbour

  int64_t cables(size_t k, int64_t servers) const {
    // Size >= 3: every server cables to its +k neighbour; size 2: half of them; size 1: none.
    int64_t n = dims[k];
    return (n >= 3 ? servers : n == 2 ? servers / 2 : 0) * pairs[k];
  }
};

TorusPlan plan_torus(const FabricSpec& spec, const FabricShape& shape) {
  require_one_plane(spec, "torus");
  const auto& dims = spec.torus_dims;
  auto example = [&] {
    const std::string dims = near_cube(shape.servers);
    if (!dims.empty()) return "torus_dims: " + dims;
    int64_t more = shape.servers + 1;  // the next server count a torus can take
    while (near_cube(more).empty()) ++more;
    return "no torus of 2 or 3 sides of at least 2 has " + str(shape.servers) + " servers; with " + str(more) +
           ", torus_dims: " + near_cube(more);
  };
  if (dims.size() != 2 && dims.size() != 3)
    throw InputError(spec.where, "fabric.torus_dims",
                     "a torus needs 2 or 3 dimensions, got " + str(static_cast<int64_t>(dims.size())),
                     "for example " + example());
  TorusPlan p;
  int64_t product = 1;
  for (int d : dims) {
    if (d < 1) throw InputError(spec.where, "fabric.torus_dims", "a dimension must be at least 1, got " + str(d), "write one positive size per dimension, e.g. [4, 4]");
    // Saturates instead of overflowing: three int dimensions can exceed int64.
    product = product > std::numeric_limits<int64_t>::max() / d ? std::numeric_limits<int64_t>::max() : product * d;
    p.stride.push_back(p.dims.empty() ? 1 : p.stride.back() * p.dims.back());
    p.dims.push_back(d);
  }
  if (product != shape.servers) {
    std::string shown;
    for (int d : dims) shown += (shown.empty() ? "" : " x ") + str(d);
    throw InputError(spec.where, "fabric.torus_dims",
                     "torus_dims " + shown + " = " + str(product) + " servers, but the cluster has " +
                         str(shape.servers),
                     "make the product equal the server count, for example " + example());
  }
  const int D = static_cast<int>(dims.size());
  p.plus.resize(D), p.minus.resize(D);
  for (int r = 0; r < shape.nics_per_server; ++r) {
    int dir = r % (2 * D);
    (dir % 2 == 0 ? p.plus : p.minus)[dir / 2].push_back(r);
  }
  for (int k = 0; k < D; ++k) {
    p.pairs.push_back(static_cast<int64_t>(std::min(p.plus[k].size(), p.minus[k].size())));
    if (p.dims[k] >= 2 && p.pairs[k] == 0)
      throw InputError(spec.where, "fabric.torus_dims",
                       "a " + str(D) + "D torus needs a NIC for each of its " + str(2 * D) +
                           " directions (rail r faces direction r % " + str(2 * D) + "), but servers have " +
                           str(shape.nics_per_server),
                       "use fewer dimensions or servers with at least " + str(2 * D) + " NICs");
  }
  return p;
}

class Torus final : public FabricBuilder {
 public:
  std::string name() const override { return "torus"; }
  std::string description() const override {
    return "2D/3D torus of servers, NICs cabled to neighbours (no switches; TPU-pod style)";
  }
  std::string source() const override {
    return "seed 001 (3D torus, Google TPU pods); N. Jouppi et al., TPU v4, ISCA 2023";
  }

  FabricCounts count(const FabricSpec& spec, const FabricShape& shape, const LinkCatalog& cat) const override {
    TorusPlan p = plan_torus(spec, shape);
    nic_tech(shape, cat, spec);
    const int64_t n = shape.servers;
    FabricCounts c;
    const int64_t nics = shape.nics_per_server;
    c.tiers.push_back({"router", n, static_cast<int>(nics), n * nics, 1.0});
    int64_t cables = 0;
    double cut = -1;  // cables across the cheapest balanced cut
    for (size_t k = 0; k < p.dims.size(); ++k) {
      cables += p.cables(k, n);
      c.max_server_hops += static_cast<int>(p.dims[k] / 2);
      if (p.dims[k] < 2) continue;
      // Halving the torus across dimension k cuts every ring of that dimension twice (once when
      // its size is 2): (n / size_k) rings x pairs_k cables each time. The longest dimension
      // gives the smallest cut.
      double across = static_cast<double>((p.dims[k] >= 3 ? 2 : 1) * (n / p.dims[k]) * p.pairs[k]);
      if (cut < 0 || across < cut) cut = across;
    }
    c.cables.push_back({shape.nic_tech, "nic-nic", cables});
    c.cables.push_back({shape.nic_tech, "nic-router", n * nics});
    c.ports_per_endpoint = 1;
    c.bisection = shape.nic_bandwidth * std::max(0.0, cut);
    c.max_switch_hops = 0;
    c.links_directed = 2 * (cables + n * nics);
    return c;
  }

  void build(const FabricSpec& spec, const FabricShape& shape, const std::vector<FabricEndpoint>& eps,
             Cluster& cluster) const override {
    TorusPlan p = plan_torus(spec, shape);
    const TechId tech = nic_tech(shape, cluster.catalog(), spec);
    const int64_t nics = shape.nics_per_server;
    // Position of each rail within a server's endpoints (rails normalized to 0..n-1).
    const auto ordered = split_planes(eps, static_cast<int>(nics), 1)[0];
    std::vector<int64_t> pos(static_cast<size_t>(nics));
    for (int64_t i = 0; i < nics; ++i) pos[static_cast<size_t>(ordered[static_cast<size_t>(i)].rail)] = i;
    auto ep = [&](int64_t server, int rail) -> const FabricEndpoint& {
      return eps[static_cast<size_t>(server * nics + pos[rail])];
    };
    for (int64_t s = 0; s < shape.servers; ++s) {
      NodeId router = cluster.add_fabric_node(NodeKind::Switch, 1, static_cast<int>(s), "torus-router" + str(s));
      for (int64_t i = 0; i < nics; ++i) {
        const FabricEndpoint& e = eps[static_cast<size_t>(s * nics + i)];
        cluster.connect(e.nic, router, port_tech(e, tech));
      }
    }
    for (int64_t s = 0; s < shape.servers; ++s)
      for (size_t k = 0; k < p.dims.size(); ++k) {
        const int64_t size = p.dims[k], ck = s / p.stride[k] % size;
        if (size < 2 || (size == 2 && ck == 1)) continue;
        const int64_t t = s + ((ck + 1) % size - ck) * p.stride[k];
        for (int64_t j = 0; j < p.pairs[k]; ++j) {
          const FabricEndpoint& a = ep(s, p.plus[k][static_cast<size_t>(j)]);
          const FabricEndpoint& b = ep(t, p.minus[k][static_cast<size_t>(j)]);
          cluster.connect(a.nic, b.nic, slower_tech(cluster.catalog(), port_tech(a, tech), port_tech(b, tech)));
        }
      }
  }
};

}  // namespace

std::unique_ptr<FabricBuilder> make_torus_fabric() { return std::make_unique<Torus>(); }

}  // namespace gf
