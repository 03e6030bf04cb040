// A circular calendar of cycles keeps one bit per slot: set while the slot holds something
// (private header). Both network models keep their near future this way.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

namespace tilempi::hwmodel {

// How far from slot `start`, going round, the first slot with its bit set lies (0 .. Slots - 1);
// Slots if none is set.
template <std::size_t Slots>
std::size_t first_set_from(const std::uint64_t (&bits)[Slots / 64], std::size_t start) {
  static_assert(Slots % 64 == 0 && (Slots & (Slots - 1)) == 0, "a power of two, whole words");
  constexpr std::size_t words = Slots / 64;
  for (std::size_t k = 0; k <= words; ++k) {
    const std::size_t w = ((start >> 6) + k) % words;
    std::uint64_t b = bits[w];
    if (k == 0) b &= ~std::uint64_t{0} << (start & 63);  // start's word: from start on
    else if (k == words) b &= (start & 63) ? ~(~std::uint64_t{0} << (start & 63)) : 0;  // round again: before start
    if (!b) continue;
    const std::size_t slot = w * 64 + static_cast<std::size_t>(std::countr_zero(b));
    return (slot + Slots - start) & (Slots - 1);
  }
  return Slots;
}

}  // namespace tilempi::hwmodel
