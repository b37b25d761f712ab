# Builds protobuf-c-iter from SOURCE_DIR the way a user would (Release, no
# tests, examples or bench, no sanitizers) and installs it into PREFIX.
execute_process(COMMAND ${CMAKE_COMMAND} -E rm -rf ${BUILD_DIR} ${PREFIX})
foreach(step
    "${CMAKE_COMMAND};-S;${SOURCE_DIR};-B;${BUILD_DIR};-DCMAKE_BUILD_TYPE=Release;-DPROTOBUF_C_ITER_BUILD_TESTS=OFF;-DPROTOBUF_C_ITER_BUILD_EXAMPLES=OFF;-DPROTOBUF_C_ITER_BUILD_BENCH=OFF;-DCMAKE_INSTALL_PREFIX=${PREFIX}"
    "${CMAKE_COMMAND};--build;${BUILD_DIR};-j;2"
    "${CMAKE_COMMAND};--install;${BUILD_DIR}")
  execute_process(COMMAND ${step} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed: ${step}\n${out}\n${err}")
  endif()
endforeach()
foreach(f bin/protoc-gen-iter include/protobuf-c-iter/protobuf-c-iter.h
          lib/cmake/protobuf-c-iter/protobuf-c-iterConfig.cmake
          lib/pkgconfig/protobuf-c-iter.pc)
  if(NOT EXISTS ${PREFIX}/${f})
    message(FATAL_ERROR "install is missing ${f}")
  endif()
endforeach()
