# Broadphase benchmark: banded SAP vs brute force vs Box2D 2.4.1's dynamic tree (when installed).
add_executable(broadphase_benchmark ${CMAKE_CURRENT_SOURCE_DIR}/broadphase_benchmark.cpp)
mk_configure_target(broadphase_benchmark)
target_link_libraries(broadphase_benchmark PRIVATE minkowski)
mk_link_box2d(broadphase_benchmark)
