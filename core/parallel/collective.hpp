// Collective communication costs: latency per algorithm step plus bytes over the link's achievable bandwidth, for
// ring and tree algorithms inside a node and hierarchically across nodes (docs/formulas.md, "Parallelism").
// Every collective formula lives here.
#pragma once

#include "util/names.hpp"

#include <string>

namespace infercast {

// One link class of a system: what each device can send (and, at the same time, receive) to its peers.
struct Link {
  std::string name;
  double bandwidth_bytes_per_s = 0;  // per device, per direction (NVLink 4: 450 GB/s; PCIe 4.0 x16: 32 GB/s)
  double latency_s = 0;              // per algorithm step (one hop of a ring, one level of a tree)
  double efficiency = 0.8;           // fraction of the bandwidth collectives reach (NCCL bus bandwidth / link peak)
  bool peer_to_peer = true;          // devices read each other's memory (GeForce over PCIe: no; custom all-reduces need it)
  double achievable() const { return bandwidth_bytes_per_s * efficiency; }
};

enum class Collective { AllReduce, AllGather, ReduceScatter, AllToAll, PointToPoint };
const NameTable<Collective>& collective_names();
inline const char* collective_name(Collective c) { return collective_names().name(c); }

enum class CollectiveAlgo { Auto, Ring, Tree };
const NameTable<CollectiveAlgo>& collective_algo_names();
inline const char* collective_algo_name(CollectiveAlgo a) { return collective_algo_names().name(a); }

// Where the participants are: `per_node` of them in each of `nodes` nodes (n = per_node x nodes).
struct Group {
  int per_node = 1;
  int nodes = 1;
  int size() const { return per_node * nodes; }
};

struct CollectiveCost {
  double seconds = 0;
  double latency_s = 0;   // the part spent in per-step latencies
  double transfer_s = 0;  // the part spent moving bytes
  std::string algorithm;  // ring | tree | direct | p2p | hierarchical ring | hierarchical tree
};

// Seconds for one collective of `bytes` over the group, after NCCL's own cost model (src/graph/tuning.cc,
// ncclTopoTuneModel): a latency per algorithm step plus the bytes each device moves over the slowest link the
// algorithm crosses (the inter-node link once the group spans nodes). `bytes` is what the collective is named
// after: the buffer each device holds for all-reduce, the gathered output for all-gather, the input for
// reduce-scatter, what each device sends in total (its own share included) for all-to-all, the message for
// point-to-point. With n = m devices per node x k nodes, a = hop latency, B = achievable bandwidth (inside a node the
// intra link's; across nodes min(intra, m x inter): a ring per device's network adapter):
//   ring all-reduce      2(n-k) a_intra + 2(k-1) a_inter + 2 (n-1)/n S/B
//   tree all-reduce      2((m-1) a_intra + ceil(log2 k) a_inter) + 2 S/B   (a chain inside the node, a tree across)
//   all-gather, reduce-scatter (ring)   (n-k) a_intra + (k-1) a_inter + (n-1)/n S/B
//   all-to-all (direct)  a + max((m-1)/n S/B_intra, (n-m)/n S/B_inter)   (every pair at once)
//   point-to-point       a + S/B
// Auto picks the faster of ring and tree for all-reduce, as NCCL's tuner does; the other collectives are rings.
CollectiveCost collective_cost(Collective c, double bytes, const Group& g, const Link& intra, const Link& inter,
                               CollectiveAlgo algo);

// A custom all-reduce kernel inside one node (vLLM's and SGLang's custom_all_reduce.cuh, TensorRT-LLM's
// ONESHOT/TWOSHOT): one-shot, each device reads every peer's buffer at once: a + (n-1) S/B; two-shot, a
// reduce-scatter then an all-gather through peer memory: 2a + 2 (n-1)/n S/B.
CollectiveCost custom_allreduce_cost(double bytes, int n, const Link& intra, bool one_shot);

}  // namespace infercast
