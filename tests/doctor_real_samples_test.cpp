// gpufabric doctor on the real `nvidia-smi topo -m` samples in ../shared/validation/formats/
// (imported through --cluster FILE, as a user runs it): the findings a careful engineer would
// agree with, each expectation read off the file's own matrix.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "config/presets.hpp"
#include "doctor/doctor.hpp"
#include "shared_data.hpp"

namespace gf {
namespace {

std::string sample(const std::string& name) {
  return shared_dir() + "/validation/formats/nvidia-smi-topo/" + name;
}

DoctorReport doctor_of(const std::string& file, std::vector<std::string> rules) {
  DoctorOptions o;
  o.model = "analytical";  // predictions are not what these tests check; the quick model will do
  o.size = Bytes::mib(256);
  o.rules = std::move(rules);
  return run_doctor(resolve_cluster(sample(file)), o);
}

const Finding* find(const DoctorReport& r, const std::string& rule) {
  auto it = std::find_if(r.findings.begin(), r.findings.end(), [&](const Finding& f) { return f.rule == rule; });
  return it == r.findings.end() ? nullptr : &*it;
}

bool any_line_has(const Finding& f, const std::string& a, const std::string& b) {
  return std::any_of(f.evidence.begin(), f.evidence.end(), [&](const std::string& l) {
    return l.find(a) != std::string::npos && l.find(b) != std::string::npos;
  });
}

TEST(DoctorRealSamples, Rtx4090BoxHasNoPeerToPeerAndNoNearNic) {
  REQUIRE_SHARED_DATA();
  // The file's GPU block is SYS everywhere off the diagonal: C(8,2) = 28 pairs, all across the
  // socket link, none PIX/PXB/NV#. Rows GPU0-5 and GPU7 show SYS to every NIC; GPU6's row shows
  // PHB to NIC0-NIC3 (same NUMA node 5, through the host bridge): no GPU has a NIC within PXB.
  DoctorReport r = doctor_of("rtx4090-8gpu-pcie-no-switch-sys.txt", {"gpu-p2p", "nic-affinity", "nvlink-imbalance"});
  const Finding* p2p = find(r, "gpu-p2p");
  ASSERT_NE(p2p, nullptr);
  EXPECT_EQ(p2p->severity, Severity::Critical);
  EXPECT_NE(p2p->summary.find("28 of 28"), std::string::npos) << p2p->summary;
  const Finding* nic = find(r, "nic-affinity");
  ASSERT_NE(nic, nullptr);
  EXPECT_NE(nic->summary.find("8 of 8"), std::string::npos) << nic->summary;
  EXPECT_TRUE(any_line_has(*nic, "gpu6", "PHB"));
  EXPECT_TRUE(any_line_has(*nic, "gpu0", "SYS"));
  EXPECT_EQ(find(r, "nvlink-imbalance"), nullptr);  // no NV# cell: nothing to be unbalanced
}

TEST(DoctorRealSamples, PixPairsBoxHasPeerToPeerOnlyWithinPairs) {
  REQUIRE_SHARED_DATA();
  // GPU0-1, 2-3, 4-5 and 6-7 are PIX (4 pairs with P2P); the other 24 of 28 pairs are PHB or SYS.
  // The file lists no NIC at all.
  DoctorReport r = doctor_of("pcie-8gpu-pix-phb-sys-no-nic.txt", {"gpu-p2p", "nic-affinity"});
  const Finding* p2p = find(r, "gpu-p2p");
  ASSERT_NE(p2p, nullptr);
  EXPECT_NE(p2p->summary.find("24 of 28"), std::string::npos) << p2p->summary;
  const Finding* nic = find(r, "nic-affinity");
  ASSERT_NE(nic, nullptr);
  EXPECT_NE(nic->summary.find("no NIC"), std::string::npos) << nic->summary;
}

TEST(DoctorRealSamples, NvSwitchBoxesHaveBalancedNvlinkAndPeerToPeer) {
  REQUIRE_SHARED_DATA();
  // DGX A100: NV12 between every pair of the rows given; HGX H100: NV18. Every GPU has the same
  // lanes and every pair is NVLink-joined, so neither rule may fire.
  for (const char* f : {"dgx-a100-40gb-12nic-PARTIAL.txt", "hgx-h100-nv18-6nic-PARTIAL.txt"}) {
    DoctorReport r = doctor_of(f, {"gpu-p2p", "nvlink-imbalance"});
    EXPECT_TRUE(r.findings.empty()) << f << ": " << r.findings.front().rule << ": " << r.findings.front().summary;
  }
}

TEST(DoctorRealSamples, NicShortageAndNicAffinityAgreeOnWhichGpusLackANic) {
  REQUIRE_SHARED_DATA();
  // The HGX H100 sample: rows GPU0, GPU2, GPU4, GPU6 show PIX to NIC0, NIC1, NIC2, NIC3; rows GPU1,
  // GPU3, GPU5 show SYS to every NIC and GPU7's row is missing. nic-affinity lists the GPUs with no
  // NIC within PXB; nic-shortage (8 GPUs, 6 NICs: two short) adds NICs for two GPUs. Both speak of
  // the same NICs, so every GPU the shortage fix names must be one affinity lists, and never a GPU
  // whose row shows PIX.
  DoctorReport r = doctor_of("hgx-h100-nv18-6nic-PARTIAL.txt", {"nic-affinity", "nic-shortage"});
  const Finding* affinity = find(r, "nic-affinity");
  const Finding* shortage = find(r, "nic-shortage");
  ASSERT_NE(affinity, nullptr);
  ASSERT_NE(shortage, nullptr);
  for (const char* pix : {"gpu0", "gpu2", "gpu4", "gpu6"}) {
    EXPECT_EQ(shortage->fix.find(pix), std::string::npos) << shortage->fix;
    EXPECT_EQ(affinity->fix.find(pix), std::string::npos) << affinity->fix;
  }
  const auto at = shortage->fix.find("add NICs for ");
  ASSERT_NE(at, std::string::npos) << shortage->fix;
  int named = 0;
  for (const char* g : {"gpu1", "gpu3", "gpu5", "gpu7"})
    if (shortage->fix.find(g, at) != std::string::npos) {
      ++named;
      EXPECT_NE(affinity->fix.find(g), std::string::npos) << g << " named by nic-shortage, not by nic-affinity";
    }
  // 8 GPUs, 6 NICs: the four PIX GPUs keep theirs, NIC4 and NIC5 (no row; no PIX to anyone) go to
  // two of the other four, so two GPUs are left to get a NIC.
  EXPECT_EQ(named, 2);
  // The per-GPU figure is the NIC share (6 x 50 GB/s / 8 = 37.5 GB/s), named as such, not busbw.
  EXPECT_NE(shortage->summary.find("share of NIC bandwidth is 37.5 GB/s per direction"), std::string::npos)
      << shortage->summary;
}

}  // namespace
}  // namespace gf
