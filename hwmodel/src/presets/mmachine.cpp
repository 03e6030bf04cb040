// The mmachine preset: the M-Machine's network.
#include "registered_presets.h"

namespace tilempi::hwmodel {

namespace {

void mmachine(Config& c) {
  // MIT M-Machine router. [Lee 1999] in docs/REFERENCES.md.
  c.width = 8;                 // [Lee 1999] §4.1: 2D mesh of up to 1024 MAP chips; 8x8 for the 64-node runs of ch. 7
  c.height = 8;
  c.flit_bytes = 8;            // [Lee 1999] §4.1: 68 payload bits per flit, i.e. one 64-bit word (plus tag bits)
  c.vcs = 4;                   // [Lee 1999] §3.3.3, §4.4: four virtual channels per physical path
  c.input_buffer_flits = 6;    // [Lee 1999] §4.4: the virtual channels are 6-entry FIFOs
  c.credit_delay = 5;          // [Lee 1999] §4.4.2 note 9: vacancy (credit) information takes up to 5 cycles
  c.injection_buffer_flits = 6;  // assumption: sized like a VC FIFO so that injection runs at full rate
  c.ejection_buffer_flits = 6;   // assumption: as above (covers the 5-cycle credit loop)
  c.header_flits = 1;          // assumption: one address word leads the message
  c.max_packet_flits = 13;     // [Lee 1999] §4.2: a message is at most 13 words: header, HandlerIP, DestAddr
                               // and a body of up to 10 words (§3.2.1)
  c.router_delay = 1;          // assumption (not in the source)
  c.core_int_cycles = 3;       // assumption: a MAP cluster issues integer, memory and floating-point operations in
  c.core_fp_cycles = 4;        // parallel (hardware floating point): a few cycles per element of either kernel
}

}  // namespace

TILEMPI_REGISTER_PRESET(mmachine,
                        "MIT M-Machine router: 8x8 mesh, 4 virtual channels of 6-flit FIFOs ([Lee 1999] §4)",
                        .apply = mmachine);

}  // namespace tilempi::hwmodel
