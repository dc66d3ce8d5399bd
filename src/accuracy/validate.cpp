#include "accuracy/validate.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "config/cluster_yaml.hpp"
#include "config/yaml_fields.hpp"
#include "core/error.hpp"
#include "core/parse_units.hpp"
#include "routing/router.hpp"
#include "topology/cluster_spec.hpp"
#include "topology/ib_hca.hpp"
#include "workload/env_yaml.hpp"

namespace gf {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------------------------
// Manifest

namespace {

std::string resolve(const fs::path& base, const std::string& rel) {
  fs::path p(rel);
  return (p.is_absolute() ? p : base / p).lexically_normal().string();
}

std::vector<std::string> string_list(const YamlFields& f, const std::string& key) {
  std::vector<std::string> out;
  if (!f.has(key)) return out;
  YAML::Node n = f.get(key);
  if (!n.IsSequence()) f.fail(key, "expected a list", "write it as [a, b]");
  for (const auto& e : n) {
    if (!e.IsScalar()) f.fail(key, "expected a list of names", "write it as [a, b]");
    out.push_back(e.Scalar());
  }
  return out;
}

int64_t size_value(const YamlFields& f, const std::string& key) {
  try {
    return parse_size(f.required_string(key)).count();
  } catch (const UnitError& e) {
    f.fail(key, e.what(), "write a size such as 64, 4K, 64M or 4G");
  }
}

DatasetSpec parse_table(const YAML::Node& n, const std::string& file, const std::string& path,
                        const std::string& measured_file, const std::string& cluster, const fs::path& dir,
                        const std::string& measured_dir) {
  YamlFields f(n, file, path,
               {"name", "title", "collective", "nodes", "gpus_per_node", "algo", "proto", "skip", "note", "layout",
                "size", "gpus_per_thread", "env"});
  DatasetSpec d;
  d.name = f.required_string("name");
  d.file = measured_file;
  d.cluster = cluster;
  d.measured_path = resolve(measured_dir, measured_file);
  d.cluster_path = resolve(dir, cluster);
  d.title = f.string_or("title", "");
  std::string coll = f.required_string("collective");
  auto kind = parse_collective(coll);
  if (!kind) f.fail("collective", "unknown collective '" + coll + "'", suggest(coll, collective_names()));
  d.collective = *kind;
  d.nodes = static_cast<int>(f.integer_or("nodes", 1, 1));
  d.gpus_per_node = static_cast<int>(f.integer_or("gpus_per_node", 1, 1));
  d.gpus_per_thread = static_cast<int>(f.integer_or("gpus_per_thread", 1, 1));
  d.algo = f.string_or("algo", "auto");
  d.proto = f.string_or("proto", "auto");
  if (f.has("env")) d.nccl = parse_env(f, file);
  d.note = f.string_or("note", "");
  std::string layout = f.string_or("layout", "nccl_tests");
  if (layout == "scaling_summary") d.layout = TableLayout::ScalingSummary;
  else if (layout != "nccl_tests")
    f.fail("layout", "unknown layout '" + layout + "'", suggest(layout, {"nccl_tests", "scaling_summary"}));
  if (d.layout == TableLayout::ScalingSummary) d.size = size_value(f, "size");
  else if (f.has("size")) f.fail("size", "only a scaling_summary takes a size", "the table's rows give theirs");
  if (f.has("skip")) {
    YAML::Node s = f.get("skip");
    if (!s.IsSequence()) f.fail("skip", "expected a list of {size, reason}", "write `- {size: 8, reason: ...}` lines under skip:");
    for (size_t i = 0; i < s.size(); ++i) {
      YamlFields sf(s[i], file, f.key_path("skip") + "[" + std::to_string(i) + "]", {"size", "reason"});
      d.skip.push_back({size_value(sf, "size"), sf.required_string("reason")});
    }
  }
  return d;
}

}  // namespace

ValidationManifest parse_manifest(const std::string& text, const std::string& path, const std::string& measured_dir) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw InputError({path, e.mark.line + 1, e.mark.column + 1}, "", "not valid YAML: " + e.msg, "check indentation and that every `key: value` has a space after the colon");
  }
  YamlFields top(root, path, "", {"measured_dir", "calibration", "files"});
  fs::path dir = fs::path(path).parent_path();
  ValidationManifest m;
  m.path = path;
  m.measured_dir = !measured_dir.empty() ? measured_dir : resolve(dir, top.string_or("measured_dir", "."));
  if (!top.has("files") || !top.get("files").IsSequence())
    top.fail("files", "expected a list of measured files", "see the comment at the top of validation/datasets.yaml");
  YAML::Node files = top.get("files");
  std::set<std::string> names;
  for (size_t i = 0; i < files.size(); ++i) {
    std::string fpath = "files[" + std::to_string(i) + "]";
    YamlFields ff(files[i], path, fpath, {"file", "cluster", "dir", "tables"});
    std::string file = ff.required_string("file"), cluster = ff.required_string("cluster");
    // `dir:` names a folder of this repository (relative to the manifest) for measured files
    // kept beside it rather than in the shared folder; neither measured_dir nor --measured moves it.
    const std::string file_dir = ff.has("dir") ? resolve(dir, ff.required_string("dir")) : m.measured_dir;
    if (!ff.has("tables") || !ff.get("tables").IsSequence() || ff.get("tables").size() == 0)
      ff.fail("tables", "expected a list of the file's tables", "write `- {name: ..., ...}` lines under tables:");
    YAML::Node tables = ff.get("tables");
    for (size_t j = 0; j < tables.size(); ++j) {
      std::string tpath = fpath + ".tables[" + std::to_string(j) + "]";
      DatasetSpec d = parse_table(tables[j], path, tpath, file, cluster, dir, file_dir);
      if (!names.insert(d.name).second)
        throw InputError(location_of(tables[j]["name"], path), tpath + ".name", "data set '" + d.name + "' is named twice", "give every table its own name");
      m.datasets.push_back(std::move(d));
    }
  }
  if (top.has("calibration")) {
    YAML::Node cal = top.get("calibration");
    if (!cal.IsSequence()) top.fail("calibration", "expected a list of {constant, where, fitted_to, note}", "write one `- {constant: ..., where: ..., fitted_to: ..., note: ...}` line per constant");
    for (size_t i = 0; i < cal.size(); ++i) {
      YamlFields cf(cal[i], path, "calibration[" + std::to_string(i) + "]", {"constant", "where", "fitted_to", "note"});
      Calibration c{cf.required_string("constant"), cf.string_or("where", ""), cf.string_or("note", ""),
                    string_list(cf, "fitted_to")};
      for (const auto& set : c.fitted_to) {
        auto it = std::find_if(m.datasets.begin(), m.datasets.end(), [&](const DatasetSpec& d) { return d.name == set; });
        if (it == m.datasets.end()) {
          std::vector<std::string> all(names.begin(), names.end());
          cf.fail("fitted_to", "no data set named '" + set + "'", suggest(set, all));
        }
        it->fitted.push_back(c.constant);
      }
      m.calibration.push_back(std::move(c));
    }
  }
  return m;
}

