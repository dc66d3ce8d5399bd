// The extension behind `import gpufabric` (docs/python.md): the commands perf, sweep, topo and run as
// functions over the public API, returning the same data as the command line's `--format json`
// as plain Python objects. The package's __init__.py shapes perf's rows for pandas.
//
// Each function converts its Python arguments while it holds the GIL, then runs the simulation
// without it (py::gil_scoped_release), so Python threads can run several at once: each call loads its own
// Simulation (one is not shared between threads), and nothing here keeps state between calls.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <gpufabric/gpufabric.hpp>
#include <gpufabric/param_sweep.hpp>
#include <gpufabric/perf_context.hpp>
#include <nlohmann/json.hpp>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <yaml-cpp/yaml.h>

namespace py = pybind11;

namespace {

// What a Python dict turns into: the file name its errors carry.
constexpr const char* kDictFile = "<dict>";

// ---- Python values in -------------------------------------------------------------------------

// A dict (or list, number, string) as a YAML node, key by key, so it goes through the same loader
// as a file and fails with the same messages. `path` names the spot in a TypeError.
YAML::Node yaml_of(py::handle v, const std::string& path) {
  if (v.is_none()) return YAML::Node(YAML::NodeType::Null);
  // bool before int: Python's bool is an int.
  if (py::isinstance<py::bool_>(v)) return YAML::Node(v.cast<bool>() ? "true" : "false");
  if (py::isinstance<py::int_>(v)) return YAML::Node(py::str(v).cast<std::string>());
  if (py::isinstance<py::float_>(v)) {
    const double d = v.cast<double>();
    if (std::isnan(d)) return YAML::Node(".nan");
    if (std::isinf(d)) return YAML::Node(d > 0 ? ".inf" : "-.inf");
    return YAML::Node(py::repr(v).cast<std::string>());  // Python's shortest text that reads back equal
  }
  if (py::isinstance<py::str>(v)) return YAML::Node(v.cast<std::string>());
  if (py::hasattr(v, "__fspath__")) return YAML::Node(py::module_::import("os").attr("fspath")(v).cast<std::string>());
  if (py::isinstance<py::dict>(v)) {
    YAML::Node m(YAML::NodeType::Map);
    for (auto [k, x] : v.cast<py::dict>()) {
      if (!py::isinstance<py::str>(k))
        throw py::type_error("gpufabric: keys of a cluster or scenario dict are strings; " + path + " has the key " +
                             py::repr(k).cast<std::string>());
      const std::string key = k.cast<std::string>();
      m[key] = yaml_of(x, path.empty() ? key : path + "." + key);
    }
    return m;
  }
  if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
    YAML::Node s(YAML::NodeType::Sequence);
    size_t i = 0;
    for (py::handle x : v) s.push_back(yaml_of(x, path + "[" + std::to_string(i++) + "]"));
    return s;
  }
  throw py::type_error("gpufabric: '" + (path.empty() ? std::string("the dict") : path) + "' is a " +
                       py::type::of(v).attr("__name__").cast<std::string>() +
                       "; a cluster or scenario dict holds dicts, lists, strings, numbers, booleans and None");
}

std::string yaml_text(py::handle v) {
  YAML::Emitter out;
  out << yaml_of(v, "");
  return std::string(out.c_str()) + "\n";
}

// A cluster as a Python caller names it: None (the default cluster), a preset or server name, a
// path, or a dict with the cluster YAML's keys.
struct ClusterArg {
  std::string name = gf::kDefaultCluster;
  std::optional<std::string> yaml;  // set for a dict: its YAML text
  gf::ClusterOverrides over;        // nodes, fabric, fabric_link (folded into a dict's YAML)
};

