// Links the flow model can leave out of the max-min problem because another link's constraint
// implies theirs (issue 4, "Speed": every flow of the SimGrid peer's ring crosses its host's
// GPU -> NIC and NIC -> GPU joins, which never limit anything but cost the solver a resource each).
//
// The rule. Link L's constraint is (sum of the rates of the flows crossing L) <= capacity(L). If
// every flow crossing L also crosses a link M with capacity(M) < capacity(L), then that sum is at
// most M's sum, which is at most capacity(M) < capacity(L): L's constraint holds in every feasible
// point of the others, the feasible set is the same without it, and so is the max-min fair point.
//
// Why no rate changes even by a rounding step. In progressive filling (MaxMinSolver::fill) L's
// level is remaining(L) / weight(L). With users(L) a subset of users(M): weight(L) <= weight(M)
// exactly (the flow model's weights are whole numbers), and remaining(L) >= remaining(M) + (the
// capacity gap, less rounding): both start at their capacities and every fix subtracts the same
// rates from both in the same order, M alone losing more (floating subtraction is monotone). So L's
// level stays strictly above M's (`kMargin` keeps the gap far above rounding), L is never the
// resource that runs out first, and by the time M runs out it has fixed every user of L. Filling
// pops the same resources at the same levels with or without L. A variable alone on its resources
// gets its tightest capacity, which L (above M) never is. Components can only split where L alone
// joined them, and it cannot: L's users all meet at M.
//
// Which M (`implied_link_covers`). A path enters node v by L = (u -> v) and, unless it ends at v,
// leaves by one of v's out-links other than L's reverse (paths do not turn back); when v has just
// one such out-link, that link is M (a NIC: in from its PCIe side, out to its network port).
// Likewise a path crossing L left u's in-links: when u has one in-link besides L's reverse, that
// link is M (a NIC's network port, then its link down to the GPU). A path that starts or ends at
// u or v breaks the claim, and the model cannot know in advance which paths it will be given, so
// FlowModel checks every leg: a leg on L that does not also cross M puts L back into the problem
// for good, for every flow on it (it was implied until then, so no rate computed so far is wrong).
//
// Chains are fine: if L is implied by M and M by K, every flow on L crosses K and capacity(K) <
// capacity(L); leaving both out leaves K, whose constraint implies both.
#pragma once

#include <vector>

#include "model/transfer_cost.hpp"
#include "topology/cluster.hpp"

namespace gf {

// Relative gap capacity(M) must stay below capacity(L): rounding in the solver's remaining
// capacities is a few ulps (1e-16 relative) per flow fixed; 1e-6 is far above any run's sum.
inline constexpr double kImpliedLinkMargin = 1e-6;

// For every link L, the link M whose constraint implies L's when every flow on L crosses M
// (see above), or -1 when there is none. Capacities are `cost`'s, the solver's own.
std::vector<LinkId> implied_link_covers(const Cluster& cluster, const TransferCost& cost);

}  // namespace gf
