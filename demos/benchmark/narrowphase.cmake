# Narrowphase benchmark programs. Each helper appends its own target below.

# GJK distance (cold/warm) and EPA, side by side with Box2D 2.4.1's b2Distance when installed.
add_executable(gjk_benchmark ${CMAKE_CURRENT_LIST_DIR}/gjk_benchmark.cpp)
mk_configure_target(gjk_benchmark)
target_link_libraries(gjk_benchmark PRIVATE minkowski)
mk_link_box2d(gjk_benchmark)

# Manifolds (GJK cold/warm, SAT) side by side with Box2D 2.4.1's b2CollidePolygons when installed.
add_executable(manifold_benchmark ${CMAKE_CURRENT_LIST_DIR}/manifold_benchmark.cpp)
mk_configure_target(manifold_benchmark)
target_link_libraries(manifold_benchmark PRIVATE minkowski)
mk_link_box2d(manifold_benchmark)
