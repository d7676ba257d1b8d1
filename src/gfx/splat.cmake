# The sprite splatter of the graphics layer (CPU reference and CUDA kernel). It has no GL, so it is
# built with the simulation layer, whether or not the viewer is, and the tests link it alone.
find_package(hwy REQUIRED)  # the CPU draw path's vectorised tone map
add_library(orrery_splat STATIC ${CMAKE_CURRENT_LIST_DIR}/splat.cpp ${CMAKE_CURRENT_LIST_DIR}/trails_picking.cpp
  ${CMAKE_CURRENT_LIST_DIR}/color_range.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cpu_splat.cpp)
if(ORRERY_HAVE_CUDA)
  target_sources(orrery_splat PRIVATE ${CMAKE_CURRENT_LIST_DIR}/splat.cu ${CMAKE_CURRENT_LIST_DIR}/trails_picking.cu)
  target_compile_options(orrery_splat PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:--use_fast_math -Xptxas=-warn-spills>)
endif()
target_include_directories(orrery_splat PUBLIC ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(orrery_splat PUBLIC orrery::sim PRIVATE hwy::hwy)
target_compile_options(orrery_splat PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>)
