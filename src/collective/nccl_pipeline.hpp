// NCCL's step pipeline on one connection, in NCCL's own units (issue 19): how many bytes a step
// carries per protocol, how NVLS-tree sizes its chunks, and what the NCCL_STEPS slots leave of a
// network edge's latency (see docs/models.md, "NCCL's step sizes and slots"). The NVLS schedule
// cuts its slices with nccl_nvls_chunk_bytes; the rest are not called by any schedule yet.
#pragma once

#include <cstdint>

#include "core/protocol.hpp"
#include "core/units.hpp"

namespace gf {

// Slots per connection (NVIDIA/nccl src/include/device.h NCCL_STEPS): a sender may run this many
// steps ahead of its receiver (src/device/prims_simple.h waitPeer).
constexpr int kNcclSteps = 8;

// Payload bytes one step carries, from each protocol's buffer over NCCL_STEPS (device.h):
//  Simple: buffSize 4 MiB (DEFAULT_BUFFSIZE) / 8 = 512 KiB;
//  LL:     NCCL_LL_LINES_PER_THREAD 8 x NCCL_LL_MAX_NTHREADS 512 lines of 16 B = 64 KiB a step,
//          half of it flags: 32 KiB of data;
//  LL128:  NCCL_LL128_ELEMS_PER_THREAD 120 x NCCL_LL128_MAX_NTHREADS 640 x 8 B = 614,400 B a
//          step, of which NCCL_LL128_DATAELEMS / NCCL_LL128_LINEELEMS = 15/16 data: 576,000 B.
int64_t nccl_step_data_bytes(Protocol p);

// NCCL's NVLS-tree chunk (src/enqueue.cc, NCCL_ALGO_NVLS_TREE): start at nvlsChunkSize (128 KiB,
// NCCL_NVLS_CHUNKSIZE), at most 64 KiB from 4 nodes up (NCCL_NVLSTREE_MAX_CHUNKSIZE default), then
// with ops = channels x heads: at most 128 KiB below 16 x ops x chunk bytes, 64 KiB below
// 4 x ops x chunk, 32 KiB below 1 x ops x chunk (each test on the chunk left by the one before).
int64_t nccl_nvlstree_chunk_bytes(int64_t call_bytes, int channels, int heads, int nodes);

// NCCL's NVLS chunk inside one NVLink domain (src/enqueue.cc, NCCL_ALGO_NVLS): nvlsChunkSize
// (128 KiB), then with ops = channels x heads: 64 KiB below 64 x ops x chunk bytes, 32 KiB below
// 8 x ops x chunk, 16 KiB below 2 x ops x chunk (each test on the chunk left by the one before).
int64_t nccl_nvls_chunk_bytes(int64_t call_bytes, int channels, int heads);

// Steps one connection moves for `bytes` at `step_bytes` a step (the last one partial).
int64_t nccl_steps(int64_t bytes, int64_t step_bytes);

// Completion of S steps on one connection whose steps each take `wire` on the link and arrive
// `latency` after it, step k starting once step k-1 left the link and step k-8's slot is free
// (that step arrived):
//   start(k) = max(start(k-1) + wire, start(k-8) + latency + wire)
//            = floor(k/8) x P + (k mod 8) x wire,   P = max(8 wire, latency + wire)
//   done     = start(S-1) + latency + wire
// so the latency is paid once while 8 steps cover it (8 wire >= latency + wire), and once per
// round of 8 steps (less the 8 steps' own wire time) when they do not.
Time slotted_edge_time(int64_t steps, Time latency, Time wire);

}  // namespace gf
