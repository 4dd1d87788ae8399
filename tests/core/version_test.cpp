// SPDX-License-Identifier: MIT
// The version three ways: the library's GetVersion(), the headers' MK_VERSION_* macros and CMake's
// project(VERSION), which the build passes in as MK_TEST_PROJECT_VERSION.
#include <doctest/doctest.h>

#include <minkowski/version.h>
#include <string>

TEST_SUITE("core.version") {
TEST_CASE("the library's version equals the header macros") {
  const mk::Version library = mk::GetVersion();
  CHECK(library.major == MK_VERSION_MAJOR);
  CHECK(library.minor == MK_VERSION_MINOR);
  CHECK(library.patch == MK_VERSION_PATCH);
  CHECK(library == mk::kHeaderVersion);
}

TEST_CASE("the header macros equal the CMake project version") {
  const std::string macros = std::to_string(MK_VERSION_MAJOR) + "." + std::to_string(MK_VERSION_MINOR) + "." +
                             std::to_string(MK_VERSION_PATCH);
  CHECK(macros == MK_TEST_PROJECT_VERSION);
}
}  // TEST_SUITE("core.version")
