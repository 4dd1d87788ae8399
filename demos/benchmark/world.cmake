# World benchmark (`benchmark`): the scene table with the SCENES.md timing convention, CSV out.
add_executable(benchmark ${CMAKE_CURRENT_SOURCE_DIR}/world_benchmark.cpp)
mk_configure_target(benchmark)
target_link_libraries(benchmark PRIVATE mk_scenes)
