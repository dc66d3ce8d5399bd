#include "workload/scenario_yaml.hpp"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "model/packet/packet_yaml.hpp"
#include "config/yaml_fields.hpp"
#include "core/parse_units.hpp"
#include "workload/env_yaml.hpp"

namespace gf {
namespace {

const std::vector<std::string> kTopKeys = {"name", "description", "cluster", "nodes", "model", "routing",
                                           "seed", "share_gpus", "packet", "jobs", "events", "nccl_on_failure"};
const std::vector<std::string> kJobKeys = {"name", "servers", "gpus_per_server", "gpus", "start", "repeat", "gap",
                                           "traffic_class", "env", "calls"};
const std::vector<std::string> kEventKeys = {"at", "down", "up", "degrade", "bandwidth", "compute", "loss", "rtt"};
const std::vector<std::string> kCallKeys = {"collective", "size", "dtype", "op", "root", "algo", "proto", "gap"};

KeyPlaces places_of(const YamlFields& f, const std::string& file, const std::string& path) {
  KeyPlaces p;
  p.path = path;
  p.block = f.where();
  for (auto it = f.node().begin(); it != f.node().end(); ++it) {
    p.keys[it->first.Scalar()] = location_of(it->second, file);  // keys checked scalar by YamlFields
  }
  return p;
}

bool parse_int(std::string_view s, int64_t& v) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && p == s.data() + s.size();
}

std::string trim(std::string s) {
  size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// "0-15", "0-3,8-11", "7", or a YAML list of such items: every index, in the order written.
std::vector<int64_t> index_list(const YamlFields& f, const std::string& key) {
  const YAML::Node n = f.get(key);
  std::vector<std::string> items;
  if (n.IsScalar()) {
    std::stringstream ss(n.Scalar());
    for (std::string part; std::getline(ss, part, ',');) items.push_back(trim(part));
  } else if (n.IsSequence()) {
    for (const auto& e : n) {
      if (!e.IsScalar()) f.fail(key, "expected a list of indices or ranges such as 0-15", "write e.g. `" + key + ": 0-3,8-11`");
      items.push_back(trim(e.Scalar()));
    }
  } else {
    f.fail(key, "expected indices: a range such as 0-15, a list such as [0, 2, 4], or both such as 0-3,8-11", "write e.g. `" + key + ": 0-3`");
  }
  std::vector<int64_t> out;
  for (const std::string& item : items) {
    int64_t a = 0, b = 0;
    const size_t dash = item.find('-', 1);
    bool ok = dash == std::string::npos ? parse_int(item, a) && (b = a, true)
                                        : parse_int(trim(item.substr(0, dash)), a) && parse_int(trim(item.substr(dash + 1)), b);
    if (!ok) f.fail(key, "'" + item + "' is not an index or a range", "write e.g. 0-15 or 0-3,8-11 or [0, 1, 2]");
    if (a < 0 || b < 0) f.fail(key, "'" + item + "': indices start at 0", "the first server or GPU is 0");
    if (b < a) f.fail(key, "range '" + item + "' runs backwards", "write it low-high, e.g. " + std::to_string(b) + "-" + std::to_string(a));
    if (b - a >= (int64_t{1} << 24)) f.fail(key, "range '" + item + "' is too large", "name at most the cluster's servers or GPUs");
    for (int64_t i = a; i <= b; ++i) out.push_back(i);
  }
  if (out.empty()) f.fail(key, "names no index", "write e.g. 0-15");
  return out;
}

// A time that must not be negative; a negative one is a start in the past.
Time time_field(const YamlFields& f, const std::string& key, const char* what) {
  if (!f.has(key)) return Time::zero();
  const YAML::Node n = f.get(key);
  if (n.IsScalar() && !trim(n.Scalar()).empty() && trim(n.Scalar())[0] == '-')
    f.fail(key, std::string(what) + " " + trim(n.Scalar()) + " is in the past: the scenario starts at time 0",
           "use 0us or later");
  return *f.time(key);
}

CallSpec parse_call(const YAML::Node& n, const std::string& file, const std::string& path, Time default_gap) {
  YamlFields f(n, file, path, kCallKeys);
  CallSpec c;
  c.places = places_of(f, file, path);
  c.collective = f.required_string("collective");
  if (!f.has("size")) f.fail("size", "missing", "add e.g. `size: 1G` (the per-rank buffer, as nccl-tests -b)");
  const std::string size = f.required_string("size");
  try {
    c.size = parse_size(size);
  } catch (const UnitError& e) {
    f.fail("size", e.what(), "sizes look like 8, 1K, 128M, 8G");
  }
  if (c.size.count() == 0) f.fail("size", "a call of 0 bytes moves nothing", "use a size of at least one element");
  f.check_range("size", static_cast<double>(c.size.count()));
  c.dtype = f.string_or("dtype", c.dtype);
  c.op = f.string_or("op", c.op);
  c.root = f.integer_or("root", 0, 0);
  c.algo = f.string_or("algo", c.algo);
  c.proto = f.string_or("proto", c.proto);
  c.gap = f.has("gap") ? time_field(f, "gap", "a gap of") : default_gap;
  return c;
}

// A fraction of what a component keeps, in (0, 1].
// Read as text: `bandwidth` is a physical key elsewhere (a link's rate), whose range check would
// refuse a fraction.
double fraction_field(const YamlFields& f, const std::string& key) {
  const YAML::Node n = f.get(key);
  if (!n.IsScalar()) f.fail(key, "expected a fraction such as 0.5", "write e.g. `" + key + ": 0.5`");
  const std::string text = trim(n.Scalar());
  double v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size())
    f.fail(key, "'" + text + "' is not a number", "use a fraction such as 0.5");
  if (!(v > 0) || v > 1)
    f.fail(key, "must be a fraction above 0 and at most 1, got " + f.get(key).Scalar(),
           v > 1 ? "a component cannot be made faster: use e.g. 0.5 for half" : "use `down:` for a component that stops");
  return v;
}

// `- {at: 5ms, down: leaf0-spine0}`, `{at: 8ms, up: ...}`, `{at: 0, degrade: server1/nic3,
// bandwidth: 0.5}`, `{at: 0, degrade: server7/gpu3, compute: 0.8}`.
EventSpec parse_event(const YAML::Node& n, const std::string& file, const std::string& path) {
  if (!n.IsMap())
    throw InputError(location_of(n, file), path, "expected an event such as {at: 5ms, down: leaf0-spine0}",
                     "write `- {at: 5ms, down: leaf0-spine0}` lines under `events:`");
  YamlFields f(n, file, path, kEventKeys);
  EventSpec e;
  e.places = places_of(f, file, path);
  if (!f.has("at")) f.fail("at", "missing: when does it happen?", "add e.g. `at: 5ms` (or `at: 0` for the whole run)");
  // `at: 0` needs no unit: it is the scenario's start.
  const YAML::Node at = f.get("at");
  e.at = at.IsScalar() && trim(at.Scalar()) == "0" ? Time::zero() : time_field(f, "at", "an event at");
  int kinds = 0;
  for (const char* k : {"down", "up", "degrade"})
    if (f.has(k)) ++kinds;
  if (kinds != 1)
    f.fail(kinds == 0 ? "at" : "degrade", kinds == 0 ? "says nothing happens" : "names more than one of down, up and degrade",
           "one event per line: `{at: 5ms, down: leaf0-spine0}`, `{at: 8ms, up: leaf0-spine0}` or "
           "`{at: 0, degrade: server1/nic3, bandwidth: 0.5}`");
  e.kind = f.has("down") ? EventSpec::Kind::Down : f.has("up") ? EventSpec::Kind::Up : EventSpec::Kind::Degrade;
  const std::string key = e.kind == EventSpec::Kind::Down ? "down" : e.kind == EventSpec::Kind::Up ? "up" : "degrade";
  e.component = f.required_string(key);
  if (e.kind != EventSpec::Kind::Degrade) {
    for (const char* k : {"bandwidth", "compute", "loss", "rtt"})
      if (f.has(k)) f.fail(k, "only applies to `degrade:`", "remove it, or write `degrade: " + e.component + "`");
    return e;
  }
  const int what = (f.has("bandwidth") ? 1 : 0) + (f.has("compute") ? 1 : 0) + (f.has("loss") ? 1 : 0);
  if (what != 1)
    f.fail(what == 0 ? "degrade" : f.has("loss") ? "loss" : "compute",
           what == 0 ? "says nothing about what is degraded" : "give one of bandwidth, compute and loss",
           "add `bandwidth: 0.5` (a link, NIC or switch), `loss: 1e-3` (a link's packet loss rate) or `compute: 0.8` "
           "(a GPU)");
  if (f.has("rtt") && !f.has("loss"))
    f.fail("rtt", "only applies with `loss:` (the go-back-N round trip)", "remove it, or add e.g. `loss: 1e-3`");
  if (f.has("bandwidth")) e.bandwidth = fraction_field(f, "bandwidth");
  if (f.has("compute")) e.compute = fraction_field(f, "compute");
  if (f.has("loss")) {
    const YAML::Node n = f.get("loss");
    const std::string text = n.IsScalar() ? trim(n.Scalar()) : std::string();
    double v = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || p != text.data() + text.size() || !(v > 0 && v < 1))
      f.fail("loss", "expected a packet loss rate between 0 and 1 (exclusive), got '" + text + "'",
             "write e.g. `loss: 1e-3`");
    e.loss = v;
    if (f.has("rtt")) {
      e.loss_rtt = time_field(f, "rtt", "a round trip");
      if (e.loss_rtt <= Time::zero()) f.fail("rtt", "the round trip must be above 0", "write e.g. `rtt: 8us`");
    }
  }
  return e;
}

