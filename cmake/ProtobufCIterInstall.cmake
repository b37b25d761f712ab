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
  ${PROJECT_SOURCE_DIR}/cmake/ProtobufCIterDepfile.cmake
  DESTINATION ${PROTOBUF_C_ITER_CMAKE_DIR})

# The .pc file finds its prefix from where it is (pkg-config's ${pcfiledir}),
# so that `cmake --install --prefix` and a moved prefix are named right, not
# the CMAKE_INSTALL_PREFIX of configure time. Absolute install directories
# stay as they are.
set(PROTOBUF_C_ITER_PC_PREFIX "\${pcfiledir}")
if(NOT IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  file(RELATIVE_PATH _pbci_up "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
  string(APPEND PROTOBUF_C_ITER_PC_PREFIX "/${_pbci_up}")
else()
  set(PROTOBUF_C_ITER_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
endif()
foreach(dir LIBDIR INCLUDEDIR BINDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(PROTOBUF_C_ITER_PC_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(PROTOBUF_C_ITER_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
configure_file(${PROJECT_SOURCE_DIR}/cmake/protobuf-c-iter.pc.in
  ${PROJECT_BINARY_DIR}/protobuf-c-iter.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/protobuf-c-iter.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