ClusterArg cluster_arg(py::handle cluster, std::optional<int64_t> nodes, const std::string& fabric,
                       const std::string& fabric_link) {
  if (nodes && *nodes < 1)
    throw gf::InputError({}, "nodes", "must be at least 1, got " + std::to_string(*nodes), "e.g. nodes=2");
  ClusterArg c;
  if (py::isinstance<py::dict>(cluster)) {
    // The keyword arguments become the dict's own keys, so the loader checks them as it checks a file.
    // Copies (py::dict(x) of a dict is the same object): the caller's dicts are left as they were.
    py::dict d = cluster.attr("copy")();
    if (nodes) d["servers"] = *nodes;
    if (!fabric.empty() || !fabric_link.empty()) {
      py::dict f = d.contains("fabric") && py::isinstance<py::dict>(d["fabric"]) ? py::dict(d["fabric"].attr("copy")())
                                                                              : py::dict();
      if (!fabric.empty()) f["kind"] = fabric;
      if (!fabric_link.empty()) f["link"] = fabric_link;
      d["fabric"] = f;
    }
    c.yaml = yaml_text(d);
    c.name = kDictFile;
    return c;
  }
  if (!cluster.is_none()) {
    if (py::isinstance<py::str>(cluster) || py::hasattr(cluster, "__fspath__"))
      c.name = py::module_::import("os").attr("fspath")(cluster).cast<std::string>();
    else
      throw py::type_error("gpufabric: cluster is a preset or server name, a file path or a dict, not a " +
                           py::type::of(cluster).attr("__name__").cast<std::string>());
  }
  c.over.nodes = nodes;
  c.over.fabric = fabric;
  c.over.fabric_link = fabric_link;
  return c;
}

// A size given as a number of bytes or as text ("8", "1K", "8G").
std::string size_text(py::handle v, const char* key) {
  if (py::isinstance<py::int_>(v) && !py::isinstance<py::bool_>(v)) return py::str(v).cast<std::string>();
  if (py::isinstance<py::str>(v)) return v.cast<std::string>();
  throw py::type_error(std::string("gpufabric: ") + key + " is a size in bytes, as an int or text such as '1G'");
}

// ---- the simulation, without the GIL -----------------------------------------------------------

gf::ClusterSpec resolve(const ClusterArg& c) {
  if (!c.yaml) return gf::resolve_cluster(c.name, c.over);
  gf::ClusterSpec spec = gf::parse_cluster_yaml(*c.yaml, kDictFile);
  gf::apply_cluster_overrides(spec, c.over);  // a dict's own keys hold nodes and fabric; NCCL_IB_HCA is left
  return spec;
}

gf::Simulation load(const ClusterArg& c) {
  return c.yaml ? gf::Simulation::from_spec(resolve(c), kDictFile, "nodes") : gf::Simulation::load(c.name, c.over, "nodes");
}

struct PerfArgs {
  std::string collective, minbytes, maxbytes, op, datatype, algo, proto, model, routing;
  std::optional<std::string> stepbytes;
  std::optional<double> stepfactor;
  std::optional<int64_t> gpus_per_node;
  int64_t root = 0, seed = 0;
  std::vector<std::pair<std::string, std::string>> env;
};

gf::Bytes size_of(const char* key, const std::string& text) {
  try {
    return gf::parse_size(text);
  } catch (const gf::UnitError& e) {
    throw gf::InputError({}, key, e.what(), "sizes look like 8, '1K', '128M', '8G'");
  }
}

void check_member(const char* key, const std::string& what, const std::string& value, const std::vector<std::string>& valid) {
  if (std::find(valid.begin(), valid.end(), value) == valid.end())
    throw gf::InputError({}, key, "unknown " + what + " '" + value + "'", gf::suggest(value, valid));
}

