#include "inference/comm_memo.hpp"

#include <stdexcept>

namespace gf {

void InferCommMemo::bind(const Cluster& cluster, const Router& router, const ModelShape& m, const InferLayout& l,
                         const InferOptions& o) {
  // Everything a timing's groups and call parameters are made of, bar the batch, prompt and
  // output that the keys hold (the model's widths and routing: EP copy bytes, top-k, experts).
  const Instance here{&cluster,   &router,     o.network_model, m.name,
                      m.hidden,   m.top_k,     m.experts,       m.layers - m.dense_layers,
                      l.tp,       l.pp,        l.ep,            static_cast<int>(l.allreduce),
                      static_cast<int>(l.ep_kernel), o.prefill_servers, o.decode_servers};
  if (!bound_) {
    instance_ = here;
    bound_ = true;
  } else if (instance_ != here) {
    throw std::logic_error("an InferCommMemo holds one serving instance's timings; it was used for another");
  }
}

}  // namespace gf
