// run_doctor: checks the options, builds the cluster once, runs the chosen rules in registry order
// and predicts every Comparison with one model, size and collective, so findings are ranked by the
// same yardstick. Predictions are cached by the cluster's full YAML text (plus collective and
// routing): rules often share a "before" (the server as it is) or a whole fix, and each distinct
// cluster is simulated once.
#include "doctor/doctor.hpp"

#include <algorithm>
#include <map>

#include "collective/communicator.hpp"
#include "config/cluster_yaml.hpp"
#include "model/model_factory.hpp"
#include "workload/sweep.hpp"

namespace gf {

const char* to_string(Severity s) {
  switch (s) {
    case Severity::Info: return "info";
    case Severity::Warning: return "warning";
    case Severity::Critical: return "critical";
  }
  return "?";
}

std::vector<DoctorRule> doctor_rules() {
  std::vector<DoctorRule> all = server_rules();
  const std::vector<DoctorRule>& fabric = fabric_rules();
  all.insert(all.end(), fabric.begin(), fabric.end());
  return all;
}

namespace {

// After / before busbw below which a fix is said to gain little on its own: the models agree with
// measured tables to several percent (docs/accuracy.md), so smaller gains are not a prediction.
constexpr double kNoticeableGain = 1.05;

// GPUs of one scale-up domain: a server's, or an NVL72-style domain's.
int64_t domain_gpus(const ClusterSpec& spec) {
  int64_t g = spec.server.count(NodeKind::Gpu);
  if (spec.server.scale_up) g *= std::min<int64_t>(spec.servers, spec.server.scale_up->servers_per_domain);
  return std::max<int64_t>(1, g);
}

// What a flow-model prediction costs, roughly: every GPU's flows share max-min components as large
// as its NVLink domain, so GPUs x domain GPUs. Measured (Release, this 2-core machine, after the
// NVLink domain became one switch plane and the flow model's completion tolerance): the 1,152-GPU
// GB200 NVL72 preset (82,944) predicts a 1 GiB all-reduce in 2.2 s (ECMP) and 2.8 s, 0.8 GB
// (adaptive routing); 12,288 DGX H100 on a fat-tree (98,304) in 2.7 s, 0.3 GB adaptive. Before
// those changes the NVL72 preset took 31 s and 3.5 GB, and the budget was 16,384.
int64_t prediction_work(const ClusterSpec& spec) {
  return spec.servers * spec.server.count(NodeKind::Gpu) * domain_gpus(spec);
}
constexpr int64_t kPredictionBudget = 100'000;

// busbw of one collective call on every GPU of a cluster, each distinct input simulated once.
class Predictor {
 public:
  explicit Predictor(const DoctorOptions& opt) : opt_(opt) {}

  double busbw(const ClusterSpec& spec, RoutingPolicy routing, CollectiveKind kind, bool collnet = false) {
    std::string key = std::string(to_string(kind)) + " " + std::string(to_string(routing)) + (collnet ? " collnet" : "") +
                      "\n" + cluster_to_yaml(spec);
    if (auto it = cache_.find(key); it != cache_.end()) return it->second;
    Cluster cluster = build_cluster(spec);
    Router router(cluster);
    Communicator comm = make_communicator(cluster, router, static_cast<int>(cluster.servers()), cluster.gpus_per_server());
    SweepOptions o;
    o.nccl.collnet = collnet;
    o.call.kind = kind;
    o.min_bytes = o.max_bytes = opt_.size;
    o.model = opt_.model;
    o.routing = routing;
    std::vector<SweepRow> rows = run_sweep(comm, router, o);
    double v = rows.empty() ? 0 : rows.front().busbw_gBps;
    cache_.emplace(std::move(key), v);
    return v;
  }
  size_t simulated() const { return cache_.size(); }

