#include "workload/scenario_events.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/hash.hpp"
#include "topology/faults.hpp"
#include "workload/scenario_compute.hpp"

namespace gf {

namespace {

std::string time_text(Time t) {
  const double s = t.to_s();
  if (s >= 1) return fmt::format("{:.4g} s", s);
  if (s >= 1e-3) return fmt::format("{:.4g} ms", s * 1e3);
  return fmt::format("{:.4g} us", s * 1e6);
}

const char* kind_key(EventSpec::Kind k) {
  return k == EventSpec::Kind::Down ? "down" : k == EventSpec::Kind::Up ? "up" : "degrade";
}

ComponentLinks resolve(const EventSpec& e, const Cluster& c) {
  ComponentLinks out;
  try {
    out = component_links(c, e.component, kind_key(e.kind));
  } catch (const InputError& err) {
    e.places.fail(kind_key(e.kind), err.message(), err.hint());
  }
  // A whole server goes down and up: its links to the rest of the cluster, so its GPUs are cut
  // off (the abort below). An NVSwitch chip under a running job is a fatal NVLink error, not a
  // stall a transport retries: `perf --fail` prices the state after it.
  if (out.scope == AppliedFault::Scope::NvSwitch)
    e.places.fail(kind_key(e.kind), "'" + e.component + "' is an NVSwitch chip: events do not model one failing "
                  "during a run (its GPUs' kernels fail and the job restarts)",
                  "`gpufabric perf --fail " + e.component + "` gives the state the job restarts into");
  if (out.scope == AppliedFault::Scope::Server && e.kind == EventSpec::Kind::Degrade)
    e.places.fail("degrade", "'" + e.component + "' is a whole server: it goes down or up, not degraded",
                  "degrade one of its NICs (" + e.component + "/nic0) or slow a GPU (compute: 0.8 on " + e.component +
                      "/gpu0)");
  return out;
}

bool touches_nic(const Cluster& c, LinkId l) {
  const Link& link = c.link(l);
  return c.node(link.src).kind == NodeKind::Nic || c.node(link.dst).kind == NodeKind::Nic;
}

// The first retry at or after `after` (measured from the failure): retries fall at ack, 2 ack, ...
int64_t retry_after(Time after, Time ack) {
  return std::max<int64_t>(1, static_cast<int64_t>(std::ceil(after.to_s() / ack.to_s())));
}

}  // namespace

EventPlan plan_events(const std::vector<EventSpec>& events, const Cluster& c, const FailureResponse& r, Time run_end) {
  EventPlan plan;
  plan.windows_of_link.resize(c.links().size());
  std::vector<ComponentLinks> links;
  for (const EventSpec& e : events) {
    // Names first: a typo is the likelier mistake. A GPU's `compute:` has no links
    // (workload/scenario_compute.hpp checks and applies it).
    links.push_back(is_compute_event(e, c) ? ComponentLinks{} : resolve(e, c));
    if (e.at > run_end)
      e.places.fail("at",
                    fmt::format("at {} is after the run: without events the scenario ends at {}", time_text(e.at),
                                time_text(run_end)),
                    "an event after the last job's end changes nothing; use an earlier `at:`");
  }
  // Events in time order (then as written).
  std::vector<size_t> order(events.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return events[a].at < events[b].at; });
  std::vector<double> degrade(c.links().size(), 1.0);  // the fraction a link runs at when not down
  std::vector<Time> down_until(c.links().size(), Time::zero());
  std::vector<char> is_down(c.links().size(), 0);
  const Time ack = r.ack_timeout(), give_up = r.give_up();
  // Per window: whether the fabric's reroute ends it, and its report line's head, for
  // cut_off_earlier below.
  std::vector<char> window_reroutes;
  std::vector<std::pair<size_t, std::string>> window_line;  // (index in plan.lines, head)
  // A window's end gives its links back the fraction they run at then: the last degrade or up
  // before it (events are handled in time order, so flushing ends up to each event's time first
  // sees exactly those).
  std::vector<std::pair<Time, LinkId>> ends;  // (until, pair's forward link)
  auto flush = [&](Time upto) {
    std::stable_sort(ends.begin(), ends.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    size_t k = 0;
    for (; k < ends.size() && ends[k].first <= upto; ++k) {
      const auto [until, l] = ends[k];
      if (down_until[static_cast<size_t>(l)] != until) continue;  // a later down took it over
      is_down[static_cast<size_t>(l)] = 0;
      for (LinkId id : {l, c.link(l).reverse}) plan.changes.push_back({until, id, degrade[static_cast<size_t>(l)]});
    }
    ends.erase(ends.begin(), ends.begin() + static_cast<std::ptrdiff_t>(k));
  };
  for (size_t oi = 0; oi < order.size(); ++oi) {
    const EventSpec& e = events[order[oi]];
    const ComponentLinks& cl = links[order[oi]];
    flush(e.at);
    std::string line = fmt::format("t = {}: {} {}", time_text(e.at), kind_key(e.kind), e.component);
    if (is_compute_event(e, c)) {
      const double f = e.compute ? *e.compute : 1.0;
      if (f >= 1)
        line += ": computes at full speed again (the rest of a gap under way then, and every later one)";
      else
        line += fmt::format(": computes at {:g}% of its speed; its rank starts each call that follows a gap {:.4g} x "
                            "the gap late (the gap's compute takes 1/{:g} as long)",
                            f * 100, 1 / f - 1, f);
      if (f < 1 && e.at > Time::zero()) line += "; a gap under way then computes its rest at this speed";
      plan.lines.push_back(line);
      continue;
    }
    if (e.kind == EventSpec::Kind::Degrade || e.kind == EventSpec::Kind::Up) {
      // A loss is priced as `perf --degrade X=loss:P` prices it: go-back-N's share of each link's
      // own bandwidth over the round trip (topology/faults.hpp loss_efficiency).
      const auto fraction_of = [&](LinkId l) {
        if (e.kind == EventSpec::Kind::Up) return 1.0;
        return e.loss ? loss_efficiency(*e.loss, c.link(l).bandwidth, e.loss_rtt) : *e.bandwidth;
      };
      const double f = cl.links.empty() ? 1.0 : fraction_of(cl.links.front());
      size_t still_down = 0;
      for (LinkId l : cl.links) {
        const double kept = fraction_of(l);
        degrade[static_cast<size_t>(l)] = kept;
        // A link still down keeps capacity 0 until its resume, which takes this fraction.
        if (is_down[static_cast<size_t>(l)]) {
          ++still_down;
          continue;
        }
        for (LinkId id : {l, c.link(l).reverse}) plan.changes.push_back({e.at, id, kept});
      }
      line += fmt::format(": {} link{} at {:g}% of {} bandwidth", cl.links.size(), cl.links.size() == 1 ? "" : "s",
                          f * 100, cl.links.size() == 1 ? "its" : "their");
      if (e.loss)
        line += fmt::format(" (loss {:g}, go-back-N over a {} round trip{})", *e.loss, time_text(e.loss_rtt),
                            cl.links.size() > 1 ? ", the first link's; each link's own bandwidth sets its window" : "");
      if (still_down > 0) line += " (from their resume on: they are still down)";
      plan.lines.push_back(line);
      continue;
    }
    // Down: stall, then resume or abort (header).
    Time up = Time::infinity();
    for (size_t ok = oi + 1; ok < order.size(); ++ok) {
      const EventSpec& u = events[order[ok]];
      if (u.kind != EventSpec::Kind::Up) continue;
      const auto& ul = links[order[ok]].links;
      if (std::any_of(ul.begin(), ul.end(), [&](LinkId l) { return std::find(cl.links.begin(), cl.links.end(), l) != cl.links.end(); })) {
        up = u.at;
        break;
      }
    }
    const bool nic = std::any_of(cl.links.begin(), cl.links.end(), [&](LinkId l) { return touches_nic(c, l); });
    LinkFamily family = LinkFamily::InfiniBand;
    if (!cl.links.empty()) family = c.catalog().tech(c.link(cl.links.front()).tech).family;
    DownWindow w;
    w.component = e.component;
    w.from = e.at;
    // Whether the fabric has a way around at all: with every link down at this instant (earlier
    // windows not over yet, links rerouted around) and this event's, GPUs no route reaches have
    // none; their connections retry until the transport gives up, as a NIC's cable's do.
    std::vector<int64_t> lost;
    if (!nic && c.gpu_count() > 0) {
      Cluster cut = c;
      for (size_t l = 0; l < is_down.size(); ++l)
        if (is_down[l]) cut.take_down(static_cast<LinkId>(l));
      for (LinkId l : cl.links) cut.take_down(l);
      cut.finalize();
      lost = unreachable_gpus(cut, cut.gpu(0));
    }
    // Earlier downs still stalled now (their resume comes by the fabric's reroute, later than
    // this): the way around them, if their transfers need one across this cut, is gone, so a
    // transfer stalled there between a GPU cut off and one still reached cannot complete; its
    // connection retries on the earlier down's clock until the transport gives up, and NCCL
    // aborts then (job_outcomes). Called once this down is known to leave GPUs no route.
    auto cut_off_earlier = [&](const std::string& none) {
      for (size_t wi = 0; wi < plan.windows.size(); ++wi) {
        DownWindow& o = plan.windows[wi];
        if (o.aborts || !window_reroutes[wi] || o.until <= e.at || !o.cut_at.is_infinite()) continue;
        o.cut_at = e.at;
        o.cut_abort = o.from + give_up;
        for (int64_t g : lost) o.cut_off.push_back(c.gpu(g));
        o.why += fmt::format("; from t = {} (down {}) {}: a transfer stalled here to or from them retries until the "
                             "transport gives up (NCCL_IB_RETRY_CNT={}) and NCCL aborts at {}",
                             time_text(e.at), e.component, none, r.retry_cnt, time_text(o.cut_abort));
        plan.lines[window_line[wi].first] = window_line[wi].second + o.why;
      }
    };
    auto cut_text = [&] {
      return fmt::format("no route is left to {} GPU{} (GPU {}{}) with the links down then: transfers to or from {} "
                         "cannot complete",
                         lost.size(), lost.size() == 1 ? "" : "s", lost.front(),
                         lost.size() > 1 ? fmt::format(" .. {}", lost.back()) : "", lost.size() == 1 ? "it" : "them");
    };
    std::string why;
    Time back = Time::infinity();  // when a path is there again, from the failure
    if (nic && r.nccl == NcclOnFailure::Resilient) {
      back = resiliency_delay();
      why = "NCCL's InfiniBand resiliency moves the connections to another NIC after " + time_text(back);
    } else if (!nic && lost.empty()) {
      back = r.reconverge.value_or(reconvergence_time(family, r.routing));
      why = fmt::format("the fabric reroutes after {} ({})", time_text(back),
                        r.reconverge ? "as given" : to_string(family));
    }
    if (!up.is_infinite() && up - e.at < back) {
      back = up - e.at;
      why = "it is up again at " + time_text(up);
    }
    if (back.is_infinite()) {
      w.aborts = true;
      w.until = e.at + give_up;
      const std::string none = nic ? std::string("a NIC's cable has no other path") : cut_text();
      w.why = fmt::format("{}: the transport gives up after NCCL_IB_RETRY_CNT={} retries and NCCL aborts at {}", none,
                          r.retry_cnt, time_text(w.until));
      if (!lost.empty()) cut_off_earlier(none);
    } else if (r.nccl == NcclOnFailure::Resilient && nic && why.rfind("NCCL", 0) == 0) {
      w.until = e.at + back;
      w.why = why + "; the job resumes at " + time_text(w.until);
    } else {
      const int64_t tries = retry_after(back, ack);
      if (tries > r.retry_cnt) {
        w.aborts = true;
        w.until = e.at + give_up;
        w.why = why + fmt::format(", after the transport gave up (NCCL_IB_RETRY_CNT={}): NCCL aborts at {}",
                                  r.retry_cnt, time_text(w.until));
        if (!lost.empty()) cut_off_earlier(cut_text());
      } else {
        w.until = e.at + ack * tries;
        w.why = why + fmt::format("; retry {} (ACK timeout {}) resumes the stalled transfers at {}", tries,
                                  time_text(ack), time_text(w.until));
      }
    }
    // The fabric reroutes (header) when its reconvergence ended the window (so no GPU is cut off).
    const bool reroute = !w.aborts && !nic && why.rfind("the fabric reroutes", 0) == 0;
    const int wi = static_cast<int>(plan.windows.size());
    LinkReroute rr{e.at + back, w.until, {}, {}};
    for (LinkId l : cl.links) {
      is_down[static_cast<size_t>(l)] = 1;
      down_until[static_cast<size_t>(l)] = w.until;
      if (!reroute) ends.emplace_back(w.until, l);
      for (LinkId id : {l, c.link(l).reverse}) {
        plan.changes.push_back({e.at, id, 0.0});
        plan.windows_of_link[static_cast<size_t>(id)].push_back(wi);
        rr.links.push_back(id);
        rr.restore.push_back(degrade[static_cast<size_t>(l)]);
      }
    }
    if (reroute) {
      w.why += fmt::format("; transfers started from {} on take the routes around it, and the stalled ones move "
                           "onto them at {} (the link stays down)",
                           time_text(rr.at), time_text(rr.resume));
      plan.reroutes.push_back(std::move(rr));
    }
    const std::string head = line + fmt::format(": {} link{} down; ", cl.links.size(), cl.links.size() == 1 ? "" : "s");
    window_reroutes.push_back(reroute ? 1 : 0);
    window_line.emplace_back(plan.lines.size(), head);
    plan.lines.push_back(head + w.why);
    plan.windows.push_back(std::move(w));
  }
  flush(Time::infinity());
  return plan;
}

RouterAround::RouterAround(const Cluster& c) : cluster_(std::make_unique<Cluster>(c)) {}
RouterAround::~RouterAround() = default;

void RouterAround::avoid(const std::vector<LinkId>& links) {
  router_.reset();  // it holds the cluster by reference: dropped before the cluster changes
  for (LinkId l : links) cluster_->take_down(l);
  cluster_->finalize();
  router_ = std::make_unique<Router>(*cluster_);
}

Route RouterAround::around(const Path& p) {
  if (p.links.empty() || !router_) return {};
  const NodeId a = cluster_->link(p.links.front()).src, b = cluster_->link(p.links.back()).dst;
  if (cluster_->node(a).kind != NodeKind::Gpu || cluster_->node(b).kind != NodeKind::Gpu) return {};
  // The leg's own links as its flow key: the same leg always hashes the same way.
  uint64_t key = 0x243f6a8885a308d3ull;
  for (LinkId l : p.links) key = mix_hash(key, static_cast<uint64_t>(static_cast<uint32_t>(l)));
  try {
    return router_->route(a, b, key);
  } catch (const std::exception&) {
    return {};  // no route there
  }
}

std::string JobEventOutcome::text() const {
  switch (kind) {
    case Kind::Unaffected:
      return "unaffected";
    case Kind::Degraded:
      return "continues degraded";
    case Kind::Stalled:
      return fmt::format("stalls at {} for {} ({}), then continues", time_text(first_stall), time_text(stall), cause);
    case Kind::Aborted:
      return fmt::format("stalls at {} ({}); NCCL aborts at {}", time_text(first_stall), cause, time_text(abort_at));
  }
  return "";
}

std::vector<JobEventOutcome> job_outcomes(const Cluster& c, const EventPlan& plan, const std::vector<LinkStall>& stalls,
                                          const std::vector<int32_t>& offsets, const std::vector<Time>& ends,
                                          const std::vector<Time>& baseline_ends, bool degraded_any) {
  std::vector<JobEventOutcome> out(offsets.size());
  // Per job and window: the first stall inside it, and whether a stalled leg there joins a GPU a
  // later down cut off to one still reached (the window's cut_off).
  std::vector<std::vector<Time>> first(offsets.size(), std::vector<Time>(plan.windows.size(), Time::infinity()));
  std::vector<std::vector<char>> cut(offsets.size(), std::vector<char>(plan.windows.size(), 0));
  auto separated = [&](const DownWindow& w, const LinkStall& s) {
    if (w.cut_off.empty() || s.leg_first < 0 || s.leg_last < 0) return false;
    const NodeId a = c.link(s.leg_first).src, b = c.link(s.leg_last).dst;
    if (c.node(a).kind != NodeKind::Gpu || c.node(b).kind != NodeKind::Gpu) return false;  // a switch's leg
    const bool lost_a = std::find(w.cut_off.begin(), w.cut_off.end(), a) != w.cut_off.end();
    const bool lost_b = std::find(w.cut_off.begin(), w.cut_off.end(), b) != w.cut_off.end();
    return lost_a != lost_b;
  };
  for (const LinkStall& s : stalls) {
    const auto j = static_cast<size_t>(std::upper_bound(offsets.begin(), offsets.end(), s.id) - offsets.begin()) - 1;
    for (int wi : plan.windows_of_link[static_cast<size_t>(s.link)]) {
      const DownWindow& w = plan.windows[static_cast<size_t>(wi)];
      if (s.at >= w.from && s.at < w.until) {
        first[j][static_cast<size_t>(wi)] = std::min(first[j][static_cast<size_t>(wi)], s.at);
        if (separated(w, s)) cut[j][static_cast<size_t>(wi)] = 1;
      }
    }
  }
  for (size_t j = 0; j < out.size(); ++j) {
    JobEventOutcome& o = out[j];
    o.baseline_end = baseline_ends[j];
    o.first_stall = Time::infinity();
    o.abort_at = Time::infinity();
    for (size_t wi = 0; wi < plan.windows.size(); ++wi) {
      const Time f = first[j][wi];
      if (f.is_infinite()) continue;
      const DownWindow& w = plan.windows[wi];
      if (f < o.first_stall) {
        o.first_stall = f;
        o.cause = w.component;
      }
      if (w.aborts || cut[j][wi]) {
        const Time at = w.aborts ? w.until : w.cut_abort;
        if (at < o.abort_at) o.abort_at = at;
        o.kind = JobEventOutcome::Kind::Aborted;
      } else {
        o.stall += w.until - f;
        if (o.kind != JobEventOutcome::Kind::Aborted) o.kind = JobEventOutcome::Kind::Stalled;
      }
    }
    if (o.kind == JobEventOutcome::Kind::Unaffected && degraded_any && ends[j] != baseline_ends[j])
      o.kind = JobEventOutcome::Kind::Degraded;
  }
  return out;
}

}  // namespace gf
