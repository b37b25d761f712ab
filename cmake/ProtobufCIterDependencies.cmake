# Finds what building protobuf-c-iter and generated code needs:
#   protobuf::protoc, protobuf::libprotobuf, protobuf::libprotoc (FindProtobuf)
#   protobuf-c::protobuf-c     (protobuf-c's CMake config, else pkg-config)
#   PROTOBUF_C_ITER_PROTOC_GEN_C (protoc-c's plugin, protoc-gen-c)
#   PROTOBUF_C_ITER_PROTO_INCLUDE (directory holding protobuf-c/protobuf-c.proto)
#   Protobuf_INCLUDE_DIR (FindProtobuf's cache entry: google/protobuf/*.proto)
include_guard(GLOBAL)

find_package(Protobuf REQUIRED)
if(NOT TARGET protobuf::protoc)
  message(FATAL_ERROR "protoc not found: install protobuf-compiler")
endif()
# With add_subdirectory, protobuf_c_iter_generate() runs in the parent's
# directories: the imported targets must be visible there. Targets a parent
# created are visible already, and CMake only lets the creating directory
# promote them.
foreach(t protobuf::protoc protobuf::libprotobuf protobuf::libprotoc)
  if(TARGET ${t})
    get_target_property(global ${t} IMPORTED_GLOBAL)
    get_target_property(created_in ${t} SOURCE_DIR)
    if(NOT global AND created_in STREQUAL CMAKE_CURRENT_SOURCE_DIR)
      set_target_properties(${t} PROPERTIES IMPORTED_GLOBAL TRUE)
    endif()
  endif()
endforeach()

if(NOT TARGET protobuf-c::protobuf-c)
  find_package(protobuf-c CONFIG QUIET)
endif()
if(NOT TARGET protobuf-c::protobuf-c)
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(PROTOBUF_C REQUIRED IMPORTED_TARGET GLOBAL libprotobuf-c)
  add_library(protobuf-c::protobuf-c INTERFACE IMPORTED GLOBAL)
  target_link_libraries(protobuf-c::protobuf-c INTERFACE PkgConfig::PROTOBUF_C)
endif()

find_program(PROTOBUF_C_ITER_PROTOC_GEN_C NAMES protoc-gen-c protoc-c
             DOC "protoc-c's protoc plugin (package protobuf-c-compiler)")
if(NOT PROTOBUF_C_ITER_PROTOC_GEN_C)
  message(FATAL_ERROR "protoc-gen-c not found: install protobuf-c-compiler")
endif()

find_path(PROTOBUF_C_ITER_PROTO_INCLUDE protobuf-c/protobuf-c.proto
          HINTS ${PROTOBUF_C_INCLUDE_DIRS} ${Protobuf_INCLUDE_DIRS}
          DOC "directory containing protobuf-c/protobuf-c.proto")
if(NOT PROTOBUF_C_ITER_PROTO_INCLUDE)
  message(FATAL_ERROR "protobuf-c/protobuf-c.proto not found: install libprotobuf-c-dev")
endif()