// The same checks, in the same order, as `gpufabric perf` makes of its flags; the keys are the
// keyword arguments' names.
gf::SweepOptions sweep_options(const PerfArgs& a) {
  gf::SweepOptions s;
  const auto kind = gf::parse_collective(a.collective);
  if (!kind)
    throw gf::InputError({}, "collective", "unknown collective '" + a.collective + "'",
                         gf::suggest(a.collective, gf::collective_names()));
  s.call.kind = *kind;
  const auto type = gf::parse_datatype(a.datatype);
  if (!type)
    throw gf::InputError({}, "datatype", "unknown datatype '" + a.datatype + "'", gf::suggest(a.datatype, gf::datatype_names()));
  s.call.type = *type;
  const auto op = gf::parse_redop(a.op);
  if (!op) throw gf::InputError({}, "op", "unknown reduction '" + a.op + "'", gf::suggest(a.op, {"sum", "prod", "min", "max", "avg"}));
  s.call.redop = *op;
  s.call.root = static_cast<int>(std::clamp<int64_t>(a.root, -1, INT32_MAX));
  s.min_bytes = size_of("minbytes", a.minbytes);
  s.max_bytes = size_of("maxbytes", a.maxbytes);
  for (auto [key, b] : {std::pair{"minbytes", s.min_bytes}, std::pair{"maxbytes", s.max_bytes}})
    if (b > gf::Bytes::gib(1024))
      throw gf::InputError({}, key, std::to_string(b.count()) + " B is more than a GPU could hold", "use at most '1T'");
  if (s.min_bytes > s.max_bytes)
    throw gf::InputError({}, "minbytes", "minimum size " + std::to_string(s.min_bytes.count()) +
                                             " B is larger than maxbytes, " + std::to_string(s.max_bytes.count()) + " B",
                         "make minbytes at most maxbytes");
  const int elem = s.call.type.size;
  for (auto [key, b] : {std::pair{"minbytes", s.min_bytes}, std::pair{"maxbytes", s.max_bytes}})
    if (b.count() % elem != 0)
      throw gf::InputError({}, key, std::to_string(b.count()) + " B is not a multiple of the " + s.call.type.name +
                                        " element size (" + std::to_string(elem) + " B)",
                           "use a multiple of " + std::to_string(elem));
  // nccl-tests' stepping: multiply by stepfactor when it is above 1, else add stepbytes (1M).
  if (a.stepfactor && a.stepbytes && *a.stepfactor > 1)
    throw gf::InputError({}, "stepfactor", "both stepfactor and stepbytes were given",
                         "use stepfactor for a geometric sweep or stepbytes for a linear one");
  if (a.stepfactor && !(*a.stepfactor >= 1 && *a.stepfactor <= 1e6 && *a.stepfactor == std::floor(*a.stepfactor)))
    throw gf::InputError({}, "stepfactor", "the step factor must be a whole number from 1 to 1e6",
                         "use e.g. stepfactor=2 (nccl-tests reads -f as a whole number)");
  if (a.stepfactor && *a.stepfactor > 1) {
    s.factor = *a.stepfactor;
    s.step_bytes = 0;
  } else {
    const gf::Bytes step = a.stepbytes ? size_of("stepbytes", *a.stepbytes) : gf::Bytes::mib(1);
    if (step.count() <= 0) throw gf::InputError({}, "stepbytes", "the step must be greater than zero", "use e.g. '1M'");
    if (step.count() % elem != 0)
      throw gf::InputError({}, "stepbytes", std::to_string(step.count()) + " B is not a multiple of the " +
                                                s.call.type.name + " element size (" + std::to_string(elem) + " B)",
                           "use a multiple of " + std::to_string(elem));
    s.step_bytes = step.count();
  }
  std::vector<std::string> algos = gf::algorithm_names();
  algos.insert(algos.begin(), "auto");
  s.algo = gf::ascii_lower(a.algo);
  check_member("algo", "algorithm", s.algo, algos);
  s.proto = gf::ascii_lower(a.proto);
  check_member("proto", "protocol", s.proto, {"auto", "ll", "ll128", "simple"});
  s.model = gf::ascii_lower(a.model);
  gf::require_model(s.model, {}, "model");
  if (a.seed < 0) throw gf::InputError({}, "seed", "must be 0 or more, got " + std::to_string(a.seed), "use e.g. seed=1");
  s.seed = static_cast<uint64_t>(a.seed);
  s.compare_choices = true;  // as the command line: say when forcing another choice is faster
  const std::string routing = gf::ascii_lower(a.routing);
  check_member("routing", "routing policy", routing, gf::routing_policy_names());
  s.routing = *gf::parse_routing_policy(routing);
  // NCCL's settings as for the command line: the process's NCCL_* variables, then `env`.
  gf::apply_nccl_env(s.nccl, gf::nccl_vars_from_environment(), "environment", s.algo != "auto", s.proto != "auto");
  for (const auto& [k, v] : a.env)
    if (k.rfind("NCCL_", 0) != 0)
      throw gf::InputError({}, "env", "'" + k + "' is not an NCCL_* variable",
                           "gpufabric reads NCCL's settings, e.g. env={'NCCL_COLLNET_ENABLE': '1'}");
  gf::apply_nccl_env(s.nccl, a.env, "env", s.algo != "auto", s.proto != "auto");
  return s;
}

