#include <algorithm>
#include <atomic>
#include <climits>
#include <gpufabric/param_sweep.hpp>
#include <mutex>
#include <thread>

#include "collective/communicator.hpp"
#include "report/table.hpp"
#include "routing/router.hpp"
#include "topology/cluster.hpp"
#include "topology/net_ib_check.hpp"

namespace gf {
namespace {

// Relative cost of one transfer on each model, for the longest-first order only (a wrong guess
// costs balance, never correctness): the packet model moves every packet, the flow model solves
// sharing at each instant, the analytical model prices each transfer once.
double model_weight(const std::string& model) {
  if (model == "packet") return 64;
  if (model == "flow") return 4;
  return 1;
}

ParamPointError point_error(size_t point, std::exception_ptr e) {
  ParamPointError out;
  out.point = point;
  try {
    std::rethrow_exception(e);
  } catch (const InputError& x) {
    out.where = x.where();
    out.key = x.key();
    out.message = x.message();
    out.hint = x.hint();
  } catch (const std::exception& x) {
    out.input = false;
    out.message = x.what();
  }
  return out;
}

}  // namespace

void throw_point_error(const ParamPointError& e) {
  if (e.input) throw InputError(e.where, e.key, e.message, e.hint);
  throw std::runtime_error(e.message);
}

ParamSweep::ParamSweep(ParamSweepRequest request) : request_(std::move(request)) {
  // NCCL_IB_HCA picks the NICs a cluster is built with (ClusterOverrides::ib_hca), which a point's
  // cluster is not given: refused rather than silently left out.
  if (!request_.options.nccl.ib_hca.empty() || !request_.over.ib_hca.empty())
    throw InputError({}, "NCCL_IB_HCA", "chooses the NICs a cluster is built with, which a sweep does not apply",
                     "sweep server.nics instead, or run perf with NCCL_IB_HCA once per value");
  // So do the transport variables (ClusterOverrides::p2p_level, shm_disabled, net).
  if (changes_cluster(request_.options.nccl) || request_.over.p2p_level || request_.over.shm_disabled ||
      request_.over.net.any())
    throw InputError({}, "NCCL_P2P_LEVEL", "NCCL_P2P_* and NCCL_SHM_DISABLE choose transports where a cluster is built, which a sweep does not apply",
                     "run perf with them once per value, or set `p2p: false` in the cluster file");
  const std::vector<SweepAxis>& axes = request_.grid.axes();
  for (const SweepAxis& a : axes) {
    if (is_run_key(a.key)) continue;
    const std::string top = a.key.substr(0, a.key.find('.'));
    if (std::find(cluster_top_keys().begin(), cluster_top_keys().end(), top) == cluster_top_keys().end()) {
      std::vector<std::string> names = cluster_top_keys();
      names.insert(names.end(), run_keys().begin(), run_keys().end());
      throw InputError(a.where, a.key, "neither a cluster key nor a run key",
                       suggest(top, names) + " (or a cluster key path such as fabric.oversubscription, or NCCL_*)");
    }
    if (a.key == "servers" && request_.over.nodes)
      throw InputError(a.where, a.key, "--nodes also sets the server count", "sweep servers, or give --nodes, not both");
  }
  const size_t n = request_.grid.size();
  points_.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const std::vector<std::string> values = request_.grid.values(i);
    std::vector<KeySetting> sets;
    Point p;
    p.options = request_.options;
    p.options.progress = nullptr;  // a point runs on any thread: nothing shared is called back
    p.options.on_run = nullptr;
    for (size_t k = 0; k < axes.size(); ++k) {
      KeySetting s{axes[k].key, values[k], axes[k].where};
      if (is_run_key(s.key)) apply_run_setting(p.options, s);
      else sets.push_back(std::move(s));
    }
    p.spec = resolve_cluster_set(request_.cluster, request_.over, sets);
    if (p.options.nccl.net_ib)  // a point's NCCL_NET=IB (--set)
      check_ib_transport(p.spec.server, p.spec.catalog, p.options.nccl.net_where);
    const ClusterCounts counts = count_cluster(p.spec);
    if (counts.links_directed > kMaxBuildLinks)
      throw InputError(p.spec.where, "servers",
                       "this cluster is too large to simulate (" + with_commas(counts.links_directed) + " directed links)",
                       "sweep fewer servers");
    p.cost = static_cast<double>(counts.links_directed) * static_cast<double>(sweep_row_count(p.options)) *
             model_weight(p.options.model);
    points_.push_back(std::move(p));
  }
  order_.resize(n);
  for (size_t i = 0; i < n; ++i) order_[i] = i;
  std::stable_sort(order_.begin(), order_.end(), [&](size_t a, size_t b) { return points_[a].cost > points_[b].cost; });
}

