#include "model/model_factory.hpp"

#include "model/analytical/analytical_model.hpp"
#include "model/flow/flow_model.hpp"
#include "model/packet/packet_model.hpp"

namespace gf {

const std::vector<std::string>& model_names() {
  static const std::vector<std::string> names = {"analytical", "flow", "packet"};
  return names;
}

const std::string& default_model_name() {
  static const std::string name = "flow";
  return name;
}

std::unique_ptr<Model> make_model(const std::string& name, const Cluster& cluster, const ModelParams& params,
                                  const PacketParams& packet) {
  if (name == "analytical") return std::make_unique<AnalyticalModel>(cluster, params);
  if (name == "flow") return std::make_unique<FlowModel>(cluster, params);
  if (name == "packet") return std::make_unique<PacketModel>(cluster, params, packet);
  return nullptr;
}

}  // namespace gf
