# protobuf_c_iter_generate() must stop with a clear error for a missing
# proto and for a proto outside PROTO_ROOT.
foreach(case missing outside)
  set(dir ${WORK}/${case})
  execute_process(COMMAND ${CMAKE_COMMAND} -E rm -rf ${dir})
  file(MAKE_DIRECTORY ${dir}/root ${dir}/elsewhere)
  file(WRITE ${dir}/elsewhere/x.proto "syntax = \"proto3\";\nmessage X {}\n")
  if(case STREQUAL "missing")
    set(protos root/nope.proto)
    set(expect "nope.proto does not exist")
  else()
    set(protos elsewhere/x.proto)
    set(expect "is outside PROTO_ROOT")
  endif()
  file(WRITE ${dir}/CMakeLists.txt "
cmake_minimum_required(VERSION 3.21)
project(bad C)
find_package(protobuf-c-iter CONFIG REQUIRED)
add_library(bad STATIC)
protobuf_c_iter_generate(TARGET bad PROTO_ROOT root PROTOS ${protos})
")
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${dir} -B ${dir}/build
                          -DCMAKE_PREFIX_PATH=${PREFIX}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0)
    message(FATAL_ERROR "${case}: configuring succeeded")
  endif()
  string(REGEX REPLACE "[ \t\r\n]+" " " err "${err}")  # CMake wraps messages
  if(NOT err MATCHES "${expect}")
    message(FATAL_ERROR "${case}: error does not say '${expect}':\n${err}")
  endif()
endforeach()
