# Builds protobuf-c-iter from SOURCE_DIR the way a user would (Release, no
# tests, examples or bench, no sanitizers) and installs it into PREFIX.
# Release without optimisation: what is tested is the package, and the
# plugin compiled at -O3 against protobuf 30+ headers took most of the
# suite's time.
execute_process(COMMAND ${CMAKE_COMMAND} -E rm -rf ${BUILD_DIR} ${PREFIX})
foreach(step
    "${CMAKE_COMMAND};-S;${SOURCE_DIR};-B;${BUILD_DIR};-DCMAKE_BUILD_TYPE=Release;-DCMAKE_C_FLAGS_RELEASE=-DNDEBUG;-DCMAKE_CXX_FLAGS_RELEASE=-DNDEBUG;-DPROTOBUF_C_ITER_BUILD_TESTS=OFF;-DPROTOBUF_C_ITER_BUILD_EXAMPLES=OFF;-DPROTOBUF_C_ITER_BUILD_BENCH=OFF;-DCMAKE_INSTALL_PREFIX=${PREFIX}"
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
