# protobuf_c_iter_generate(TARGET t PROTOS a.proto ...
#                          [PROTO_ROOT dir] [IMPORT_DIRS dir ...] [OUT_DIR dir]
#                          [OPTIONS opt ...] [NO_PROTOBUF_C])
#
# Runs protoc once per proto, writing protoc-c's dir/a.pb-c.{c,h} and
# protoc-gen-iter's dir/a.pb-iter.{c,h} into OUT_DIR (default:
# ${CMAKE_CURRENT_BINARY_DIR}/protobuf-c-iter), with dir/a the proto's path
# relative to PROTO_ROOT (default: ${CMAKE_CURRENT_SOURCE_DIR}). Regenerates
# when the proto, anything it imports (protoc's --dependency_out) or the
# plugin changes. Adds the sources and OUT_DIR to `t`, and links the runtime
# and protobuf-c. OPTIONS are passed to protoc as they are. NO_PROTOBUF_C
# skips protoc-c's files, for protos whose .pb-c files another target owns.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/ProtobufCIterDependencies.cmake)

function(protobuf_c_iter_generate)
  cmake_parse_arguments(ARG "NO_PROTOBUF_C" "TARGET;PROTO_ROOT;OUT_DIR"
                        "PROTOS;IMPORT_DIRS;OPTIONS" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "protobuf_c_iter_generate: unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_TARGET OR NOT TARGET ${ARG_TARGET})
    message(FATAL_ERROR "protobuf_c_iter_generate: TARGET must name an existing target (got '${ARG_TARGET}')")
  endif()
  if(NOT ARG_PROTOS)
    message(FATAL_ERROR "protobuf_c_iter_generate: no PROTOS given")
  endif()
  if(NOT ARG_PROTO_ROOT)
    set(ARG_PROTO_ROOT ${CMAKE_CURRENT_SOURCE_DIR})
  endif()
  get_filename_component(root "${ARG_PROTO_ROOT}" ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
  if(NOT ARG_OUT_DIR)
    set(ARG_OUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/protobuf-c-iter)
  endif()
  get_filename_component(out "${ARG_OUT_DIR}" ABSOLUTE BASE_DIR ${CMAKE_CURRENT_BINARY_DIR})

  # The plugin: built in this tree (rebuilding it regenerates), or installed.
  set(plugin protobuf-c-iter::protoc-gen-iter)
  get_target_property(aliased ${plugin} ALIASED_TARGET)
  if(aliased)
    set(plugin ${aliased})
  endif()
  get_target_property(imported ${plugin} IMPORTED)
  if(imported)
    set(plugin_depends $<TARGET_FILE:${plugin}>)
  else()
    set(plugin_depends ${plugin})
  endif()

  set(includes -I${root})
  foreach(dir IN LISTS ARG_IMPORT_DIRS)
    get_filename_component(dir "${dir}" ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    list(APPEND includes -I${dir})
  endforeach()
  list(APPEND includes ${PROTOBUF_C_ITER_PROTOC_INCLUDES})
  list(REMOVE_DUPLICATES includes)

  set(c_out)
  if(NOT ARG_NO_PROTOBUF_C)
    set(c_out --plugin=protoc-gen-c=${PROTOBUF_C_ITER_PROTOC_GEN_C} --c_out=${out})
  endif()

  foreach(proto IN LISTS ARG_PROTOS)
    get_filename_component(abs "${proto}" ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    if(NOT EXISTS "${abs}")
      message(FATAL_ERROR "protobuf_c_iter_generate: ${abs} does not exist")
    endif()
    file(RELATIVE_PATH rel "${root}" "${abs}")
    if(rel MATCHES "^\\.\\./" OR IS_ABSOLUTE "${rel}")
      message(FATAL_ERROR "protobuf_c_iter_generate: ${abs} is outside PROTO_ROOT ${root}")
    endif()
    string(REGEX REPLACE "\\.proto$" "" base "${rel}")
    set(outputs ${out}/${base}.pb-iter.c ${out}/${base}.pb-iter.h)
    if(NOT ARG_NO_PROTOBUF_C)
      list(APPEND outputs ${out}/${base}.pb-c.c ${out}/${base}.pb-c.h)
    endif()
    add_custom_command(
      OUTPUT ${outputs}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${out}
      COMMAND protobuf::protoc ${includes} ${ARG_OPTIONS}
              --plugin=protoc-gen-iter=$<TARGET_FILE:${plugin}>
              ${c_out} --iter_out=${out}
              --dependency_out=${out}/${base}.pb-iter.d
              ${abs}
      DEPENDS ${abs} ${plugin_depends}
      DEPFILE ${out}/${base}.pb-iter.d
      COMMENT "protoc-gen-iter: ${rel}"
      VERBATIM)
    target_sources(${ARG_TARGET} PRIVATE ${outputs})
  endforeach()
  target_include_directories(${ARG_TARGET} PUBLIC $<BUILD_INTERFACE:${out}>)
  target_link_libraries(${ARG_TARGET} PUBLIC protobuf-c-iter::runtime protobuf-c::protobuf-c)
endfunction()
