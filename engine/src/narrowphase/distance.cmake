# Distance queries: GJK distance and overlap (gjk.cpp), EPA penetration (epa.cpp), polygon SAT
# fallback (sat.cpp).
target_sources(minkowski PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/gjk.cpp
  ${CMAKE_CURRENT_LIST_DIR}/epa.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sat.cpp)
