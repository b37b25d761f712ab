# Runs protoc with protoc-gen-iter alone on a proto protoc-c cannot handle and
# checks that it fails with an error naming the file and the field; with
# PARAMETER, on any proto with that plugin parameter (--iter_out=PARAM:OUT).
#   cmake -DPROTOC=.. -DPLUGIN=.. -DDIR=.. -DPROTO=.. -DEXPECT=regex
#         [-DPARAMETER=..] [-DINCLUDES=-Ia,-Ib] -P expect_error.cmake
set(out ${CMAKE_CURRENT_BINARY_DIR}/expect_error_out/${PROTO})
file(REMOVE_RECURSE ${out})
file(MAKE_DIRECTORY ${out})
set(iter_out ${out})
if(DEFINED PARAMETER)
  set(iter_out ${PARAMETER}:${out})
endif()
string(REPLACE "," ";" includes "${INCLUDES}")
include(${CMAKE_CURRENT_LIST_DIR}/../expect_failure.cmake)
expect_failure("protoc on ${PROTO}" "${EXPECT}"
  ${PROTOC} -I${DIR} ${includes} --plugin=protoc-gen-iter=${PLUGIN} --iter_out=${iter_out} ${DIR}/${PROTO})
file(GLOB_RECURSE written ${out}/*)
if(written)
  message(FATAL_ERROR "files were written for ${PROTO}: ${written}")
endif()
message(STATUS "${PROTO}: ${output}")
