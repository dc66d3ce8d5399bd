// A channel's own rate. NCCL's cost model gives each channel of an algorithm's graph a bandwidth of
// its own and the call the sum (NVIDIA/nccl src/graph/tuning.cc ncclTopoTuneModel: busBw =
// graphs[a]->nChannels x bw, bw = the graph's bwIntra on 1-2 servers, else bwInter), and the
// topology search fills a GPU's NVLink/PCIe bandwidth, or a NIC's, with those channels
// (src/graph/search.cc ncclTopoCompute; its maxChannels is MAXCHANNELS / 2 whatever
// NCCL_MAX_NCHANNELS says, src/init.cc). A call that runs fewer channels than its graph has (the
// small-call cut in src/enqueue.cc topoGetAlgoInfo, or NCCL_MAX_NCHANNELS applied afterwards in
// src/graph/connect.cc ncclTopoPostset) keeps that per-channel bandwidth: one channel alone does
// not get the whole link, its SMs and its connection's pipeline move what the graph gave it.
//
// Here: a channel moves at most 1 / G of each link of a leg inside a server (NVLink, xGMI, PCIe:
// every one of the G graph channels crosses every GPU's links), and 1 / min(G, 2) of each link of
// a leg that crosses a NIC (the graph puts 2 of its channels on each NIC:
// collective/algorithm_registry.cpp nccl_search_channels). G is ModelTransfer::channels, which
// the engine sets above 1 only for a call running fewer channels than its graph
// (engine/transfer_routes.cpp); at G = 1 there is no cap. The cap is on wire bytes, so a channel's
// payload rate is the cap x the protocol's efficiency (LL 0.5, LL128 0.92: NCCL's busBw x .5 and x
// .92 for Ring). NCCL's further per-channel maxima per protocol (perChMaxRingLL128Bws,
// perChMaxTreeBws, perChMaxTreeLL128Bws) are not applied.
#pragma once

#include "model/model.hpp"
#include "model/transfer_cost.hpp"

namespace gf {

// Channels of NCCL's graph that share one NIC (nccl_search_channels: 2 per NIC).
constexpr int kGraphChannelsPerNic = 2;

// Wire bytes per second one channel of `t` may move along `path`: the least capacity on the path
// over the graph channels sharing it; +infinity when t.channels <= 1.
double channel_wire_cap(const TransferCost& cost, const ModelTransfer& t, const Path& path);
// The same for a flow that knows only its graph's channel count.
double channel_wire_cap(const TransferCost& cost, int graph_channels, const Path& path);

}  // namespace gf
