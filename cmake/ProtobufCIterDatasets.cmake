# Internal (tests and bench): the shared benchmark inputs' schemas, when
# ../shared/datasets (or PROTOBUF_C_ITER_DATASETS) exists. Defines
#   PBCI_DATASETS       its absolute path, empty when absent
#   dataset-protos      protoc-c structs and our decoders of its schemas
#   dataset-protos-cpp  their libprotobuf classes (OBJECT library)
# The schemas are read in place, never copied into the repository.
include_guard(GLOBAL)

set(PROTOBUF_C_ITER_DATASETS "${PROJECT_SOURCE_DIR}/../shared/datasets"
    CACHE PATH "Directory of the shared benchmark inputs (optional)")
set(PBCI_DATASETS "")
if(NOT EXISTS "${PROTOBUF_C_ITER_DATASETS}/seed/proto/test.proto")
  message(STATUS "Datasets not found at ${PROTOBUF_C_ITER_DATASETS}: "
                 "dataset tests and bench rows skipped")
  return()
endif()
get_filename_component(PBCI_DATASETS "${PROTOBUF_C_ITER_DATASETS}" ABSOLUTE)

set(_pbci_dataset_sets
  "seed/proto|test.proto ssrtb_v6.proto"
  "google_message1/proto2|benchmark_message1_proto2.proto"
  "google_message1/proto3|benchmark_message1_proto3.proto")
add_library(dataset-protos STATIC)
foreach(set IN LISTS _pbci_dataset_sets)
  string(REPLACE "|" ";" parts "${set}")
  list(GET parts 0 root)
  list(GET parts 1 names)
  separate_arguments(names)
  set(protos)
  foreach(name IN LISTS names)
    list(APPEND protos ${PBCI_DATASETS}/${root}/${name})
  endforeach()
  protobuf_c_iter_generate(TARGET dataset-protos
    OUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/datasets/protobuf-c-iter
    PROTO_ROOT ${PBCI_DATASETS}/${root} PROTOS ${protos})
  pbci_add_cpp_protos(TARGET dataset-protos-cpp PROTO_ROOT ${PBCI_DATASETS}/${root}
    OUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/datasets/cpp PROTOS ${protos})
endforeach()
target_compile_options(dataset-protos PRIVATE -Wall -Wextra -Werror)