ValidationManifest load_manifest(const std::string& path, const std::string& measured_dir) {
  std::ifstream in(path);
  if (!in)
    throw InputError({path, 0, 0}, "manifest", "cannot read the data-set manifest",
                     "run from the repository root or pass --manifest validation/datasets.yaml");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_manifest(ss.str(), path, measured_dir);
}

// ---------------------------------------------------------------------------------------------
// Error arithmetic

std::optional<double> median(std::vector<double> v) {
  if (v.empty()) return std::nullopt;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

ErrorSummary summarize_errors(const std::vector<ComparedRow>& rows, int64_t min_size, int64_t max_size) {
  ErrorSummary s;
  std::vector<double> abs;
  for (const auto& r : rows) {
    if (!r.compared() || r.size < min_size || r.size > max_size) continue;
    double a = std::fabs(r.error_pct);
    if (!s.max_abs_pct || a > *s.max_abs_pct) {
      s.max_abs_pct = a;
      s.max_at_size = r.size;
      s.max_at_label = r.label;
    }
    abs.push_back(a);
  }
  s.counted = static_cast<int>(abs.size());
  s.median_abs_pct = median(std::move(abs));
  return s;
}

std::optional<LatencyFloor> latency_floor(const std::vector<ComparedRow>& rows) {
  const ComparedRow* best = nullptr;
  for (const auto& r : rows)
    if (r.compared() && r.size > 0 && r.measured_us > 0 && (!best || r.size < best->size)) best = &r;
  if (!best || best->size > kFloorMaxSize || best->predicted_us <= 0) return std::nullopt;
  return LatencyFloor{best->size, best->measured_us, best->predicted_us,
                      (best->predicted_us / best->measured_us - 1.0) * 100.0};
}

double measured_busbw(const MeasuredRow& m, CollectiveKind kind, int nranks) {
  const double t = m.out_of_place.time_us;
  if (t > 0 && m.size > 0) return static_cast<double>(m.size) / (t * 1e3) * busbw_factor(kind, nranks);
  return m.out_of_place.busbw_gBps;
}

ComparedRow compare_row(const MeasuredRow& m, CollectiveKind kind, int nranks, const SweepRow& p) {
  ComparedRow r;
  r.size = m.size;
  r.line = m.line;
  r.nranks = nranks;
  r.measured_busbw = measured_busbw(m, kind, nranks);
  r.measured_us = m.out_of_place.time_us;
  if (r.measured_us <= 0 && r.measured_busbw > 0)  // prose figures: the time the busbw stands for
    r.measured_us = static_cast<double>(m.size) * busbw_factor(kind, nranks) / (r.measured_busbw * 1e3);
  r.predicted_us = p.time.to_us();
  r.predicted_busbw = p.busbw_gBps;
  r.algorithm = p.choice.algorithm;
  r.protocol = to_string(p.choice.proto);
  r.channels = p.choice.channels;
  if (r.measured_busbw > 0) r.error_pct = (r.predicted_busbw / r.measured_busbw - 1.0) * 100.0;
  else r.failed = "no measured bandwidth to compare with";
  return r;
}

std::optional<bool> ValidationResult::busbw_ok() const {
  if (!busbw.median_abs_pct) return std::nullopt;
  return *busbw.median_abs_pct <= kBusbwTargetPct;
}

std::optional<bool> ValidationResult::floor_ok() const {
  if (!floor) return std::nullopt;
  return std::fabs(floor->error_pct) <= kFloorTargetPct;
}

// ---------------------------------------------------------------------------------------------
// Running a data set

namespace {

// The rank count a printed busbw/algbw ratio implies, or 0 when the factor carries none.
double implied_ranks(CollectiveKind k, double ratio) {
  if (k == CollectiveKind::AllReduce && ratio < 2) return 2.0 / (2.0 - ratio);
  if ((k == CollectiveKind::AllGather || k == CollectiveKind::ReduceScatter || k == CollectiveKind::AllToAll) &&
      ratio < 1)
    return 1.0 / (1.0 - ratio);
  return 0;
}

// The largest row's printed busbw/algbw against nccl-tests' factor for the manifest's ranks: a
// mismatch means the table was run with another rank count than the manifest says.
void check_rank_count(const MeasuredTable& t, const DatasetSpec& d, int nranks, ValidationResult& out) {
  const MeasuredRow* big = nullptr;
  for (const auto& r : t.rows)
    if (r.out_of_place.algbw_gBps > 1 && (!big || r.size > big->size)) big = &r;
  if (!big) return;
  double ratio = big->out_of_place.busbw_gBps / big->out_of_place.algbw_gBps;
  double want = busbw_factor(d.collective, nranks);
  if (std::fabs(ratio / want - 1.0) <= 0.01) return;
  std::ostringstream w;
  w << d.file << ":" << big->line << ": printed busbw/algbw = " << ratio << ", but " << nranks << " ranks give "
    << want;
  if (double n = implied_ranks(d.collective, ratio); n > 0) w << " (the ratio implies " << std::lround(n) << " ranks)";
  out.warnings.push_back(w.str());
}

// One prediction; a failure is recorded in the row rather than thrown.
ComparedRow predict(const Communicator& comm, const Router& router, const DatasetSpec& d, const MeasuredRow& m,
                    const std::string& algo, const std::string& model, RoutingPolicy routing) {
  SweepRow p;
  try {
    SweepOptions o;
    o.call.kind = d.collective;
    if (!m.type.empty()) {
      auto type = parse_datatype(m.type);
      if (!type) throw InputError({d.file, m.line, 0}, "type", "unknown element type '" + m.type + "'", "use an nccl-tests type name: float, half, bfloat16, ...");
      o.call.type = *type;
    }
    if (is_reduction(d.collective) && !m.redop.empty() && m.redop != "none") o.call.redop = m.redop;
    o.min_bytes = o.max_bytes = Bytes(m.size);
    o.algo = algo;
    o.proto = d.proto;
    o.model = model;
    o.routing = routing;
    o.gpus_per_thread = d.gpus_per_thread;
    o.nccl = d.nccl;
    std::vector<SweepRow> rows = run_sweep(comm, router, o);
    if (rows.empty()) throw std::runtime_error("the sweep returned no row");
    p = rows.front();
  } catch (const std::exception& e) {
    ComparedRow r;
    r.size = m.size;
    r.line = m.line;
    r.nranks = comm.nranks;
    r.measured_busbw = measured_busbw(m, d.collective, comm.nranks);
    r.measured_us = m.out_of_place.time_us;
    r.failed = e.what();
    return r;
  }
  return compare_row(m, d.collective, comm.nranks, p);
}

}  // namespace

ValidationResult validate(const DatasetSpec& d, const std::string& model, RoutingPolicy routing) {
  ValidationResult out;
  out.dataset = d;
  MeasuredFile file = load_measured_file(d.measured_path);
  const MeasuredTable& table = find_table(file, d.title);
  if (table.layout != d.layout)
    throw InputError({d.measured_path, table.line, 0}, "layout",
                     std::string("the table is ") + (table.layout == TableLayout::NcclTests ? "an nccl-tests table" : "a scaling summary") +
                         " but the manifest entry '" + d.name + "' says otherwise",
                     "set layout: to match the file");
  ClusterSpec spec = load_cluster_file(d.cluster_path);
  out.cluster_name = spec.name;
  if (spec.servers < d.nodes)
    throw InputError(spec.where, "servers", "data set '" + d.name + "' needs " + std::to_string(d.nodes) +
                                                " servers, the cluster file has " + std::to_string(spec.servers),
                     "set servers: to the largest node count used with this cluster");
  if (!d.nccl.ib_hca.empty()) apply_ib_hca(spec.server, d.nccl.ib_hca, spec.servers > 1, d.nccl.ib_hca_where);
  apply_transport_env(spec.server.transport, d.nccl);
  Cluster cluster = build_cluster(spec);
  Router router(cluster);

  std::set<int64_t> skip_used;
  if (d.layout == TableLayout::NcclTests) {
    Communicator comm = make_communicator(cluster, router, d.nodes, d.gpus_per_node);
    out.nranks = comm.nranks;
    check_rank_count(table, d, comm.nranks, out);
    for (const auto& m : table.rows) {
      auto skip = std::find_if(d.skip.begin(), d.skip.end(), [&](const SkipRow& s) { return s.size == m.size; });
      if (skip != d.skip.end()) {
        ComparedRow r;
        r.size = m.size;
        r.line = m.line;
        r.nranks = comm.nranks;
        r.measured_busbw = measured_busbw(m, d.collective, comm.nranks);
        r.measured_us = m.out_of_place.time_us;
        r.skipped = skip->reason;
        skip_used.insert(m.size);
        out.rows.push_back(std::move(r));
        continue;
      }
      out.rows.push_back(predict(comm, router, d, m, d.algo, model, routing));
    }
  } else {
    for (const auto& m0 : table.rows) {
      MeasuredRow m = m0;
      m.size = d.size;
      Communicator comm = make_communicator(cluster, router, d.nodes, m.gpus);
      ComparedRow r = predict(comm, router, d, m, m.algo, model, routing);
      r.label = std::to_string(m.gpus) + " GPUs " + m.algo;
      out.rows.push_back(std::move(r));
    }
  }
  for (const auto& s : d.skip)
    if (!skip_used.count(s.size))
      out.warnings.push_back("skip entry for size " + std::to_string(s.size) + " matches no row of the table");

  out.busbw = summarize_errors(out.rows);
  out.mid = summarize_errors(out.rows, kBusbwMinSize, kMidMaxSize);
  out.floor = latency_floor(out.rows);
  bool any = std::any_of(out.rows.begin(), out.rows.end(), [](const ComparedRow& r) { return r.compared(); });
  if (!any) {
    auto f = std::find_if(out.rows.begin(), out.rows.end(), [](const ComparedRow& r) { return !r.failed.empty(); });
    out.error = f != out.rows.end() ? f->failed : "no row to compare";
  }
  return out;
}

}  // namespace gf
