// The energy.* keys. The technology's sources: BookSim 2's techfile.txt (2007 ITRS predictions for
// a 32 nm high-performance library at 70 C; ../shared/reference/booksim-power-8x8.md lists it).
#include "energy_keys.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace tilempi::hwmodel {

namespace {

namespace st = tilempi::settings;

std::string format_number(double d) {
  std::ostringstream os;
  os.precision(17);
  os << d;
  return os.str();
}

double parse_nonnegative(const st::Setting& s, const std::string& v) {
  char* end = nullptr;
  errno = 0;
  const double d = std::strtod(v.c_str(), &end);
  if (v.empty() || end != v.c_str() + v.size() || errno != 0 || !std::isfinite(d) || d < 0)
    st::bad_value(s, v, "a number >= 0");
  return d;
}

double parse_positive(const st::Setting& s, const std::string& v) {
  const double d = parse_nonnegative(s, v);
  if (d <= 0) st::bad_value(s, v, "a number > 0");
  return d;
}

#define TILEMPI_ENERGY_NUMBER(field, name, positive, desc)                                                        \
  EnergyKey {                                                                                                       \
    st::text("energy." name, st::Source::chip, positive ? "a number > 0" : "a number >= 0", "", desc),            \
        [](EnergyParameters& p, const st::Setting& s, const std::string& v) {                                     \
          p.field = positive ? parse_positive(s, v) : parse_nonnegative(s, v);                                     \
        },                                                                                                          \
        [](const EnergyParameters& p) { return format_number(p.field); }                                          \
  }

#define TILEMPI_ENERGY_BOOL(field, name, desc)                                                                     \
  EnergyKey {                                                                                                       \
    st::boolean("energy." name, st::Source::chip, "", desc),                                                      \
        [](EnergyParameters& p, const st::Setting& s, const std::string& v) { p.field = st::to_boolean(s, v); }, \
        [](const EnergyParameters& p) { return std::string(p.field ? "true" : "false"); }                         \
  }

constexpr const char* kTech = " (BookSim 2 techfile.txt: ITRS 2007, 32 nm HP)";

std::string tech(const char* what) { return std::string(what) + kTech; }

}  // namespace

