#include "topology/faults.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <deque>

#include "core/parse_units.hpp"
#include "topology/bundle.hpp"
#include "topology/whole_faults.hpp"

namespace gf {
namespace {

const char* kNameHint =
    "name it as `gpufabric topo --path` and `topo --format yaml` do: server3/nic5, leaf12, "
    "spine3, leaf12-spine3, leaf12-spine3#2, a whole server3, an NVSwitch chip server0/nvswitch2 (NVL72: "
    "nvl-domain0/nvswitch5, nvl-domain0/switch-tray3)";

// Every name a user could have meant, for the did-you-mean: fabric switches, server 0's devices
// (and those of the server the name points at), GPUs by index.
std::vector<std::string> candidates(const Cluster& c, const std::string& name) {
  std::vector<std::string> out;
  int64_t server = 0;
  if (name.rfind("server", 0) == 0) {
    const size_t slash = name.find('/');
    const std::string digits = name.substr(6, slash == std::string::npos ? std::string::npos : slash - 6);
    int64_t v = 0;
    auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
    if (ec == std::errc() && p == digits.data() + digits.size() && v >= 0 && v < c.servers()) server = v;
  }
  for (size_t i = 0; i < c.server_template().nodes.size(); ++i)
    if (c.server_template().nodes[i].kind == NodeKind::Nic)
      out.push_back(fmt::format("server{}/{}", server, c.server_template().nodes[i].name));
  const auto first_fabric = static_cast<NodeId>(c.servers() * c.nodes_per_server());
  for (auto n = first_fabric; n < static_cast<NodeId>(c.nodes().size()); ++n) out.push_back(c.node_name(n));
  for (auto& w : whole_component_names(c, server)) out.push_back(std::move(w));
  return out;
}

[[noreturn]] void unknown(const Cluster& c, const std::string& name, const std::string& whole,
                          const std::string& flag) {
  std::string hint = suggest(name, candidates(c, name));
  if (hint.size() > 300) hint = hint.substr(0, hint.rfind(',', 300)) + ", ...";
  throw InputError({}, flag, "no component named '" + name + "'" + (name == whole ? "" : " in '" + whole + "'"),
                   hint + "; " + kNameHint);
}

NodeId node_named(const Cluster& c, const std::string& name, const std::string& whole, const std::string& flag) {
  const NodeId n = c.find_node(name);
  if (n == kNoNode) unknown(c, name, whole, flag);
  return n;
}

// A node's links that a failure of it takes out: a NIC's cables to the fabric (or to another
// server's NIC), every link of a fabric-level node. In-server devices and GPUs are refused: a
// failed GPU or PCIe switch stops the job (gpufabric goodput costs that), it does not reroute it.
std::vector<LinkId> node_links(const Cluster& c, NodeId n, const std::string& name, const std::string& flag) {
  const Node& node = c.node(n);
  if (node.server >= 0 && node.kind != NodeKind::Nic)
    throw InputError({}, flag,
                     "'" + name + "' is a " + to_string(node.kind) + " inside a server; only NICs, NVSwitch chips, " +
                         "switches, the links between them and whole servers can fail or degrade here",
                     "a failed GPU stops the job: `gpufabric goodput` costs that, and `--fail server" +
                         std::to_string(node.server) + "` takes its server out; a slow GPU is --degrade " + name +
                         "=0.5 (its reductions at half speed)");
  std::vector<LinkId> out;
  for (LinkId l : c.out_links(n)) {
    const Node& other = c.node(c.link(l).dst);
    if (node.server >= 0 && other.server == node.server) continue;  // a NIC's PCIe side stays
    out.push_back(std::min(l, c.link(l).reverse));
  }
  return out;
}

double number(const std::string& flag, const std::string& v, const std::string& what, const std::string& hint) {
  double f = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), f);
  if (ec != std::errc() || p != v.data() + v.size() || !std::isfinite(f))
    throw InputError({}, flag, "'" + v + "' is not " + what, hint);
  return f;
}

