// Sweep files for `gpufabric sweep` (workload/sweep_file.hpp; docs/sweeps.md).
#pragma once

#include "workload/sweep_file.hpp"
