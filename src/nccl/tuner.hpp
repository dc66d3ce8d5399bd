// NCCL-like choice of algorithm, protocol and channel count for one call, from NCCL's published
// cost model (../shared/validation/README.md: base and per-hop latencies, bandwidth caps), the
// communicator's topology and the size. Either may be forced, as NCCL_ALGO / NCCL_PROTO do; a
// forced algorithm that cannot run is an error, while "auto" falls back and says so in `note`.
//
// How candidates are costed: as NCCL costs them, by NCCL's closed form (nccl_estimate.hpp, NCCL
// 2.30.7's tuning model: its latencies, bandwidth caps and channel counts, bandwidths from this
// communicator's topology) at every size; only candidates NCCL lacks (direct, sendrecv) are costed
// by running their schedule on the analytical model.
#pragma once

#include <string>
#include <vector>

#include "collective/algorithm.hpp"
#include "collective/collective.hpp"
#include "collective/communicator.hpp"
#include "core/protocol.hpp"
#include "nccl/nccl_env.hpp"
#include "routing/router.hpp"

namespace gf {

struct TunerChoice {
  std::string algorithm;      // registry name
  Protocol proto = Protocol::Simple;
  int channels = 1;
  Time predicted;             // NCCL-style estimate used to choose (0 when forced or nothing to choose from)
  std::string note;           // e.g. "nvls unavailable: ...; using ring"
};

// One algorithm the choice may take, with the protocols it may run and NCCL's channel count for it.
struct TunerOption {
  std::string algorithm;
  std::vector<Protocol> protocols;  // never empty
  int channels = 1;
};

// What the choice is made among under NCCL's settings: every enabled (algorithm, protocols) pair,
// in tie order. Throws InputError as choose() does for a forced choice that cannot run.
std::vector<TunerOption> tuner_options(const Communicator& comm, const CollectiveCall& call, const NcclSettings& s);

// `algo` is "auto" or a registry name; `proto` "auto" or a protocol name. Throws InputError for an
// unknown name or a forced algorithm/protocol that cannot run this call here.
TunerChoice choose(const Communicator& comm, const Router& router, const CollectiveCall& call,
                   const std::string& algo, const std::string& proto);
// The same under NCCL's settings (nccl_env.hpp): the algorithms and protocols allowed, the
// in-network reductions enabled, the channel bounds.
TunerChoice choose(const Communicator& comm, const Router& router, const CollectiveCall& call, const NcclSettings& s);

// Channels NCCL would use for this communicator (its topology search result, simplified).
int default_channels(const Communicator& comm, const std::string& algorithm);

}  // namespace gf
