// SPDX-License-Identifier: MIT
// Minkowski — OwnedPtr<T>, the owning pointer that public classes hold their internals by (World's
// state, the broadphase's, a workspace's buffers), in place of std::unique_ptr.
//
// A public class's layout must not depend on how the game is compiled (libstdc++'s debug mode, the
// language version, another standard library): OwnedPtr is one pointer, whatever they are, and its
// header includes nothing. Like std::unique_ptr on a pimpl, its destructor deletes a complete T, so a
// class holding one declares its destructor and moves and defines them where T is complete (in the
// engine): the game's code never deletes the engine's objects.
#pragma once

#include "minkowski/export.h"

namespace MK_API mk {

/// Sole owner of one heap object of type T (or none): deletes it on destruction, moves, never copies.
template <class T>
class OwnedPtr {
 public:
  OwnedPtr() = default;                         ///< owns nothing
  explicit OwnedPtr(T* object) : p_(object) {}  ///< takes ownership of `object` (made by `new`)
  /// Deletes the object. Instantiate only where T is complete (see the top of owned_ptr.h).
  ~OwnedPtr() { Delete(p_); }
  /// Moving transfers the object; the source is left owning nothing. @{
  OwnedPtr(OwnedPtr&& other) noexcept : p_(other.p_) { other.p_ = nullptr; }
  OwnedPtr& operator=(OwnedPtr&& other) noexcept {
    if (this != &other) {
      Delete(p_);
      p_ = other.p_;
      other.p_ = nullptr;
    }
    return *this;
  }
  ///@}
  OwnedPtr(const OwnedPtr&) = delete;
  OwnedPtr& operator=(const OwnedPtr&) = delete;

  /// Deletes the object held and takes `object` instead (named as std::unique_ptr's).
  void reset(T* object = nullptr) {
    T* old = p_;
    p_ = object;
    Delete(old);
  }
  T* get() const { return p_; }                             ///< the object, or null
  T& operator*() const { return *p_; }                      ///< the object (must not be null)
  T* operator->() const { return p_; }                      ///< the object (must not be null)
  explicit operator bool() const { return p_ != nullptr; }  ///< true when it owns an object
  /// Compares with null: whether it owns nothing (==) or an object (!=). @{
  bool operator==(decltype(nullptr)) const { return p_ == nullptr; }
  bool operator!=(decltype(nullptr)) const { return p_ != nullptr; }
  ///@}

 private:
  static void Delete(T* object) {
    static_assert(sizeof(T) > 0, "OwnedPtr<T> deletes a T only where T is complete");
    delete object;
  }
  T* p_ = nullptr;
};

}  // namespace mk
