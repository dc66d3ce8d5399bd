// How NCCL spreads a group of point-to-point sends (an all-to-all is one ncclSend/ncclRecv per
// peer) over its channels: each peer pair gets only a few "parts", each on its own channel, where
// a collective splits every transfer over all of its channels. Which channels and how many
// decide which NIC and which ECMP path a pair's bytes take, so they decide what hash collisions an
// all-to-all meets, and they keep the schedule at n(n-1) x parts transfers instead of
// n(n-1) x channels (4.2 million at 512 ranks and 16 channels).
#pragma once

#include "collective/communicator.hpp"

namespace gf {

// Channels (parts) NCCL gives each peer pair of an all-to-all on `comm` when `channels` p2p
// channels exist: NCCL 2.21-2.28's ncclTopoGetNchannels and ncclTopoComputeP2pChannels
// (src/graph/paths.cc). A network peer starts at 2, halved while 2 x nranks > 4 x channels ("avoid
// overloading channels with 8+ operations"), but never below the NICs a GPU needs; peers inside
// the server (NVLink: 2 x its lanes; PCIe: 2) take the minimum with it; the result is rounded up
// to a power of 2 and capped at `channels`. A communicator inside one scale-up domain has only
// NVLink peers and gets every channel.
int p2p_parts_per_peer(const Communicator& comm, int channels);

// The channel that carries part `part` (0 <= part < parts) of the pair whose receiver is `round`
// ranks after its sender: consecutive rounds take consecutive channel groups, so a sender's peers
// cycle over every channel (and, through transfer_routes' channel-to-NIC rule, over its NICs) as
// NCCL's p2p schedule cycles rounds over channels. NCCL's own order (bit-reversed bases per round)
// differs; only the even spread is modelled.
int p2p_channel(int round, int part, int parts, int channels);

}  // namespace gf