// A data-centre fabric's round trip when none is given: a few microseconds of wire, switch and
// NIC delay each way across three tiers. An assumption, not a measurement: give rtt= for yours.
constexpr double kDefaultLossRttUs = 10;

// "latency:+5us", "loss:1e-4", "loss:1e-4,rtt=8us": keep = 1 (the bandwidth stays), and what changes.
void parse_latency_or_loss(const std::string& flag, const std::string& v, FaultRequest& r) {
  r.keep = 1;
  const size_t colon = v.find(':');
  const std::string kind = v.substr(0, colon), rest = v.substr(colon + 1);
  if (kind == "latency") {
    const std::string hint = "e.g. --degrade leaf0-spine1=latency:+5us (added each way)";
    try {
      r.extra_latency = parse_time(rest.empty() || rest[0] != '+' ? rest : rest.substr(1));
    } catch (const UnitError& e) {
      throw InputError({}, flag, "'" + rest + "': " + e.what(), hint);
    }
    if (r.extra_latency <= Time::zero() || r.extra_latency > Time::s(1))
      throw InputError({}, flag, "added latency '" + rest + "' must be above 0 and at most 1 s", hint);
    return;
  }
  const std::string hint = "e.g. --degrade server1/nic3=loss:1e-4 or loss:1e-4,rtt=8us (a packet loss rate)";
  const size_t comma = rest.find(',');
  r.loss = number(flag, rest.substr(0, comma), "a loss rate", hint);
  if (!(r.loss > 0 && r.loss < 1))
    throw InputError({}, flag, "loss rate '" + rest.substr(0, comma) + "' must be between 0 and 1 (exclusive)", hint);
  r.loss_rtt = Time::us(kDefaultLossRttUs);
  if (comma != std::string::npos) {
    const std::string kv = rest.substr(comma + 1);
    if (kv.rfind("rtt=", 0) != 0) throw InputError({}, flag, "unknown loss parameter '" + kv + "'", hint);
    try {
      r.loss_rtt = parse_time(kv.substr(4));
    } catch (const UnitError& e) {
      throw InputError({}, flag, "'" + kv + "': " + e.what(), hint);
    }
    if (r.loss_rtt <= Time::zero()) throw InputError({}, flag, "the round trip must be above 0", hint);
  }
}

// A server or an NVSwitch chip degraded, or an NVL72 domain's chip or tray down or degraded
// (its share of every GPU's plane link). A server is down or up: its NICs degrade, not it.
void apply_whole_fault(Cluster& c, const FaultRequest& f, const ComponentLinks& cl, AppliedFault& a) {
  if (cl.scope == AppliedFault::Scope::Server)
    throw InputError({}, f.flag, "'" + f.component + "' is a whole server: it is down (--fail) or up, not degraded",
                     "degrade its NICs (e.g. --degrade " + f.component + "/nic0=0.5) or its links; a slow GPU is "
                     "--straggler");
  if (f.extra_latency > Time::zero() || f.loss > 0) {
    if (cl.share > 0)
      throw InputError({}, f.flag, "'" + f.component + "': latency or loss on some chips of an NVLink domain is not "
                       "modelled (each GPU's NVLinks to the domain are one bonded link here)",
                       "give a bandwidth fraction, e.g. --degrade " + f.component + "=0.5, or --fail it");
    for (LinkId l : cl.links) {
      if (f.extra_latency > Time::zero()) c.add_latency(l, f.extra_latency);
      if (f.loss > 0 && !f.loss_as_drops)
        c.set_capacity(l, c.link(l).bandwidth * loss_efficiency(f.loss, c.link(l).bandwidth, f.loss_rtt), c.link(l).lanes);
    }
    if (f.loss > 0 && f.loss_as_drops) a.loss = f.loss;
    a.effect = fmt::format("NVSwitch chip: {} links {}", cl.links.size(),
                           f.loss > 0 ? fmt::format("at loss {:g} ({})", f.loss,
                                                    f.loss_as_drops ? "packet drops, go-back-N" : "go-back-N")
                                      : fmt::format("+{:g} us latency each way", f.extra_latency.to_us()));
    return;
  }
  if (cl.share == 0) {
    // An in-server chip degraded: its own links at the fraction.
    for (LinkId l : cl.links) c.set_capacity(l, c.link(l).bandwidth * f.keep, c.link(l).lanes);
    a.effect = fmt::format("NVSwitch chip at {:.4g}% of its bandwidth ({} links)", f.keep * 100, cl.links.size());
    return;
  }
  // The named chips carry `share` of each GPU's plane link: down, that part goes; degraded to F,
  // it runs at F.
  const double left = 1 - cl.share * (1 - f.keep);
  for (LinkId l : cl.links) {
    const Link& link = c.link(l);
    const int lanes = f.keep > 0 ? link.lanes : static_cast<int>(std::lround(link.lanes * left));
    c.set_capacity(l, link.bandwidth * left, lanes);
  }
  a.effect = f.keep > 0 ? fmt::format("{} at {:.4g}%: each GPU's NVLink bandwidth to the domain at {:.4g}%",
                                      f.component, f.keep * 100, left * 100)
                        : cl.what;
}

}  // namespace

