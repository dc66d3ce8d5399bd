// libFuzzer harness: `nvidia-smi topo -m` / rocm-smi text in, an imported server out.
#include "fuzz_common.hpp"
#include "topology/import/imported_server.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  gffuzz::expect_clean([&] { gf::import_nvidia_smi(gffuzz::text_of(data, size), "fuzz.txt", {}); });
  return 0;
}
