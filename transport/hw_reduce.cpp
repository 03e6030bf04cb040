// The arithmetic of an adapter's reduction data path ([Wallentowitz 2018] §3.3.2.4): what a
// transport with Capabilities::hardware_reduction computes when the data arrives. Integers only,
// wrapping like the hardware's adders (computed unsigned, so never undefined behaviour).
#include <cstring>
#include <type_traits>

#include "tilempi/transport/transport.h"

namespace tilempi::transport {

namespace {

template <class T>
T combine(HwOp op, T a, T b) {
  using U = std::make_unsigned_t<T>;
  switch (op) {
    case HwOp::Sum: return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
    case HwOp::Min: return a < b ? a : b;
    case HwOp::Max: return a < b ? b : a;
    case HwOp::Band: return static_cast<T>(a & b);
    case HwOp::Bor: return static_cast<T>(a | b);
    case HwOp::Bxor: return static_cast<T>(a ^ b);
    case HwOp::Land: return static_cast<T>((a != 0) && (b != 0));
    case HwOp::Lor: return static_cast<T>((a != 0) || (b != 0));
    case HwOp::Lxor: return static_cast<T>((a != 0) != (b != 0));
  }
  return b;
}

template <class T>
void reduce_as(HwOp op, const void* in, void* inout, std::size_t bytes) {
  const std::size_t n = bytes / sizeof(T);
  const auto* a = static_cast<const unsigned char*>(in);
  auto* b = static_cast<unsigned char*>(inout);
  for (std::size_t i = 0; i < n; ++i) {
    T x, y;
    std::memcpy(&x, a + i * sizeof(T), sizeof(T));
    std::memcpy(&y, b + i * sizeof(T), sizeof(T));
    const T r = combine<T>(op, x, y);
    std::memcpy(b + i * sizeof(T), &r, sizeof(T));
  }
}

}  // namespace

std::size_t hw_elem_size(HwElem e) {
  switch (e) {
    case HwElem::I8: case HwElem::U8: return 1;
    case HwElem::I16: case HwElem::U16: return 2;
    case HwElem::I32: case HwElem::U32: return 4;
  }
  return 1;
}

void hw_reduce(HwOp op, HwElem elem, const void* in, void* inout, std::size_t bytes) {
  switch (elem) {
    case HwElem::I8: return reduce_as<std::int8_t>(op, in, inout, bytes);
    case HwElem::U8: return reduce_as<std::uint8_t>(op, in, inout, bytes);
    case HwElem::I16: return reduce_as<std::int16_t>(op, in, inout, bytes);
    case HwElem::U16: return reduce_as<std::uint16_t>(op, in, inout, bytes);
    case HwElem::I32: return reduce_as<std::int32_t>(op, in, inout, bytes);
    case HwElem::U32: return reduce_as<std::uint32_t>(op, in, inout, bytes);
  }
}

}  // namespace tilempi::transport
