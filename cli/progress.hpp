// A progress line on stderr for work that takes more than about two seconds, only when stderr is
// a terminal (scripts and CI stay quiet): how far, how long so far, and an estimate of what is
// left from the pace so far. The line is cleared when the work ends.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace gfcli {

class Progress {
 public:
  // GPUFABRIC_PROGRESS_AFTER_S overrides the two seconds (the tests set 0, so a fast machine
  // still shows the line).
  explicit Progress(std::string what) : what_(std::move(what)), on_(isatty(STDERR_FILENO) == 1) {
    if (const char* v = std::getenv("GPUFABRIC_PROGRESS_AFTER_S")) quiet_s_ = std::atof(v);
  }
  ~Progress() { finish(); }
  // Clears the line; call before printing results.
  void finish() {
    if (shown_) std::fprintf(stderr, "\r%*s\r", static_cast<int>(width_), "");
    shown_ = false;
  }
  // `done` of `total` steps finished; `detail` names the last one.
  void update(size_t done, size_t total, const std::string& detail) {
    if (!on_ || total == 0) return;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (s < quiet_s_) return;
    const double left = done > 0 ? s / static_cast<double>(done) * static_cast<double>(total - done) : 0;
    char line[256];
    const int n = std::snprintf(line, sizeof line, "\r%s: %zu/%zu (%s), %.0f s so far, about %.0f s left ", what_.c_str(),
                                done, total, detail.c_str(), s, left);
    if (n > 0) width_ = std::max(width_, static_cast<size_t>(n));
    std::fputs(line, stderr);
    std::fflush(stderr);
    shown_ = true;
  }

 private:
  double quiet_s_ = 2.0;
  std::string what_;
  bool on_;
  bool shown_ = false;
  size_t width_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace gfcli
