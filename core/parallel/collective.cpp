#include "parallel/collective.hpp"

#include <algorithm>
#include <cmath>

namespace infercast {

const NameTable<Collective>& collective_names() {
  static const NameTable<Collective> t({{Collective::AllReduce, "all-reduce", "every device ends with the sum"},
                                        {Collective::AllGather, "all-gather", "every device ends with every shard"},
                                        {Collective::ReduceScatter, "reduce-scatter", "each device ends with one shard of the sum"},
                                        {Collective::AllToAll, "all-to-all", "each device sends a distinct slice to each other"},
                                        {Collective::PointToPoint, "point-to-point", "one device sends to the next"}});
  return t;
}

const NameTable<CollectiveAlgo>& collective_algo_names() {
  static const NameTable<CollectiveAlgo> t(
      {{CollectiveAlgo::Auto, "auto", "the faster of ring and tree for each message (NCCL's choice)"},
       {CollectiveAlgo::Ring, "ring", "2(n-1) steps, bandwidth-optimal"},
       {CollectiveAlgo::Tree, "tree", "2 log2(n) steps, latency-optimal"}});
  return t;
}

namespace {

CollectiveCost make(double lat, double xfer, const char* algo) {
  CollectiveCost c;
  c.latency_s = lat;
  c.transfer_s = xfer;
  c.seconds = lat + xfer;
  c.algorithm = algo;
  return c;
}

}  // namespace

CollectiveCost collective_cost(Collective c, double S, const Group& g, const Link& intra, const Link& inter,
                               CollectiveAlgo algo) {
  const int n = g.size(), m = g.per_node, k = g.nodes;
  // Across nodes NCCL runs a ring (a channel) per network adapter: each of a node's m devices crosses on its own,
  // so the crossings together carry m x one device's inter-node bandwidth, and every ring or tree step waits on the
  // slower of that and the links inside the node (NCCL src/graph/tuning.cc: bus bandwidth = channels x per-channel
  // bandwidth). One send between two devices has one adapter.
  if (c == Collective::PointToPoint) {
    const Link& path = k > 1 ? inter : intra;
    return make(path.latency_s, S / path.achievable(), "p2p");
  }
  const double B = k > 1 ? std::min(intra.achievable(), m * inter.achievable()) : intra.achievable();
  if (n <= 1) return make(0, 0, "none");
  const double a_in = intra.latency_s, a_out = inter.latency_s;
  switch (c) {
    case Collective::AllReduce: {
      const CollectiveCost ring =
          make(2.0 * (n - k) * a_in + 2.0 * (k - 1) * a_out, 2.0 * (n - 1) / n * S / B, "ring");
      const double levels = k > 1 ? std::ceil(std::log2(static_cast<double>(k))) : 0.0;
      const CollectiveCost tree = make(2.0 * ((m - 1) * a_in + levels * a_out), 2.0 * S / B, "tree");
      if (algo == CollectiveAlgo::Ring) return ring;
      if (algo == CollectiveAlgo::Tree) return tree;
      return tree.seconds < ring.seconds ? tree : ring;
    }
    case Collective::AllGather:
    case Collective::ReduceScatter:
      return make(static_cast<double>(n - k) * a_in + static_cast<double>(k - 1) * a_out, (n - 1.0) / n * S / B, "ring");
    case Collective::AllToAll: {
      const double local = (m - 1.0) / n * S / intra.achievable();
      const double remote = k > 1 ? (n - static_cast<double>(m)) / n * S / inter.achievable() : 0.0;
      return make(k > 1 ? std::max(a_in, a_out) : a_in, std::max(local, remote), "direct");
    }
    default: break;
  }
  return make(0, 0, "none");
}

CollectiveCost custom_allreduce_cost(double S, int n, const Link& intra, bool one_shot) {
  const double B = intra.achievable(), a = intra.latency_s;
  if (n <= 1) return make(0, 0, "none");
  if (one_shot) return make(a, (n - 1.0) * S / B, "one-shot");
  return make(2 * a, 2.0 * (n - 1) / n * S / B, "two-shot");
}

}  // namespace infercast
