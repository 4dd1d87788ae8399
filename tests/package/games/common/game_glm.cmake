# SPDX-License-Identifier: MIT
# A game's own GLM: an INTERFACE target glm::glm over the GLM headers (as a game with a vendored copy
# has), made before the engine is added or found, which must then use it as it is.
find_path(GAME_GLM_INCLUDE_DIR glm/vec2.hpp REQUIRED)
add_library(game_glm INTERFACE)
target_include_directories(game_glm INTERFACE ${GAME_GLM_INCLUDE_DIR})
add_library(glm::glm ALIAS game_glm)
