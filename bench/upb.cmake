# upb's fasttable decoder in the race (bench/README.md), built from upb's
# sources in ../shared/third_party (PROTOBUF_C_ITER_THIRD_PARTY) when they are
# there, as the datasets are: read in place, never copied into the
# repository. Without them, or without what building them takes, the bench
# races without upb and says why here.
#  - protoc-gen-upb: C++, against this build's libprotoc (3.21: the upb of
#    2022 does not build against later ones) and Debian's libabsl-dev;
#  - upb's runtime, with clang and UPB_ENABLE_FASTTABLE: fasttable's parsers
#    tail-call each other, which takes clang's musttail;
#  - tables (`--upb_out=fasttable:`) of the bench's schemas, descriptor.proto
#    and the datasets' schemas.
# Sets PBCI_BENCH_UPB (ON when built) and defines the target bench-upb.
set(PROTOBUF_C_ITER_THIRD_PARTY "${PROJECT_SOURCE_DIR}/../shared/third_party"
    CACHE PATH "Directory of third-party sources for the bench's upb (optional)")
set(PBCI_BENCH_UPB OFF)
set(_upb_tarball "${PROTOBUF_C_ITER_THIRD_PARTY}/upb-e4635f22.tar.gz")
if(NOT EXISTS "${_upb_tarball}")
  message(STATUS "upb not found at ${_upb_tarball}: the bench races without it")
  return()
endif()
if(Protobuf_VERSION VERSION_GREATER_EQUAL 22)
  message(STATUS "upb skipped: its protoc-gen-upb (2022) builds against libprotoc 3.21, "
                 "not ${Protobuf_VERSION}")
  return()
endif()
find_program(PBCI_CLANG NAMES clang clang-16 clang-15 clang-14)
if(NOT PBCI_CLANG)
  message(STATUS "upb skipped: its fasttable decoder needs clang (apt-get install clang)")
  return()
endif()
find_package(PkgConfig)
if(PkgConfig_FOUND)
  pkg_check_modules(PBCI_ABSL IMPORTED_TARGET absl_strings absl_flat_hash_map
                    absl_flat_hash_set absl_hash absl_raw_hash_set)
endif()
if(NOT PBCI_ABSL_FOUND)
  message(STATUS "upb skipped: protoc-gen-upb needs abseil (apt-get install libabsl-dev)")
  return()
endif()

# The sources, unpacked into the build tree once.
set(_upb_root "${CMAKE_CURRENT_BINARY_DIR}/upb-src")
set(_upb "${_upb_root}/upb-e4635f22")
if(NOT EXISTS "${_upb}/upb/decode_fast.c")
  file(ARCHIVE_EXTRACT INPUT "${_upb_tarball}" DESTINATION "${_upb_root}")
endif()
set(_upb_runtime arena decode decode_fast encode extension_registry mini_table msg status
                 table upb)
set(_upb_runtime_c)
foreach(name IN LISTS _upb_runtime)
  list(APPEND _upb_runtime_c "${_upb}/upb/${name}.c")
endforeach()
list(APPEND _upb_runtime_c "${_upb}/third_party/utf8_range/naive.c")

add_executable(protoc-gen-upb ${_upb}/upbc/protoc-gen-upb.cc ${_upb}/upbc/common.cc
                              ${_upb_runtime_c})
target_include_directories(protoc-gen-upb PRIVATE ${_upb} ${_upb}/third_party/utf8_range)
target_link_libraries(protoc-gen-upb PRIVATE protobuf::libprotoc protobuf::libprotobuf
                                             PkgConfig::PBCI_ABSL)
# Fasttable's tables initialize a flexible array member: a GNU extension.
set_target_properties(protoc-gen-upb PROPERTIES C_EXTENSIONS ON)

# The runtime with clang, whatever compiles the rest.
set(_upb_objects)
foreach(src IN LISTS _upb_runtime_c)
  get_filename_component(name "${src}" NAME_WE)
  set(obj "${CMAKE_CURRENT_BINARY_DIR}/upb-obj/${name}.o")
  add_custom_command(OUTPUT "${obj}"
    COMMAND ${CMAKE_COMMAND} -E make_directory "${CMAKE_CURRENT_BINARY_DIR}/upb-obj"
    COMMAND ${PBCI_CLANG} -O2 -DNDEBUG -std=gnu99 -DUPB_ENABLE_FASTTABLE -fPIC
            -I${_upb} -I${_upb}/third_party/utf8_range -c "${src}" -o "${obj}"
    DEPENDS "${src}" COMMENT "upb runtime (clang, fasttable): ${name}.c" VERBATIM)
  list(APPEND _upb_objects "${obj}")
endforeach()

# Tables: (root, protos) pairs, like the datasets' sets.
set(_upb_out "${CMAKE_CURRENT_BINARY_DIR}/upb-gen")
set(_upb_sets "${CMAKE_CURRENT_SOURCE_DIR}/protos|rows.proto rtb.proto shapes.proto"
              "${PROTOBUF_C_ITER_PROTOBUF_INCLUDE}|google/protobuf/descriptor.proto")
if(PBCI_DATASETS)
  list(APPEND _upb_sets "${PBCI_DATASETS}/seed/proto|test.proto ssrtb_v6.proto"
       "${PBCI_DATASETS}/google_message1/proto2|benchmark_message1_proto2.proto"
       "${PBCI_DATASETS}/google_message1/proto3|benchmark_message1_proto3.proto")
endif()
set(_upb_tables)
foreach(set IN LISTS _upb_sets)
  string(REPLACE "|" ";" parts "${set}")
  list(GET parts 0 root)
  list(GET parts 1 names)
  separate_arguments(names)
  set(outputs)
  set(inputs)
  foreach(name IN LISTS names)
    string(REGEX REPLACE "\\.proto$" "" stem "${name}")
    list(APPEND outputs "${_upb_out}/${stem}.upb.c" "${_upb_out}/${stem}.upb.h")
    list(APPEND _upb_tables "${_upb_out}/${stem}.upb.c")
    list(APPEND inputs "${root}/${name}")
  endforeach()
  add_custom_command(OUTPUT ${outputs}
    COMMAND ${CMAKE_COMMAND} -E make_directory "${_upb_out}"
    COMMAND protobuf::protoc --plugin=protoc-gen-upb=$<TARGET_FILE:protoc-gen-upb>
            --upb_out=fasttable:${_upb_out} -I${root} ${names}
    WORKING_DIRECTORY "${root}"
    DEPENDS protoc-gen-upb ${inputs} COMMENT "upb fasttable tables: ${names}" VERBATIM)
endforeach()

add_library(bench-upb STATIC upb_shim.c ${_upb_tables} ${_upb_objects})
target_include_directories(bench-upb PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}
                                     PRIVATE ${_upb} ${_upb_out})
set_target_properties(bench-upb PROPERTIES C_EXTENSIONS ON)
if(PBCI_DATASETS)
  target_compile_definitions(bench-upb PRIVATE PBCI_BENCH_HAVE_DATASETS)
endif()
set(PBCI_BENCH_UPB ON)
set(PBCI_BENCH_UPB_BUILD "upb e4635f22 with fasttable: runtime by ${PBCI_CLANG} -O2 -DUPB_ENABLE_FASTTABLE")
message(STATUS "upb ${_upb_tarball}: racing its fasttable decoder (clang ${PBCI_CLANG})")
