// The booksim and booksim_speculative presets: the reference router of the comparison curves.
#include "registered_presets.h"
#include "tilempi/hwmodel/energy.h"

namespace tilempi::hwmodel {

namespace {

void booksim_router(Config& c, bool spec) {
  // BookSim 2's input-queued router on the 8x8 mesh of the reference curves
  // (docs/REFERENCES.md: BookSim 2; ../shared/reference/booksim-8x8.md has the configuration and curves).
  // "booksim" is BookSim's default pipeline (routing_delay = vc_alloc_delay = sw_alloc_delay =
  // st_final_delay = 1, speculative = 0); "booksim_speculative" adds lookahead routing
  // (routing_delay = 0) and speculative switch allocation. HWMODEL.md "Router pipeline" maps them.
  c.width = 8;                   // k = 8, n = 2
  c.height = 8;
  c.vcs = 1;                     // num_vcs = 1
  c.input_buffer_flits = 4;      // vc_buf_size = 4
  c.injection_buffer_flits = 4;  // vc_buf_size = 4 (the router's injection input)
  c.ejection_buffer_flits = 4;   // vc_buf_size = 4: the router keeps credits for the ejection channel too
  c.header_flits = 1;            // packet_size counts every flit; no separate header
  c.max_packet_flits = 129;
  c.routing_delay = spec ? 0 : 1;  // routing_delay = 1 (0: lookahead)
  c.vc_alloc_delay = 1;          // vc_alloc_delay = 1
  c.sw_alloc_delay = 1;          // sw_alloc_delay = 1
  c.router_delay = 2;            // sw_alloc_delay + st_final_delay (1) + st_prepare_delay (0)
  c.speculative = spec;          // speculative = 0 / 1
  c.link_latency = 1;            // channel latency 1
  c.injection_latency = 3;       // injection channel latency 1 and 2 cycles to the router's input VC, and
  c.ejection_latency = 0;        // the ejection channel's cycle: together fitted to the measured zero-load
                                 // latencies (7 + 5h and 5 + 3h with 1-flit packets) and to the source's
                                 // credit round trip of 5 cycles (one more cycle for 5-flit packets,
                                 // 12 + 5h and 10 + 3h; a single flow gets 0.8 flit/cycle)
  c.injection_credit_delay = 2;  // as credit_delay
  c.credit_delay = 2;            // credit_delay = 0 plus the 1-cycle credit channel and its read: fitted
                                 // to the credit round trip of 5 cycles the reference measured
  // The power module's view (sim_power = 1, its techfile.txt: the energy.* defaults): its clock is
  // 20 FO4 delays of the technology (9.71 GHz at 32 nm), and a mesh keeps every router's four
  // network channels, the unconnected ones at the edges included (they are clocked and leak).
  c.clock_hz = technology_clock_hz(c.energy);
  c.energy.edge_channels = true;
}

}  // namespace

TILEMPI_REGISTER_PRESET(booksim,
                        "BookSim 2's input-queued router with its default pipeline, on the 8x8 mesh of the reference "
                        "curves",
                        .apply = [](Config& c) { booksim_router(c, false); });
TILEMPI_REGISTER_PRESET(booksim_speculative,
                        "booksim with lookahead routing and speculative switch allocation",
                        .apply = [](Config& c) { booksim_router(c, true); });

}  // namespace tilempi::hwmodel
