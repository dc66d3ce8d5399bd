#include "topology/bundle.hpp"

namespace gf {

namespace {

bool same_ends(const Cluster& c, LinkId a, LinkId b) {
  const Link &x = c.link(a), &y = c.link(b);
  return x.src == y.src && x.dst == y.dst;
}

}  // namespace

std::vector<LinkId> bundle_links(const Cluster& c, LinkId l) {
  const auto n = static_cast<LinkId>(c.links().size());
  LinkId first = l;
  while (first >= 2 && same_ends(c, first - 2, l)) first -= 2;
  std::vector<LinkId> out;
  for (LinkId k = first; k < n && same_ends(c, k, l); k += 2) out.push_back(k);
  return out;
}

BundlePlace bundle_place(const Cluster& c, LinkId l) {
  const std::vector<LinkId> b = bundle_links(c, l);
  BundlePlace p;
  p.cables = static_cast<int>(b.size());
  for (size_t i = 0; i < b.size(); ++i)
    if (b[i] == l) p.cable = static_cast<int>(i) + 1;
  return p;
}

std::string cable_suffix(const Cluster& c, LinkId l) {
  const BundlePlace p = bundle_place(c, l);
  return p.cables > 1 ? "#" + std::to_string(p.cable) : std::string();
}

}  // namespace gf