ParamPointResult ParamSweep::run_point(size_t point) const {
  const Point& p = points_.at(point);
  const Cluster cluster = build_cluster(p.spec);
  const Router router(cluster);
  const int64_t nodes = request_.over.nodes.value_or(p.spec.servers);
  const int64_t g = request_.gpus_per_node > 0 ? request_.gpus_per_node : cluster.gpus_per_server();
  if (nodes > INT32_MAX || g > INT32_MAX)
    throw InputError(p.spec.where, "servers", "too large", "docs/limits.md lists the largest cluster accepted");
  const Communicator comm = make_communicator(cluster, router, static_cast<int>(nodes), static_cast<int>(g));
  ParamPointResult r;
  r.nranks = comm.nranks;
  r.nnodes = comm.nnodes;
  r.ppn = comm.ppn;
  r.rows = run_sweep(comm, router, p.options);
  r.ran = true;
  return r;
}

std::vector<ParamPointResult> ParamSweep::run(int threads, const std::vector<size_t>& which,
                                              std::optional<ParamPointError>* error,
                                              const std::function<void(size_t, size_t, const ParamPointResult&)>& progress) const {
  std::vector<size_t> todo;
  if (which.empty()) {
    todo = order_;
  } else {
    // Keep the longest-first order among the points asked for.
    std::vector<bool> wanted(points_.size());
    for (size_t i : which) wanted.at(i) = true;
    for (size_t i : order_)
      if (wanted[i]) todo.push_back(i);
  }
  std::vector<ParamPointResult> results(points_.size());
  std::vector<std::exception_ptr> failed(points_.size());
  std::atomic<size_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex progress_mutex;
  size_t done = 0;
  // Each worker writes only results[i] / failed[i] of the points it took: no two touch one slot.
  auto worker = [&] {
    for (;;) {
      if (stop.load()) return;
      const size_t k = next.fetch_add(1);
      if (k >= todo.size()) return;
      const size_t i = todo[k];
      try {
        results[i] = run_point(i);
      } catch (...) {
        failed[i] = std::current_exception();
        stop.store(true);
      }
      if (progress) {
        std::lock_guard<std::mutex> lock(progress_mutex);
        progress(++done, todo.size(), results[i]);
      }
    }
  };
  const size_t n = std::min<size_t>(static_cast<size_t>(std::max(threads, 1)), std::max<size_t>(todo.size(), 1));
  if (n == 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (size_t t = 0; t < n; ++t) pool.emplace_back(worker);
    for (auto& t : pool) t.join();
  }
  for (size_t i = 0; i < failed.size(); ++i)
    if (failed[i]) {
      ParamPointError e = point_error(i, failed[i]);
      if (!error) throw_point_error(e);
      *error = e;
      break;
    }
  return results;
}

std::string ParamSweep::title() const {
  const SweepOptions& o = request_.options;
  std::string t = "perf " + std::string(to_string(o.call.kind)) + " on " + request_.cluster;
  bool model_swept = false;
  for (const SweepAxis& a : request_.grid.axes()) model_swept |= a.key == "model";
  if (!model_swept) t += ", " + o.model + " model";
  return t;
}

ParamSweepTable ParamSweep::table(std::vector<ParamPointResult> results) const {
  ParamSweepTable t;
  t.title = title();
  for (const SweepAxis& a : request_.grid.axes()) t.keys.push_back(a.key);
  for (size_t i = 0; i < points_.size(); ++i) t.values.push_back(request_.grid.values(i));
  t.results = std::move(results);
  return t;
}

std::vector<ParamSweepRow> run_param_sweep(const ParamSweepRequest& request, int threads) {
  const ParamSweep sweep(request);
  const std::vector<ParamPointResult> results = sweep.run(threads);
  std::vector<ParamSweepRow> rows;
  for (size_t i = 0; i < results.size(); ++i) {
    const std::vector<std::string> values = request.grid.values(i);
    for (const SweepRow& r : results[i].rows) rows.push_back({values, results[i].nranks, r});
  }
  return rows;
}

}  // namespace gf
