// libFuzzer harness: a Chakra .et file's bytes (replay/chakra_et over replay/protobuf_wire), then
// the checks every trace goes through (replay/trace_loader finish_trace: dependencies, cycles,
// process groups) with the decoded nodes as one rank.
#include "fuzz_common.hpp"
#include "replay/chakra_et.hpp"
#include "replay/trace_loader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes = gffuzz::text_of(data, size);
  gffuzz::expect_clean([&] {
    gf::Trace t;
    t.format = "chakra";
    t.allgather_sizes_per_rank = true;
    t.ranks.push_back(gf::decode_chakra(bytes, "fuzz.0.et", 0));
    gf::finish_trace(t);
    for (const gf::TraceNode& n : t.ranks[0].nodes)
      if (n.bytes < 0 || !(n.duration_s >= 0)) __builtin_trap();  // sizes and durations are never negative
  });
  return 0;
}
