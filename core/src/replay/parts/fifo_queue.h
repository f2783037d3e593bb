#pragma once
// A first-in first-out queue over a vector. The consumed prefix is dropped once it is the larger
// half, so memory stays proportional to what waits even when the queue never drains.
#include <cstddef>
#include <vector>

namespace breakerlab {

template <typename T>
class FifoQueue {
 public:
  bool empty() const { return head_ == items_.size(); }
  std::size_t size() const { return items_.size() - head_; }
  const T& front() const { return items_[head_]; }
  const T& back() const { return items_.back(); }
  void push(const T& item) { items_.push_back(item); }
  T pop() {
    T item = items_[head_++];
    if (head_ == items_.size()) {
      items_.clear();
      head_ = 0;
    } else if (head_ >= 4096 && 2 * head_ >= items_.size()) {
      items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
    return item;
  }

 private:
  std::vector<T> items_;
  std::size_t head_ = 0;
};

}  // namespace breakerlab