nlohmann::ordered_json run_perf(const PerfArgs& a, const ClusterArg& where) {
  const gf::SweepOptions s = sweep_options(a);
  if (a.gpus_per_node && *a.gpus_per_node < 1)
    throw gf::InputError({}, "gpus_per_node", "must be at least 1", "e.g. gpus_per_node=8");
  ClusterArg nics = where;  // NCCL_IB_HCA chooses NICs, so it acts where the cluster is loaded
  nics.over = gf::with_ib_hca(where.over, s.nccl);
  const gf::Simulation sim = load(nics);
  const gf::Communicator comm = sim.communicator(where.yaml ? 0 : where.over.nodes.value_or(0), a.gpus_per_node.value_or(0));
  if (gf::is_rooted(s.call.kind) && (a.root < 0 || a.root >= comm.nranks))
    throw gf::InputError({}, "root", "root " + std::to_string(a.root) + " is not a rank (there are " +
                                         std::to_string(comm.nranks) + " ranks)",
                         "use root=0.." + std::to_string(comm.nranks - 1));
  return gf::nccl_table_json(s, gf::perf_context(sim, comm, s), sim.sweep(comm, s));
}

// `gpufabric topo CLUSTER --format json`: the summary, with routes when the cluster is small
// enough to build.
nlohmann::json run_topo(const ClusterArg& where) {
  const gf::ClusterSpec spec = resolve(where);
  const gf::ClusterCounts counts = gf::count_cluster(spec);
  const bool buildable = counts.links_directed <= gf::kMaxBuildLinks;
  std::optional<gf::Cluster> built;
  if (buildable) built.emplace(gf::build_cluster(spec));
  gf::TopoSummary s = gf::summarize(spec, built ? &*built : nullptr);
  if (!buildable)
    s.not_built_reason = "the graph would need " + gf::with_commas(counts.links_directed) +
                         " directed links (over the build limit of " + gf::with_commas(gf::kMaxBuildLinks) + ")";
  return gf::summary_json(s);
}

// ---- results out -------------------------------------------------------------------------------

template <class Json>
py::object to_python(const Json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::null: return py::none();
    case nlohmann::json::value_t::boolean: return py::bool_(j.template get<bool>());
    case nlohmann::json::value_t::number_integer: return py::int_(j.template get<int64_t>());
    case nlohmann::json::value_t::number_unsigned: return py::int_(j.template get<uint64_t>());
    case nlohmann::json::value_t::number_float: return py::float_(j.template get<double>());
    case nlohmann::json::value_t::string: return py::str(j.template get_ref<const std::string&>());
    case nlohmann::json::value_t::array: {
      py::list l;
      for (const auto& x : j) l.append(to_python(x));
      return l;
    }
    case nlohmann::json::value_t::object: {
      py::dict d;  // insertion-ordered: the report's key order
      for (auto it = j.begin(); it != j.end(); ++it) d[py::str(it.key())] = to_python(it.value());
      return d;
    }
    default: throw std::runtime_error("gpufabric: a report held a JSON value of an unexpected type");
  }
}

