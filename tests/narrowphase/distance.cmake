# Distance query tests: GJK (distance, overlap, warm start, degenerate cases) and EPA, both against
# the brute-force oracles in oracle.h.
target_sources(mk_tests PRIVATE ${CMAKE_CURRENT_LIST_DIR}/gjk_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gjk_precision_test.cpp ${CMAKE_CURRENT_LIST_DIR}/epa_test.cpp)