const std::vector<EnergyKey>& energy_keys() {
  static const std::vector<EnergyKey> keys = [] {
    std::vector<EnergyKey> k = {
        TILEMPI_ENERGY_NUMBER(vdd, "vdd", true, tech("supply voltage in V")),
        TILEMPI_ENERGY_NUMBER(r_inverter, "r_inverter", true, tech("on-resistance of a 1 um inverter in ohm (R)")),
        TILEMPI_ENERGY_NUMBER(ioff_sram, "ioff_sram", false, tech("leakage current of one SRAM cell in A (IoffSRAM)")),
        TILEMPI_ENERGY_NUMBER(ioff_n, "ioff_n", false, tech("NMOS off current in A/um (IoffN)")),
        TILEMPI_ENERGY_NUMBER(ioff_p, "ioff_p", false, tech("PMOS off current in A/um (IoffP)")),
        TILEMPI_ENERGY_NUMBER(cg, "cg", true, tech("gate capacitance for delay in F/um (Cg)")),
        TILEMPI_ENERGY_NUMBER(cg_pwr, "cg_pwr", false, tech("gate capacitance for power in F/um (Cg_pwr)")),
        TILEMPI_ENERGY_NUMBER(cd, "cd", false, tech("drain capacitance for delay in F/um (Cd)")),
        TILEMPI_ENERGY_NUMBER(cd_pwr, "cd_pwr", false, tech("drain capacitance for power in F/um (Cd_pwr)")),
        TILEMPI_ENERGY_NUMBER(cgdl, "cgdl", false, tech("gate-drain overlap capacitance for delay in F/um (Cgdl)")),
        TILEMPI_ENERGY_NUMBER(lambda_um, "lambda_um", true, tech("half the feature size in um (LAMBDA)")),
        TILEMPI_ENERGY_NUMBER(metal_pitch_mm, "metal_pitch_mm", true, tech("metal pitch in mm (MetalPitch)")),
        TILEMPI_ENERGY_NUMBER(rw, "rw", false, tech("wire resistance in ohm/mm (Rw)")),
        TILEMPI_ENERGY_NUMBER(cw_gnd, "cw_gnd", false, tech("wire capacitance to the layers above and below in F/mm (Cw_gnd)")),
        TILEMPI_ENERGY_NUMBER(cw_cpl, "cw_cpl", false, tech("wire coupling capacitance to each neighbour in F/mm (Cw_cpl)")),
        TILEMPI_ENERGY_NUMBER(dff_height, "dff_height", false, tech("height of a D flip-flop cell in metal pitches (H_DFQD1)")),
        TILEMPI_ENERGY_NUMBER(wire_mm, "wire_mm", true, tech("length of a hop's wire, the tile pitch, in mm (wire_length)")),
        EnergyKey{st::integer("energy.flit_bits", st::Source::chip, 0, 8192, "",
                              "bits per flit on the wires and in the buffers; 0: 8 x flit_bytes (BookSim channel_width)"),
                  [](EnergyParameters& p, const st::Setting& s, const std::string& v) {
                    p.flit_bits = static_cast<int>(st::to_integer(s, v));
                  },
                  [](const EnergyParameters& p) { return std::to_string(p.flit_bits); }},
        TILEMPI_ENERGY_BOOL(local_channels, "local_channels",
                            "charge the core-router injection and ejection channels as wires of energy.wire_mm "
                            "(BookSim charges them so)"),
        TILEMPI_ENERGY_BOOL(edge_channels, "edge_channels",
                            "charge the clock and leakage of the mesh's unconnected edge channels (BookSim's mesh "
                            "builds them; the booksim presets set it)"),
        TILEMPI_ENERGY_NUMBER(va_pj, "va_pj", false,
                              "energy of one VC allocation (a head at a router) in pJ; 0: BookSim's power module has "
                              "no allocator component (an assumption until set, e.g. from Orion 2.0 or DSENT)"),
        TILEMPI_ENERGY_NUMBER(sa_pj, "sa_pj", false,
                              "energy of one switch allocation (a flit at a router) in pJ; 0 as in BookSim (an "
                              "assumption until set)"),
        TILEMPI_ENERGY_NUMBER(adapter_message_pj, "adapter_message_pj", false,
                              "energy an adapter spends per message at each end (sender and receiver), in pJ; "
                              "assumption: its header word through the FIFO and the message's state written and read "
                              "once, twice adapter_word_pj"),
        TILEMPI_ENERGY_NUMBER(adapter_word_pj, "adapter_word_pj", false,
                              "energy per word an adapter moves between the core and the network, at each end, in "
                              "pJ; assumption: a write and a read of a 32-bit word in a 4-word SRAM FIFO by the "
                              "input-buffer formulas at the 32 nm defaults (2 x 0.534 pJ)"),
        TILEMPI_ENERGY_NUMBER(core_int_op_pj, "core_int_op_pj", false,
                              "energy per counted integer operation of the tile core, in pJ; assumption: one "
                              "instruction of a simple in-order core, about 70 pJ with fetch, decode and register "
                              "file (Horowitz, ISSCC 2014, 45 nm; the add itself is 0.1 pJ)"),
        TILEMPI_ENERGY_NUMBER(core_fp_op_pj, "core_fp_op_pj", false,
                              "energy per counted floating-point operation of the tile core, in pJ; assumption: an "
                              "instruction's 70 pJ plus a multiply-add of about 5 pJ (Horowitz, ISSCC 2014, 45 nm: "
                              "32-bit add 0.9, multiply 3.7 pJ)"),
    };
    return k;
  }();
  return keys;
}

}  // namespace tilempi::hwmodel