// ---- the functions -----------------------------------------------------------------------------

PerfArgs perf_args(const std::string& collective, py::object minbytes, py::object maxbytes, std::optional<double> stepfactor,
                   py::object stepbytes, std::optional<int64_t> gpus_per_node, const std::string& op,
                   const std::string& datatype, int64_t root, const std::string& algo, const std::string& proto,
                   std::optional<std::string> model, const std::string& routing, int64_t seed, std::optional<py::dict> env) {
  PerfArgs a;
  a.collective = collective;
  a.minbytes = size_text(minbytes, "minbytes");
  a.maxbytes = size_text(maxbytes, "maxbytes");
  a.stepfactor = stepfactor;
  if (!stepbytes.is_none()) a.stepbytes = size_text(stepbytes, "stepbytes");
  a.gpus_per_node = gpus_per_node;
  a.op = op;
  a.datatype = datatype;
  a.root = root;
  a.algo = algo;
  a.proto = proto;
  a.model = model.value_or(gf::default_model_name());
  a.routing = routing;
  a.seed = seed;
  if (env)
    for (auto [k, v] : *env) a.env.emplace_back(py::str(k).cast<std::string>(), py::str(v).cast<std::string>());
  return a;
}

py::object perf(const std::string& collective, py::object cluster, py::object minbytes, py::object maxbytes,
                std::optional<double> stepfactor, py::object stepbytes, std::optional<int64_t> nodes,
                std::optional<int64_t> gpus_per_node, const std::string& op, const std::string& datatype, int64_t root,
                const std::string& algo, const std::string& proto, std::optional<std::string> model,
                const std::string& routing, int64_t seed, std::optional<py::dict> env, const std::string& fabric,
                const std::string& fabric_link) {
  const PerfArgs a = perf_args(collective, minbytes, maxbytes, stepfactor, stepbytes, gpus_per_node, op, datatype, root,
                               algo, proto, model, routing, seed, env);
  const ClusterArg where = cluster_arg(cluster, nodes, fabric, fabric_link);
  nlohmann::ordered_json j;
  {
    py::gil_scoped_release nogil;
    j = run_perf(a, where);
  }
  return to_python(j);
}

// A swept value as the YAML scalar text a --set value is: 2, 1.5, 'ib-ndr', True.
std::string scalar_text(py::handle v, const std::string& key) {
  if (py::isinstance<py::bool_>(v)) return v.cast<bool>() ? "true" : "false";
  if (py::isinstance<py::int_>(v)) return py::str(v).cast<std::string>();
  if (py::isinstance<py::float_>(v)) return py::repr(v).cast<std::string>();
  if (py::isinstance<py::str>(v)) return v.cast<std::string>();
  throw py::type_error("gpufabric: the values swept for '" + key + "' are numbers, strings or booleans, not " +
                       py::type::of(v).attr("__name__").cast<std::string>());
}

// {key: [values]} as axes, in the dict's order (the first varies slowest); `where` names the
// argument in errors ("grid" or "zip").
std::vector<gf::SweepAxis> axes_of(const std::optional<py::dict>& d, const char* where) {
  std::vector<gf::SweepAxis> out;
  if (!d) return out;
  for (auto [k, v] : *d) {
    gf::SweepAxis a;
    a.key = py::str(k).cast<std::string>();
    a.where = {where, 0, 0};
    if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
      for (py::handle x : v) a.values.push_back(scalar_text(x, a.key));
    } else {
      a.values.push_back(scalar_text(v, a.key));
    }
    if (a.values.empty())
      throw gf::InputError({}, where, "'" + a.key + "' has no values", std::string("e.g. ") + where + "={'" + a.key + "': [1, 2]}");
    out.push_back(std::move(a));
  }
  return out;
}

