# Finds what building protobuf-c-iter and generated code needs:
#   protobuf::protoc, protobuf::libprotobuf (and protobuf::libprotoc, which
#       only the plugin's build needs: plugin/CMakeLists.txt requires it)
#       from protobuf's CMake package when it has one (protobuf >= 22 needs
#       it: its targets carry the abseil libraries), else CMake's FindProtobuf
#   protobuf-c::protobuf-c     (protobuf-c's CMake package, else pkg-config)
#   PROTOBUF_C_ITER_PROTOC_GEN_C (protoc-c's plugin: protoc-gen-c or protoc-c)
#   PROTOBUF_C_ITER_PROTOBUF_INCLUDE (the directory holding the
#       google/protobuf/*.proto of the protoc found; give it to protoc before
#       any other system directory, so that descriptor.proto always matches)
#   PROTOBUF_C_ITER_PROTO_INCLUDE (directory holding protobuf-c/protobuf-c.proto)
#   PROTOBUF_C_ITER_PROTOC_VERSION (what `protoc --version` says, e.g. 36.0)
#   PROTOBUF_C_ITER_PROTOC_INCLUDES (protoc's -I arguments for both: protobuf-c/
#       mapped to the protobuf-c found, then the protobuf include directory;
#       either directory may be /usr/include holding another release's copy
#       of the other's files)
# A protoc of one version with a libprotobuf of another is a configure error.
#
# What is missing stops the configuration, except in the package's
# find_package() (protobuf-c-iterConfig.cmake sets _PBCI_FINDING_PACKAGE):
# there the first problem goes to PROTOBUF_C_ITER_DEPENDENCY_ERROR and this
# file returns, so that the package is not found and a find_package without
# REQUIRED goes on.
include_guard(GLOBAL)

# Reports its arguments, concatenated as message() does; in the package's
# find_package(), returns from this file.
macro(_pbci_dependency_error)
  string(CONCAT _pbci_message ${ARGV})
  if(_PBCI_FINDING_PACKAGE)
    set(PROTOBUF_C_ITER_DEPENDENCY_ERROR "${_pbci_message}")
    return()
  endif()
  message(FATAL_ERROR "${_pbci_message}")
endmacro()

if(NOT TARGET protobuf::libprotobuf)
  find_package(Protobuf CONFIG QUIET)
  if(NOT Protobuf_FOUND)
    find_package(Protobuf MODULE)
  endif()
  if(NOT Protobuf_FOUND)
    _pbci_dependency_error("protobuf not found: install protobuf-compiler and libprotobuf-dev, or name its prefix in CMAKE_PREFIX_PATH")
  endif()
endif()
if(NOT TARGET protobuf::protoc)
  _pbci_dependency_error("protoc not found: install protobuf-compiler")
endif()

# FindProtobuf's targets (CMake's module, which a parent project may have
# used) link no abseil, which protobuf 22 (library 4.22) and newer need.
if(Protobuf_VERSION VERSION_GREATER_EQUAL 4.22 AND NOT Protobuf_CONFIG)
  _pbci_dependency_error(
    "protobuf ${Protobuf_VERSION} was found by CMake's FindProtobuf, whose "
    "targets lack the abseil libraries it needs: find it with "
    "find_package(Protobuf CONFIG) (or -DCMAKE_FIND_PACKAGE_PREFER_CONFIG=ON).")
endif()

