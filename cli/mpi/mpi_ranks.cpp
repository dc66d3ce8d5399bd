#include "mpi_ranks.hpp"

#include <cstdlib>
#include <gpufabric/gpufabric.hpp>

#ifdef GPUFABRIC_HAVE_MPI
#include <mpi.h>
#endif

namespace gfcli {
namespace {

// The world size a launcher announced: Open MPI's mpirun sets OMPI_COMM_WORLD_SIZE; PMIx and
// PMI launchers (srun --mpi=pmix, MPICH's hydra) set PMIX_/PMI_ variables.
int launched_size() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
    if (const char* s = std::getenv(v)) return std::atoi(s);
  return std::getenv("PMIX_RANK") ? 2 : 1;  // PMIx gives no size variable; MPI_Comm_size tells
}

}  // namespace

#ifdef GPUFABRIC_HAVE_MPI

bool mpi_built() { return true; }

MpiRanks::MpiRanks() {
  if (launched_size() <= 1 && !std::getenv("OMPI_COMM_WORLD_SIZE")) return;
  int provided = 0;
  // Only the main thread calls MPI; the worker threads of -j never do.
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  started_ = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiRanks::~MpiRanks() {
  if (started_) MPI_Finalize();
}

std::vector<std::string> MpiRanks::gather(const std::string& mine) const {
  if (!started_ || size_ == 1) return {mine};
  int len = static_cast<int>(mine.size());
  std::vector<int> lens(rank_ == 0 ? size_ : 0);
  MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> offsets(lens.size());
  std::string all;
  if (rank_ == 0) {
    size_t total = 0;
    for (int r = 0; r < size_; ++r) offsets[r] = static_cast<int>(total), total += static_cast<size_t>(lens[r]);
    all.resize(total);
  }
  MPI_Gatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), offsets.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
  std::vector<std::string> out;
  for (int r = 0; rank_ == 0 && r < size_; ++r) out.push_back(all.substr(static_cast<size_t>(offsets[r]), static_cast<size_t>(lens[r])));
  return out;
}

#else

bool mpi_built() { return false; }

MpiRanks::MpiRanks() {
  if (launched_size() > 1)
    throw gf::InputError({}, "mpirun", "this gpufabric was built without MPI, so each rank would run the whole sweep",
                         "install Open MPI (libopenmpi-dev, openmpi-bin; scripts/setup.sh) and rebuild, or use -j N "
                         "threads on one machine");
}

MpiRanks::~MpiRanks() = default;

std::vector<std::string> MpiRanks::gather(const std::string& mine) const { return {mine}; }

#endif

}  // namespace gfcli
