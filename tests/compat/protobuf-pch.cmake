# Precompiled headers for protobuf's C++ libraries, injected into its build
# by tests/compat/run.sh (CMAKE_PROJECT_INCLUDE, read right after protobuf's
# project()). Compiled with clang at -O0, most of each file's time goes into
# parsing the same abseil and protobuf headers: precompiling them once per
# library took protobuf 33.6's build from 6:00 to 1:55 here (docs/testing.md).
# Only which headers come first changes; every source still includes what it
# includes, so the libraries are the same code.
cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _pbci_protobuf_pch)

# Runs once protobuf's top-level CMakeLists.txt has defined its targets.
function(_pbci_protobuf_pch)
  # The headers most of protobuf's sources include, in both 33.6 and 36.0.
  set(std <algorithm> <atomic> <cstddef> <cstdint> <cstring> <functional>
      <limits> <map> <memory> <optional> <ostream> <string> <type_traits>
      <utility> <vector>)
  set(absl <absl/container/flat_hash_map.h> <absl/container/flat_hash_set.h>
      <absl/log/absl_check.h> <absl/log/absl_log.h> <absl/status/statusor.h>
      <absl/strings/cord.h> <absl/strings/str_cat.h>
      <absl/strings/str_format.h> <absl/strings/string_view.h>
      <absl/synchronization/mutex.h> <absl/types/span.h>)
  # libprotobuf-lite must not see the full runtime's headers.
  set(full <google/protobuf/descriptor.h> <google/protobuf/descriptor.pb.h>
      <google/protobuf/generated_message_reflection.h>
      <google/protobuf/io/coded_stream.h> <google/protobuf/io/printer.h>
      <google/protobuf/message.h> <google/protobuf/wire_format_lite.h>)
  # C++ sources only: the upb generators compile C files too. (Inside a
  # generator expression the closing ">" of <header> is $<ANGLE-R>.)
  set(lite)
  set(all)
  foreach(header IN LISTS std absl full)
    string(REPLACE ">" "$<ANGLE-R>" header "${header}")
    set(header "$<$<COMPILE_LANGUAGE:CXX>:${header}>")
    if(NOT header MATCHES "google/protobuf")
      list(APPEND lite "${header}")
    endif()
    list(APPEND all "${header}")
  endforeach()
  if(TARGET libprotobuf-lite)
    target_precompile_headers(libprotobuf-lite PRIVATE ${lite})
  endif()
  # The upb generators compile plugin.cc and the like once more each.
  foreach(target IN ITEMS libprotobuf libprotoc protoc-gen-upb
                          protoc-gen-upbdefs protoc-gen-upb_minitable)
    if(TARGET ${target})
      target_precompile_headers(${target} PRIVATE ${all})
    endif()
  endforeach()
endfunction()
