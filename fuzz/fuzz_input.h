// Helpers shared by the fuzz targets: how a fuzzer's bytes become the arguments of a parser.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace tilempi::fuzz {

/// The input split into strings at '\n' (an argument vector, or lines of a file).
inline std::vector<std::string> split_lines(const std::uint8_t* data, std::size_t size, std::size_t max_items = 64) {
  std::vector<std::string> out;
  std::string cur;
  for (std::size_t i = 0; i < size; ++i) {
    const char c = static_cast<char>(data[i]);
    if (c == '\n') {
      out.push_back(cur);
      cur.clear();
      if (out.size() >= max_items) return out;
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

/// Takes typed values from the front of the input; zeros once it is used up.
class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : p_(data), n_(size) {}
  bool empty() const { return n_ == 0; }
  std::size_t left() const { return n_; }
  template <class T>
  T take() {
    T v{};
    const std::size_t k = n_ < sizeof v ? n_ : sizeof v;
    if (k) std::memcpy(&v, p_, k);
    p_ += k;
    n_ -= k;
    return v;
  }
  /// A value in [0, n).
  std::uint32_t below(std::uint32_t n) { return n ? take<std::uint32_t>() % n : 0; }
  /// A string: one length byte, then that many bytes.
  std::string text(std::size_t max = 255) {
    std::size_t len = take<std::uint8_t>();
    if (len > max) len = max;
    if (len > n_) len = n_;
    std::string s(reinterpret_cast<const char*>(p_), len);
    p_ += len;
    n_ -= len;
    return s;
  }

 private:
  const std::uint8_t* p_;
  std::size_t n_;
};

}  // namespace tilempi::fuzz