# protoc and libprotobuf must be one release: a plugin built against one
# libprotoc reads what another protoc sends, and descriptor.proto must be the
# library's. protoc says "libprotoc 3.21.12" or "libprotoc 36.0"; the library
# is 3.21.12, or 36.0.0 (its CMake package) or 6.36.0 (its headers: the C++
# library's major version differs from protoc's since 22).
get_target_property(_pbci_protoc protobuf::protoc LOCATION)
execute_process(COMMAND "${_pbci_protoc}" --version
                OUTPUT_VARIABLE _pbci_out RESULT_VARIABLE _pbci_rc
                ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
string(REGEX MATCH "[0-9]+(\\.[0-9]+)+" PROTOBUF_C_ITER_PROTOC_VERSION "${_pbci_out}")
if(NOT _pbci_rc EQUAL 0 OR NOT PROTOBUF_C_ITER_PROTOC_VERSION)
  _pbci_dependency_error("${_pbci_protoc} --version failed: '${_pbci_out}'")
endif()
set(_pbci_lib_version "${Protobuf_VERSION}")
string(REPLACE "." "\\." _pbci_escaped "${PROTOBUF_C_ITER_PROTOC_VERSION}")
if(_pbci_lib_version AND
   NOT _pbci_lib_version MATCHES "(^|\\.)${_pbci_escaped}(\\.0)?$")
  _pbci_dependency_error(
    "protoc ${_pbci_protoc} is ${PROTOBUF_C_ITER_PROTOC_VERSION}, but the "
    "protobuf library found is ${_pbci_lib_version}: they must be one release. "
    "Point CMAKE_PREFIX_PATH at one protobuf installation (or set "
    "Protobuf_PROTOC_EXECUTABLE / Protobuf_DIR to match).")
endif()

# google/protobuf/descriptor.proto of that protoc: installed beside it
# (PREFIX/bin/protoc, PREFIX/include), else wherever the library's headers are.
get_filename_component(_pbci_prefix "${_pbci_protoc}" DIRECTORY)
get_filename_component(_pbci_prefix "${_pbci_prefix}" DIRECTORY)
get_target_property(_pbci_dirs protobuf::libprotobuf INTERFACE_INCLUDE_DIRECTORIES)
set(PROTOBUF_C_ITER_PROTOBUF_INCLUDE "")
foreach(dir "${_pbci_prefix}/include" ${_pbci_dirs} ${Protobuf_INCLUDE_DIRS})
  if(NOT PROTOBUF_C_ITER_PROTOBUF_INCLUDE AND
     EXISTS "${dir}/google/protobuf/descriptor.proto")
    get_filename_component(PROTOBUF_C_ITER_PROTOBUF_INCLUDE "${dir}" REALPATH)
  endif()
endforeach()
if(NOT PROTOBUF_C_ITER_PROTOBUF_INCLUDE)
  _pbci_dependency_error("google/protobuf/descriptor.proto not found beside "
                         "${_pbci_protoc} nor the protobuf headers: install libprotobuf-dev")
endif()
# Cache entries, so that they are also set in the directories of
# add_subdirectory users.
set(PROTOBUF_C_ITER_PROTOBUF_INCLUDE "${PROTOBUF_C_ITER_PROTOBUF_INCLUDE}"
    CACHE INTERNAL "google/protobuf/*.proto of the protoc found")
set(PROTOBUF_C_ITER_PROTOC_VERSION "${PROTOBUF_C_ITER_PROTOC_VERSION}"
    CACHE INTERNAL "protoc's version")

if(NOT TARGET protobuf-c::protobuf-c)
  find_package(protobuf-c CONFIG QUIET)
endif()
if(NOT TARGET protobuf-c::protobuf-c)
  find_package(PkgConfig QUIET)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(PROTOBUF_C QUIET IMPORTED_TARGET GLOBAL libprotobuf-c)
  endif()
  if(NOT PROTOBUF_C_FOUND)
    _pbci_dependency_error("libprotobuf-c not found (its CMake package, or pkg-config's "
                           "libprotobuf-c): install libprotobuf-c-dev and pkg-config")
  endif()
  add_library(protobuf-c::protobuf-c INTERFACE IMPORTED GLOBAL)
  target_link_libraries(protobuf-c::protobuf-c INTERFACE PkgConfig::PROTOBUF_C)
endif()
# With add_subdirectory, protobuf_c_iter_generate() runs in the parent's
# directories: the imported targets must be visible there. Targets a parent
# created are visible already, and CMake only lets the creating directory
# promote them.
foreach(t protobuf::protoc protobuf::libprotobuf protobuf::libprotoc protobuf-c::protobuf-c)
  if(NOT TARGET ${t})
    continue()
  endif()
  get_target_property(global ${t} IMPORTED_GLOBAL)
  get_target_property(created_in ${t} SOURCE_DIR)
  if(NOT global AND created_in STREQUAL CMAKE_CURRENT_SOURCE_DIR)
    set_target_properties(${t} PROPERTIES IMPORTED_GLOBAL TRUE)
  endif()
endforeach()

get_target_property(_pbci_c_dirs protobuf-c::protobuf-c INTERFACE_INCLUDE_DIRECTORIES)
if(NOT _pbci_c_dirs)
  set(_pbci_c_dirs "")
endif()
# protobuf-c 1.5's CMake package exports, with libprotobuf-c, the include
# directory of the protobuf it was built against, which libprotobuf-c (C)
# does not need. Built against another release than the one found here (as
# protobuf-c 1.5.2 must be for protobuf 34 and newer), its headers would
# shadow this one's: such directories are dropped.
set(_pbci_kept)
foreach(dir IN LISTS _pbci_c_dirs)
  if(EXISTS "${dir}/google/protobuf/message.h")
    get_filename_component(_pbci_real "${dir}" REALPATH)
    if(NOT _pbci_real STREQUAL PROTOBUF_C_ITER_PROTOBUF_INCLUDE)
      message(STATUS "protobuf-c-iter: dropping ${dir} (another protobuf's headers) "
                     "from protobuf-c::protobuf-c's include directories")
      continue()
    endif()
  endif()
  list(APPEND _pbci_kept "${dir}")
endforeach()
if(NOT _pbci_kept STREQUAL _pbci_c_dirs)
  set_target_properties(protobuf-c::protobuf-c PROPERTIES
                        INTERFACE_INCLUDE_DIRECTORIES "${_pbci_kept}")
  set(_pbci_c_dirs "${_pbci_kept}")
endif()

# protoc-c's plugin: protobuf-c >= 1.5 installs protoc-gen-c only; 1.4 also
# protoc-c. Looked for beside protobuf-c's headers first.
set(_pbci_hints)
foreach(dir ${_pbci_c_dirs} ${PROTOBUF_C_INCLUDE_DIRS})
  if(dir MATCHES "^/")
    get_filename_component(dir "${dir}/../bin" ABSOLUTE)
    list(APPEND _pbci_hints "${dir}")
  endif()
endforeach()
find_program(PROTOBUF_C_ITER_PROTOC_GEN_C NAMES protoc-gen-c protoc-c
             HINTS ${_pbci_hints}
             DOC "protoc-c's protoc plugin (package protobuf-c-compiler)")
if(NOT PROTOBUF_C_ITER_PROTOC_GEN_C)
  _pbci_dependency_error("protoc-gen-c not found: install protobuf-c-compiler")
endif()

find_path(PROTOBUF_C_ITER_PROTO_INCLUDE protobuf-c/protobuf-c.proto
          HINTS ${_pbci_c_dirs} ${PROTOBUF_C_INCLUDE_DIRS}
                ${PROTOBUF_C_ITER_PROTOBUF_INCLUDE}
          DOC "directory containing protobuf-c/protobuf-c.proto")
if(NOT PROTOBUF_C_ITER_PROTO_INCLUDE)
  _pbci_dependency_error("protobuf-c/protobuf-c.proto not found: install libprotobuf-c-dev")
endif()
set(PROTOBUF_C_ITER_PROTOC_INCLUDES
    -Iprotobuf-c=${PROTOBUF_C_ITER_PROTO_INCLUDE}/protobuf-c
    -I${PROTOBUF_C_ITER_PROTOBUF_INCLUDE}
    CACHE INTERNAL "protoc's -I arguments for protobuf and protobuf-c's protos")
