// SPDX-License-Identifier: MIT
// Minkowski sandbox: an SDL2 window with a Dear ImGui panel, drawing through the engine's DebugDraw.
//   sandbox                                              interactive window
//   sandbox --headless --frames N --screenshot out.png   no window shown; writes the last frame
#include "app.h"

#include <cstdio>

int main(int argc, char** argv) {
  const char* program = argc > 0 ? argv[0] : "sandbox";
  mk::sandbox::ParsedArguments parsed = mk::sandbox::ParseArguments(argc, argv);
  if (!parsed.ok) {
    std::fprintf(stderr, "%s: %s\n\n%s", program, parsed.error.c_str(),
                 mk::sandbox::UsageText(program).c_str());
    return mk::sandbox::kExitError;
  }
  if (parsed.options.help) {
    std::fputs(mk::sandbox::UsageText(program).c_str(), stdout);
    return mk::sandbox::kExitOk;
  }
  return mk::sandbox::RunSandbox(parsed.options, program);
}
