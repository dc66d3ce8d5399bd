#include "perf_noise.hpp"

#include <fmt/format.h>

namespace gfcli {

void NoiseArgs::add(CLI::App* sub) {
  sub->add_option("--straggler", stragglers,
                  "A GPU that starts every collective late, GPU=+DELAY (repeatable), e.g. server1/gpu3=+20us; "
                  "runs -n iterations");
  sub->add_option("--jitter", jitter,
                  "Random start delay of every rank, drawn per rank and iteration: lognormal:median=2us,sigma=0.5 "
                  "(seeded by --seed); runs -n iterations");
}

gf::NoiseOptions NoiseArgs::options(int64_t iterations, uint64_t seed) const {
  gf::NoiseOptions n;
  if (!any()) return n;
  for (const auto& s : stragglers) n.stragglers.push_back(gf::parse_straggler("--straggler", s));
  if (!jitter.empty()) n.jitter = gf::parse_jitter("--jitter", jitter);
  if (iterations < 1 || iterations > 100000)
    throw gf::InputError({}, "-n", "--straggler and --jitter run -n iterations; got " + std::to_string(iterations),
                         "use e.g. -n 20 (nccl-tests' default)");
  n.iterations = static_cast<int>(iterations);
  n.seed = seed;
  return n;
}

std::string noise_line(const gf::NoiseOptions& n) {
  std::string what;
  for (const auto& s : n.stragglers)
    what += fmt::format("{}{} +{:g} us", what.empty() ? "" : ", ", s.gpu, s.delay.to_us());
  if (n.jitter.any())
    what += fmt::format("{}every rank lognormal median {:g} us sigma {:g} (seed {})", what.empty() ? "" : "; ",
                        n.jitter.median.to_us(), n.jitter.sigma, n.seed);
  return fmt::format("start delays over {} iterations: {}", n.iterations, what);
}

namespace {

std::string held_by(const gf::Communicator& comm, const gf::IterationStats& s) {
  if (s.held_rank < 0) return "-";
  return fmt::format("{} (rank {}) {}/{}", comm.cluster->node_name(comm.gpu[static_cast<size_t>(s.held_rank)]),
                     s.held_rank, s.held_count, s.iterations);
}

// The link or the rank, whichever held the call up in more of its iterations (the rank on a tie).
std::string held_most(const gf::Communicator& comm, const gf::IterationStats& s, const LinkHolder& link, int by_link) {
  if (!link.name.empty() && by_link > 0 && by_link >= s.iterations - by_link)
    return fmt::format("link {} {}/{}", link.name, by_link, s.iterations);
  return held_by(comm, s);
}

// The channel that ended last most often: a degraded rail's channels, or those a slow reducer
// holds; "-" when the channels ended together (a late rank delays them all alike).
std::string channel_held(const gf::IterationStats& s) {
  if (s.held_channel < 0) return "-";
  return fmt::format("channel {} {}/{}", s.held_channel, s.held_channel_count, s.iterations);
}

}  // namespace

int LinkHolder::held(const std::vector<gf::SweepRow>& rows, size_t i) const {
  if (name.empty() || base == nullptr || i >= base->size()) return 0;
  const gf::SweepRow& b = (*base)[i];
  const gf::Time healthy = b.iterations.iterations > 0 ? b.iterations.clean : b.time;
  return gf::iterations_held_by_link(rows[i].iterations, rows[i].iterations.clean - healthy);
}

std::string iterations_text(const gf::Communicator& comm, const gf::NoiseOptions& n,
                            const std::vector<gf::SweepRow>& rows, const LinkHolder& link) {
  std::string out = "#\n# " + noise_line(n) + "\n";
  out += "# time(us) above is the mean; 'last to start' is the rank that started last most often\n";
  if (!link.name.empty())
    out += "# 'held up by': per iteration, the failed link when it cost the call more (its clean time less the\n"
           "# baseline's) than the last rank's start delay, else that rank; the one that did so most often\n";
  out += "# 'last channel': the channel whose last transfer ended last (the lowest of those ending together),\n"
         "# most often ('-': every channel ended together)\n";
  out += fmt::format("# {:>12}  {:>10}  {:>10}  {:>10}  {:>10}  {:>10}  {}{}  |  last channel\n", "size", "clean(us)",
                     "mean(us)", "p50(us)", "p99(us)", "max(us)", "last to start",
                     link.name.empty() ? "" : "  |  held up by");
  for (size_t i = 0; i < rows.size(); ++i) {
    const gf::IterationStats& s = rows[i].iterations;
    if (s.iterations == 0) continue;
    out += fmt::format("# {:>12}  {:>10.2f}  {:>10.2f}  {:>10.2f}  {:>10.2f}  {:>10.2f}  {}{}  |  {}\n",
                       rows[i].size.count(), s.clean.to_us(), s.mean.to_us(), s.p50.to_us(), s.p99.to_us(),
                       s.max.to_us(), held_by(comm, s),
                       link.name.empty() ? "" : "  |  " + held_most(comm, s, link, link.held(rows, i)), channel_held(s));
  }
  return out;
}

void add_iterations_json(nlohmann::ordered_json& j, const gf::Communicator& comm, const gf::NoiseOptions& n,
                         const std::vector<gf::SweepRow>& rows, const LinkHolder& link) {
  nlohmann::ordered_json noise;
  noise["iterations"] = n.iterations;
  noise["seed"] = n.seed;
  nlohmann::ordered_json st = nlohmann::ordered_json::array();
  for (const auto& s : n.stragglers) st.push_back({{"gpu", s.gpu}, {"delay_us", s.delay.to_us()}});
  noise["stragglers"] = st;
  if (n.jitter.any())
    noise["jitter"] = {
        {"distribution", "lognormal"}, {"median_us", n.jitter.median.to_us()}, {"sigma", n.jitter.sigma}};
  j["noise"] = noise;
  if (!j.contains("results")) return;
  auto& results = j["results"];
  for (size_t i = 0; i < results.size() && i < rows.size(); ++i) {
    const gf::IterationStats& s = rows[i].iterations;
    if (s.iterations == 0) continue;
    nlohmann::ordered_json it = {{"clean_time_us", s.clean.to_us()},
                                 {"mean_us", s.mean.to_us()},
                                 {"p50_us", s.p50.to_us()},
                                 {"p99_us", s.p99.to_us()},
                                 {"max_us", s.max.to_us()}};
    if (s.held_rank >= 0)
      it["last_to_start"] = {{"rank", s.held_rank},
                             {"gpu", comm.cluster->node_name(comm.gpu[static_cast<size_t>(s.held_rank)])},
                             {"iterations", s.held_count}};
    if (s.held_channel >= 0) it["last_channel"] = {{"channel", s.held_channel}, {"iterations", s.held_channel_count}};
    if (!link.name.empty()) it["held_by_link"] = {{"link", link.name}, {"iterations", link.held(rows, i)}};
    results[i]["iterations"] = it;
  }
}

}  // namespace gfcli
