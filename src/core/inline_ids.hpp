// A list of 32-bit ids whose first kInline entries live inside the object: a hot loop that reads
// the list of an element it already holds (a solver resource's users) touches no separate heap
// block while the list is short, which for most elements it always is (a link of a ring carries
// one flow). Longer lists move to the heap and stay there (capacity doubles, never shrinks), so a
// steady stream of push_back / pop_back allocates nothing after warm-up. 24 bytes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>

namespace gf {

class InlineIds {
 public:
  static constexpr uint32_t kInline = 4;

  InlineIds() = default;
  InlineIds(const InlineIds& o) { assign(o); }
  InlineIds(InlineIds&& o) noexcept { steal(o); }
  InlineIds& operator=(const InlineIds& o) {
    if (this != &o) {
      release();
      assign(o);
    }
    return *this;
  }
  InlineIds& operator=(InlineIds&& o) noexcept {
    if (this != &o) {
      release();
      steal(o);
    }
    return *this;
  }
  ~InlineIds() { release(); }

  uint32_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  int32_t* data() { return on_heap() ? heap_ : inline_; }
  const int32_t* data() const { return on_heap() ? heap_ : inline_; }
  int32_t* begin() { return data(); }
  int32_t* end() { return data() + size_; }
  const int32_t* begin() const { return data(); }
  const int32_t* end() const { return data() + size_; }
  int32_t& operator[](size_t i) { return data()[i]; }
  int32_t operator[](size_t i) const { return data()[i]; }
  int32_t back() const { return data()[size_ - 1]; }

  void push_back(int32_t id) {
    if (size_ == capacity_) grow();
    data()[size_++] = id;
  }
  void pop_back() { --size_; }

 private:
  bool on_heap() const { return capacity_ > kInline; }
  void grow() {
    const uint32_t cap = 2 * capacity_;
    auto* bigger = new int32_t[cap];
    std::memcpy(bigger, data(), sizeof(int32_t) * size_);
    if (on_heap()) delete[] heap_;
    heap_ = bigger;
    capacity_ = cap;
  }
  void release() {
    if (on_heap()) delete[] heap_;
    size_ = 0;
    capacity_ = kInline;
  }
  void assign(const InlineIds& o) {
    if (o.size_ > kInline) {
      heap_ = new int32_t[o.size_];
      capacity_ = o.size_;
    }
    std::memcpy(data(), o.data(), sizeof(int32_t) * o.size_);
    size_ = o.size_;
  }
  void steal(InlineIds& o) {
    size_ = o.size_;
    capacity_ = o.capacity_;
    if (o.on_heap()) heap_ = o.heap_;
    else std::memcpy(inline_, o.inline_, sizeof(inline_));
    o.size_ = 0;
    o.capacity_ = kInline;
  }

  uint32_t size_ = 0;
  uint32_t capacity_ = kInline;  // above kInline: the ids are on the heap
  union {
    int32_t inline_[kInline] = {};
    int32_t* heap_;
  };
};

}  // namespace gf
