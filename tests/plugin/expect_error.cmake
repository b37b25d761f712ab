# Runs protoc with protoc-gen-iter alone on a proto protoc-c cannot handle and
# checks that it fails with an error naming the file and the field.
#   cmake -DPROTOC=.. -DPLUGIN=.. -DDIR=.. -DPROTO=.. -DEXPECT=regex -P expect_error.cmake
set(out ${CMAKE_CURRENT_BINARY_DIR}/expect_error_out/${PROTO})
file(REMOVE_RECURSE ${out})
file(MAKE_DIRECTORY ${out})
execute_process(
  COMMAND ${PROTOC} -I${DIR} --plugin=protoc-gen-iter=${PLUGIN} --iter_out=${out} ${DIR}/${PROTO}
  RESULT_VARIABLE rc OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
if(rc EQUAL 0)
  message(FATAL_ERROR "protoc accepted ${PROTO}")
endif()
if(NOT stderr MATCHES "${EXPECT}")
  message(FATAL_ERROR "error for ${PROTO} does not match '${EXPECT}':\n${stderr}")
endif()
file(GLOB_RECURSE written ${out}/*)
if(written)
  message(FATAL_ERROR "files were written for ${PROTO}: ${written}")
endif()
message(STATUS "${PROTO}: ${stderr}")
