// The optimsoc preset: the NoC the NAMP was built on.
#include "registered_presets.h"

namespace tilempi::hwmodel {

namespace {

void optimsoc(Config& c) {
  // OpTiMSoC prototype NoC under the NAMP. [Wallentowitz 2018] in docs/REFERENCES.md.
  c.width = 4;                 // [Wallentowitz 2018] §4.3: 16 tiles in 4 rows and 4 columns
  c.height = 4;                // [Wallentowitz 2018] §4.3
  c.clock_hz = 100e6;          // assumption (not in the source): a typical FPGA prototype clock
  c.flit_bytes = 4;            // [Wallentowitz 2018] §3.2.2: 4 bytes per flit
  c.header_flits = 2;          // [Wallentowitz 2018] §3.2.2: h = 2 header flits
  c.max_packet_flits = 32;     // [Wallentowitz 2018] §3.2.2.2: packet length l = 32 words from there on
  c.input_buffer_flits = 4;    // [Wallentowitz 2018] §4.1, the OpTiMSoC router: 4-flit input buffers
  c.output_buffer_flits = 4;   // [Wallentowitz 2018] §4.1, the OpTiMSoC router: 4-flit output buffers
  c.injection_buffer_flits = 4;  // assumption: the adapter buffer matches the router buffers
  c.ejection_buffer_flits = 4;   // assumption: as above
  c.router_delay = 1;          // assumption (not in the source)
  c.vcs = 4;                   // [Wallentowitz 2018] §4.2.1: 4 adapter channels (control req/resp, data req/resp);
                               // [Wallentowitz 2018] §4.1: carried as VCs of one network (or as physical networks)
  c.core_int_cycles = 7;       // assumption: a single-issue 32-bit RISC core, one cycle per operation plus a
                               // load-use stall
  c.core_fp_cycles = 150;      // assumption: no FPU configured, double arithmetic in software as on the TilePro
}

}  // namespace

TILEMPI_REGISTER_PRESET(optimsoc,
                        "OpTiMSoC's 4x4 prototype NoC under the NAMP, 4 adapter channels ([Wallentowitz 2018] §4)",
                        .apply = optimsoc);

}  // namespace tilempi::hwmodel