double loss_efficiency(double loss, Bandwidth bw, Time rtt) {
  const double window = std::max(1.0, std::ceil(bw.bytes_per_second() * rtt.to_s() / 4096.0));
  return (1 - loss) / (1 + (window - 1) * loss);
}

FaultRequest parse_fault(const std::string& flag, const std::string& text) {
  FaultRequest r;
  r.flag = flag;
  if (flag == "--fail") {
    r.component = text;
  } else {
    // The component ends at "=latency:" or "=loss:" (whose own parameters hold '='), else at the last '='.
    size_t eq = text.find("=latency:");
    if (eq == std::string::npos) eq = text.find("=loss:");
    if (eq == std::string::npos) eq = text.rfind('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError({}, flag, "'" + text + "' is not COMPONENT=FRACTION", "e.g. --degrade server1/nic3=0.5");
    r.component = text.substr(0, eq);
    const std::string v = text.substr(eq + 1);
    if (v.rfind("latency:", 0) == 0 || v.rfind("loss:", 0) == 0) {
      parse_latency_or_loss(flag, v, r);
      if (r.component.empty()) throw InputError({}, flag, "no component named", kNameHint);
      return r;
    }
    double f = 0;
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), f);
    if (ec != std::errc() || p != v.data() + v.size() || !std::isfinite(f) || f <= 0 || f >= 1)
      throw InputError({}, flag, "'" + v + "' is not a fraction between 0 and 1 (exclusive)",
                       "the fraction of bandwidth left, e.g. 0.5; use --fail for a component that is down");
    r.keep = f;
  }
  if (r.component.empty()) throw InputError({}, flag, "no component named", kNameHint);
  return r;
}

