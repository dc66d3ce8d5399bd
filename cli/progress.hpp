// A progress line on stderr for work that takes more than about two seconds, only when stderr is
// a terminal (scripts and CI stay quiet): how far (steps, and inside a simulation the simulated
// time it has reached and the share of its transfers finished), the model events processed per
// second of wall time, how long so far, and an estimate of what is left from the pace so far. The
// line is cleared when the work ends; stdout is never touched.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <gpufabric/gpufabric.hpp>

namespace gfcli {

class Progress {
 public:
  // GPUFABRIC_PROGRESS_AFTER_S overrides the two seconds (the tests set 0, so a fast machine
  // still shows the line).
  explicit Progress(std::string what) : what_(std::move(what)), on_(isatty(STDERR_FILENO) == 1) {
    if (const char* v = std::getenv("GPUFABRIC_PROGRESS_AFTER_S")) quiet_s_ = std::atof(v);
  }
  ~Progress() { finish(); }
  // Whether a line is shown at all (stderr is a terminal): off one, nothing needs following.
  bool on() const { return on_; }
  // How often the engine looks in (engine/run_tick.hpp): at every model event, as the flow model
  // can spend seconds in a handful of them (a 1 GiB all-reduce on 128 GPUs: about four). The line
  // is redrawn when the share of transfers finished moves by a whole percent, or after 100 ms.
  static constexpr size_t kTickEvents = 1;
  // Clears the line; call before printing results.
  void finish() {
    if (shown_) std::fprintf(stderr, "\r%*s\r", static_cast<int>(width_), "");
    shown_ = false;
  }
  // `done` of `total` steps finished; `detail` names the last one. The step running now has not
  // been followed yet.
  void update(size_t done, size_t total, const std::string& detail) {
    done_ = done, total_ = total, detail_ = detail, inside_ = 0, now_ = gf::Time::zero(), ticked_ = false;
    run_.clear();
    events_done_ += events_now_;
    events_now_ = 0;
    show();
  }
  // The step running now goes on with another simulation, `run` (perf's runs of the options the
  // choice did not take, after the chosen one's): the line names it and follows it from 0 %.
  void run(const std::string& run) {
    run_ = run, inside_ = 0, now_ = gf::Time::zero(), ticked_ = false;
    events_done_ += events_now_;
    events_now_ = 0;
    show();
  }
  // The simulation running is `name` (a scenario's run of the jobs, or of one job alone): when
  // that is a new one (another name, or `fresh`), the estimate of what is left starts again from
  // its own pace.
  void phase(const std::string& name, bool fresh = false) {
    if (!fresh && name == detail_ && total_ == 0) return;
    detail_ = name, total_ = 0, done_ = 0, inside_ = 0, now_ = gf::Time::zero();
    run_.clear();
    events_done_ += events_now_;
    events_now_ = 0;
    phase_start_ = std::chrono::steady_clock::now();
  }
  // Inside the simulation running now (engine/run_tick.hpp): simulated time reached, its events
  // so far, the share of its transfers finished.
  void tick(gf::Time now, size_t events, double done) {
    const double before = inside_;
    now_ = now, events_now_ = events, inside_ = std::clamp(done, 0.0, 1.0), ticked_ = true;
    if (!on_) return;
    const auto t = std::chrono::steady_clock::now();
    const bool moved = static_cast<int>(100 * inside_) != static_cast<int>(100 * before);
    if (shown_ && !moved && t - last_shown_ < std::chrono::milliseconds(100)) return;
    show();
  }
  // A step's simulation ended with `events` model events, having simulated `simulated`.
  void end_run(size_t events, gf::Time simulated) {
    events_done_ += events;
    events_now_ = 0;
    simulated_ = simulated_ + simulated;
  }

 private:
  void show() {
    if (!on_) return;
    const auto t = std::chrono::steady_clock::now();
    const double s = std::chrono::duration<double>(t - start_).count();
    if (s < quiet_s_) return;
    // Share of the work done: steps and the share of the one running; or, in a phase, its share.
    const double phase_s = std::chrono::duration<double>(t - phase_start_).count();
    const double frac = total_ > 0 ? (static_cast<double>(done_) + inside_) / static_cast<double>(total_) : inside_;
    const double basis = total_ > 0 ? s : phase_s;
    std::string line = "\r" + what_ + ": ";
    if (total_ > 0)
      line += std::to_string(done_) + "/" + std::to_string(total_) + " (" + detail_ + (run_.empty() ? "" : "; " + run_) + ")";
    else line += detail_;
    char buf[160];
    if (ticked_) {
      std::snprintf(buf, sizeof buf, ", simulated %s, %.0f%% of its transfers", time_text(now_).c_str(), 100 * inside_);
      line += buf;
    } else if (simulated_ > gf::Time::zero()) {
      line += ", simulated " + time_text(simulated_) + " in all";
    }
    const double events = static_cast<double>(events_done_ + events_now_);
    if (events > 0) line += ", " + rate_text(s > 0 ? events / s : 0) + " events/s";
    std::snprintf(buf, sizeof buf, ", %.0f s so far", s);
    line += buf;
    if (frac > 0) {
      // In a phase only its own end can be foreseen (how many phases follow is not known).
      std::snprintf(buf, sizeof buf, total_ > 0 ? ", about %.0f s left " : ", about %.0f s left in this one ",
                    basis * (1 - frac) / frac);
      line += buf;
    } else {
      line += " ";
    }
    width_ = std::max(width_, line.size() - 1);
    std::fputs(line.c_str(), stderr);
    std::fflush(stderr);
    shown_ = true;
    last_shown_ = t;
  }
  static std::string time_text(gf::Time t) {
    char buf[32];
    const double s = t.to_s();
    if (s >= 1) std::snprintf(buf, sizeof buf, "%.3g s", s);
    else if (s >= 1e-3) std::snprintf(buf, sizeof buf, "%.3g ms", s * 1e3);
    else std::snprintf(buf, sizeof buf, "%.3g us", s * 1e6);
    return buf;
  }
  static std::string rate_text(double r) {
    char buf[32];
    if (r >= 1e6) std::snprintf(buf, sizeof buf, "%.1f M", r / 1e6);
    else if (r >= 1e3) std::snprintf(buf, sizeof buf, "%.1f k", r / 1e3);
    else std::snprintf(buf, sizeof buf, "%.0f", r);
    return buf;
  }

  double quiet_s_ = 2.0;
  std::string what_;
  bool on_;
  bool shown_ = false;
  size_t width_ = 0;
  size_t done_ = 0, total_ = 0;
  std::string detail_;
  std::string run_;  // the step's simulation followed now, when not its first (run())
  double inside_ = 0;  // share of the running simulation's transfers finished
  gf::Time now_ = gf::Time::zero();
  gf::Time simulated_ = gf::Time::zero();  // the steps' simulations ended so far, added up
  bool ticked_ = false;
  size_t events_done_ = 0, events_now_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point phase_start_ = start_;
  std::chrono::steady_clock::time_point last_shown_ = start_;
};

}  // namespace gfcli
