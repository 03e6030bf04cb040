// A hash table from a 64-bit key to a small value, kept in one array (open addressing, linear
// probing, deletion by shifting back): no allocation per entry, and the entries of a table that
// stays small stay in a few cache lines (private header). The engine keeps the order of each
// pair of ranks with a message in flight in one: an entry comes and goes with nearly every
// message, which std::unordered_map paid with an allocation and a free.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tilempi::transport::sim {

template <class V>
class PairTable {
 public:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};  ///< no key may be this

  PairTable() : cells_(kMinCells) {}

  std::size_t size() const { return count_; }
  /// The value of key, made (value-initialized) if there is none. (A reference valid until the
  /// next call of at.)
  V& at(std::uint64_t key) {
    std::size_t i = home(key);
    for (; cells_[i].key != kEmpty; i = (i + 1) & mask()) {
      if (cells_[i].key == key) return cells_[i].value;
    }
    if (2 * (count_ + 1) > cells_.size()) {
      grow();
      return at(key);
    }
    cells_[i].key = key;
    cells_[i].value = V{};
    ++count_;
    return cells_[i].value;
  }
  /// The value of key; nullptr if there is none.
  V* find(std::uint64_t key) {
    for (std::size_t i = home(key); cells_[i].key != kEmpty; i = (i + 1) & mask())
      if (cells_[i].key == key) return &cells_[i].value;
    return nullptr;
  }
  /// Removes key's entry (there must be one).
  void erase(std::uint64_t key) {
    std::size_t i = home(key);
    while (cells_[i].key != key) i = (i + 1) & mask();
    // Shift back every entry after it that would no longer be found from its home cell.
    for (std::size_t j = (i + 1) & mask(); cells_[j].key != kEmpty; j = (j + 1) & mask()) {
      const std::size_t k = home(cells_[j].key);
      const bool stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
      if (stays) continue;
      cells_[i] = cells_[j];
      i = j;
    }
    cells_[i].key = kEmpty;
    --count_;
  }

 private:
  struct Cell {
    std::uint64_t key = kEmpty;
    V value{};
  };
  static constexpr std::size_t kMinCells = 64;
  std::size_t mask() const { return cells_.size() - 1; }
  std::size_t home(std::uint64_t key) const {
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> 32) & mask();
  }
  void grow() {
    std::vector<Cell> old(2 * cells_.size());
    old.swap(cells_);
    count_ = 0;
    for (const Cell& c : old)
      if (c.key != kEmpty) at(c.key) = c.value;
  }

  std::vector<Cell> cells_;
  std::size_t count_ = 0;
};

}  // namespace tilempi::transport::sim
