// The chip's energy parameters (config keys energy.*): a technology description, the structure the
// energy model charges, and per-event energies of the adapters and the tile core.
//
// The technology defaults are BookSim 2's 32 nm technology file (src/power/techfile.txt: 2007 ITRS
// predictions for a 32 nm high-performance library at 70 C), the one its power module (after Orion)
// ships with; each key's description names its source. docs/HWMODEL.md "Energy" has the formulas.
#pragma once

namespace tilempi::hwmodel {

struct EnergyParameters {
  // Technology (BookSim 2's techfile.txt, 2007 ITRS 32 nm HP).
  double vdd = 0.9;                 // supply voltage [V]
  double r_inverter = 606.321;      // on-resistance of a 1 um inverter [ohm]
  double ioff_sram = 3.2e-7;        // leakage of one SRAM cell (two-port, bitlines) [A]
  double ioff_n = 1.02e-6;          // NMOS off current [A/um]
  double ioff_p = 1.02e-6;          // PMOS off current [A/um]
  double cg = 5.34e-16;             // gate capacitance, for delay [F/um]
  double cg_pwr = 5.34e-16;         // gate capacitance, for power [F/um]
  double cd = 2.67e-16;             // drain capacitance, for delay [F/um]
  double cd_pwr = 2.67e-16;         // drain capacitance, for power [F/um]
  double cgdl = 1.068e-16;          // gate-drain (Miller) capacitance, for delay [F/um]
  double lambda_um = 0.016;         // half the feature size [um]
  double metal_pitch_mm = 8.0e-5;   // metal pitch [mm]
  double rw = 0.720044;             // wire resistance [ohm/mm]
  double cw_gnd = 2.67339e-13;      // wire capacitance to the layers above and below [F/mm]
  double cw_cpl = 2.67339e-13;      // wire coupling capacitance to its neighbours [F/mm]
  double dff_height = 8;            // height of a D flip-flop cell (DFQD1) in metal pitches
  double wire_mm = 2.0;             // length of one hop's wire (the tile pitch) [mm]

  // Structure.
  int flit_bits = 0;                // bits per flit on the wires; 0: 8 x flit_bytes
  bool local_channels = true;       // the core-router injection and ejection channels are wires of
                                    // wire_mm, charged as links (BookSim charges them so)
  bool edge_channels = false;       // the mesh's edge routers keep unused channels that leak and are
                                    // clocked (BookSim builds a torus's channels for a mesh)

  // Allocators: energy per allocation [pJ]. BookSim's power module has no allocator component.
  double va_pj = 0;                 // one VC allocation (a head at a router)
  double sa_pj = 0;                 // one switch allocation (a flit at a router)

  // Adapters (the network interface: a message becomes packets) and the tile core [pJ]; the keys'
  // descriptions give the derivations (all assumptions, none from a measured chip).
  double adapter_message_pj = 2.14;  // per message at each end: a header word built and parsed
  double adapter_word_pj = 1.07;     // per word through the adapter's FIFO: a write and a read
  double core_int_op_pj = 70;        // per counted integer operation (an instruction)
  double core_fp_op_pj = 75;         // per counted floating-point operation
};

}  // namespace tilempi::hwmodel
