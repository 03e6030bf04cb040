// The tilepro64 preset: the chip NoCMsg ran on.
#include "registered_presets.h"

namespace tilempi::hwmodel {

namespace {

void tilepro64(Config& c) {
  // Tilera TilePro64, the chip NoCMsg ran on. [Yagna 2013] in docs/REFERENCES.md.
  c.width = 8;                 // [Yagna 2013] §2.1: 8x8 tiles
  c.height = 8;                // [Yagna 2013] §2.1
  c.clock_hz = 700e6;          // [Yagna 2013] §2.1: 700 MHz
  c.torus = false;             // [Yagna 2013] §2.1: no wrap-around links at the mesh edges
  c.flit_bytes = 4;            // [Yagna 2013] §2.1.2: the networks carry 32-bit data words, one word per flit
  c.header_flits = 1;          // assumption (not in the source): one header word carries the route
  c.max_packet_flits = 129;    // [Yagna 2013] §2.1.2: 1 to 128 data words per packet, plus the header word
  c.ejection_buffer_flits = 118;  // [Yagna 2013] §2.1.2: demux FIFO of 118 words at the receiver
  c.input_buffer_flits = 4;    // assumption (not in the source)
  c.injection_buffer_flits = 4;  // assumption (not in the source): cores write words to special registers
  c.router_delay = 1;          // assumption (not in the source): one cycle per hop
  c.networks = 1;              // [Yagna 2013] §2.1.2: the UDN is the one user dynamic network
  c.static_network = true;     // [Yagna 2013] §2.1.2: the SN, per-tile routes configured by software
  c.static_hop_cycles = 1;     // [Yagna 2013] §2.1.2, §3.2.3: single words between neighbours, no routing overhead
  c.static_setup_cycles = 100; // placeholder: [Yagna 2013] §3.2.3 calls SN route setup costly but gives no number
  // The core (--compute model). [Yagna 2013] §2.1: a 32-bit integer core, three-way VLIW (up to
  // three operations per cycle), no native floating point.
  c.core_int_cycles = 4;       // assumption: the bucket-count element is about 6 operations (load, shift, mask,
                               // load, add, store) behind two dependent loads; 3-wide issue gives 2 at best, the
                               // dependence and the cache (8 KiB L1 data) about 4
  c.core_fp_cycles = 120;      // assumption: a double multiply and add in software on a 32-bit integer core, each
                               // some 50 instructions (unpack, multiply or align, normalize, round, pack) at
                               // about one per cycle on their dependent chains, plus the loads
}

}  // namespace

TILEMPI_REGISTER_PRESET(tilepro64,
                        "Tilera TilePro64: 8x8 mesh at 700 MHz, the UDN and the static network ([Yagna 2013] §2.1)",
                        .apply = tilepro64);

}  // namespace tilempi::hwmodel
