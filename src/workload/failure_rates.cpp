#include "workload/failure_rates.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

#include "config/yaml_fields.hpp"
#include "core/error.hpp"

namespace gf {

const char* to_string(FailureUnit u) {
  switch (u) {
    case FailureUnit::Gpu:
      return "gpu";
    case FailureUnit::Server:
      return "server";
    case FailureUnit::Nic:
      return "nic";
    case FailureUnit::Switch:
      return "switch";
    case FailureUnit::Leaf:
      return "leaf";
    case FailureUnit::SpineLink:
      return "spine_link";
  }
  return "?";
}

const char* to_string(Blast b) {
  switch (b) {
    case Blast::Restart:
      return "restart";
    case Blast::Server:
      return "server";
    case Blast::Leaf:
      return "leaf";
    case Blast::Slow:
      return "slow";
  }
  return "?";
}

namespace {

// Llama 3 exposure: 16,384 GPUs (and as many 400G NICs, one per GPU) in 2,048 servers, 54 days.
constexpr double kGpuDays = 16384.0 * 54, kServerDays = 2048.0 * 54;

// Detection, per kind of cause (../shared/validation/reliability/): a dead peer or path is seen
// after NCCL's transport gives up, 4.096 us x 2^20 x 7 retries = about 30 s (NCCL_IB_TIMEOUT 20,
// NCCL_IB_RETRY_CNT 7 defaults); a hang is seen by PyTorch's NCCL watchdog after its 10 min
// default timeout; a crash (software bug) at once.
constexpr double kTransport = 30, kWatchdog = 600, kCrash = 0;

}  // namespace

FailureRates llama3_rates() {
  FailureRates r;
  r.source = "fit to Llama 3 405B: 419 unexpected interruptions, 54 days, 16,384 H100 (arXiv 2407.21783, Table 5)";
  // Table 5 counts. GPU causes per GPU-day, host causes per server-day, NICs per NIC-day (one NIC
  // per GPU there), switches and cables, software, NCCL hangs and dependencies per server-day
  // (they grow with the job, not with one kind of part).
  auto gpu = [&](const char* n, double k) {
    r.causes.push_back({n, FailureUnit::Gpu, k / kGpuDays, kTransport, Blast::Server});
  };
  auto host = [&](const char* n, double k, Blast blast = Blast::Server, double detect = kTransport) {
    r.causes.push_back({n, FailureUnit::Server, k / kServerDays, detect, blast});
  };
  gpu("faulty GPU (incl. NVLink)", 148);
  gpu("GPU HBM3 memory", 72);
  host("software bug", 54, Blast::Restart, kCrash);
  // Counted per server-day as Llama 3 saw them; each strikes one of the job's leaves, which takes
  // down the servers cabled to it alone (none on a rail-optimized fabric: the job restarts in
  // place). Spine links that routing survives are not in the table (they do not interrupt).
  host("network switch or cable", 35, Blast::Leaf);
  host("host maintenance (unplanned)", 32);
  gpu("GPU SRAM memory", 19);
  gpu("GPU system processor", 17);
  r.causes.push_back({"NIC", FailureUnit::Nic, 7 / kGpuDays, kTransport, Blast::Server});
  host("NCCL watchdog timeout", 7, Blast::Restart, kWatchdog);
  gpu("silent data corruption", 6);
  gpu("GPU thermal interface and sensor", 6);
  host("SSD", 3);
  host("power supply", 3);
  host("server chassis", 2);
  host("IO expansion board", 2);
  host("dependency", 2, Blast::Restart, kCrash);
  host("CPU", 2);
  host("system memory", 2);
  // A spine link (a leaf-to-spine cable) that routing survives only slows the job, so Llama 3's
  // table, which counts interruptions, cannot show it. DERIVED, not measured: taken at the rate
  // of the cables that did interrupt Llama 3, its "network switch or cable" 35 spread over its
  // 16,384 NIC-to-leaf cables (one 400G NIC per GPU) over 54 days: 35 / (16,384 x 54) = 0.040
  // per 1000 cable-days. An upper bound for a NIC cable (some of the 35 were switches), and a
  // leaf-spine cable is the same kind of part (an optical cable with a transceiver at each end).
  r.causes.push_back({"spine link (cable)", FailureUnit::SpineLink, 35 / (16384.0 * 54), kTransport, Blast::Slow});
  return r;
}

double parse_duration_s(const std::string& flag, const std::string& text) {
  size_t end = 0;
  while (end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '.')) ++end;
  double v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + end, v);
  const std::string unit = text.substr(end);
  double mult = unit.empty() || unit == "s"    ? 1
                : unit == "m" || unit == "min" ? 60
                : unit == "h"                  ? 3600
                : unit == "d"                  ? 86400
                                               : -1;
  if (end == 0 || ec != std::errc() || p != text.data() + end || mult < 0 || !std::isfinite(v))
    throw InputError({}, flag, "'" + text + "' is not a duration", "e.g. 60s, 10m, 4h, 1.5d");
  return v * mult;
}

