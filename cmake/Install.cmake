# Install rules and the CMake package (docs/cli.md, "Install"):
#   bin/segtime
#   lib/segtime/segtime.so, segtime-passes.so          plugins (clang, opt)
#   lib/segtime/segtime-expr.so                        the clang plugin's expression algebra
#   lib/libsegtime-rt.a, include/segtime_ct.h           component-timing runtime
#   share/segtime/machines/*.yaml                       bundled machine files
#   share/segtime/commbench/commbench.c                 MPI benchmarks (comm calibrate)
#   share/doc/segtime/                                  README and docs
#   lib/cmake/segtime/                                  find_package(segtime CONFIG)
include(CMakePackageConfigHelpers)

set_target_properties(segtime PROPERTIES EXPORT_NAME plugin)
set_target_properties(segtime-passes PROPERTIES EXPORT_NAME passes)
set_target_properties(segtime-rt PROPERTIES EXPORT_NAME runtime)
set_target_properties(segtime-tool PROPERTIES EXPORT_NAME segtime)

install(TARGETS segtime-tool EXPORT segtimeTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS segtime segtime-passes EXPORT segtimeTargets
        LIBRARY DESTINATION ${SEGTIME_PLUGIN_DIR})
install(TARGETS segtime-expr LIBRARY DESTINATION ${SEGTIME_PLUGIN_DIR})
install(TARGETS segtime-rt EXPORT segtimeTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES runtime/segtime_ct.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# The machine files that ship (not local*.yaml, which `segtime calibrate`
# writes for the machine it ran on).
file(GLOB SEGTIME_MACHINES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/costvectors/*.yaml)
list(FILTER SEGTIME_MACHINES EXCLUDE REGEX "/local[^/]*\\.yaml$")
install(FILES ${SEGTIME_MACHINES} costvectors/README.md
        DESTINATION ${SEGTIME_DATA_DIR}/machines)
install(FILES tools/commbench/commbench.c DESTINATION ${SEGTIME_DATA_DIR}/commbench)
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(SEGTIME_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/segtime)
install(EXPORT segtimeTargets NAMESPACE segtime:: DESTINATION ${SEGTIME_CMAKE_DIR})
configure_package_config_file(cmake/segtimeConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/segtimeConfig.cmake
                              INSTALL_DESTINATION ${SEGTIME_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/segtimeConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/segtimeConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/segtimeConfigVersion.cmake
        DESTINATION ${SEGTIME_CMAKE_DIR})
