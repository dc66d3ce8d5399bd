// libFuzzer harness: NCCL topology XML in, an imported server out.
#include "fuzz_common.hpp"
#include "topology/import/imported_server.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  gffuzz::expect_clean([&] { gf::import_nccl_xml(gffuzz::text_of(data, size), "fuzz.xml", {}); });
  return 0;
}
