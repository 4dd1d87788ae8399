// SPDX-License-Identifier: MIT
// Minkowski — Span<T>, the view of contiguous elements (a pointer and a count) that the public API
// takes and returns instead of std::vector or std::span.
//
// Why not the standard types: a std::vector's layout depends on how the game is compiled (libstdc++'s
// debug mode, -D_GLIBCXX_DEBUG, makes it another class), so a vector built by the library and used by
// the game, or the other way round, crashes; and std::span needs C++20, while the public headers
// compile as C++17. A Span is two words whatever the standard library or the language version, and it
// converts from anything contiguous with data() and size() (std::vector, std::array, std::span, another
// Span, a C array), so a game passes its own containers unchanged:
//
//   std::vector<mk::Vec2> points = ...;
//   mk::MakePolygon(points);                         // Span<const Vec2> from the vector
//   std::byte buffer[4096];
//   std::size_t needed = world.SaveSnapshot(buffer); // Span<std::byte> from the array
//
// A Span owns nothing: what it views must outlive it. Each call that returns one says how long the
// viewed storage lasts.
#pragma once

#include "minkowski/assert.h"
#include "minkowski/export.h"

#include <cstddef>
#include <type_traits>
#include <utility>

namespace MK_API mk {

/// A non-owning view of `size()` contiguous elements of type T starting at `data()` (T may be const).
/// Trivially copyable; the empty Span has a null pointer. See the top of span.h.
template <class T>
class Span {
  // True when C has data() and size() and data() points to elements a Span<T> may view: U* converts
  // to T* without slicing (U is T, or T is const U).
  template <class C, class = void>
  struct Viewable : std::false_type {};
  template <class C>
  struct Viewable<C, std::void_t<decltype(std::declval<C&>().data()), decltype(std::declval<C&>().size())>>
      : std::is_convertible<std::remove_pointer_t<decltype(std::declval<C&>().data())> (*)[], T (*)[]> {};

 public:
  using element_type = T;                  ///< the viewed type, const included
  using value_type = std::remove_cv_t<T>;  ///< the element type without const
  using size_type = std::size_t;           ///< the type of counts and indices
  using iterator = T*;                     ///< begin() and end() are plain pointers
  using pointer = T*;                      ///< the type of data()
  using reference = T&;                    ///< the type of operator[]

  constexpr Span() = default;  ///< empty: null pointer, size 0

  /// `count` elements from `data`. A null pointer with a non-zero count fails an MK_ASSERT and gives
  /// the empty Span.
  constexpr Span(T* data, std::size_t count) : data_(data), size_(count) {
    if (data == nullptr && count != 0) {
      MK_ASSERT(data != nullptr || count == 0);
      size_ = 0;
    }
  }

  /// Every element of a C array.
  template <class U, std::size_t N, class = std::enable_if_t<std::is_convertible_v<U (*)[], T (*)[]>>>
  constexpr Span(U (&array)[N]) : data_(array), size_(N) {}

  /// Every element of a contiguous container with data() and size(): std::vector, std::array,
  /// std::span, std::string_view, a Span (so Span<const T> from Span<T>). The container must outlive
  /// the Span.
  template <class C, class = std::enable_if_t<!std::is_array_v<std::remove_reference_t<C>> &&
                                              Viewable<std::remove_reference_t<C>>::value>>
  constexpr Span(C&& container)  // NOLINT: implicit, as std::span's
      : Span(container.data(), static_cast<std::size_t>(container.size())) {}

  constexpr T* data() const { return data_; }           ///< the first element (null when empty)
  constexpr std::size_t size() const { return size_; }  ///< number of elements
  constexpr bool empty() const { return size_ == 0; }   ///< true when size() is 0

  /// Element `i`; out of range fails an MK_ASSERT (and is then undefined, as for a raw pointer).
  constexpr T& operator[](std::size_t i) const {
    MK_ASSERT(i < size_);
    return data_[i];
  }

  /// The first `count` elements (count is clamped to size(), with an MK_ASSERT when it exceeds it).
  constexpr Span first(std::size_t count) const {
    MK_ASSERT(count <= size_);
    return Span(data_, count <= size_ ? count : size_);
  }

  /// Iteration over the elements, as pointers. @{
  constexpr T* begin() const { return data_; }
  constexpr T* end() const { return data_ + size_; }
  ///@}

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

namespace detail {
/// True for a container with resize() (a std::vector, a std::string): the calls that used to fill one
/// refuse it (a deleted overload), where it would otherwise convert silently to a Span of its current
/// size. Internal.
template <class C, class = void>
struct IsResizable : std::false_type {};
/// \copydoc IsResizable
template <class C>
struct IsResizable<C, std::void_t<decltype(std::declval<C&>().resize(0))>> : std::true_type {};
}  // namespace detail

}  // namespace mk
