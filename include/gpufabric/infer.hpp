// The public API of serving predictions (docs/inference.md): what `gpufabric infer` uses. Kept
// out of the umbrella header so the serving code's headers are compiled only where they are used.
#pragma once

#include "inference/batching.hpp"
#include "inference/comm_memo.hpp"
#include "inference/infer_step.hpp"
#include "inference/moe_dispatch.hpp"
#include "inference/serving_allreduce.hpp"
#include "report/infer_report.hpp"
