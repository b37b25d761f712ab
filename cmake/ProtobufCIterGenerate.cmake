# protobuf_c_iter_generate(TARGET t PROTOS a.proto ...
#                          [PROTO_ROOT dir] [IMPORT_DIRS dir ...] [OUT_DIR dir]
#                          [OPTIONS opt ...] [NO_PROTOBUF_C])
#
# Runs protoc once per proto, writing protoc-c's dir/a.pb-c.{c,h} and
# protoc-gen-iter's dir/a.pb-iter.{c,h} into OUT_DIR (default:
# ${CMAKE_CURRENT_BINARY_DIR}/protobuf-c-iter), with dir/a the proto's path
# relative to PROTO_ROOT (default: ${CMAKE_CURRENT_SOURCE_DIR}). Relative
# paths in PROTOS, PROTO_ROOT and IMPORT_DIRS are taken from
# ${CMAKE_CURRENT_SOURCE_DIR}, OUT_DIR's from ${CMAKE_CURRENT_BINARY_DIR}. The
# project must enable C (the generated code is C). Regenerates
# when the proto, anything it imports (protoc's --dependency_out) or the
# plugin changes. Adds the sources and OUT_DIR to `t`, and links the runtime
# and protobuf-c. OPTIONS are passed to protoc as they are. NO_PROTOBUF_C
# skips protoc-c's files, for protos whose .pb-c files another target owns.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/ProtobufCIterDependencies.cmake)
# Global: with add_subdirectory, the function runs in the parent's directories.
set_property(GLOBAL PROPERTY PROTOBUF_C_ITER_DEPFILE_SCRIPT
             ${CMAKE_CURRENT_LIST_DIR}/ProtobufCIterDepfile.cmake)

# Stops with `message` about protobuf_c_iter_generate()'s arguments.
function(_pbci_argument_error message)
  message(FATAL_ERROR "protobuf_c_iter_generate: ${message}")
endfunction()

# A value that names no file of its kind is most often a misspelled keyword
# (`PROTO_PATH` read as one more of PROTOS): each list is checked here rather
# than left to protoc, which would report it at build time, if at all.
function(_pbci_check_arguments)
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "C" IN_LIST languages)
    _pbci_argument_error("the generated code is C: enable it (project(x C CXX) or enable_language(C))")
  endif()
  if(NOT IS_DIRECTORY "${root}")
    _pbci_argument_error("PROTO_ROOT ${root} is not a directory")
  endif()
  foreach(proto IN LISTS ARG_PROTOS)
    get_filename_component(abs "${proto}" ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    if(NOT proto MATCHES "\\.proto$")
      _pbci_argument_error("PROTOS takes .proto files: '${proto}' is not one (a misspelled keyword?)")
    elseif(IS_DIRECTORY "${abs}")
      _pbci_argument_error("PROTOS takes .proto files: ${abs} is a directory")
    elseif(NOT EXISTS "${abs}")
      _pbci_argument_error("${abs} does not exist (PROTOS are relative to ${CMAKE_CURRENT_SOURCE_DIR})")
    endif()
  endforeach()
  foreach(dir IN LISTS ARG_IMPORT_DIRS)
    get_filename_component(abs "${dir}" ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    if(NOT IS_DIRECTORY "${abs}")
      _pbci_argument_error("IMPORT_DIRS: ${abs} is not a directory")
    endif()
  endforeach()
  foreach(option IN LISTS ARG_OPTIONS)
    if(NOT option MATCHES "^-")
      _pbci_argument_error("OPTIONS takes protoc's options (-x, --y): '${option}' is not one (a misspelled keyword?)")
    endif()
  endforeach()
endfunction()

function(protobuf_c_iter_generate)
  cmake_parse_arguments(ARG "NO_PROTOBUF_C" "TARGET;PROTO_ROOT;OUT_DIR"
                        "PROTOS;IMPORT_DIRS;OPTIONS" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    _pbci_argument_error("unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_TARGET OR NOT TARGET ${ARG_TARGET})
    _pbci_argument_error("TARGET must name an existing target (got '${ARG_TARGET}')")
  endif()
  if(NOT ARG_PROTOS)
    _pbci_argument_error("no PROTOS given")
  endif()
  if(NOT ARG_PROTO_ROOT)
    set(ARG_PROTO_ROOT ${CMAKE_CURRENT_SOURCE_DIR})
  endif()
  get_filename_component(root "${ARG_PROTO_ROOT}" ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
  _pbci_check_arguments()
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

  get_property(depfile_script GLOBAL PROPERTY PROTOBUF_C_ITER_DEPFILE_SCRIPT)
  set(c_out)
  if(NOT ARG_NO_PROTOBUF_C)
    set(c_out --plugin=protoc-gen-c=${PROTOBUF_C_ITER_PROTOC_GEN_C} --c_out=${out})
  endif()

  foreach(proto IN LISTS ARG_PROTOS)
    get_filename_component(abs "${proto}" ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    file(RELATIVE_PATH rel "${root}" "${abs}")
    if(rel MATCHES "^\\.\\./" OR IS_ABSOLUTE "${rel}")
      _pbci_argument_error("${abs} is outside PROTO_ROOT ${root}")
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
      COMMAND ${CMAKE_COMMAND} -DDEPFILE=${out}/${base}.pb-iter.d
              -DOUTPUT=${out}/${base}.pb-iter.c -P ${depfile_script}
      DEPENDS ${abs} ${plugin_depends}
      DEPFILE ${out}/${base}.pb-iter.d
      COMMENT "protoc-gen-iter: ${rel}"
      VERBATIM)
    target_sources(${ARG_TARGET} PRIVATE ${outputs})
  endforeach()
  target_include_directories(${ARG_TARGET} PUBLIC $<BUILD_INTERFACE:${out}>)
  target_link_libraries(${ARG_TARGET} PUBLIC protobuf-c-iter::runtime protobuf-c::protobuf-c)
endfunction()
