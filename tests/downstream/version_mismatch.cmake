# A protoc of one release with a libprotobuf of another must fail at
# configure time, naming both, instead of building a plugin that reads what
# that protoc sends with another release's descriptor.proto. A parent project
# points the protoc target it found at a stand-in that says 3.20.0, then adds
# the project.
execute_process(COMMAND ${CMAKE_COMMAND} -E rm -rf ${WORK})
file(MAKE_DIRECTORY ${WORK}/src)
file(WRITE ${WORK}/src/fake-protoc "#!/bin/sh\necho 'libprotoc 3.20.0'\n")
file(CHMOD ${WORK}/src/fake-protoc PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
file(WRITE ${WORK}/src/CMakeLists.txt "
cmake_minimum_required(VERSION 3.21)
project(parent C CXX)
find_package(Protobuf CONFIG QUIET)
if(NOT Protobuf_FOUND)
  find_package(Protobuf REQUIRED)
endif()
foreach(p IMPORTED_LOCATION IMPORTED_LOCATION_RELEASE IMPORTED_LOCATION_NOCONFIG)
  set_target_properties(protobuf::protoc PROPERTIES \${p} ${WORK}/src/fake-protoc)
endforeach()
add_subdirectory(${PROJECT_COPY} pbci EXCLUDE_FROM_ALL)
")
execute_process(COMMAND ${CMAKE_COMMAND} -S ${WORK}/src -B ${WORK}/build
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "configuring with a protoc 3.20.0 succeeded:\n${out}")
endif()
string(REGEX REPLACE "[ \n]+" " " err "${err}")  # CMake wraps its messages
if(NOT err MATCHES "fake-protoc is 3\\.20\\.0, but the protobuf library found is [0-9.]+: they must be one release")
  message(FATAL_ERROR "configure failed without naming the mismatch:\n${err}")
endif()
message(STATUS "refused as expected")