FailureRates load_failure_rates(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError({path, 0}, "--rates", "cannot read the file", "give a YAML file of failure rates");
  std::stringstream ss;
  ss << in.rdbuf();
  const YAML::Node root = load_yaml_document(ss.str(), path, "start from docs/failures.md's example");
  YamlFields f(root, path, "", {"source", "causes"});
  FailureRates r;
  r.source = f.string_or("source", path);
  const YAML::Node list = f.get("causes");
  if (!list || !list.IsSequence() || list.size() == 0)
    f.fail("causes", "expected a list of failure causes",
           "write one `- {name: GPU, unit: gpu, per_unit_day: 1e-5}` per cause");
  for (size_t i = 0; i < list.size(); ++i) {
    YamlFields c(list[i], path, "causes[" + std::to_string(i) + "]",
                 {"name", "unit", "per_unit_day", "per_1000_unit_days", "detect", "replaces_server", "blast"});
    FailureCause cause;
    cause.name = c.required_string("name");
    const std::string unit = c.required_string("unit");
    if (unit == "gpu")
      cause.unit = FailureUnit::Gpu;
    else if (unit == "server")
      cause.unit = FailureUnit::Server;
    else if (unit == "nic")
      cause.unit = FailureUnit::Nic;
    else if (unit == "switch")
      cause.unit = FailureUnit::Switch;
    else if (unit == "leaf")
      cause.unit = FailureUnit::Leaf;
    else if (unit == "spine_link")
      cause.unit = FailureUnit::SpineLink;
    else
      c.fail("unit", "unknown unit '" + unit + "'",
             suggest(unit, {"gpu", "server", "nic", "switch", "leaf", "spine_link"}));
    if (c.has("per_unit_day") == c.has("per_1000_unit_days"))
      c.fail("per_unit_day", "give exactly one of per_unit_day and per_1000_unit_days",
             "e.g. per_1000_unit_days: 0.17");
    cause.per_unit_day =
        c.has("per_unit_day") ? c.number_or("per_unit_day", 0, 0) : c.number_or("per_1000_unit_days", 0, 0) / 1000;
    if (c.has("detect")) cause.detect_s = c.time("detect")->to_s();
    if (c.has("blast") && c.has("replaces_server"))
      c.fail("blast", "give blast or replaces_server, not both", "replaces_server: true is blast: server");
    cause.blast = c.boolean_or("replaces_server", false) ? Blast::Server : Blast::Restart;
    if (c.has("blast")) {
      const std::string b = c.required_string("blast");
      const std::vector<std::string> names = {"restart", "server", "leaf", "slow"};
      const auto it = std::find(names.begin(), names.end(), b);
      if (it == names.end()) c.fail("blast", "unknown blast radius '" + b + "'", suggest(b, names));
      cause.blast = static_cast<Blast>(it - names.begin());
    }
    r.causes.push_back(cause);
  }
  return r;
}

}  // namespace gf
