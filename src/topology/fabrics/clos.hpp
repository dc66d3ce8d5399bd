// The folded Clos shared by leaf_spine, fat_tree and rail_optimized: one planner decides the
// tiers and switch counts from the radix and the oversubscription; count() and build() both walk
// the same plan, so they cannot disagree.
//
// Shape of a plan (per plane; planes replicate it):
//   leaves  `columns` x `leaves_per_column`. A rail-optimized fabric has one column per rail (NIC
//           r of server s goes to leaf s / down of rail r); the others have one column that NICs
//           fill in server-then-rail order.
//   2 tiers every leaf spreads its `up` uplinks evenly over all `spines` (up / spines cables each,
//           each its own link, so the ECMP hash picks a cable, topology/bundle.hpp).
//   3 tiers pods of `leaves_per_pod_column` leaves per column share `spines_per_pod` pod spines;
//           pod spine j of every pod spreads its uplinks evenly over the `cores_per_group` cores of
//           core group j (the k-ary fat-tree of Al-Fares et al., SIGCOMM 2008, when o = 1 and
//           the design is full: k pods, k/2 edge + k/2 aggregation per pod, (k/2)^2 cores).
// A plan whose NICs all fit on one leaf is that leaf alone (tiers = 1).
#pragma once

#include <string>
#include <vector>

#include "topology/fabrics/fabric_common.hpp"

namespace gf {

struct ClosStyle {
  std::string kind;           // registry name, for messages
  bool rail_aligned = false;  // one column of leaves per rail
  int max_tiers = 3;          // leaf_spine: 2
};

struct ClosPlan {
  ResolvedSwitch sw;      // sw.radix: the leaves' ports
  int spine_radix = 0;    // ports of the switches above the leaves (FabricSpec::spine_radix or sw.radix)
  TechId nic_link = 0;
  std::string nic_link_name;
  int planes = 1;
  int64_t columns = 1;    // rails (rail-aligned) or 1
  int64_t positions = 0;  // NICs per column: servers (rail-aligned) or all NICs of a plane
  int tiers = 1;
  PortSplit leaf;         // leaf down/up ports
  PortSplit spine;        // 3 tiers: pod spine down/up ports
  int64_t leaves_per_column = 0;
  int64_t pods = 1;
  int64_t leaves_per_pod_column = 0;  // 3 tiers
  int64_t spines_per_pod = 0;         // 2 tiers: all spines
  int64_t cores_per_group = 0;        // 3 tiers; core groups = spines_per_pod

  int64_t leaves() const { return columns * leaves_per_column; }
  int64_t endpoints() const { return columns * positions; }
};

// Throws InputError (radix, tiers, oversubscription, planes) at spec.where.
ClosPlan plan_clos(const FabricSpec& spec, const FabricShape& shape, const LinkCatalog& cat, const ClosStyle& style);
// Counts of the whole fabric, all planes.
FabricCounts clos_counts(const ClosPlan& plan, const FabricShape& shape);
// Builds every plane. Node::group: leaves = rail (rail-aligned) or pod; pod spines = pod; cores
// and 2-tier spines = plane (pods are numbered across planes: plane x pods + pod).
void build_clos(const ClosPlan& plan, const FabricShape& shape, const std::vector<FabricEndpoint>& eps,
                bool leaf_group_is_rail, Cluster& cluster);

// A FabricBuilder made of a ClosStyle and the words `gpufabric list` prints.
class ClosFabric final : public FabricBuilder {
 public:
  ClosFabric(ClosStyle style, std::string description, std::string source)
      : style_(std::move(style)), description_(std::move(description)), source_(std::move(source)) {}
  std::string name() const override { return style_.kind; }
  std::string description() const override { return description_; }
  std::string source() const override { return source_; }
  FabricCounts count(const FabricSpec& spec, const FabricShape& shape, const LinkCatalog& cat) const override {
    return clos_counts(plan_clos(spec, shape, cat, style_), shape);
  }
  void build(const FabricSpec& spec, const FabricShape& shape, const std::vector<FabricEndpoint>& eps,
             Cluster& cluster) const override {
    build_clos(plan_clos(spec, shape, cluster.catalog(), style_), shape, eps, style_.rail_aligned, cluster);
  }

 private:
  ClosStyle style_;
  std::string description_, source_;
};

}  // namespace gf