// `gpufabric perf ... --set KEY=V1,V2 [--zip] -j N --format json`: the sweep's rows, in grid order
// however many threads ran them.
py::object sweep(const std::string& collective, py::object cluster, std::optional<py::dict> grid,
                 std::optional<py::dict> zip, int64_t threads, py::object minbytes, py::object maxbytes,
                 std::optional<double> stepfactor, py::object stepbytes, std::optional<int64_t> nodes,
                 std::optional<int64_t> gpus_per_node, const std::string& op, const std::string& datatype, int64_t root,
                 const std::string& algo, const std::string& proto, std::optional<std::string> model,
                 const std::string& routing, int64_t seed, std::optional<py::dict> env, const std::string& fabric,
                 const std::string& fabric_link) {
  if (threads < 1 || threads > 1024)
    throw gf::InputError({}, "threads", "must be from 1 to 1024, got " + std::to_string(threads), "e.g. threads=2");
  if (py::isinstance<py::dict>(cluster))
    throw gf::InputError({}, "cluster", "a sweep reads its cluster by name or file, and sets its keys itself",
                         "write the dict to a file (gpufabric.cluster_yaml(d) gives its text) and pass the path, "
                         "or sweep the keys you changed in grid=");
  const PerfArgs a = perf_args(collective, minbytes, maxbytes, stepfactor, stepbytes, gpus_per_node, op, datatype, root,
                               algo, proto, model, routing, seed, env);
  const ClusterArg where = cluster_arg(cluster, nodes, fabric, fabric_link);
  gf::ParamSweepRequest req;
  req.cluster = where.name;
  req.over = where.over;
  req.gpus_per_node = a.gpus_per_node.value_or(0);
  if (a.gpus_per_node && *a.gpus_per_node < 1)
    throw gf::InputError({}, "gpus_per_node", "must be at least 1", "e.g. gpus_per_node=8");
  req.grid = gf::ParamGrid::combined(axes_of(grid, "grid"), axes_of(zip, "zip"));
  nlohmann::ordered_json j;
  {
    py::gil_scoped_release nogil;
    req.options = sweep_options(a);
    req.options.compare_choices = false;  // as `perf --set`: the rows have no note column for it
    const gf::ParamSweep ps(std::move(req));
    std::optional<gf::ParamPointError> error;
    std::vector<gf::ParamPointResult> results = ps.run(static_cast<int>(threads), {}, &error);
    if (error) gf::throw_point_error(*error);
    j = gf::param_sweep_json(ps.table(std::move(results)));
  }
  return to_python(j);
}

py::object topo(py::object cluster, std::optional<int64_t> nodes, const std::string& fabric, const std::string& fabric_link) {
  const ClusterArg where = cluster_arg(cluster, nodes, fabric, fabric_link);
  nlohmann::json j;
  {
    py::gil_scoped_release nogil;
    j = run_topo(where);
  }
  return to_python(j);
}

py::object run(py::object scenario, std::optional<std::string> model, std::optional<std::string> routing, int top) {
  if (top < 0) throw gf::InputError({}, "top", "must be 0 or more, got " + std::to_string(top), "e.g. top=10");
  std::optional<std::string> text;
  std::string path;
  if (py::isinstance<py::dict>(scenario))
    text = yaml_text(scenario);
  else if (py::isinstance<py::str>(scenario) || py::hasattr(scenario, "__fspath__"))
    path = py::module_::import("os").attr("fspath")(scenario).cast<std::string>();
  else
    throw py::type_error("gpufabric: a scenario is a file path or a dict with the scenario YAML's keys");
  gf::ScenarioOptions opt;
  opt.model = std::move(model);
  opt.routing = std::move(routing);
  opt.top_links = top;
  nlohmann::json j;
  {
    py::gil_scoped_release nogil;
    // A dict's relative `cluster:` path is taken from the working folder, as a file's is from its own.
    const gf::ScenarioSpec spec = text ? gf::parse_scenario_yaml(*text, kDictFile, ".") : gf::load_scenario_file(path);
    j = gf::scenario_json(gf::run_scenario(spec, opt));
  }
  return to_python(j);
}

