// Models by name, for the CLI, sweeps, validation and scenarios: one place lists the fidelity
// levels, so a new one is added here and nowhere else.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "model/model.hpp"
#include "model/model_params.hpp"
#include "model/packet/packet_params.hpp"
#include "topology/cluster.hpp"

namespace gf {

// "analytical", "flow" (the default), "packet" (model/packet/packet_model.hpp).
const std::vector<std::string>& model_names();
const std::string& default_model_name();
// nullptr when `name` is not one of model_names(). `params` are every model's shared constants;
// `packet` the packet model's own settings, which the others ignore.
std::unique_ptr<Model> make_model(const std::string& name, const Cluster& cluster, const ModelParams& params = {},
                                  const PacketParams& packet = {});

}  // namespace gf
