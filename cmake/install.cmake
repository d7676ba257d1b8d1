# What `cmake --install` puts where, in three components:
#   runtime  the programs (bin/) and what the viewer reads (share/orrery/: shaders, scenes, gadget)
#   python   the module `orrery` (ORRERY_PYTHON_INSTALL_DIR)
#   dev      the engine library, its public headers and the CMake package (find_package(orrery))
# The programs and the viewer's files install from their own CMakeLists; the rest is here.
include(CMakePackageConfigHelpers)

install(TARGETS orrery_sim EXPORT orrery-targets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/orrery DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        COMPONENT dev)
set(ORRERY_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/orrery)
install(EXPORT orrery-targets NAMESPACE orrery:: DESTINATION ${ORRERY_CMAKE_INSTALL_DIR}
        COMPONENT dev)
# The static library's private dependencies are link-only names in the export: the config finds
# them again, as this build did.
set(ORRERY_CONFIG_CUDA ${ORRERY_HAVE_CUDA})
set(ORRERY_CONFIG_HDF5 OFF)
if(ORRERY_SIM_HDF5)
  set(ORRERY_CONFIG_HDF5 ON)
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/orrery-config.cmake.in
                              ${CMAKE_BINARY_DIR}/cmake/orrery-config.cmake
                              INSTALL_DESTINATION ${ORRERY_CMAKE_INSTALL_DIR})
# 0.x: a minor version may change the API, so only the same minor version is compatible.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/cmake/orrery-config-version.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/cmake/orrery-config.cmake
              ${CMAKE_BINARY_DIR}/cmake/orrery-config-version.cmake
        DESTINATION ${ORRERY_CMAKE_INSTALL_DIR} COMPONENT dev)
