# protobuf_c_iter_generate() must stop at configure time with a clear error
# for each wrong use below.
#   -DWORK=dir -DPREFIX=installed-prefix -DCASES=name,...
# Each case: the call's arguments after TARGET bad, and what the error says.
# The files the cases name: root/ok.proto, root/dir/, elsewhere/x.proto.
set(missing_args "PROTO_ROOT root PROTOS root/nope.proto")
set(missing_expect "nope.proto does not exist")
set(outside_args "PROTO_ROOT root PROTOS elsewhere/x.proto")
set(outside_expect "is outside PROTO_ROOT")
# Regression.MisspelledKeywordTakenAsAPath: a keyword misspelled after a list
# went into the list, and protoc reported it at build time (OPTIONS: "Can
# only process one input file when using --dependency_out"), or it was an
# -I directory protoc only warned about, or the same proto path twice.
set(keyword_in_protos_args "PROTO_ROOT root PROTOS root/ok.proto PROTO_PATH root")
set(keyword_in_protos_expect "PROTOS takes .proto files: 'PROTO_PATH'")
set(keyword_in_options_args "PROTO_ROOT root PROTOS root/ok.proto OPTIONS --fatal_warnings NO_PROTOBUFC")
set(keyword_in_options_expect "OPTIONS takes protoc's options .* 'NO_PROTOBUFC'")
set(keyword_in_import_dirs_args "PROTO_ROOT root PROTOS root/ok.proto IMPORT_DIRS root NO_PROTOBUF")
set(keyword_in_import_dirs_expect "IMPORT_DIRS: .*/NO_PROTOBUF is not a directory")
set(missing_root_args "PROTO_ROOT protos PROTOS root/ok.proto")
set(missing_root_expect "PROTO_ROOT .*/protos is not a directory")
set(directory_in_protos_args "PROTO_ROOT root PROTOS root/dir.proto")
set(directory_in_protos_expect "PROTOS takes .proto files: .*/dir.proto is a directory")
set(protos_from_root_args "PROTO_ROOT root PROTOS ok.proto")
set(protos_from_root_expect "ok.proto does not exist \\(PROTOS are relative to ")
# Regression.CxxOnlyProjectGotNoDecoders: without C enabled, the generated
# .c files were left out of the target, and linking failed for want of them.
set(cxx_only_args "PROTO_ROOT root PROTOS root/ok.proto")
set(cxx_only_languages CXX)
set(cxx_only_expect "the generated code is C: enable it")

string(REPLACE "," ";" CASES "${CASES}")
foreach(case IN LISTS CASES)
  if(NOT DEFINED ${case}_expect)
    message(FATAL_ERROR "unknown case ${case}")
  endif()
  set(languages C)
  if(DEFINED ${case}_languages)
    set(languages ${${case}_languages})
  endif()
  set(dir ${WORK}/${case})
  execute_process(COMMAND ${CMAKE_COMMAND} -E rm -rf ${dir})
  file(MAKE_DIRECTORY ${dir}/root/dir.proto ${dir}/elsewhere)
  file(WRITE ${dir}/elsewhere/x.proto "syntax = \"proto3\";\nmessage X {}\n")
  file(WRITE ${dir}/root/ok.proto "syntax = \"proto3\";\nmessage Ok {}\n")
  file(WRITE ${dir}/CMakeLists.txt "
cmake_minimum_required(VERSION 3.21)
project(bad ${languages})
find_package(protobuf-c-iter CONFIG REQUIRED)
add_library(bad STATIC)
protobuf_c_iter_generate(TARGET bad ${${case}_args})
")
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${dir} -B ${dir}/build
                          -DCMAKE_PREFIX_PATH=${PREFIX}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0)
    message(FATAL_ERROR "${case}: configuring succeeded")
  endif()
  string(REGEX REPLACE "[ \t\r\n]+" " " err "${err}")  # CMake wraps messages
  if(NOT err MATCHES "${${case}_expect}")
    message(FATAL_ERROR "${case}: error does not say '${${case}_expect}':\n${err}")
  endif()
  message(STATUS "${case}: ${${case}_expect}")
endforeach()
