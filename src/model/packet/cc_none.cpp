// `congestion_control: none`: no end-to-end congestion control. Senders run at line rate and only
// link-level flow control (credits, PFC) holds them back; what `auto` means on InfiniBand, where
// congestion control is configured by the subnet manager and not on by itself, and on every
// scale-up link (NVLink, PCIe, xGMI), whose credits never drop.
#include "model/packet/congestion_control.hpp"

namespace gf {
namespace {

class NoCongestionControl final : public CongestionControl {
 public:
  std::string name() const override { return "none"; }
  std::string description() const override {
    return "no end-to-end congestion control: senders at line rate, held back only by credits or PFC";
  }
  std::string source() const override { return "InfiniBand Architecture Specification vol. 1 (credit flow control)"; }
};

}  // namespace

std::unique_ptr<const CongestionControl> make_none_cc() { return std::make_unique<NoCongestionControl>(); }

}  // namespace gf