JobSpec parse_job(const YAML::Node& n, const std::string& file, const std::string& path, size_t index) {
  YamlFields f(n, file, path, kJobKeys);
  JobSpec j;
  j.places = places_of(f, file, path);
  j.name = f.string_or("name", "job" + std::to_string(index));
  if (f.has("servers") && f.has("gpus"))
    f.fail("gpus", "both servers and gpus are given", "place a job by `servers:` (with `gpus_per_server:`) or by `gpus:`, not both");
  if (!f.has("servers") && !f.has("gpus"))
    f.fail("servers", "missing: the job runs on no GPU", "add e.g. `servers: 0-3` or `gpus: 0-31`");
  if (f.has("gpus_per_server") && f.has("gpus"))
    f.fail("gpus_per_server", "only applies with `servers:`", "remove it, or place the job by `servers:`");
  if (f.has("servers")) j.servers = index_list(f, "servers");
  if (f.has("gpus")) j.gpus = index_list(f, "gpus");
  if (f.has("gpus_per_server")) j.gpus_per_server = f.integer_or("gpus_per_server", 0, 1);
  j.start = time_field(f, "start", "start time");
  j.repeat = f.integer_or("repeat", 1, 1);
  if (j.repeat > 1000000) f.fail("repeat", "at most 1000000 repetitions", "fewer repetitions give the same mean");
  j.traffic_class = f.integer_or("traffic_class", 0, 0);  // its upper bound needs the packet block: checked below
  if (f.has("env")) j.nccl = parse_env(f, file);
  const Time gap = time_field(f, "gap", "a gap of");
  if (!f.has("calls")) f.fail("calls", "missing: the job is empty", "add `calls:` with at least one `- {collective: all_reduce, size: 1G}`");
  const YAML::Node calls = f.get("calls");
  if (!calls.IsSequence()) f.fail("calls", "expected a list of calls", "write `- {collective: all_reduce, size: 1G}` lines under `calls:`");
  if (calls.size() == 0) f.fail("calls", "the job is empty: it has no calls", "add at least one `- {collective: all_reduce, size: 1G}`");
  for (size_t i = 0; i < calls.size(); ++i)
    j.calls.push_back(parse_call(calls[i], file, path + ".calls[" + std::to_string(i) + "]", gap));
  return j;
}

}  // namespace

