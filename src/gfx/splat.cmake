# The sprite splatter of the graphics layer (CPU reference and CUDA kernel). It has no GL, so it is
# built with the simulation layer, whether or not the viewer is, and the tests link it alone.
find_package(hwy REQUIRED)  # the CPU draw path's vectorised tone map
add_library(orrery_splat STATIC ${CMAKE_CURRENT_LIST_DIR}/splat.cpp ${CMAKE_CURRENT_LIST_DIR}/trails_picking.cpp
  ${CMAKE_CURRENT_LIST_DIR}/color_range.cpp
  ${CMAKE_CURRENT_LIST_DIR}/cpu_splat.cpp ${CMAKE_CURRENT_LIST_DIR}/density_map.cpp ${CMAKE_CURRENT_LIST_DIR}/bloom.cpp)
if(ORRERY_HAVE_CUDA)
  target_sources(orrery_splat PRIVATE ${CMAKE_CURRENT_LIST_DIR}/splat.cu ${CMAKE_CURRENT_LIST_DIR}/trails_picking.cu
    ${CMAKE_CURRENT_LIST_DIR}/density_map.cu ${CMAKE_CURRENT_LIST_DIR}/bloom.cu)
  target_compile_options(orrery_splat PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:--use_fast_math -Xptxas=-warn-spills>)
endif()
target_include_directories(orrery_splat PUBLIC ${PROJECT_SOURCE_DIR}/src)
# The palettes' tables, made at build time from matplotlib's colour maps (Debian:
# python3-matplotlib) by scripts/make_palettes.py into gfx/palettes.h under the build tree.
set(ORRERY_PALETTE_PYTHON /usr/bin/python3 CACHE FILEPATH
    "The Python with matplotlib that writes the palette tables")
if(NOT EXISTS ${ORRERY_PALETTE_PYTHON})
  find_program(ORRERY_PALETTE_PYTHON_FOUND python3 REQUIRED)
  set(ORRERY_PALETTE_PYTHON ${ORRERY_PALETTE_PYTHON_FOUND})
endif()
execute_process(COMMAND ${ORRERY_PALETTE_PYTHON} -c "import matplotlib" RESULT_VARIABLE no_mpl
                OUTPUT_QUIET ERROR_QUIET)
if(no_mpl)
  message(FATAL_ERROR "orrery: ${ORRERY_PALETTE_PYTHON} has no matplotlib, which the palette tables "
                      "are made from (Debian: python3-matplotlib; scripts/setup.sh installs it)")
endif()
set(ORRERY_PALETTES_H ${CMAKE_BINARY_DIR}/generated/gfx/palettes.h)
add_custom_command(OUTPUT ${ORRERY_PALETTES_H}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/generated/gfx
  COMMAND ${ORRERY_PALETTE_PYTHON} ${PROJECT_SOURCE_DIR}/scripts/make_palettes.py ${ORRERY_PALETTES_H}
  DEPENDS ${PROJECT_SOURCE_DIR}/scripts/make_palettes.py
  COMMENT "Making the palette tables from matplotlib")
add_custom_target(orrery_palettes DEPENDS ${ORRERY_PALETTES_H})
add_dependencies(orrery_splat orrery_palettes)
target_include_directories(orrery_splat PUBLIC ${CMAKE_BINARY_DIR}/generated)
target_link_libraries(orrery_splat PUBLIC orrery::sim PRIVATE hwy::hwy)
target_compile_options(orrery_splat PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>)
