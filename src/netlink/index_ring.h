// netlink/index_ring.h: a run's items by index, holding only those not yet
// retired.
//
// A batch numbers its operations from 0 and hands out those numbers, but
// once an operation's result is final nothing reads it again. A vector
// indexed by number would keep every one, and a long batch would touch a
// fresh page every dozen or so of its lines (a first touch costs several µs).
// The ring keeps the live ones in slots that are reused: its memory is the
// most items ever live at once, a window or two, not the whole run.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace brisk::netlink::detail {

template <class T>
class IndexRing {
 public:
  IndexRing() = default;
  // Items 0 .. items.size()-1, all live.
  explicit IndexRing(std::vector<T> items) {
    reserve(items.size());
    for (auto& item : items) push(std::move(item));
  }

  // The first index still held, and one past the last pushed.
  std::size_t begin() const { return begin_; }
  std::size_t end() const { return end_; }
  std::size_t live() const { return end_ - begin_; }

  T& operator[](std::size_t i) { return slots_[i & mask_]; }
  const T& operator[](std::size_t i) const { return slots_[i & mask_]; }

  // Appends `item`; returns its index.
  std::size_t push(T item) {
    if (live() == slots_.size()) grow(slots_.empty() ? 16 : 2 * slots_.size());
    slots_[end_ & mask_] = std::move(item);
    return end_++;
  }

  // Room for `count` live items without regrowing.
  void reserve(std::size_t count) {
    std::size_t size = slots_.empty() ? 16 : slots_.size();
    while (size < count) size *= 2;
    if (size > slots_.size()) grow(size);
  }

  // Retires the items before `i`: each is reset to T{}, so that what it owns
  // goes back to the allocator now, and its slot is free for a later push.
  void retire_before(std::size_t i) {
    for (; begin_ < i && begin_ < end_; ++begin_) slots_[begin_ & mask_] = T{};
  }

  // The live items, in order, moving them out; the ring is empty after.
  std::vector<T> take() {
    std::vector<T> out;
    out.reserve(live());
    for (std::size_t i = begin_; i < end_; ++i) out.push_back(std::move((*this)[i]));
    *this = IndexRing();
    return out;
  }

 private:
  // To a power of two `size`, so that an index maps to a slot by a mask.
  void grow(std::size_t size) {
    std::vector<T> slots(size);
    for (std::size_t i = begin_; i < end_; ++i) slots[i & (size - 1)] = std::move((*this)[i]);
    slots_ = std::move(slots);
    mask_ = size - 1;
  }

  std::vector<T> slots_;
  std::size_t mask_ = 0;
  std::size_t begin_ = 0;  // the first index held
  std::size_t end_ = 0;    // the next index pushed
};

}  // namespace brisk::netlink::detail