bool is_scenario_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  try {
    const YAML::Node root = YAML::LoadFile(path);
    return root.IsMap() && root["jobs"];
  } catch (const std::exception&) {
    return false;  // not YAML: the cluster loader says what it is
  }
}

ScenarioSpec parse_scenario_yaml(const std::string& text, const std::string& file, const std::string& base_dir) {
  YAML::Node root = load_yaml_document(text, file, "start from one of the files in examples/");
  refuse_other_format(root, file, {"server", "servers", "fabric", "link_technologies"}, "this is a cluster file, not a scenario",
                      "use it as `gpufabric perf all_reduce --cluster " + file + "`, or name it in a scenario: `cluster: " +
                          file + "` (examples/)");
  YamlFields f(root, file, "", kTopKeys);
  ScenarioSpec s;
  s.file = file;
  s.places = places_of(f, file, "");
  s.name = f.string_or("name", file);
  s.description = f.string_or("description", "");
  s.cluster = f.required_string("cluster");
  // A cluster file is named relative to the scenario; presets and servers by name.
  if (!base_dir.empty() && std::filesystem::path(s.cluster).is_relative()) {
    std::filesystem::path rel = std::filesystem::path(base_dir) / s.cluster;
    if (std::filesystem::exists(rel)) s.cluster = rel.string();
  }
  if (f.has("nodes")) s.nodes = f.integer_or("nodes", 1, 1);
  s.model = f.string_or("model", s.model);
  s.routing = f.string_or("routing", s.routing);
  s.seed = static_cast<uint64_t>(f.integer_or("seed", 0, 0));
  s.share_gpus = f.boolean_or("share_gpus", false);
  if (f.has("packet")) {
    // Only the packet model reads these settings; under another model they would be ignored
    // without a word, so say so instead.
    if (s.model != "packet")
      f.fail("packet", "the packet: block is read only by the packet model (model is '" + s.model + "')",
             "add `model: packet`, or remove the packet: block");
    s.packet = parse_packet_yaml(f.get("packet"), file, "packet");
  }
  if (!f.has("jobs")) f.fail("jobs", "missing: the scenario runs nothing", "add `jobs:` with at least one job");
  const YAML::Node jobs = f.get("jobs");
  if (!jobs.IsSequence() || jobs.size() == 0)
    f.fail("jobs", "expected a list of at least one job", "write `- name: ...` entries under `jobs:`");
  for (size_t i = 0; i < jobs.size(); ++i) s.jobs.push_back(parse_job(jobs[i], file, "jobs[" + std::to_string(i) + "]", i));
  if (f.has("events")) {
    const YAML::Node events = f.get("events");
    if (!events.IsSequence())
      f.fail("events", "expected a list of events", "write `- {at: 5ms, down: leaf0-spine0}` lines under `events:`");
    for (size_t i = 0; i < events.size(); ++i)
      s.events.push_back(parse_event(events[i], file, "events[" + std::to_string(i) + "]"));
  }
  s.nccl_on_failure = f.string_or("nccl_on_failure", s.nccl_on_failure);
  if (s.nccl_on_failure != "abort" && s.nccl_on_failure != "resilient")
    f.fail("nccl_on_failure", "unknown behaviour '" + s.nccl_on_failure + "'",
           suggest(s.nccl_on_failure, {"abort", "resilient"}));
  for (const JobSpec& j : s.jobs)
    if (j.traffic_class >= s.packet.traffic_classes)
      j.places.fail("traffic_class",
                    "traffic class " + std::to_string(j.traffic_class) + " does not exist: packet.traffic_classes is " +
                        std::to_string(s.packet.traffic_classes) + " (classes 0.." + std::to_string(s.packet.traffic_classes - 1) + ")",
                    "set `traffic_classes: " + std::to_string(j.traffic_class + 1) + "` (or more, up to 8) in the packet: block with " +
                        "`model: packet`, or use a class below " + std::to_string(s.packet.traffic_classes));
  for (size_t i = 0; i < s.jobs.size(); ++i)
    for (size_t k = 0; k < i; ++k)
      if (s.jobs[i].name == s.jobs[k].name)
        s.jobs[i].places.fail("name", "job name '" + s.jobs[i].name + "' is used twice (first by jobs[" + std::to_string(k) + "])",
                              "give every job its own name");
  return s;
}

ScenarioSpec load_scenario_file(const std::string& path) {
  std::ifstream in(path);
  if (!in || std::filesystem::is_directory(path))
    throw InputError({path, 0, 0}, "", std::filesystem::is_directory(path) ? "is a folder, not a file" : "cannot read the file",
                     "check the path to the scenario .yaml");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_scenario_yaml(ss.str(), path, std::filesystem::path(path).parent_path().string());
}

}  // namespace gf
