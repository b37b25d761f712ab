# Regression: a parent project that calls find_package(Protobuf) before
# add_subdirectory(protobuf-c-iter) failed to configure, because our
# dependency module tried to make the parent's protobuf targets global (only
# the creating directory may). Configures such a parent and builds a decoder.
execute_process(COMMAND ${CMAKE_COMMAND} -E rm -rf ${WORK})
file(MAKE_DIRECTORY ${WORK}/src)
file(WRITE ${WORK}/src/m.proto "syntax = \"proto3\";\nmessage M { int32 a = 1; }\n")
file(WRITE ${WORK}/src/main.c "#include \"m.pb-iter.h\"
int main(void) {
  const uint8_t in[] = {0x08, 0x05};
  PROTOBUF_C_ITER_BUFFER(buf, 128);
  return m__iter_unpack(in, sizeof in, buf.bytes, sizeof buf.bytes) > 0 &&
                 ((M *)buf.bytes)->a == 5 ? 0 : 1;
}
")
file(WRITE ${WORK}/src/CMakeLists.txt "
cmake_minimum_required(VERSION 3.21)
project(parent C CXX)
find_package(Protobuf CONFIG QUIET)
if(NOT Protobuf_FOUND)
  find_package(Protobuf REQUIRED)
endif()
add_subdirectory(${PROJECT_COPY} pbci EXCLUDE_FROM_ALL)
add_executable(app main.c)
protobuf_c_iter_generate(TARGET app PROTOS m.proto)
")
foreach(step "${CMAKE_COMMAND};-S;${WORK}/src;-B;${WORK}/build"
             "${CMAKE_COMMAND};--build;${WORK}/build;-j;2"
             "${WORK}/build/app")
  execute_process(COMMAND ${step} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed: ${step}\n${out}\n${err}")
  endif()
endforeach()
