// The MPI ranks a sweep is split over: `mpirun -n K gpufabric sweep ...` (or Slurm's srun, as
// Open MPI takes it) starts K processes, each runs its share of the points and rank 0 gathers
// and writes the output. Built only where CMake finds MPI (GPUFABRIC_HAVE_MPI); elsewhere, and
// in a process not started by a launcher, there is one rank.
#pragma once

#include <string>
#include <vector>

namespace gfcli {

class MpiRanks {
 public:
  // Starts MPI when this process was launched by mpirun or srun. A binary built without MPI that
  // finds itself one of several ranks refuses (InputError) rather than run the sweep K times.
  MpiRanks();
  ~MpiRanks();
  MpiRanks(const MpiRanks&) = delete;
  MpiRanks& operator=(const MpiRanks&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  // Every rank's `mine`, in rank order, on rank 0; empty elsewhere. Called by every rank.
  std::vector<std::string> gather(const std::string& mine) const;

 private:
  int rank_ = 0, size_ = 1;
  bool started_ = false;
};

// Whether this binary was built with MPI (for messages and tests).
bool mpi_built();

}  // namespace gfcli
