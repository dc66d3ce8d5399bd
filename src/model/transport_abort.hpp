// A run that ends because a reliable connection gave up, as the hardware does when its transport
// retry counter runs out (InfiniBand RC, RoCE: IBTA spec 1.2, 12.7.38, the retry count covers
// ACK timeouts and sequence-error NAKs alike); NCCL then aborts the communicator (NVIDIA/nccl issue
// #998). An InputError keyed by the lossy link, as the packet model's other dead ends (a
// deadlock) are: the user's loss rate is what the connection could not get through, and the
// command line reports it with the link, the time and a hint (exit 2), never a hang.
#pragma once

#include <string>

#include "core/error.hpp"
#include "core/units.hpp"
#include "topology/node.hpp"

namespace gf {

class TransportAbort : public InputError {
 public:
  TransportAbort(const std::string& link_name, const std::string& message, LinkId link, Time at)
      : InputError({}, link_name, message,
                   "a loss rate this high leaves the connection no way through; give a lower one (NCCL's "
                   "InfiniBand retry count allows 7 go-backs in a row without progress)"),
        link_(link),
        at_(at) {}
  LinkId link() const { return link_; }  // the lossiest link on the connection's path
  Time at() const { return at_; }        // simulated time the connection gave up

 private:
  LinkId link_;
  Time at_;
};

}  // namespace gf
