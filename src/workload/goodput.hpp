// `gpufabric goodput`: a seeded Monte Carlo of a training job's life under component failures.
// Failures of every cause arrive as independent Poisson processes (rates from failure_rates.hpp,
// times the units the job holds). Each stops the synchronous job unless routing survives it (a
// spine link: it only slows the job, and is counted apart). The job loses the work since its last
// completed checkpoint, waits for detection (timeouts) and a restart, and, for a hardware cause,
// for spare servers (or repaired ones when none is left): one for a server's part, every server a
// failed leaf alone cabled for a leaf. Failures keep arriving while it restarts, as in Daly's
// model. docs/failures.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "workload/failure_rates.hpp"

namespace gf {

struct GoodputOptions {
  int64_t gpus = 0, servers = 0, nics = 0, switches = 0;  // what the job holds
  // Per leaf the job is cabled to, the job's servers it alone cables (workload/blast_radius.hpp);
  // its size is the job's leaves. Empty: no leaves known, and a leaf cause restarts in place.
  std::vector<int64_t> leaf_cut_off;
  int64_t spine_links = 0;           // cables from the job's leaves up to spines
  int64_t spares = 0;                // spare servers it can swap in
  double days = 0;                   // wall-clock life of the job
  std::optional<double> interval_s;  // compute between checkpoints; nullopt = the best simulated
  double checkpoint_write_s = 60;    // the job stops while a checkpoint is written
  double restart_s = 600;            // from detection to computing again
  double repair_s = 86400;           // a failed server back in the spare pool
  double step_s = 0;                 // > 0: checkpoints fall on step boundaries
  uint64_t seed = 0;
  int runs = 1000;
};

struct CauseResult {
  std::string name;
  Blast blast = Blast::Restart;
  double interruptions = 0;   // mean per run (0 for a cause that only slows)
  double slowdowns = 0;       // mean per run, a cause that only slows (Blast::Slow)
  double lost_gpu_hours = 0;  // mean per run: lost work + detection + restart + waiting for a spare
};

struct GoodputResult {
  double interval_s = 0;  // the interval simulated
  std::vector<CauseResult> causes;
  double interruptions = 0, interruptions_sd = 0;       // per run
  double slowdowns = 0;                                 // per run: failures routing survived
  double mtbi_h = 0;                                    // job-hours per interruption (mean over runs)
  double ett = 0, ett_sd = 0, ett_p5 = 0, ett_p95 = 0;  // effective training time: committed work / wall time
  double lost_gpu_hours = 0;                            // mean per run, all causes
  double rate_per_s = 0;                                // the job's total rate of interruptions
  // Checkpoint interval: Young's and Daly's closed forms, and the best of a simulated scan.
  double young_s = 0, daly_s = 0, best_s = 0, best_ett = 0;
};

// Throws InputError for options out of range (days, runs, sizes).
GoodputResult run_goodput(const FailureRates& rates, const GoodputOptions& o);

// Closed forms, M = mean time between interruptions, delta = checkpoint write, R = downtime per
// interruption (detection + restart). Young (CACM 17(9), 1974): tau = sqrt(2 delta M). Daly
// (FGCS 22(3), 2006, eq. 37): tau = sqrt(2 delta M)[1 + sqrt(delta/(2M))/3 + delta/(18M)] - delta
// for delta < 2M, else M. Daly's expected wall time for exponential failures (eq. 13),
// T_w = M e^{R/M} (e^{(tau+delta)/M} - 1) T_s / tau, gives the goodput T_s / T_w.
double young_interval(double delta, double mtbi);
double daly_interval(double delta, double mtbi);
double daly_goodput(double tau, double delta, double restart, double mtbi);

}  // namespace gf
