// SPDX-License-Identifier: MIT
// The sandbox application: command line, SDL window + renderer, ImGui, the frame loop, screenshots.
#pragma once

#include "options.h"

namespace mk::sandbox {

/// Runs the sandbox; returns a process exit code (kExit*).
int RunSandbox(const Options& options, const char* program);

}  // namespace mk::sandbox