ComponentLinks component_links(const Cluster& c, const std::string& whole, const std::string& flag) {
  ComponentLinks out;
  std::string name = whole;
  const size_t hash = name.find('#');
  if (hash != std::string::npos) {
    const std::string k = name.substr(hash + 1);
    auto [p, ec] = std::from_chars(k.data(), k.data() + k.size(), out.cable);
    if (ec != std::errc() || p != k.data() + k.size() || out.cable < 1)
      throw InputError({}, flag, "'" + whole + "': the cable after # must be a number from 1", "e.g. leaf0-spine1#2");
    name = name.substr(0, hash);
  }
  // A whole server or an NVSwitch chip (topology/whole_faults.hpp), then a node (names such as
  // "torus-router3" hold a dash), then "A-B" at each dash.
  std::optional<ComponentLinks> unit = server_component(c, name, flag);
  if (!unit) unit = nvswitch_component(c, name, flag);
  if (unit) {
    if (out.cable > 0)
      throw InputError({}, flag, "'" + whole + "': #k names one cable of a link, not of a device",
                       "name the link by its two ends, e.g. leaf0-spine1#2");
    return *unit;
  }
  if (c.find_node(name) != kNoNode) {
    if (out.cable > 0)
      throw InputError({}, flag, "'" + whole + "': #k names one cable of a link, not of a device",
                       "name the link by its two ends, e.g. leaf0-spine1#2");
    out.links = node_links(c, c.find_node(name), name, flag);
    return out;
  }
  for (size_t dash = name.find('-'); dash != std::string::npos; dash = name.find('-', dash + 1)) {
    const NodeId a = c.find_node(name.substr(0, dash)), b = c.find_node(name.substr(dash + 1));
    if (a == kNoNode || b == kNoNode) continue;
    for (LinkId l : c.out_links(a))
      if (c.link(l).dst == b) out.links.push_back(std::min(l, c.link(l).reverse));
    if (out.links.empty())
      throw InputError(
          {}, flag, "'" + name.substr(0, dash) + "' and '" + name.substr(dash + 1) + "' are not cabled to each other",
          "a link is named by two devices with a cable between them, e.g. leaf0-spine0");
    if (out.cable > 0) {
      // Each cable is its own link (topology/bundle.hpp); #k is the k-th in link-id order, down
      // ones counted.
      const std::vector<LinkId> bundle = bundle_links(c, out.links.front());
      const int cables = static_cast<int>(bundle.size());
      if (out.cable > cables)
        throw InputError({}, flag, fmt::format("'{}': there {} {} parallel cable{}, not {}", whole,
                                               cables == 1 ? "is" : "are", cables, cables == 1 ? "" : "s", out.cable),
                         fmt::format("use #1 to #{}", cables));
      out.links = {bundle[static_cast<size_t>(out.cable - 1)]};
    }
    return out;
  }
  // "A-B" with an unknown end names that end, unless the whole name is a typo of a component
  // (NVL72 chips and trays hold dashes: nvl-domain0/switch-tray3).
  const size_t dash = name.find('-');
  if (dash != std::string::npos && closest_match(name, candidates(c, name)).empty()) {
    const std::string left = name.substr(0, dash), right = name.substr(dash + 1);
    node_named(c, left, whole, flag);
    node_named(c, right, whole, flag);
  }
  unknown(c, name, whole, flag);
}

