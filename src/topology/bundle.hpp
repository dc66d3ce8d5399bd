// Parallel cables between the same two nodes (a bundle, e.g. 8 cables from a leaf to a spine):
// each cable is its own link in the graph, so the ECMP hash picks one cable as a switch does, and
// the link tables group them back into one row ("leaf0 -> spine3  4 x ib-ndr 50 GB/s").
//
// The builders add a bundle's cables one after another (Cluster::connect adds a pair per call),
// so the links of one direction of a bundle are l, l + 2, l + 4, ...: found by walking link ids
// two at a time from any member while the ends match. Cables taken down (Cluster::take_down)
// stay members, so "#k" names the same cable before and after a failure.
#pragma once

#include <string>
#include <vector>

#include "topology/cluster.hpp"

namespace gf {

// Every link from l's source to l's destination in its bundle, in link-id order (l included).
std::vector<LinkId> bundle_links(const Cluster& c, LinkId l);

struct BundlePlace {
  int cable = 1;   // 1-based position in the bundle (the "#k" of leaf0-spine0#k)
  int cables = 1;  // cables in the bundle
};
BundlePlace bundle_place(const Cluster& c, LinkId l);

// "#k" naming the cable when its bundle has more than one, else "".
std::string cable_suffix(const Cluster& c, LinkId l);

}  // namespace gf
