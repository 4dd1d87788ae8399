# Manifolds: clipping, the general core path, typed functions and the shape-pair table.
target_sources(minkowski PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/manifold.cpp
  ${CMAKE_CURRENT_LIST_DIR}/collide_cores.cpp
  ${CMAKE_CURRENT_LIST_DIR}/clip.cpp
  ${CMAKE_CURRENT_LIST_DIR}/core_distance.cpp)
