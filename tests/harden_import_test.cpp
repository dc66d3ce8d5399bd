// Both importers once took any NVLink count (`count="1000000000"` in NCCL XML, `NV100` in an
// nvidia-smi matrix) and built a server whose busbw passed its GPU's memory bandwidth. No GPU has
// more than 18 NVLinks (H100, H200, B200), so a larger count is an error at its line.
#include <gtest/gtest.h>

#include <string>

#include "topology/import/imported_server.hpp"

using namespace gf;

namespace {

// Two A100-class GPUs, each with `count` NVLinks to one NVSwitch chip, as NCCL dumps list them.
std::string dump(const std::string& count) {
  return R"(<system version="1">
  <cpu numaid="0" affinity="ff" arch="x86_64" vendor="AuthenticAMD" familyid="23" modelid="49">
    <pci busid="0000:47:00.0" class="0x030200" link_speed="16.0 GT/s PCIe" link_width="16">
      <gpu dev="0" sm="80" rank="0" gdr="1">
        <nvlink target="0000:c7:00.0" count=")" + count + R"(" tclass="0x068000"/>
      </gpu>
    </pci>
    <pci busid="0000:87:00.0" class="0x030200" link_speed="16.0 GT/s PCIe" link_width="16">
      <gpu dev="1" sm="80" rank="1" gdr="1">
        <nvlink target="0000:c7:00.0" count="2" tclass="0x068000"/>
      </gpu>
    </pci>
  </cpu>
</system>
)";
}

TEST(HardenImport, NcclXmlNvLinkCountIsCapped) {
  try {
    import_nccl_xml(dump("1000000000"), "t.xml");
    ADD_FAILURE() << "a billion NVLinks imported";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().line, 5);  // the <nvlink> line
    EXPECT_EQ(e.key(), "count");
    EXPECT_NE(e.message().find("must be 1..18"), std::string::npos) << e.what();
  }
  try {
    import_nccl_xml(dump("19"), "t.xml");
    ADD_FAILURE() << "19 NVLinks imported";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "count");
  }
}

TEST(HardenImport, NvidiaSmiNvCellIsCapped) {
  const std::string head = "        GPU0    GPU1    CPU Affinity    NUMA Affinity\n";
  const std::string ok = head + "GPU0     X      NV18    0-7     0\nGPU1    NV18     X      0-7     0\n";
  EXPECT_NO_THROW(import_nvidia_smi(ok, "t.txt"));  // 18, the most a GPU has, is fine
  const std::string bad = head + "GPU0     X      NV19    0-7     0\nGPU1    NV19     X      0-7     0\n";
  try {
    import_nvidia_smi(bad, "t.txt");
    ADD_FAILURE() << "NV19 imported";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().line, 2);
    EXPECT_NE(e.message().find("no GPU has more than 18 NVLinks"), std::string::npos) << e.what();
  }
}

}  // namespace
