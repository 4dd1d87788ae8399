// SPDX-License-Identifier: MIT
// Helpers for the lab tests.
#pragma once

#include "lab.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace mk::sandbox {

/// Applies each "key=value" through Lab::ApplySetting (every one must be accepted), then Lab::Update.
inline void ApplyLabSettings(Lab& lab, const std::vector<std::string>& pairs) {
  for (const std::string& s : pairs) {
    std::string error;
    const size_t eq = s.find('=');
    REQUIRE_MESSAGE(lab.ApplySetting(s.substr(0, eq), s.substr(eq + 1), error), error);
  }
  lab.Update();
}

}  // namespace mk::sandbox
