// Per-component failure rates for `gpufabric goodput`: the default set is a fit to the Llama 3
// 405B run (arXiv 2407.21783, section 3.3.4, Table 5: 419 unexpected interruptions in 54 days on
// 16,384 H100 in 2,048 servers), each cause's count divided by the units it can strike over those
// 54 days. A fit, not an independent prediction: the Llama 3 job reproduces its own count by
// construction. A YAML file replaces the set (docs/failures.md).
#pragma once

#include <string>
#include <vector>

namespace gf {

// What a cause's rate is counted per. Leaf: a tier-1 switch one of the job's servers is cabled to;
// SpineLink: a cable from such a leaf up to a spine (workload/blast_radius.hpp).
enum class FailureUnit { Gpu, Server, Nic, Switch, Leaf, SpineLink };
const char* to_string(FailureUnit u);

// What one failure of a cause does to the synchronous job.
enum class Blast {
  Restart,  // the job stops and restarts in place (software, a hang, a NIC's link flapping)
  Server,   // the job stops; one server leaves for repair and a spare takes its place
  Leaf,     // a leaf switch is down: the job stops; the servers it alone cabled leave for repair
  Slow,     // routing survives it (a spine link): the job runs on, slower; not an interruption
};
const char* to_string(Blast b);

struct FailureCause {
  std::string name;
  FailureUnit unit = FailureUnit::Gpu;
  double per_unit_day = 0;  // failures per unit per day
  double detect_s = 0;      // from the failure to the job stopping (timeouts, watchdog)
  Blast blast = Blast::Restart;
};

struct FailureRates {
  std::vector<FailureCause> causes;
  std::string source;  // one line for the report
};

FailureRates llama3_rates();
// A YAML file: `source:` and `causes:` [{name, unit: gpu|server|nic|switch|leaf|spine_link, per_unit_day |
// per_1000_unit_days, detect: 30s, blast: restart|server|leaf|slow}] (`replaces_server: true` is
// `blast: server`). Throws InputError (file:line:key, hint) for a negative or
// non-numeric rate, an unknown unit or key.
FailureRates load_failure_rates(const std::string& path);

// "30m", "60s", "10m", "4h", "1.5d", or seconds as a bare number: seconds. Throws InputError
// naming `flag` for anything else or a negative value.
double parse_duration_s(const std::string& flag, const std::string& text);

}  // namespace gf