py::list presets() {
  py::list out;
  for (const auto& p : gf::list_presets()) {
    py::dict d;
    d["name"] = p.name;
    d["kind"] = p.kind;
    d["description"] = p.description;
    d["source"] = p.source;
    out.append(d);
  }
  return out;
}

}  // namespace

PYBIND11_MODULE(_gpufabric, m) {
  m.doc() = "gpufabric's simulations (the C++ part of the gpufabric package; import gpufabric instead)";

  // gf::InputError as gpufabric.InputError, a ValueError carrying the parts the CLI prints: str(e)
  // is the CLI's message, and message, file, line, key and hint are its pieces.
  // The type lives as long as the interpreter; never destroyed, so no reference is dropped after
  // Python has shut down.
  static const auto* input_error = new py::exception<gf::InputError>(m, "InputError", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const gf::InputError& e) {
      py::object err = py::handle(input_error->ptr())(e.what());
      err.attr("message") = e.message();
      err.attr("file") = e.where().file.empty() ? py::object(py::none()) : py::object(py::str(e.where().file));
      err.attr("line") = e.where().line > 0 ? py::object(py::int_(e.where().line)) : py::object(py::none());
      err.attr("key") = e.key();
      err.attr("hint") = e.hint();
      PyErr_SetObject(input_error->ptr(), err.ptr());
    }
  });

  m.def("perf", &perf, py::arg("collective"), py::arg("cluster") = py::none(), py::kw_only(),
        py::arg("minbytes") = "32M", py::arg("maxbytes") = "32M", py::arg("stepfactor") = py::none(),
        py::arg("stepbytes") = py::none(), py::arg("nodes") = py::none(), py::arg("gpus_per_node") = py::none(),
        py::arg("op") = "sum", py::arg("datatype") = "float", py::arg("root") = 0, py::arg("algo") = "auto",
        py::arg("proto") = "auto", py::arg("model") = py::none(), py::arg("routing") = "ecmp", py::arg("seed") = 0,
        py::arg("env") = py::none(), py::arg("fabric") = "", py::arg("fabric_link") = "",
        "`gpufabric perf ... --format json` as a dict");
  m.def("sweep", &sweep, py::arg("collective"), py::arg("cluster") = py::none(), py::kw_only(),
        py::arg("grid") = py::none(), py::arg("zip") = py::none(), py::arg("threads") = 1,
        py::arg("minbytes") = "32M", py::arg("maxbytes") = "32M", py::arg("stepfactor") = py::none(),
        py::arg("stepbytes") = py::none(), py::arg("nodes") = py::none(), py::arg("gpus_per_node") = py::none(),
        py::arg("op") = "sum", py::arg("datatype") = "float", py::arg("root") = 0, py::arg("algo") = "auto",
        py::arg("proto") = "auto", py::arg("model") = py::none(), py::arg("routing") = "ecmp", py::arg("seed") = 0,
        py::arg("env") = py::none(), py::arg("fabric") = "", py::arg("fabric_link") = "",
        "`gpufabric perf ... --set KEY=V1,V2 [--zip] -j N --format json` as a dict");
  m.def("topo", &topo, py::arg("cluster") = py::none(), py::kw_only(), py::arg("nodes") = py::none(),
        py::arg("fabric") = "", py::arg("fabric_link") = "", "`gpufabric topo CLUSTER --format json` as a dict");
  m.def("run", &run, py::arg("scenario"), py::kw_only(), py::arg("model") = py::none(),
        py::arg("routing") = py::none(), py::arg("top") = 10, "`gpufabric run SCENARIO --format json` as a dict");
  m.def("cluster_yaml", &yaml_text, py::arg("cluster"),
        "The YAML text a dict is loaded as: the lines `<dict>:LINE` in an error message count in");
  m.def("presets", &presets, "The named clusters and servers, as `gpufabric list presets` shows them");
}
