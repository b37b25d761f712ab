# pbci_add_cpp_protos(TARGET t PROTO_ROOT dir PROTOS a.proto ... [OUT_DIR dir])
#
# Internal (tests and bench, not installed): compiles protos with
# `protoc --cpp_out` into OUT_DIR (default ${CMAKE_CURRENT_BINARY_DIR}/cpp)
# and creates OBJECT library `t` holding the libprotobuf classes, or adds to
# it. An OBJECT library, so the
# objects that register the C++ descriptors are linked into every executable
# that uses it. PROTOS are relative to PROTO_ROOT or absolute inside it.
include_guard(GLOBAL)

function(pbci_add_cpp_protos)
  cmake_parse_arguments(ARG "" "TARGET;PROTO_ROOT;OUT_DIR" "PROTOS" ${ARGN})
  set(out ${CMAKE_CURRENT_BINARY_DIR}/cpp)
  if(ARG_OUT_DIR)
    set(out ${ARG_OUT_DIR})
  endif()
  get_filename_component(root "${ARG_PROTO_ROOT}" ABSOLUTE)
  set(srcs)
  foreach(proto IN LISTS ARG_PROTOS)
    get_filename_component(abs "${proto}" ABSOLUTE BASE_DIR ${root})
    file(RELATIVE_PATH rel "${root}" "${abs}")
    string(REGEX REPLACE "\\.proto$" "" base ${rel})
    list(APPEND srcs ${out}/${base}.pb.cc)
    add_custom_command(
      OUTPUT ${out}/${base}.pb.cc ${out}/${base}.pb.h
      COMMAND ${CMAKE_COMMAND} -E make_directory ${out}
      COMMAND protobuf::protoc -I${root} ${PROTOBUF_C_ITER_PROTOC_INCLUDES}
              --cpp_out=${out} ${abs}
      DEPENDS ${abs}
      COMMENT "protoc --cpp_out ${rel}" VERBATIM)
  endforeach()
  if(TARGET ${ARG_TARGET})
    target_sources(${ARG_TARGET} PRIVATE ${srcs})
  else()
    add_library(${ARG_TARGET} OBJECT ${srcs})
    target_include_directories(${ARG_TARGET} PUBLIC ${out})
    target_link_libraries(${ARG_TARGET} PUBLIC protobuf::libprotobuf)
  endif()
endfunction()
