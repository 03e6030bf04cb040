// State that the layers above keep once per rank.
//
// Usually a process is one rank and holds one copy of the library. On the sim transport the
// ranks can also be user-level contexts of one simulator process (docs/SIM.md "Ranks as
// contexts"): each rank has a private copy of the program's image, but all share one copy of
// libtilempi, so the library's own per-rank state (the MPI runtime, communicators, datatypes,
// requests) must be selected by the rank that is running. The simulator's scheduler sets the
// running rank's slot before it switches to the rank; in every other process the slot is 0.
#pragma once

#include <memory>
#include <vector>

namespace tilempi::transport {

namespace detail {
/// The running rank's slot in this process (0 outside the simulator's contexts).
extern int g_rank_slot;
}  // namespace detail

inline int current_rank_slot() { return detail::g_rank_slot; }
/// For the simulator's scheduler only: the rank whose code runs from now on.
inline void set_current_rank_slot(int slot) { detail::g_rank_slot = slot; }

/// In a simulator process, the address of a symbol of the running rank's own copy of the program
/// (null elsewhere, or when the copy has none). Objects a program and the library both define,
/// such as Fortran's sentinel COMMON blocks, are one object per process only outside contexts.
void* rank_image_symbol(const char* name);

/// One T per rank slot, created on first use (value-initialized). References stay valid.
template <class T>
class RankLocal {
 public:
  // Small enough to inline: the MPI layer asks several times per message.
  /// Slot 0's T if it exists yet, else nullptr; for a caller that has seen current_rank_slot()
  /// == 0 and asks for several of them (one look at the slot instead of one per get()).
  T* first() const { return first_; }

  T& get() {
    const auto slot = static_cast<std::size_t>(detail::g_rank_slot);
    // Slot 0 is every process's but the simulator's: one test and one load, not the vector's.
    if (slot == 0 && first_) [[likely]]
      return *first_;
    if (slot < items_.size()) [[likely]] {
      if (T* p = items_[slot].get()) [[likely]]
        return *p;
    }
    return create(slot);
  }

 private:
  [[gnu::noinline]] T& create(std::size_t slot) {
    if (slot >= items_.size()) items_.resize(slot + 1);
    items_[slot] = std::make_unique<T>();
    if (slot == 0) first_ = items_[0].get();
    return *items_[slot];
  }

  std::vector<std::unique_ptr<T>> items_;
  T* first_ = nullptr;  ///< items_[0] once created (items are never destroyed before the process ends)
};

}  // namespace tilempi::transport