std::vector<AppliedFault> apply_faults(Cluster& c, const std::vector<FaultRequest>& faults) {
  std::vector<AppliedFault> out;
  for (const FaultRequest& f : faults) {
    // A slow GPU: no link changes; it reduces at a fraction of its speed (AppliedFault::compute).
    if (const NodeId g = c.find_node(f.component); g != kNoNode && c.node(g).kind == NodeKind::Gpu && f.keep > 0) {
      if (f.extra_latency > Time::zero() || f.loss > 0)
        throw InputError({}, f.flag, "'" + f.component + "' is a GPU: it is slowed by a fraction of its speed",
                         "e.g. --degrade " + f.component + "=0.5 (its reductions at half speed)");
      AppliedFault a{f.component,
                     fmt::format("computes at {:.4g}%: its reductions share {:.4g}% of its HBM-bound reduce rate",
                                 f.keep * 100, f.keep * 100),
                     {}, AppliedFault::Scope::Links, -1, false};
      a.gpu = g;
      a.compute = f.keep;
      out.push_back(std::move(a));
      continue;
    }
    ComponentLinks cl = component_links(c, f.component, f.flag);
    AppliedFault a{f.component, "", cl.links, cl.scope, cl.server, f.keep == 0};
    if (cl.scope != AppliedFault::Scope::Links && (f.keep > 0 || cl.share > 0)) {
      apply_whole_fault(c, f, cl, a);
      out.push_back(std::move(a));
      continue;
    }
    if (!cl.links.empty() && f.extra_latency > Time::zero()) {
      // Both directions of each pair.
      for (LinkId l : cl.links) c.add_latency(l, f.extra_latency);
      a.effect = fmt::format("{} link{} +{:g} us latency each way", cl.links.size(), cl.links.size() == 1 ? "" : "s",
                             f.extra_latency.to_us());
      out.push_back(std::move(a));
      continue;
    }
    double keep = f.keep;
    std::string loss_note;
    if (!cl.links.empty() && f.loss > 0 && f.loss_as_drops) {
      // The packet model drops packets at the rate; the links keep their bandwidth.
      a.loss = f.loss;
      a.effect = cl.cable > 0 ? fmt::format("cable {} of {}", cl.cable, bundle_links(c, cl.links.front()).size())
                              : fmt::format("{} link{}", cl.links.size(), cl.links.size() == 1 ? "" : "s");
      a.effect += fmt::format(" at loss {:g} (packet drops, go-back-N)", f.loss);
      out.push_back(std::move(a));
      continue;
    }
    if (!cl.links.empty() && f.loss > 0) {
      // The window is set by one cable's bandwidth (a flow hashes onto one cable).
      keep = loss_efficiency(f.loss, c.link(cl.links.front()).bandwidth, f.loss_rtt);
      loss_note = fmt::format(" (loss {:g}, go-back-N over a {:g} us round trip)", f.loss, f.loss_rtt.to_us());
    }
    if (cl.links.empty()) {
      a.effect = "no links (already down or not cabled)";
    } else if (cl.scope != AppliedFault::Scope::Links) {
      // A whole server or an in-server NVSwitch chip down: every link of it.
      for (LinkId l : cl.links) c.take_down(l);
      a.effect = cl.what;
    } else if (cl.cable > 0) {
      // One cable of a bundle: its own link, so only the flows hashed onto it are touched.
      const LinkId l = cl.links.front();
      a.effect = fmt::format("cable {} of {} {}{}", cl.cable, bundle_links(c, l).size(),
                             keep > 0 ? fmt::format("at {:.4g}%", keep * 100) : std::string("down"), loss_note);
      if (keep > 0)
        c.set_capacity(l, c.link(l).bandwidth * keep, c.link(l).lanes);
      else
        c.take_down(l);
    } else {
      for (LinkId l : cl.links) {
        if (keep > 0)
          c.set_capacity(l, c.link(l).bandwidth * keep, c.link(l).lanes);
        else
          c.take_down(l);
      }
      a.effect = fmt::format(
          "{} link{} {}{}", cl.links.size(), cl.links.size() == 1 ? "" : "s",
          keep > 0 ? fmt::format("at {:.4g}% of {} bandwidth", keep * 100, cl.links.size() == 1 ? "its" : "their")
                   : std::string("down"),
          loss_note);
    }
    out.push_back(std::move(a));
  }
  c.finalize();
  return out;
}

std::vector<int64_t> unreachable_gpus(const Cluster& c, NodeId from) {
  std::vector<char> seen(c.nodes().size(), 0);
  std::deque<NodeId> q{from};
  seen[static_cast<size_t>(from)] = 1;
  const int32_t home = c.node(from).server;
  while (!q.empty()) {
    const NodeId n = q.front();
    q.pop_front();
    const Node& node = c.node(n);
    if (node.kind == NodeKind::Gpu && n != from) continue;
    for (LinkId l : c.out_links(n)) {
      const NodeId m = c.link(l).dst;
      // Inside another server, traffic only goes down to its GPUs, never back out.
      if (node.server >= 0 && node.server != home && c.node(m).server != node.server) continue;
      if (!seen[static_cast<size_t>(m)]) seen[static_cast<size_t>(m)] = 1, q.push_back(m);
    }
  }
  std::vector<int64_t> out;
  for (int64_t g = 0; g < c.gpu_count(); ++g)
    if (!seen[static_cast<size_t>(c.gpu(g))]) out.push_back(g);
  return out;
}

}  // namespace gf