 private:
  const DoctorOptions& opt_;
  std::map<std::string, double> cache_;
};

void check_options(const DoctorOptions& opt, const std::vector<DoctorRule>& rules) {
  std::vector<std::string> names;
  for (const DoctorRule& r : rules) names.emplace_back(r.name);
  for (const std::string& want : opt.rules)
    if (std::find(names.begin(), names.end(), want) == names.end())
      throw InputError({}, "--rules", "unknown doctor rule '" + want + "'", suggest(want, names));
  require_model(opt.model, {}, "--model");
  // The predicted call is nccl-tests' default float: a size must hold whole 4-byte elements.
  if (opt.size.count() <= 0 || opt.size.count() % 4 != 0)
    throw InputError({}, "--size", "the prediction size must be a positive multiple of 4 B, got " +
                                       std::to_string(opt.size.count()) + " B",
                     "use e.g. --size 1G");
}

}  // namespace

DoctorReport run_doctor(const ClusterSpec& spec, const DoctorOptions& opt) {
  const std::vector<DoctorRule> rules = doctor_rules();
  check_options(opt, rules);
  DoctorReport report;
  report.cluster = spec.name.empty() ? spec.server.name : spec.name;
  report.notes = spec.notes;  // an imported file's assumed figures come first

  Cluster cluster = build_cluster(spec);
  Router router(cluster);
  const DoctorContext ctx{spec, cluster, router, opt.scenario};
  for (const DoctorRule& rule : rules) {
    if (!opt.rules.empty() && std::find(opt.rules.begin(), opt.rules.end(), rule.name) == opt.rules.end()) continue;
    std::vector<Finding> found = rule.check(ctx);
    for (Finding& f : found) {
      if (f.rule.empty()) f.rule = rule.name;
      report.findings.push_back(std::move(f));
    }
  }

  Predictor predict(opt);
  int compared = 0;
  for (Finding& f : report.findings) {
    if (!f.compare) continue;
    ++compared;
    const Comparison& c = *f.compare;
    if (const int64_t w = prediction_work(c.before); opt.model != "analytical" && w > kPredictionBudget) {
      // Beyond this the flow model needs minutes and gigabytes (a 1,152-GPU NVL72 cluster's NVLink
      // domains are max-min components of 72 GPUs' flows each): say so rather than hang a pipeline.
      f.evidence.push_back("not predicted: " + std::to_string(c.before.servers * c.before.server.count(NodeKind::Gpu)) +
                           " GPUs in NVLink domains of " + std::to_string(domain_gpus(c.before)) +
                           " is beyond the doctor's prediction budget; run gpufabric perf on this cluster (with "
                           "fewer --nodes) to see the cost");
      continue;
    }
    try {
      Prediction p;
      p.collective = to_string(c.collective);
      p.size = opt.size;
      p.ranks = static_cast<int>(c.before.servers) * static_cast<int>(c.before.server.count(NodeKind::Gpu));
      p.busbw_before_gBps = predict.busbw(c.before, c.before_routing, c.collective, c.before_collnet);
      p.busbw_after_gBps = predict.busbw(c.after, c.after_routing, c.collective, c.after_collnet);
      f.predicted = p;
      // A rule's heuristic can see a problem the model says does not cost this collective
      // anything measurable (another bottleneck, or latency, binds first): the model's word wins,
      // so the finding is kept for the record but not called a warning.
      if (p.busbw_after_gBps < kNoticeableGain * p.busbw_before_gBps) {
        f.evidence.push_back("the model predicts under 5% gain from this fix alone: another bottleneck binds this " +
                             p.collective + " first, or its traffic keeps off what the fix changes (see the evidence "
                             "and the other findings)" +
                             (f.severity == Severity::Info ? std::string()
                                                           : std::string("; listed as info, was ") + to_string(f.severity)));
        f.severity = Severity::Info;
      }
    } catch (const std::exception& e) {
      // A fix the model cannot build or run leaves the finding standing without a prediction.
      report.notes.push_back(f.rule + ": no prediction for '" + c.after_what + "': " + e.what());
    }
  }
  if (compared > 0)
    report.notes.push_back("predictions: " + opt.model + " model, " + to_string(opt.size) + " per call, " +
                           std::to_string(compared) + " comparison(s), " + std::to_string(predict.simulated()) +
                           " distinct cluster(s) simulated");
  return report;
}

}  // namespace gf
