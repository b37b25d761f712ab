# Runs protoc with protoc-gen-iter alone on a proto protoc-c cannot handle and
# checks that it fails with an error naming the file and the field; with
# PARAMETER, on any proto with that plugin parameter (--iter_out=PARAM:OUT).
#   cmake -DPROTOC=.. -DPLUGIN=.. -DDIR=.. -DPROTO=.. -DEXPECT=regex
#         [-DPARAMETER=..] -P expect_error.cmake
set(out ${CMAKE_CURRENT_BINARY_DIR}/expect_error_out/${PROTO})
file(REMOVE_RECURSE ${out})
file(MAKE_DIRECTORY ${out})
set(iter_out ${out})
if(DEFINED PARAMETER)
  set(iter_out ${PARAMETER}:${out})
endif()
execute_process(
  COMMAND ${PROTOC} -I${DIR} --plugin=protoc-gen-iter=${PLUGIN} --iter_out=${iter_out} ${DIR}/${PROTO}
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
