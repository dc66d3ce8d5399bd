#include "model/model_factory.hpp"

#include "model/analytical/analytical_model.hpp"
#include "model/flow/flow_model.hpp"
#include "model/packet/packet_model.hpp"

namespace gf {

const std::vector<ModelInfo>& model_registry() {
  // Immutable after first use: names and factories, not simulation state.
  static const std::vector<ModelInfo> kModels = {
      {"analytical", "closed-form alpha-beta per transfer with NCCL's protocol costs; no contention between transfers",
       "NCCL src/graph/tuning.cc (NCCL 2.30.7); docs/models.md, \"Analytical\"",
       [](const Cluster& c, const ModelParams& p, const PacketParams&) -> std::unique_ptr<Model> {
         return std::make_unique<AnalyticalModel>(c, p);
       }},
      {"flow", "flows share every link max-min fairly, re-solved as flows start and end (the default)",
       "progressive filling, Bertsekas & Gallager, Data Networks, 2nd ed., section 6.5.2; docs/models.md, \"Flow\"",
       [](const Cluster& c, const ModelParams& p, const PacketParams&) -> std::unique_ptr<Model> {
         return std::make_unique<FlowModel>(c, p);
       }},
      {"packet", "packets through egress queues and wires: credits or PFC, congestion control, per-packet load balancing",
       "docs/models.md, \"Packet-level model\" and \"Congestion control in the packet model\"",
       [](const Cluster& c, const ModelParams& p, const PacketParams& pp) -> std::unique_ptr<Model> {
         return std::make_unique<PacketModel>(c, p, pp);
       }},
  };
  return kModels;
}

const std::vector<std::string>& model_names() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> v;
    for (const ModelInfo& m : model_registry()) v.push_back(m.name);
    return v;
  }();
  return kNames;
}

const std::string& default_model_name() {
  static const std::string name = "flow";
  return name;
}

const ModelInfo& require_model(const std::string& name, const SourceLocation& where, const std::string& key) {
  for (const ModelInfo& m : model_registry())
    if (m.name == name) return m;
  throw InputError(where, key, "unknown model '" + name + "'", suggest(name, model_names()));
}

std::unique_ptr<Model> make_model(const std::string& name, const Cluster& cluster, const ModelParams& params,
                                  const PacketParams& packet) {
  for (const ModelInfo& m : model_registry())
    if (m.name == name) return m.make(cluster, params, packet);
  return nullptr;
}

}  // namespace gf
