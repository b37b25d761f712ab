# Regressions of the installed package, one CASE a run:
#   -DCASE=name -DWORK=dir -DPREFIX=installed-prefix -DBUILD_DIR=its-build
#   [-DSOURCE_DIR=project] [-DPROTOC=path -DPROTOBUF_INCLUDE=dir]
execute_process(COMMAND ${CMAKE_COMMAND} -E rm -rf ${WORK})
file(MAKE_DIRECTORY ${WORK})

include(${CMAKE_CURRENT_LIST_DIR}/run.cmake)

# A downstream project: one proto, decoded and checked by main.c. PREAMBLE
# goes before find_package, FIND is its arguments.
function(write_project dir preamble find)
  file(WRITE ${dir}/proto/p.proto "syntax = \"proto3\";\nmessage P { int32 n = 1; }\n")
  file(WRITE ${dir}/main.c [=[
#include <stdio.h>
#include "p.pb-iter.h"
int main(void) {
  static const uint8_t wire[] = {0x08, 0x2a};
  PROTOBUF_C_ITER_BUFFER(buf, 256);
  ptrdiff_t r = p__iter_unpack(wire, sizeof wire, buf.bytes, sizeof buf.bytes);
  if (r < 0) return 1;
  printf("n=%d\n", (int)((P *)buf.bytes)->n);
  return 0;
}
]=])
  file(WRITE ${dir}/CMakeLists.txt "cmake_minimum_required(VERSION 3.21)
project(downstream C)
${preamble}
find_package(protobuf-c-iter CONFIG ${find})
if(NOT protobuf-c-iter_FOUND)
  message(STATUS \"package not found: \${protobuf-c-iter_NOT_FOUND_MESSAGE}\")
  return()
endif()
add_executable(app main.c)
protobuf_c_iter_generate(TARGET app PROTO_ROOT proto PROTOS proto/p.proto)
")
endfunction()

if(CASE STREQUAL "pc_file_named_the_configured_prefix")
  # The .pc file named CMAKE_INSTALL_PREFIX as configured, so after
  # `cmake --install --prefix` (or moving the prefix) pkg-config gave paths
  # of a prefix that held nothing: the Makefile example's protoc then found no
  # plugin. Installed elsewhere, then moved, every path it gives must exist.
  run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK}/elsewhere)
  run(${CMAKE_COMMAND} -E rename ${WORK}/elsewhere ${WORK}/moved)
  file(GLOB_RECURSE pc ${WORK}/moved/*/protobuf-c-iter.pc)
  get_filename_component(pcdir "${pc}" DIRECTORY)
  set(ENV{PKG_CONFIG_PATH} "${pcdir}")
  run(pkg-config --variable=protoc_gen_iter protobuf-c-iter)
  string(STRIP "${out}" plugin)
  run(pkg-config --cflags-only-I protobuf-c-iter)
  string(REGEX MATCHALL "-I[^ \n]+" includes "${out}")
  run(pkg-config --libs-only-L protobuf-c-iter)
  string(REGEX MATCHALL "-L[^ \n]+" libdirs "${out}")
  foreach(path ${plugin} ${includes} ${libdirs})
    string(REGEX REPLACE "^-[IL]" "" path "${path}")
    get_filename_component(real "${path}" REALPATH)
    if(NOT EXISTS "${real}" OR NOT real MATCHES "^${WORK}/moved/")
      message(FATAL_ERROR "pkg-config names ${path}, not a path of ${WORK}/moved")
    endif()
  endforeach()
  if(NOT EXISTS "${WORK}/moved/include/protobuf-c-iter/protobuf-c-iter.h" OR
     NOT includes OR NOT libdirs)
    message(FATAL_ERROR "pkg-config gave '${plugin}' '${includes}' '${libdirs}'")
  endif()
  message(STATUS "pkg-config after a move: ${plugin}")

elseif(CASE STREQUAL "package_required_libprotoc")
  # find_package(protobuf-c-iter) stopped where protobuf came without
  # libprotoc (protoc and libprotobuf only), which generated code never
  # links. A parent project that made protobuf's targets without
  # protobuf::libprotoc stands for such an installation here.
  write_project(${WORK}/project "
add_executable(protobuf::protoc IMPORTED GLOBAL)
set_target_properties(protobuf::protoc PROPERTIES IMPORTED_LOCATION \"${PROTOC}\")
add_library(protobuf::libprotobuf INTERFACE IMPORTED GLOBAL)
set_target_properties(protobuf::libprotobuf PROPERTIES
                      INTERFACE_INCLUDE_DIRECTORIES \"${PROTOBUF_INCLUDE}\")" REQUIRED)
  run(${CMAKE_COMMAND} -S ${WORK}/project -B ${WORK}/build -DCMAKE_PREFIX_PATH=${PREFIX})
  run(${CMAKE_COMMAND} --build ${WORK}/build)
  run(${WORK}/build/app)
  if(NOT out STREQUAL "n=42\n")
    message(FATAL_ERROR "app printed '${out}'")
  endif()

elseif(CASE STREQUAL "optional_find_package_stopped_the_configuration")
  # A missing dependency was a FATAL_ERROR even in a find_package without
  # REQUIRED. With libprotobuf-c hidden (no CMake package, no .pc file), the
  # package must be not found, with the reason, and the configuration go on;
  # with REQUIRED, fail with that reason.
  file(MAKE_DIRECTORY ${WORK}/no-pc)
  set(ENV{PKG_CONFIG_LIBDIR} ${WORK}/no-pc)
  unset(ENV{PKG_CONFIG_PATH})
  set(hide -DCMAKE_PREFIX_PATH=${PREFIX} -DCMAKE_DISABLE_FIND_PACKAGE_protobuf-c=ON
           -DPKG_CONFIG_USE_CMAKE_PREFIX_PATH=OFF)
  write_project(${WORK}/optional "" "")
  run(${CMAKE_COMMAND} -S ${WORK}/optional -B ${WORK}/optional/build ${hide})
  if(NOT out MATCHES "package not found: libprotobuf-c not found")
    message(FATAL_ERROR "configuring without libprotobuf-c said:\n${out}\n${err}")
  endif()
  write_project(${WORK}/required "" REQUIRED)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${WORK}/required -B ${WORK}/required/build ${hide}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX REPLACE "[ \t\r\n]+" " " err "${err}")
  if(rc EQUAL 0 OR NOT err MATCHES "libprotobuf-c not found")
    message(FATAL_ERROR "REQUIRED without libprotobuf-c: exit ${rc}, said:\n${err}")
  endif()

elseif(CASE STREQUAL "old_cmake_not_found")
  # The package's DEPFILE needs CMake 3.20's Makefile generators (3.21 is
  # tested): an older CMake (its version shadowed here) must find no package,
  # and say why, rather than fail inside protobuf_c_iter_generate().
  write_project(${WORK}/project "set(CMAKE_VERSION 3.16.3)" "")
  run(${CMAKE_COMMAND} -S ${WORK}/project -B ${WORK}/build -DCMAKE_PREFIX_PATH=${PREFIX})
  if(NOT out MATCHES "package not found: protobuf-c-iter needs CMake 3.21 or newer \\(this is 3.16.3\\)")
    message(FATAL_ERROR "with CMake 3.16.3 the project said:\n${out}\n${err}")
  endif()

elseif(CASE STREQUAL "makefile_example_ran_protoc_twice")
  # examples/makefile named the generated files as an explicit rule's two
  # targets: make -j ran protoc for each, both writing the same files. Its
  # rule must run once (make -n prints each command it would run).
  set(ENV{PKG_CONFIG_PATH} ${PREFIX}/lib/pkgconfig)
  run(make -n -j2 -C ${SOURCE_DIR}/examples/makefile OUT=${WORK}/gen BIN=${WORK}/hello)
  string(REGEX MATCHALL "--iter_out" runs "${out}")
  list(LENGTH runs n)
  if(NOT n EQUAL 1)
    message(FATAL_ERROR "make would run protoc ${n} times:\n${out}")
  endif()

else()
  message(FATAL_ERROR "unknown CASE ${CASE}")
endif()
