target_sources(mk_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/manifold_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/manifold_property_test.cpp)
