// The routes of the flow model's transfers, each held once with its alpha (TransferCost::alpha)
// and wire inflation (TransferCost::inflation), so that a transfer in flight needs no reference
// count of its own and a start recomputes neither.
//
// Why: a schedule starts the same few routes over and over (a ring edge 2(n-1) times). Holding a
// shared_ptr per transfer in flight costs two atomic read-modify-writes per transfer (libstdc++
// counts atomically whenever the process could have threads, which since glibc 2.34 is always),
// about 7 % of the SimGrid peer's ring at N = 256; and alpha walks every link of every leg and
// classifies it. Here a route is found by its address in an open-addressed table (linear
// probing) and pinned by a plain counter while transfers on it are in flight.
//
// Layout: the table's slots carry the route's address beside the entry index, so a probe that
// passes other routes reads only the table; an entry's fields a pin reads and compares are one
// 64-byte line; the in-flight counts and the owning pointers, which a pin does not compare, sit in
// arrays of their own by index. A ring of N ranks pins its N routes in turn, so each pin is a
// table line and an entry line, not the two to four lines a 96-byte entry reached through the table
// took (issue 26, docs/performance.md "Flow engine cost per event and memory").
//
// A transfer that comes with a route id (ModelTransfer::route_id, the step runner's pattern
// index) finds its entry in by_id_ instead: an array read in the caller's order, 32 B per route,
// checked against the route's address (a stale or reused id falls back to the table and is
// overwritten), holding the alpha and inflation too. In a sync ring's start sweep that replaces
// a random table line and the entry's line per start by half a line read in order (issue 26,
// fifth pass, docs/journal.md).
//
// Bounds: an entry holds its route, so its address cannot be reused by another route while it is
// listed. Routes made per start (adaptive routing) would fill the table: past kMax entries, those
// no transfer is using are dropped; the ones in flight stay (the table grows past kMax only if
// more distinct routes than that are in flight at once).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "model/model.hpp"
#include "model/transfer_cost.hpp"

namespace gf {

class RoutePins {
 public:
  struct Pin {
    int32_t index;  // for unpin(); an index is reused only after its route was dropped
    Time alpha;     // cost.alpha(t)
    double inflation;  // cost.inflation(t)
    bool fresh;     // the route was not listed: whatever the caller keeps by index is stale
  };
  // Pins t's route (t.route must not be null) and returns its alpha and inflation, each computed
  // again only when the route comes with other fields than last time (alpha: step latencies and
  // steps; inflation: protocol and efficiencies).
  Pin pin(const ModelTransfer& t, const TransferCost& cost);
  void unpin(int32_t index) { --in_flight_[static_cast<size_t>(index)]; }
  // Distinct routes listed now (for tests).
  size_t listed() const { return listed_; }

 private:
  struct alignas(64) Entry {
    Time alpha;
    double inflation = 1;
    double efficiency = 0, scale_up_efficiency = 0;
    std::array<Time, 3> step_latency{};
    int32_t steps = 0;
    Protocol proto = Protocol::Simple;
  };
  static_assert(sizeof(Entry) == 64);
  struct Slot {
    const Route* route = nullptr;  // null: empty
    int32_t index = -1;
  };
  // Ids past this are not kept (the table serves them): by_id_ stays under 16 MiB whatever a
  // caller numbers its routes.
  static constexpr int32_t kMaxRouteId = 1 << 20;
  // Pins listed entry `index` for t (its alpha and inflation renewed if t's fields differ).
  Pin pinned(int32_t index, const ModelTransfer& t, const TransferCost& cost);
  void set_inflation(Entry& e, const ModelTransfer& t, const TransferCost& cost);
  static constexpr size_t kMax = 1u << 15;
  static size_t slot_of(const Route* r, size_t mask);
  void rebuild(size_t slots);  // re-lists every entry with a route into a table of `slots`
  void drop_idle();            // frees the entries no transfer is using

  std::vector<Entry> entries_;           // by index: stable while pinned
  std::vector<int32_t> in_flight_;       // by index
  std::vector<std::shared_ptr<const Route>> owners_;  // by index; null when the entry is free
  std::vector<int32_t> free_;            // free entry indices
  std::vector<Slot> table_ = std::vector<Slot>(1024);  // entry index by route address
  // By ModelTransfer::route_id: the route (checked), its entry, and the alpha and inflation of the
  // transfers under that id (their cost fields are the same, model.hpp), so a pin by id reads this
  // record and the in-flight count, not the entry.
  struct ById {
    const Route* route = nullptr;
    int32_t index = -1;
    Time alpha;
    double inflation = 1;
  };
  std::vector<ById> by_id_;
  size_t listed_ = 0;
};

}  // namespace gf
