// Values kept in slots of a vector that reuses freed slots (private header): a heap or list
// elsewhere then holds a small slot number instead of the value itself.
#pragma once

#include <cstdint>
#include <vector>

namespace tilempi::transport::sim {

template <class T>
class Slots {
 public:
  std::uint32_t put(const T& v) {
    if (free_.empty()) {
      values_.push_back(v);
      return static_cast<std::uint32_t>(values_.size() - 1);
    }
    const std::uint32_t slot = free_.back();
    free_.pop_back();
    values_[slot] = v;
    return slot;
  }
  const T& operator[](std::uint32_t slot) const { return values_[slot]; }
  T& operator[](std::uint32_t slot) { return values_[slot]; }
  /// Slots in use or free: every slot number put() has handed out is below this.
  std::size_t size() const { return values_.size(); }
  void release(std::uint32_t slot) { free_.push_back(slot); }

 private:
  std::vector<T> values_;
  std::vector<std::uint32_t> free_;
};

}  // namespace tilempi::transport::sim
