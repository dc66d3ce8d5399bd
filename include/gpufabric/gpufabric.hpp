// The public API the command line, examples and bindings use. Everything a caller needs to
// describe a cluster, build it, route on it, run collectives on it and report on it is reachable
// from here.
#pragma once

#include "analysis/topo_summary.hpp"
#include "collective/algorithm.hpp"
#include "collective/collective.hpp"
#include "collective/communicator.hpp"
#include "workload/tuner.hpp"
#include "config/cluster_yaml.hpp"
#include "config/presets.hpp"
#include "core/error.hpp"
#include "core/parse_units.hpp"
#include "core/units.hpp"
#include "model/model_factory.hpp"
#include "report/nccl_table.hpp"
#include "report/table.hpp"
#include "report/topo_matrix.hpp"
#include "report/topo_report.hpp"
#include "report/validation_report.hpp"
#include "routing/router.hpp"
#include "topology/cluster.hpp"
#include "topology/cluster_spec.hpp"
#include "topology/fabric.hpp"
#include "topology/pcie_matrix.hpp"
#include "topology/server_registry.hpp"
#include "workload/sweep.hpp"
