#include "model/flow/implied_links.hpp"

namespace gf {

namespace {

// The only out-link of v other than `except`, or -1 when v has none or several.
LinkId sole_out_link(const Cluster& c, NodeId v, LinkId except) {
  LinkId found = -1;
  for (LinkId o : c.out_links(v)) {
    if (o == except) continue;
    if (found >= 0) return -1;
    found = o;
  }
  return found;
}

}  // namespace

std::vector<LinkId> implied_link_covers(const Cluster& cluster, const TransferCost& cost) {
  std::vector<LinkId> cover(cluster.links().size(), -1);
  for (size_t i = 0; i < cover.size(); ++i) {
    const auto l = static_cast<LinkId>(i);
    const Link& link = cluster.link(l);
    const double cap = cost.capacity(l);
    // Next: the path leaves v = link.dst by its one other out-link.
    const LinkId next = sole_out_link(cluster, link.dst, link.reverse);
    // Before: the path came into u = link.src by its one other in-link, the reverse of u's one
    // out-link other than L (every link has a reverse, so u's in-links are its out-links reversed).
    const LinkId out_of_u = sole_out_link(cluster, link.src, l);
    const LinkId before = out_of_u >= 0 ? cluster.link(out_of_u).reverse : -1;
    double best = cap * (1 - kImpliedLinkMargin);
    for (LinkId m : {next, before})
      if (m >= 0 && cost.capacity(m) < best) {
        best = cost.capacity(m);
        cover[i] = m;
      }
  }
  return cover;
}

}  // namespace gf
