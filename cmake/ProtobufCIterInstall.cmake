# Install rules: protoc-gen-iter in bin/, the runtime in lib/ and include/,
# a CMake package in lib/cmake/protobuf-c-iter/ (imported targets
# protobuf-c-iter::runtime and protobuf-c-iter::protoc-gen-iter, and
# protobuf_c_iter_generate()), and a pkg-config file for the runtime.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(PROTOBUF_C_ITER_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/protobuf-c-iter)

install(TARGETS protoc-gen-iter protobuf-c-iter-runtime
  EXPORT protobuf-c-iter-targets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT protobuf-c-iter-targets NAMESPACE protobuf-c-iter::
  DESTINATION ${PROTOBUF_C_ITER_CMAKE_DIR})

configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/protobuf-c-iterConfig.cmake.in
  ${PROJECT_BINARY_DIR}/protobuf-c-iterConfig.cmake
  INSTALL_DESTINATION ${PROTOBUF_C_ITER_CMAKE_DIR})
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/protobuf-c-iterConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/protobuf-c-iterConfig.cmake
  ${PROJECT_BINARY_DIR}/protobuf-c-iterConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/ProtobufCIterDependencies.cmake
  ${PROJECT_SOURCE_DIR}/cmake/ProtobufCIterGenerate.cmake
  DESTINATION ${PROTOBUF_C_ITER_CMAKE_DIR})

configure_file(${PROJECT_SOURCE_DIR}/cmake/protobuf-c-iter.pc.in
  ${PROJECT_BINARY_DIR}/protobuf-c-iter.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/protobuf-c-iter.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
