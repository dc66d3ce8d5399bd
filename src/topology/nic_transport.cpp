#include "topology/nic_transport.hpp"

namespace gf {

namespace {

struct Row {
  NicTransport t;
  const char* key;
};
constexpr Row kRows[] = {
    {NicTransport::IbVerbs, "ib-verbs"},
    {NicTransport::RoceVerbs, "roce-verbs"},
    {NicTransport::Efa, "efa"},
    {NicTransport::Socket, "socket"},
    {NicTransport::GpuDirectTcpx, "gpudirect-tcpx"},
    {NicTransport::GpuDirectTcpxo, "gpudirect-tcpxo"},
    {NicTransport::GaudiRoce, "gaudi-roce"},
};

}  // namespace

const char* transport_key(NicTransport t) {
  for (const Row& r : kRows)
    if (r.t == t) return r.key;
  return "none";
}

std::optional<NicTransport> parse_transport(const std::string& key) {
  for (const Row& r : kRows)
    if (key == r.key) return r.t;
  return std::nullopt;
}

std::vector<std::string> transport_keys() {
  std::vector<std::string> out;
  for (const Row& r : kRows) out.emplace_back(r.key);
  return out;
}

NicTransport transport_of_family(LinkFamily family) {
  switch (family) {
    case LinkFamily::InfiniBand: return NicTransport::IbVerbs;
    case LinkFamily::RoCE: return NicTransport::RoceVerbs;
    case LinkFamily::Efa: return NicTransport::Efa;
    case LinkFamily::EthernetTcp: return NicTransport::Socket;
    case LinkFamily::GaudiRoce: return NicTransport::GaudiRoce;
    default: return NicTransport::None;
  }
}

bool is_network_family(LinkFamily family) { return transport_of_family(family) != NicTransport::None; }

bool transport_fits_family(NicTransport t, LinkFamily family) {
  if (family == LinkFamily::EthernetTcp)
    return t == NicTransport::Socket || t == NicTransport::GpuDirectTcpx || t == NicTransport::GpuDirectTcpxo;
  return t == transport_of_family(family);
}

// The figures; transport_term below says where each comes from.
Time transport_latency(NicTransport t) {
  switch (t) {
    case NicTransport::Efa: return Time::us(23);
    case NicTransport::Socket:
    case NicTransport::GpuDirectTcpx: return Time::ps(41'665'000);
    case NicTransport::GpuDirectTcpxo: return Time::ps(47'580'000);
    default: return Time::zero();
  }
}

TransportLatency transport_term(NicTransport t) {
  switch (t) {
    case NicTransport::IbVerbs:
      // NCCL's per-step NET latencies (src/graph/tuning.cc hwLat[NET]: 14 us Simple, 2.7-5 us LL)
      // are its figures for its own IB verbs transport and proxy thread: nothing to add.
      return {transport_latency(t), "NVIDIA/nccl src/graph/tuning.cc hwLat NET row (NCCL's IB verbs transport): nothing added"};
    case NicTransport::RoceVerbs:
      // The same verbs on the same ConnectX NICs (IBTA RoCEv2, annex A17): the NIC adds what IB's
      // does; RoCE's own cost is its Ethernet switches, in the switch models' port-to-port latency.
      return {transport_latency(t),
              "IBTA RoCEv2 (annex A17): the verbs transport of IB on Ethernet; its switch latency is the switch model's"};
    case NicTransport::Efa:
      // AWS's tuner in aws-ofi-nccl models an EFA hop as 20 us of network latency plus 3 us of
      // completion overhead (include/nccl_ofi_param.h TUNER_NET_LATENCY, TUNER_NET_COMP_OVERHEAD).
      // One figure for every EFA generation: the first-generation g4dn set's floor asks 26.8 us
      // through NCCL's formula, as close to it as p5's EFA v2 (22.0); p4d's 71 us is its NCCL 2.8.3
      // run, not its EFA (docs/models.md).
      return {transport_latency(t), "aws/aws-ofi-nccl include/nccl_ofi_param.h: TUNER_NET_LATENCY 20 us + TUNER_NET_COMP_OVERHEAD 3 us"};
    case NicTransport::Socket:
      // NCCL's socket transport: each request's size (and up to 128 B inline) on the control socket,
      // the data by the proxy's or NCCL_SOCKET_NTHREADS x NCCL_NSOCKS_PERTHREAD helper threads
      // through the kernel TCP stack, host-staged. No published per-message figure: FITTED.
      return {transport_latency(t),
              "FITTED to aws-g4dn-2node-socket-allreduce's 4 B row (98.77 us measured, 15.44 us without it: "
              "(98.77 - 15.44) / 2 network steps); its other rows held out"};
    case NicTransport::GpuDirectTcpx:
      // TCPX lands payload in GPU memory (devmem TCP, RxDM flow steering), but every request still
      // goes through the host: a control message on its own socket, the plugin's helper threads and
      // the kernel TCP stack's send and receive calls (google/nccl-plugin-gpudirecttcpx src/net_tcpx.cc),
      // as NCCL's socket transport. No TCPX floor is public: ASSUMED equal to the socket transport's fit.
      return {transport_latency(t),
              "ASSUMED equal to the socket transport's fit (kernel TCP and helper threads per request, "
              "google/nccl-plugin-gpudirecttcpx); no TCPX floor is public"};
    case NicTransport::GpuDirectTcpxo:
      // TCPXO offloads TCP to the NIC (A3 Mega); the plugin is not public and Google publishes no
      // per-message figure: FITTED.
      return {transport_latency(t),
              "FITTED to gcp-a3mega-2node-tcpxo-allreduce's 16 B row (123.2 us measured, 28.04 us without it: "
              "(123.2 - 28.04) / 2 network steps; the 8 B row is the header's outlier); its other rows and the "
              "TCPXO all_gather set held out"};
    case NicTransport::GaudiRoce: return {transport_latency(t), "Intel Gaudi on-chip RoCE: no published per-message figure: 0"};
    case NicTransport::None: break;
  }
  return {Time::zero(), "not a network transport"};
}

}  // namespace gf
