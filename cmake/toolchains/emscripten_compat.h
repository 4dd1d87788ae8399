// SPDX-License-Identifier: MIT
// Forced into every C++ file of the browser build (cmake/toolchains/emscripten.cmake). Debian's
// emscripten 3.1.6 ships libc++ 13, which lacks two C++17/20 library pieces this project uses:
//   - std::bit_cast (libc++ 14), used by the engine: provided from the compiler's builtin;
//   - std::from_chars for float and double (libc++ 17), used by the sandbox to read settings: provided
//     on strtod/strtof, which read the same decimal numbers (Emscripten's C locale is fixed). Like
//     from_chars they refuse leading spaces and '+', and read "0x1p3" as 0 stopped at the 'x'.
// Both only for those library versions: a newer emscripten's own are used as they are.
#pragma once

#if defined(__cplusplus) && __cplusplus >= 202002L && defined(__EMSCRIPTEN__)
#include <version>
#if defined(_LIBCPP_VERSION) && _LIBCPP_VERSION < 17000
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <string>
#include <system_error>
#include <type_traits>

namespace std {

#if !defined(__cpp_lib_bit_cast)
template <class To, class From>
requires(sizeof(To) == sizeof(From) && is_trivially_copyable_v<To> &&
         is_trivially_copyable_v<From>) constexpr To bit_cast(const From& from) noexcept {
  return __builtin_bit_cast(To, from);
}
#endif

template <class Float>
requires(is_same_v<Float, float> || is_same_v<Float, double>) from_chars_result
    __mk_from_chars_float(const char* first, const char* last, Float& value) {
  if (first == last || *first == '+' || isspace(static_cast<unsigned char>(*first)))
    return {first, errc::invalid_argument};
  const string text(first, last);  // strtod reads up to a terminator
  const char* begin = text.c_str();
  const char* digits = begin + (*begin == '-' ? 1 : 0);
  if (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    value = *begin == '-' ? Float(-0.0) : Float(0.0);
    return {first + (digits + 1 - begin), errc{}};
  }
  char* end = nullptr;
  errno = 0;
  const Float parsed = is_same_v<Float, float> ? strtof(begin, &end) : strtod(begin, &end);
  if (end == begin) return {first, errc::invalid_argument};
  if (errno == ERANGE) return {first + (end - begin), errc::result_out_of_range};
  value = parsed;
  return {first + (end - begin), errc{}};
}

inline from_chars_result from_chars(const char* first, const char* last, float& value) {
  return __mk_from_chars_float(first, last, value);
}
inline from_chars_result from_chars(const char* first, const char* last, double& value) {
  return __mk_from_chars_float(first, last, value);
}

}  // namespace std
#endif
#endif
