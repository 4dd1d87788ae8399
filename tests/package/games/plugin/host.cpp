// SPDX-License-Identifier: MIT
// Loads the plugin at run time, as a game loads a mod, and runs its world.
#include <cstdio>
#include <dlfcn.h>

int main() {
  void* plugin = dlopen(PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
  if (plugin == nullptr) {
    std::printf("dlopen failed: %s\n", dlerror());
    return 1;
  }
  using Run = int (*)();
  Run run = reinterpret_cast<Run>(dlsym(plugin, "GamePluginRun"));
  if (run == nullptr) {
    std::printf("GamePluginRun not found: %s\n", dlerror());
    return 1;
  }
  const int result = run();
  dlclose(plugin);
  return result;
}
