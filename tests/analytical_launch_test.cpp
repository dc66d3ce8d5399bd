// nccl-tests `-g G` (one thread driving G GPUs): validate adds G-1 serial kernel launches to each
// predicted call (kSingleThreadLaunchPerGpuUs, collective/nccl_constants.hpp).
#include <gtest/gtest.h>

#include "collective/nccl_constants.hpp"
#include "shared_data.hpp"
#include "accuracy/validate.hpp"

namespace {

const gf::DatasetSpec& dataset(const gf::ValidationManifest& m, const std::string& name) {
  for (const auto& d : m.datasets)
    if (d.name == name) return d;
  throw std::runtime_error("no data set " + name);
}

}  // namespace

TEST(SingleThreadLaunch, EachFurtherGpuAddsOneLaunch) {
  REQUIRE_SHARED_DATA();
  gf::ValidationManifest m = gf::load_manifest(std::string(GPUFABRIC_SOURCE_DIR) + "/validation/datasets.yaml",
                                               shared_dir() + "/validation/measured");
  // The A100 single-node table was run with -g 8 (its header: "8 GPUs in one process (-t 1 -g 8)").
  gf::DatasetSpec d = dataset(m, "oci-a100-1node-allreduce");
  ASSERT_EQ(d.gpus_per_thread, 8);
  const gf::ValidationResult g8 = gf::validate(d, "analytical");
  d.gpus_per_thread = 1;
  const gf::ValidationResult g1 = gf::validate(d, "analytical");
  ASSERT_EQ(g8.rows.size(), g1.rows.size());
  ASSERT_FALSE(g1.rows.empty());
  // 7 further GPUs x 2.4 us (the mean per-GPU excess of NVIDIA/nccl-tests #123) = 16.8 us on every
  // row, and busbw scales by the ratio of the two times.
  for (size_t i = 0; i < g1.rows.size(); ++i) {
    SCOPED_TRACE(g1.rows[i].size);
    EXPECT_NEAR(g8.rows[i].predicted_us - g1.rows[i].predicted_us, 7 * 2.4, 1e-6);
    EXPECT_NEAR(g8.rows[i].predicted_busbw, g1.rows[i].predicted_busbw * g1.rows[i].predicted_us / g8.rows[i].predicted_us,
                1e-9 * g1.rows[i].predicted_busbw + 1e-12);
  }
  EXPECT_DOUBLE_EQ(gf::kSingleThreadLaunchPerGpuUs, 2.4);
}
