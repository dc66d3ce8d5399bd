// NCCL_IB_QPS_PER_CONNECTION: NCCL's IB transport (InfiniBand and RoCE verbs) can run each network
// connection over several queue pairs, and every QP is a flow of its own to the fabric's ECMP hash
// (RoCEv2 switches hash the UDP source port, which the NIC derives from the QP). With one QP (NCCL's
// default) a ring's connection stays on the one path its hash picks, so a few connections can stack
// on one uplink; Q QPs put a connection's bytes on Q hashed paths. Sources and NCCL's two ways of
// dividing a connection's requests over its QPs: topology/net_transport.hpp.
//
// Both ways give each QP 1/Q of the connection's bytes: NCCL_IB_SPLIT_DATA_ON_QPS=1 cuts every
// request into Q equal parts; =0 sends request i whole on QP i mod Q, which over a transfer of the
// model's (a run of NCCL steps, each a request) is 1/Q of them per QP. The second differs only for
// a transfer of fewer than Q requests, which the model splits all the same.
#pragma once

#include <functional>

#include "routing/route.hpp"
#include "topology/cluster.hpp"

namespace gf {

// The QPs a connection along `route` runs on: the cluster's NCCL_IB_QPS_PER_CONNECTION where the
// route crosses a link NCCL drives through its IB transport (an InfiniBand or RoCE technology), 1
// otherwise: inside a server, and on EFA, TCP (NCCL's sockets or TCPX) and Gaudi NICs, whose
// transports have no such setting, and under NCCL_NET=Socket.
int connection_queue_pairs(const Cluster& c, const Route& route);

// The route of a connection over `qps` QPs: QP q's route is `route_of(q)` (QP 0's is `first`, so
// one QP is `first` itself), each of its legs with 1/qps of its share. QPs that hash onto the same
// links stay legs of their own: each QP is a flow the fabric shares a link among (a congestion-
// controlled RoCE QP, an InfiniBand QP's credits), so two QPs of one connection on a link take two
// flows' shares of it, as two connections would.
Route over_queue_pairs(Route first, int qps, const std::function<Route(int q)>& route_of);

}  // namespace gf
