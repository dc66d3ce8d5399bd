// Models by name, for the CLI, sweeps, validation, scenarios and the doctor: one registry lists
// the fidelity levels (name, one-line description, source, factory), so a new one is one row in
// model_factory.cpp, and one function checks a name the user gave.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "model/model.hpp"
#include "model/model_params.hpp"
#include "model/packet/packet_params.hpp"
#include "topology/cluster.hpp"

namespace gf {

struct ModelInfo {
  std::string name;         // "analytical", "flow", "packet"
  std::string description;  // one line (`gpufabric list fidelity`)
  std::string source;       // where its equations are written and cited
  // The model on `cluster`: `params` are every model's shared constants; `packet` the packet
  // model's own settings, which the others ignore.
  std::unique_ptr<Model> (*make)(const Cluster& cluster, const ModelParams& params, const PacketParams& packet);
};

// Every fidelity level, in the order `gpufabric list fidelity` prints them.
const std::vector<ModelInfo>& model_registry();
const std::vector<std::string>& model_names();
const std::string& default_model_name();
// The entry named `name`; otherwise an InputError at `where` for `key` ("--model", "model")
// saying "unknown model '<name>'", with a did-you-mean and the valid names.
const ModelInfo& require_model(const std::string& name, const SourceLocation& where, const std::string& key);
// nullptr when `name` is not one of model_names().
std::unique_ptr<Model> make_model(const std::string& name, const Cluster& cluster, const ModelParams& params = {},
                                  const PacketParams& packet = {});

}  // namespace gf
